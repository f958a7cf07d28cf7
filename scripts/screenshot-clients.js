#!/usr/bin/env node
// Live load for scripts/screenshots.sh: node-opcua clients on our server until killed.
//   node scripts/screenshot-clients.js <endpointUrl> [userName password]
// Five clients with Sessions of their own (different application and Session names): each
// subscribes to the demo simulation signals (two with a second Subscription), and reads, browses
// and writes in a loop at a few requests per second, so that every page of the window has
// something to show. One logs in with the user name when given; one tries a Basic256Sha256 Sign
// channel with a certificate the server does not trust yet (it lands in the rejected list).
"use strict";
const path = require("path");
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require(require.resolve("node-opcua", { paths: [path.join(__dirname, "..", "tests", "interop")] }));
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, ClientSubscription, ClientMonitoredItem,
        TimestampsToReturn, UserTokenType, DataType } = opcua;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function runClient(url, name, opts) {
    const client = OPCUAClient.create({ endpointMustExist: false, applicationName: opts.app, clientName: name,
        securityMode: opts.mode || MessageSecurityMode.None, securityPolicy: opts.policy || SecurityPolicy.None,
        connectionStrategy: { maxRetry: 1, initialDelay: 500 } });
    await client.connect(url);
    const session = await client.createSession(opts.user ? { type: UserTokenType.UserName, userName: opts.user, password: opts.password } : undefined);
    const ns = (await session.readNamespaceArray()).indexOf("urn:ua-workbench:demo");
    const id = (s) => `ns=${ns};s=${s}`;
    for (const interval of opts.intervals) {
        const sub = ClientSubscription.create(session, { requestedPublishingInterval: interval, requestedLifetimeCount: 600,
            requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
        for (const v of ["Demo.Simulation.Sine", "Demo.Simulation.Ramp", "Demo.Simulation.Random", "Demo.Analog.Temperature"])
            ClientMonitoredItem.create(sub, { nodeId: id(v), attributeId: AttributeIds.Value },
                { samplingInterval: interval / 2, discardOldest: true, queueSize: 10 }, TimestampsToReturn.Both);
    }
    log(`${name}: connected`);
    for (let i = 0; ; ++i) {
        await session.read({ nodeId: "i=2258", attributeId: AttributeIds.Value });
        if (i % 3 === 0) await session.browse("i=85");
        if (i % 5 === 0 && !opts.user)
            await session.write({ nodeId: id("Demo.Scalars.Int32"), attributeId: AttributeIds.Value,
                                  value: { value: { dataType: DataType.Int32, value: i } } });
        await sleep(opts.periodMs);
    }
}

async function main(url, user, password) {
    // A wrong password, for the Diagnostics counters and the Log page.
    await runClient(url, "wrong-password", { app: "Mistyped Login", intervals: [], periodMs: 1000, user, password: "not-it" })
        .catch((e) => log("wrong password:", e.message));
    await runClient(url, "rejected-probe", { app: "Untrusted Probe", mode: MessageSecurityMode.Sign,
        policy: SecurityPolicy.Basic256Sha256, intervals: [], periodMs: 1000 }).catch((e) => log("probe:", e.message));
    const clients = [
        ["line-1-hmi", { app: "Line 1 HMI", intervals: [250, 1000], periodMs: 150 }],
        ["historian", { app: "Plant Historian", intervals: [500], periodMs: 300 }],
        ["engineering", { app: "Engineering Station", intervals: [1000], periodMs: 700, user, password }],
        ["mes-bridge", { app: "MES Bridge", intervals: [100, 2000], periodMs: 250 }],
        ["dashboard", { app: "Web Dashboard", intervals: [500], periodMs: 400 }],
    ];
    await Promise.all(clients.map(([name, o]) => runClient(url, name, o).catch((e) => log(`${name}:`, e.message))));
}

main(process.argv[2], process.argv[3], process.argv[4]);
