#!/usr/bin/env node
// A node-opcua server for our client's security tests: node node_secure_server.js <port>
//
// Endpoints: Basic256Sha256, Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss, each in Sign and
// SignAndEncrypt; no SecurityPolicy None endpoint (GetEndpoints still works on a None channel).
// Users: anonymous, "user1" / "password1" (any other pair is refused), and any X509 user
// certificate (its PKI accepts unknown certificates). Client certificates are accepted as well.
// Its own namespace (index 1) holds ns=1;s=Secure.Int32 (Int32 42, writable) under Objects/Secure.
// Prints "READY <port> <pki folder>" on stdout once it listens (the server's own certificate is
// <pki folder>/own/certs/certificate.pem), nothing else (node-opcua's logging goes to stderr), and
// stops when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, Variant, MessageSecurityMode, SecurityPolicy, nodesets } =
    require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-secure-server-"));
    const serverCertificateManager = new OPCUACertificateManager({
        automaticallyAcceptUnknownCertificate: true, rootFolder: path.join(root, "pki"),
    });
    const userCertificateManager = new OPCUACertificateManager({
        automaticallyAcceptUnknownCertificate: true, rootFolder: path.join(root, "userpki"),
    });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss],
        securityModes: [MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
        allowAnonymous: true,
        serverCertificateManager,
        userCertificateManager,
        userManager: { isValidUser: (userName, password) => userName === "user1" && password === "password1" },
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-secure-test-server" },
        // The certificate names 127.0.0.1 (besides the host name) so that the client's host-name
        // check passes at 127.0.0.1 and fails at "localhost".
        alternateHostname: ["127.0.0.1"],
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getOwnNamespace();
    const folder = ns.addFolder(addressSpace.rootFolder.objects, { nodeId: "s=Secure", browseName: "Secure" });
    ns.addVariable({
        componentOf: folder, nodeId: "s=Secure.Int32", browseName: "Int32", dataType: "Int32",
        accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
        value: new Variant({ dataType: DataType.Int32, value: 42 }),
    });
    await serve(server, { tmpDir: root, extra: `${path.join(root, "pki")}` });
}

runMain("node_secure_server.js", main);
