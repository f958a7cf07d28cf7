#!/usr/bin/env node
// A node-opcua server that dials our client's reverse-connect listener (OPC 10000-6 7.1.3), for
// tests/client/tst_client_reverse_vs_node.cpp:
//   node node_reverse_server.js <client listener URL> <port>
// Listens on <port> as well (a real one: node-opcua's EndpointUrl, in its ReverseHello too, names the
// configured port, "opc.tcp://<host>:0" for port 0), keeps a spare reverse connection open to the listener (node-opcua's
// ReverseConnectManager, re-dialled after 200 ms), and prints
// "READY <port> <EndpointUrl> <ApplicationUri>": the EndpointUrl and ServerUri its ReverseHello
// carries. Serves until stdin closes or SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, MessageSecurityMode, SecurityPolicy } = require("node-opcua");

async function main() {
    const listenerUrl = process.argv[2];
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-reverse-"));
    const applicationUri = "urn:ua-workbench:node-opcua-reverse";
    const server = new OPCUAServer({
        port: Number(process.argv[3]),
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager: new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki }),
        serverInfo: { applicationUri },
        reverseConnect: { connections: [{ endpointUrl: listenerUrl }], reconnectDelay: 200, maxReconnectDelay: 1000 },
    });
    await server.initialize();
    await serve(server, { tmpDir: pki, extra: `${server.getEndpointUrl()} ${applicationUri}` });
}

runMain("node_reverse_server.js", main);
