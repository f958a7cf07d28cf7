#!/usr/bin/env node
// node-opcua's client through our server's graceful shutdown (Server::shutdown(2, "maintenance"),
// called by tst_node_shutdown once this script's three MonitoredItems exist):
//   node client_shutdown.js <endpointUrl>
// A ClientSubscription (100 ms) monitors Server_ServerStatus_State (i=2259) and
// Server_ServerStatus_SecondsTillShutdown (i=2992), then ShutdownReason (i=2993) once both showed
// Running; the script waits for State = Shutdown (4), reads ShutdownReason, tries a CreateSession on a second client during the countdown (refused
// with BadShutdown), then waits for the end: the subscription's StatusChangeNotification
// BadShutdown and the connection closed with the server's ERR (node-opcua logs its reason; the
// code, Bad_ServerHalted, is checked by tst_server_shutdown with our client). Prints one JSON
// object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const logged = [];
const log = (...a) => { const line = a.join(" "); logged.push(line); process.stderr.write(line + "\n"); };
console.log = console.info = console.warn = console.debug = console.error = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, StatusCodes, ClientSubscription,
        ClientMonitoredItem, TimestampsToReturn } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(cond, timeoutMs) {
    const end = Date.now() + timeoutMs;
    while (!cond() && Date.now() < end) await sleep(20);
    return cond();
}
const options = { endpointMustExist: false, securityMode: MessageSecurityMode.None, securityPolicy: SecurityPolicy.None,
                  connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 200 }, keepSessionAlive: false };

async function main(url) {
    const client = OPCUAClient.create(options);
    let ended = 0;  // Date.now() when the connection ended
    client.on("connection_lost", () => { ended = ended || Date.now(); });
    client.on("close", () => { ended = ended || Date.now(); });
    await client.connect(url);
    const session = await client.createSession();

    const sub = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
    const statusChanges = [];
    sub.on("status_changed", (status) => statusChanges.push(status));
    await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
    const states = [];
    const seconds = [];
    const monitor = (nodeId, into) => {
        const item = ClientMonitoredItem.create(sub, { nodeId, attributeId: AttributeIds.Value },
            { samplingInterval: 100, discardOldest: true, queueSize: 10 }, TimestampsToReturn.Both);
        item.on("changed", (dv) => into.push(dv.value.value));
        return new Promise((r) => item.once("initialized", r));
    };
    await Promise.all([monitor("i=2259", states), monitor("i=2992", seconds)]);
    await until(() => states.length > 0 && seconds.length > 0, 5000);
    check("running before", states[0] === 0 && seconds[0] === 0, `State ${JSON.stringify(states)} SecondsTillShutdown ${JSON.stringify(seconds)}`);

    // A third item, on ShutdownReason, tells the test to call shutdown(2, "maintenance").
    const reasons = [];
    await monitor("i=2993", reasons);
    const sawShutdown = await until(() => states.includes(4), 10000);
    const shutdownAt = Date.now();
    check("State = Shutdown (4)", sawShutdown, JSON.stringify(states));
    const reason = await session.read({ nodeId: "i=2993", attributeId: AttributeIds.Value });
    check("ShutdownReason", reason.statusCode === StatusCodes.Good && reason.value.value && reason.value.value.text === "maintenance",
          `${reason.statusCode.toString()} ${JSON.stringify(reason.value.value)}`);

    // A new Session during the countdown is refused.
    const late = OPCUAClient.create(options);
    let refusal = "created";
    try {
        await late.connect(url);
        const s = await late.createSession();
        await s.close();
    } catch (e) {
        refusal = String(e && e.message || e);
    }
    await late.disconnect().catch(() => {});
    check("CreateSession during the countdown: BadShutdown", /BadShutdown/.test(refusal), refusal);

    // The end: StatusChangeNotification, then the connection closed by the server.
    await until(() => ended !== 0, 10000);
    check("connection closed by the server after the countdown", ended !== 0 && ended - shutdownAt >= 800 && ended - shutdownAt < 5000,
          ended ? `${ended - shutdownAt} ms after State = 4 was seen` : "still open");
    check("StatusChangeNotification BadShutdown", statusChanges.length === 1 && statusChanges[0].value === StatusCodes.BadShutdown.value,
          statusChanges.map((s) => s.toString()).join(","));
    let falling = seconds.length >= 3;
    for (let i = 2; i < seconds.length; ++i) if (seconds[i] > seconds[i - 1]) falling = false;
    check("SecondsTillShutdown counts down", falling && seconds.includes(2) && seconds.includes(1), JSON.stringify(seconds));
    check("ShutdownReason monitored", reasons.some((r) => r && r.text === "maintenance"), JSON.stringify(reasons));
    const err = logged.find((l) => l.includes("the server has shut down: maintenance"));
    check("ERR with the reason reached the transport", !!err, err || "not logged");
    await client.disconnect().catch(() => {});
}

const url = process.argv[2];
main(url).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e) }) + "\n");
    process.exit(1);
});
