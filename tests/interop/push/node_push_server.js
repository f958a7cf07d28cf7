#!/usr/bin/env node
// A node-opcua server (2.157.0) with push certificate management installed
// (node-opcua-server-configuration's installPushCertificateManagementOnServer; OPC 10000-12), for
// our client's "Manage server certificates" model:  node push/node_push_server.js <port>
// Endpoints: Basic256Sha256 Sign and SignAndEncrypt. Users: "admin" / "admin-pw" with the
// SecurityAdmin role, "alice" / "alice-pw" an AuthenticatedUser only. Client certificates are accepted.
// Prints "READY <port> <pki folder>" once it listens; stops when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("../node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer } = require("node-opcua-server");
const { OPCUACertificateManager } = require("node-opcua-certificate-manager");
const { MessageSecurityMode } = require("node-opcua-service-secure-channel");
const { SecurityPolicy } = require("node-opcua-secure-channel");
const { makeRoles } = require("node-opcua-address-space");
const { nodesets } = require("node-opcua-nodesets");
const { installPushCertificateManagementOnServer } = require("node-opcua-server-configuration");

const users = { admin: { password: "admin-pw", roles: "AuthenticatedUser;SecurityAdmin" },
                alice: { password: "alice-pw", roles: "AuthenticatedUser" } };

async function main() {
    const port = Number(process.argv[2] || 0);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-push-server-"));
    const serverCertificateManager = new OPCUACertificateManager({
        automaticallyAcceptUnknownCertificate: true, rootFolder: path.join(root, "pki"),
    });
    const userCertificateManager = new OPCUACertificateManager({
        automaticallyAcceptUnknownCertificate: true, rootFolder: path.join(root, "userpki"),
    });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.Basic256Sha256],
        securityModes: [MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
        allowAnonymous: false,
        serverCertificateManager,
        userCertificateManager,
        userManager: {
            isValidUser: (userName, password) => !!users[userName] && users[userName].password === password,
            getUserRoles: (userName) => makeRoles(users[userName] ? users[userName].roles : "Anonymous"),
        },
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-push-test-server" },
        alternateHostname: ["127.0.0.1"],
    });
    await server.initialize();
    await installPushCertificateManagementOnServer(server);
    await serve(server, { tmpDir: root, extra: `${path.join(root, "pki")}` });
}

runMain("node_push_server.js", main);
