#!/usr/bin/env node
// node-opcua's client against our server's session security and user identity tokens:
//   node session_security.js <endpointUrl> <userCertificate.der> <userKey.pem> <lockedUserAttempts>
// Users the server must know: alice/alice-pw (Operator), bob/bob-pw (no extra role), carol/carol-pw
// (locked out after <lockedUserAttempts> wrong passwords); the X509 user certificate maps to an
// Operator. Each scenario uses a fresh connection. Prints one JSON object
// {scenarios: {name: {session, read, write, userAccessLevel, error}}} and exits 0 (the C++ test judges).
"use strict";
const fs = require("fs");
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, UserTokenType, AttributeIds, DataType } = require("node-opcua");

const kVariable = "ns=1;i=1005";  // a writable Int32 of the benchmark layout

function statusName(err) {
    const text = String(err && err.message ? err.message : err);
    const m = text.match(/Bad[A-Za-z]+/);
    return m ? m[0] : text.slice(0, 200);
}

async function scenario(url, mode, policy, identity, value) {
    const r = {};
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: mode, securityPolicy: policy,
        connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 30000 });
    try {
        await client.connect(url);
        let session;
        try {
            session = await client.createSession(identity);
            r.session = "Good";
        } catch (err) {
            r.session = statusName(err);
            return r;
        }
        const read = await session.read({ nodeId: kVariable, attributeId: AttributeIds.Value });
        r.read = read.statusCode.name;
        const ual = await session.read({ nodeId: kVariable, attributeId: AttributeIds.UserAccessLevel });
        r.userAccessLevel = ual.value.value;
        const w = await session.write({ nodeId: kVariable, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.Int32, value } } });
        r.write = w.name;
        if (w.name === "Good") {
            const back = await session.read({ nodeId: kVariable, attributeId: AttributeIds.Value });
            r.readBack = back.value.value;
        }
        await session.close();
    } catch (err) {
        r.error = String(err && err.message ? err.message : err).slice(0, 300);
    } finally {
        try { await client.disconnect(); } catch (_) { /* gone */ }
    }
    return r;
}

async function main(url, certFile, keyFile, attempts) {
    const out = { scenarios: {} };
    const S = out.scenarios;
    const sae = [MessageSecurityMode.SignAndEncrypt, SecurityPolicy.Basic256Sha256];
    const user = (userName, password) => ({ type: UserTokenType.UserName, userName, password });
    S.operatorSignAndEncrypt = await scenario(url, ...sae, user("alice", "alice-pw"), 4242);
    S.anonymousSignAndEncrypt = await scenario(url, ...sae, { type: UserTokenType.Anonymous }, 17);
    S.plainUserSignAndEncrypt = await scenario(url, ...sae, user("bob", "bob-pw"), 18);
    S.operatorSign = await scenario(url, MessageSecurityMode.Sign, SecurityPolicy.Aes128_Sha256_RsaOaep, user("alice", "alice-pw"), 4343);
    S.operatorPss = await scenario(url, MessageSecurityMode.SignAndEncrypt, SecurityPolicy.Aes256_Sha256_RsaPss, user("alice", "alice-pw"), 4444);
    // On the None endpoint the password is encrypted by the UserTokenPolicy's Basic256Sha256.
    S.operatorNone = await scenario(url, MessageSecurityMode.None, SecurityPolicy.None, user("alice", "alice-pw"), 4545);
    S.x509User = await scenario(url, ...sae, { type: UserTokenType.Certificate,
        certificateData: fs.readFileSync(certFile), privateKey: fs.readFileSync(keyFile, "utf8") }, 4646);
    S.wrongPassword = await scenario(url, ...sae, user("alice", "not-her-password"), 1);
    S.unknownUser = await scenario(url, ...sae, user("mallory", "x"), 1);
    // carol: <attempts> wrong passwords lock her out; then even her right password is refused.
    S.lockout = [];
    for (let i = 0; i < attempts; ++i) S.lockout.push((await scenario(url, ...sae, user("carol", "wrong"), 1)).session);
    S.lockedOutRightPassword = await scenario(url, ...sae, user("carol", "carol-pw"), 1);
    // A client after all the bad ones is served.
    S.afterwards = await scenario(url, ...sae, user("alice", "alice-pw"), 4747);
    process.stdout.write(JSON.stringify(out) + "\n");
}

main(process.argv[2], process.argv[3], process.argv[4], Number(process.argv[5] || 3)).then(
    () => process.exit(0),
    (err) => { process.stdout.write(JSON.stringify({ error: String(err && err.stack ? err.stack : err) }) + "\n"); process.exit(1); });
