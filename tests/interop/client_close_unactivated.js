#!/usr/bin/env node
// node-opcua's client against our server that refuses its identity (anonymous not allowed):
// node client_close_unactivated.js <endpointUrl>
// node-opcua closes a Session whose ActivateSession failed (CloseSession before activation, on the
// channel of its CreateSession: OPC 10000-4 5.7.4.1), then keeps the channel open 1.5 s and
// disconnects; prints one JSON object {ok, checks: {name: {ok, detail}}}.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, MessageSecurityMode, SecurityPolicy } = require("node-opcua");

async function main(url) {
    const checks = {};
    const client = OPCUAClient.create({
        endpointMustExist: false,
        securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None,
        connectionStrategy: { maxRetry: 0 },
        requestedSessionTimeout: 120000,
    });
    try {
        await client.connect(url);
        let error = null;
        try {
            const session = await client.createSession();  // anonymous: refused by the server
            await session.close();
        } catch (err) {
            error = err;
        }
        checks.activationRefused = { ok: error !== null, detail: error ? String(error.message).split("\n")[0] : "the Session was activated" };
        // Time for the server to take node-opcua's CloseSession while the channel stays open.
        await new Promise((r) => setTimeout(r, 1500));
        process.stdout.write(JSON.stringify({ ok: Object.values(checks).every((c) => c.ok), checks }) + "\n");
        await client.disconnect();
        process.exit(0);
    } catch (err) {
        checks.connect = { ok: false, detail: String(err && err.message) };
        process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.message) }) + "\n");
        process.exit(1);
    }
}

main(process.argv[2]);
