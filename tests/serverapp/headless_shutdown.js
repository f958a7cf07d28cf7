#!/usr/bin/env node
// node-opcua's client watching our headless server shut down (tst_headless_shutdown):
//   node headless_shutdown.js <endpointUrl> <shutdownDelaySeconds>   (working directory tests/interop)
// Monitors Server_ServerStatus_State (i=2259), SecondsTillShutdown (i=2992) and ShutdownReason
// (i=2993) in a 100 ms Subscription, writes "SUBSCRIBED" on stderr once the items report, then
// waits (at most 30 s) for the server to end the connection. Prints one JSON object
// {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require(require.resolve("node-opcua", { paths: [process.cwd()] }));
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, ClientSubscription, ClientMonitoredItem,
        TimestampsToReturn } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

async function main(url, delay) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 200 } });
    const ended = new Promise((resolve) => {
        client.on("connection_lost", () => resolve("connection_lost"));
        client.on("close", () => resolve("close"));
    });
    await client.connect(url);
    const session = await client.createSession();
    const sub = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
    const seen = { state: [], seconds: [], reason: [] };
    let subscriptionStatus = "";
    sub.on("status_changed", (status) => { subscriptionStatus = status.toString(); });
    sub.on("terminated", () => { if (!subscriptionStatus) subscriptionStatus = "terminated"; });
    const watch = (id, list) => {
        const item = ClientMonitoredItem.create(sub, { nodeId: id, attributeId: AttributeIds.Value },
            { samplingInterval: 50, discardOldest: true, queueSize: 10 }, TimestampsToReturn.Both);
        item.on("changed", (dv) => list.push(dv.value.value && dv.value.value.text !== undefined ? dv.value.value.text : dv.value.value));
        return new Promise((r) => item.once("changed", r));
    };
    await Promise.all([watch("i=2259", seen.state), watch("i=2992", seen.seconds), watch("i=2993", seen.reason)]);
    process.stderr.write("SUBSCRIBED\n");
    const how = await Promise.race([ended, new Promise((r) => setTimeout(() => r("timeout"), 30000))]);

    check("Running first", seen.state[0] === 0, JSON.stringify(seen.state));
    check("saw Shutdown (4)", seen.state.includes(4), JSON.stringify(seen.state));
    const counting = seen.seconds.filter((s) => s > 0);
    let decreasing = counting.length >= 1 && counting[0] === delay;
    for (let i = 1; i < counting.length; ++i) if (counting[i] >= counting[i - 1]) decreasing = false;
    check("SecondsTillShutdown counted down", decreasing, JSON.stringify(seen.seconds));
    check("ShutdownReason given", seen.reason.some((r) => typeof r === "string" && r.length > 0), JSON.stringify(seen.reason));
    check("Subscription ended with Bad_Shutdown", subscriptionStatus.startsWith("BadShutdown"), subscriptionStatus);
    check("server ended the connection", how !== "timeout", `${how}; subscription: ${subscriptionStatus}`);
    try { await client.disconnect(); } catch (e) { /* the server is gone */ }
    return { seen, how, subscriptionStatus };
}

main(process.argv[2], Number(process.argv[3])).then((extra) => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks, extra }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack || err) }) + "\n");
    process.exit(1);
});
