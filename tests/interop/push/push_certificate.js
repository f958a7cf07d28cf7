#!/usr/bin/env node
// node-opcua's push certificate management client (node-opcua-server-configuration 2.157.0) renews
// our server's application instance certificate (OPC 10000-12 7.10.10 CreateSigningRequest, 7.10.5
// UpdateCertificate, 7.10.9 ApplyChanges, 7.10.8 GetCertificates), in two runs with the CA between
// them, as a certificate manager would:
//   node push/push_certificate.js <endpointUrl> <config.json> csr
//     CreateSigningRequest with a new key; prints {ok, checks, csr: base64 DER}.
//   node push/push_certificate.js <endpointUrl> <config.json> update
//     in a new Session: UpdateCertificate with the signed certificate and no key (the server's
//     pending key from the first run), ApplyChanges, GetCertificates; then a new connection whose
//     endpoints and SecureChannel carry the new certificate.
// config: {clientCertificate, clientKey, applicationUri, pkiRoot, newCertificate, caCertificate (DER
// files, update only)}. Over SignAndEncrypt (Basic256Sha256) as "admin" (SecurityAdmin). Prints one
// JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const fs = require("fs");
const crypto = require("crypto");
const { MessageSecurityMode, UserTokenType, DataType, StatusCodes, resolveNodeId } = require("node-opcua-client");
const { OPCUACertificateManager } = require("node-opcua-certificate-manager");
const { ClientPushCertificateManagement } = require("node-opcua-server-configuration");
const { check, clientOf, session, finish } = require("./push_common");

const kServerConfiguration = "ns=0;i=12637";
const kGetCertificates = "ns=0;i=32333";
const kDefaultApplicationGroup = resolveNodeId("ns=0;i=14156");
const kRsaSha256 = ClientPushCertificateManagement.rsaSha256ApplicationCertificateType;

const adminSession = (url, cfg, manager) => session(url, cfg, manager, "admin", "admin-pw");

async function csr(url, cfg, manager, out) {
    const admin = await adminSession(url, cfg, manager);
    const pm = new ClientPushCertificateManagement(admin.session);
    const short = await pm.createSigningRequest("DefaultApplicationGroup", kRsaSha256, null, true, crypto.randomBytes(8));
    check("a short nonce is refused", short.statusCode.value === StatusCodes.BadInvalidArgument.value, short.statusCode.toString());
    const r = await pm.createSigningRequest("DefaultApplicationGroup", kRsaSha256, "CN=Renewed by node-opcua, O=Interop, DC=127.0.0.1",
                                            true, crypto.randomBytes(32));
    check("CreateSigningRequest", r.statusCode.isGood() && r.certificateSigningRequest && r.certificateSigningRequest.length > 200,
          `${r.statusCode.toString()}, ${(r.certificateSigningRequest || []).length} bytes`);
    if (r.certificateSigningRequest) out.csr = Buffer.from(r.certificateSigningRequest).toString("base64");
    await admin.session.close();
    await admin.client.disconnect();
}

async function update(url, cfg, manager) {
    const cert = fs.readFileSync(cfg.newCertificate);
    const ca = fs.readFileSync(cfg.caCertificate);
    const admin = await adminSession(url, cfg, manager);
    const pm = new ClientPushCertificateManagement(admin.session);
    const before = await admin.session.call({ objectId: kServerConfiguration, methodId: kGetCertificates,
        inputArguments: [{ dataType: DataType.NodeId, value: kDefaultApplicationGroup }] });
    const oldCert = before.statusCode.isGood() ? Buffer.from(before.outputArguments[1].value[0]) : Buffer.alloc(0);
    check("GetCertificates before", before.statusCode.isGood() && oldCert.length > 0 && Buffer.compare(oldCert, cert) !== 0,
          before.statusCode.toString());
    const u = await pm.updateCertificate("DefaultApplicationGroup", kRsaSha256, cert, [ca]);
    check("UpdateCertificate with the pending key", u.statusCode.isGood() && u.applyChangesRequired === true,
          `${u.statusCode.toString()} applyChangesRequired ${u.applyChangesRequired}`);
    const garbage = await pm.updateCertificate("DefaultApplicationGroup", kRsaSha256, Buffer.from("not a certificate"), []);
    check("UpdateCertificate of garbage", garbage.statusCode.value === StatusCodes.BadCertificateInvalid.value, garbage.statusCode.toString());
    const applied = await pm.applyChanges();
    check("ApplyChanges", applied.isGood(), applied.toString());
    const after = await admin.session.call({ objectId: kServerConfiguration, methodId: kGetCertificates,
        inputArguments: [{ dataType: DataType.NodeId, value: kDefaultApplicationGroup }] });
    const types = after.statusCode.isGood() ? after.outputArguments[0].value.map(String) : [];
    const now = after.statusCode.isGood() ? Buffer.from(after.outputArguments[1].value[0]) : Buffer.alloc(0);
    check("GetCertificates after", after.statusCode.isGood() && types.length === 1 && types[0] === "ns=0;i=12560"
          && Buffer.compare(now, cert) === 0, `${after.statusCode.toString()} ${types.join(",")}`);
    // The server closes the channels that used the old certificate once the response has gone.
    await new Promise((r) => setTimeout(r, 1500));
    await admin.client.disconnect().catch(() => {});

    // A new client: GetEndpoints and the SecureChannel carry the new certificate.
    const fresh = clientOf(cfg, manager);
    await fresh.connect(url);
    const endpoints = await fresh.getEndpoints();
    const secure = endpoints.filter((e) => e.securityMode !== MessageSecurityMode.None);
    check("GetEndpoints offers the new certificate", secure.length > 0
          && secure.every((e) => Buffer.compare(Buffer.from(e.serverCertificate), cert) === 0), `${secure.length} secure endpoints`);
    const s = await fresh.createSession({ type: UserTokenType.UserName, userName: "admin", password: "admin-pw" });
    const state = await s.read({ nodeId: "ns=0;i=2259", attributeId: 13 });
    check("a Session over the new certificate", state.statusCode.isGood(), `${state.statusCode.toString()} state ${state.value.value}`);
    await s.close();
    await fresh.disconnect();
}

async function main(url, configFile, mode) {
    const cfg = JSON.parse(fs.readFileSync(configFile, "utf8"));
    const manager = new OPCUACertificateManager({ rootFolder: cfg.pkiRoot, automaticallyAcceptUnknownCertificate: true });
    await manager.initialize();
    const out = {};
    if (mode === "csr") await csr(url, cfg, manager, out);
    else if (mode === "update") await update(url, cfg, manager);
    else throw new Error(`unknown mode ${mode}`);
    await manager.dispose();
    return out;
}

finish(main(process.argv[2], process.argv[3], process.argv[4]));
