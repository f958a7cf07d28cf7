#!/usr/bin/env node
// node-opcua's client opening Sessions on our server while the server app's models watch:
//   node sessions_client.js <endpointUrl> '<options JSON>'
// options: sessions (default 1), prefix (session names, default "node-"), user + password (a
// UserNameIdentityToken; default anonymous), mode + policy (default "None"; e.g. "Sign",
// "Basic256Sha256").
// Opens the Sessions on one SecureChannel (named <prefix>1, <prefix>2, ...; application name
// "ModelsTestClient"); each reads the ServerStatus 3 times; the first one subscribes to
// Server_ServerStatus_CurrentTime (100 ms). Then prints one line {"ready":true,"sessionIds":[...]}
// and waits for a line "close" on stdin; closes the Sessions and the channel, prints
// {"closed":true,...} and exits (1 on any failure, after printing {"error": ...}).
"use strict";
const path = require("path");
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require(require.resolve("node-opcua", { paths: [path.join(__dirname, "..", "interop")] }));
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, ClientSubscription, ClientMonitoredItem,
        TimestampsToReturn, UserTokenType } = opcua;

const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");

async function main(url, o) {
    const count = o.sessions || 1;
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode[o.mode || "None"],
        securityPolicy: SecurityPolicy[o.policy || "None"], connectionStrategy: { maxRetry: 0 },
        clientName: o.prefix || "node-", applicationName: "ModelsTestClient" });
    await client.connect(url);
    const identity = o.user ? { type: UserTokenType.UserName, userName: o.user, password: o.password } : undefined;
    const sessions = [];
    for (let i = 0; i < count; ++i) sessions.push(await client.createSession(identity));
    for (const s of sessions)
        for (let k = 0; k < 3; ++k) await s.read({ nodeId: "i=2256", attributeId: AttributeIds.Value });
    const sub = ClientSubscription.create(sessions[0], { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
    await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
    const item = ClientMonitoredItem.create(sub, { nodeId: "i=2258", attributeId: AttributeIds.Value },
        { samplingInterval: 100, discardOldest: true, queueSize: 1 }, TimestampsToReturn.Both);
    await new Promise((r) => item.once("initialized", r));
    print({ ready: true, sessionIds: sessions.map((s) => s.sessionId.toString()), subscriptionId: sub.subscriptionId });

    const rl = require("readline").createInterface({ input: process.stdin });
    await new Promise((resolve) => rl.on("line", (l) => { if (l.trim() === "close") resolve(); }));
    rl.close();
    await sub.terminate();
    for (const s of sessions) await s.close();
    await client.disconnect();
    print({ closed: true, sessions: sessions.length });
}

main(process.argv[2], JSON.parse(process.argv[3] || "{}"))
    .then(() => process.exit(0))
    .catch((e) => { print({ error: String(e && e.stack || e) }); process.exit(1); });
