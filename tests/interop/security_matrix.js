#!/usr/bin/env node
// node-opcua's client against our server over secured channels:
//   node security_matrix.js <endpointUrl> <config.json>
// config: { clientCertificate, clientKey, pkiRoot,            // the client's application identity
//           cases: [{ policy: "Basic256Sha256", mode: "Sign"|"SignAndEncrypt"|"None",
//                     user: { type: "anonymous" } | { type: "username", userName, password }
//                           | { type: "x509", certificate, key } }],
//           readNode, writeNode }                              // NodeIds as text
// Each case: connect, createSession with the user, browse the RootFolder, read readNode, write an
// Int32 to writeNode, read it back, close. Prints one JSON object: { results: [{ policy, mode, user,
// steps: [...], ok, error, writeStatus, value }] }; a case's failure does not stop the others.
"use strict";
const fs = require("fs");
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const {
    OPCUAClient, MessageSecurityMode, SecurityPolicy, UserTokenType, AttributeIds, DataType, OPCUACertificateManager,
} = require("node-opcua");

function identity(user) {
    if (!user || user.type === "anonymous") return { type: UserTokenType.Anonymous };
    if (user.type === "username") return { type: UserTokenType.UserName, userName: user.userName, password: user.password };
    const pem = fs.readFileSync(user.certificate, "utf8");
    const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
    return { type: UserTokenType.Certificate, certificateData: der, privateKey: fs.readFileSync(user.key, "utf8") };
}

async function runCase(url, cfg, manager, c) {
    const r = { policy: c.policy, mode: c.mode, user: (c.user && c.user.type) || "anonymous", steps: [] };
    const client = OPCUAClient.create({
        endpointMustExist: false,
        securityMode: MessageSecurityMode[c.mode],
        securityPolicy: SecurityPolicy[c.policy],
        certificateFile: cfg.clientCertificate,
        privateKeyFile: cfg.clientKey,
        clientCertificateManager: manager,
        applicationUri: cfg.applicationUri,
        connectionStrategy: { maxRetry: 0 },
        requestedSessionTimeout: 30000,
    });
    let session;
    try {
        await client.connect(url);
        r.steps.push("connect");
        session = await client.createSession(identity(c.user));
        r.steps.push("session");
        const browse = await session.browse("RootFolder");
        if (!browse.statusCode.isGood() || browse.references.length < 3) throw new Error("browse: " + browse.statusCode.toString());
        r.steps.push("browse");
        const read = await session.read({ nodeId: cfg.readNode, attributeId: AttributeIds.Value });
        if (!read.statusCode.isGood()) throw new Error("read: " + read.statusCode.toString());
        r.steps.push("read");
        const value = 1000 + Math.floor(Math.random() * 100000);
        const ws = await session.write({
            nodeId: cfg.writeNode, attributeId: AttributeIds.Value, value: { value: { dataType: DataType.Int32, value } },
        });
        r.writeStatus = ws.name;
        if (ws.isGood()) {
            const back = await session.read({ nodeId: cfg.writeNode, attributeId: AttributeIds.Value });
            r.value = back.value.value;
            if (back.value.value !== value) throw new Error("read back " + back.value.value + " after writing " + value);
        }
        r.steps.push("write");
        await session.close();
        session = undefined;
        r.steps.push("close");
        r.ok = true;
    } catch (err) {
        r.ok = false;
        r.error = String(err && err.message ? err.message : err);
    }
    try { if (session) await session.close(); } catch (_) { /* gone */ }
    try { await client.disconnect(); } catch (_) { /* gone */ }
    return r;
}

async function main(url, configFile) {
    const cfg = JSON.parse(fs.readFileSync(configFile, "utf8"));
    const manager = new OPCUACertificateManager({ rootFolder: cfg.pkiRoot, automaticallyAcceptUnknownCertificate: true });
    await manager.initialize();
    const out = { results: [] };
    for (const c of cfg.cases) out.results.push(await runCase(url, cfg, manager, c));
    await manager.dispose();
    process.stdout.write(JSON.stringify(out) + "\n");
    return 0;
}

main(process.argv[2], process.argv[3]).then((rc) => process.exit(rc), (e) => { log(String(e)); process.exit(2); });
