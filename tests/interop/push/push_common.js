// What the push management scripts share (push_client.js, push_certificate.js): the check list
// they print, and a node-opcua client over Basic256Sha256 SignAndEncrypt with the test's identity.
// config: {clientCertificate, clientKey, applicationUri, ...}.
"use strict";
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, UserTokenType } = require("node-opcua-client");

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

function clientOf(cfg, manager) {
    return OPCUAClient.create({
        endpointMustExist: false,
        securityMode: MessageSecurityMode.SignAndEncrypt,
        securityPolicy: SecurityPolicy.Basic256Sha256,
        certificateFile: cfg.clientCertificate,
        privateKeyFile: cfg.clientKey,
        clientCertificateManager: manager,
        applicationUri: cfg.applicationUri,
        connectionStrategy: { maxRetry: 0 },
        requestedSessionTimeout: 30000,
    });
}

// A client connected to url and a Session of user.
async function session(url, cfg, manager, user, password) {
    const client = clientOf(cfg, manager);
    await client.connect(url);
    const s = await client.createSession({ type: UserTokenType.UserName, userName: user, password });
    return { client, session: s };
}

// Prints {ok, checks, ...extra} and exits with 0 (all good), 1 (a check failed) or 2 (an exception).
function finish(run) {
    run.then((extra) => {
        const ok = Object.values(checks).every((c) => c.ok);
        process.stdout.write(JSON.stringify({ ok, checks, ...(extra || {}) }) + "\n");
        process.exit(ok ? 0 : 1);
    }, (e) => {
        process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e) }) + "\n");
        process.exit(2);
    });
}

module.exports = { checks, check, clientOf, session, finish };
