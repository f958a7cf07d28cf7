#!/usr/bin/env node
// node-opcua's client against our server while it answers Hellos with ERR Bad_TcpServerTooBusy
// (admission control, ua/server/AdmissionConfig.h): node client_busy_server.js <endpointUrl>
// node-opcua's connection strategy backs off and tries again; prints one JSON object
// {ok, checks: {name: {ok, detail}}} with the back-offs it made and the session it got.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds } = require("node-opcua");

async function main(url) {
    const checks = {};
    const backoffs = [];
    const client = OPCUAClient.create({
        endpointMustExist: false,
        securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None,
        connectionStrategy: { initialDelay: 200, maxDelay: 1000, maxRetry: 40, randomisationFactor: 0.2 },
        requestedSessionTimeout: 30000,
    });
    client.on("backoff", (count, delay) => backoffs.push({ count, delay }));
    const started = Date.now();
    try {
        await client.connect(url);
        checks.backoff = {
            ok: backoffs.length >= 1,
            detail: `${backoffs.length} back-offs before the connection was accepted after ${Date.now() - started} ms: ` +
                backoffs.map((b) => b.delay).join(", ") + " ms",
        };
        const session = await client.createSession();
        const dv = await session.read({ nodeId: "i=2259", attributeId: AttributeIds.Value });
        checks.session = { ok: dv.statusCode.isGood() && dv.value.value === 0, detail: `ServerState ${dv.value.value}` };
        await session.close();
        await client.disconnect();
        const ok = Object.values(checks).every((c) => c.ok);
        process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
        process.exit(ok ? 0 : 1);
    } catch (err) {
        checks.connect = { ok: false, detail: String(err && err.message) + `; back-offs: ${backoffs.length}` };
        process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.message) }) + "\n");
        process.exit(1);
    }
}

main(process.argv[2]);
