#!/usr/bin/env node
// node-opcua's client against our server: node client_to_our_server.js <endpointUrl>
// Prints one JSON object on stdout with what each step saw; exits 1 when a step fails.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, MessageSecurityMode, SecurityPolicy } = require("node-opcua");

async function main(url) {
    const out = { steps: [] };
    const client = OPCUAClient.create({
        endpointMustExist: false,
        securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None,
        connectionStrategy: { maxRetry: 0 },
        requestedSessionTimeout: 30000,
    });
    try {
        await client.connect(url);
        out.steps.push("connect");
        const endpoints = await client.getEndpoints();
        out.endpoints = endpoints.map((e) => ({
            url: e.endpointUrl,
            policy: e.securityPolicyUri,
            mode: MessageSecurityMode[e.securityMode],
            tokens: e.userIdentityTokens.map((t) => t.policyId),
        }));
        out.steps.push("getEndpoints");
        const servers = await client.findServers();
        out.servers = servers.map((s) => s.applicationUri);
        out.steps.push("findServers");
        const session = await client.createSession();
        out.sessionId = session.sessionId.toString();
        out.steps.push("createSession");
        await session.close();
        out.steps.push("closeSession");
        await client.disconnect();
        out.steps.push("disconnect");
        out.ok = true;
    } catch (err) {
        out.ok = false;
        out.error = String(err && err.message ? err.message : err);
        try { await client.disconnect(); } catch (_) { /* already gone */ }
    }
    process.stdout.write(JSON.stringify(out) + "\n");
    return out.ok ? 0 : 1;
}

main(process.argv[2]).then((rc) => process.exit(rc));
