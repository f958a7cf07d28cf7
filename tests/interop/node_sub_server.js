#!/usr/bin/env node
// A node-opcua server for our client's subscription interop tests (tst_client_subscriptions_vs_node):
// node node_sub_server.js <port>
//
// SecurityPolicy None, anonymous users. Its own namespace (index 1):
//   ns=1;s=Counter   Int32, +1 every 100 ms from 0 (set from the source: every change is reported)
// and every 100 ms an event of BaseEventType on the Server object (i=2253) with
//   Severity = 100 * (1 + k % 10)  (100, 200, ..., 1000, 100, ...)
//   Message  = "tick <k>", SourceName = "Ticker", k = 0, 1, 2, ...
// Prints "READY <port>" on stdout once it listens (node-opcua's logging goes to stderr) and stops
// when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, Variant, MessageSecurityMode, SecurityPolicy, nodesets } = require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-sub-server-"));
    const serverCertificateManager = new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager,
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-sub-server" },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getOwnNamespace();
    const counter = ns.addVariable({
        organizedBy: addressSpace.rootFolder.objects, nodeId: "s=Counter", browseName: "Counter", dataType: "Int32",
        value: new Variant({ dataType: DataType.Int32, value: 0 }),
    });
    const serverObject = addressSpace.rootFolder.objects.server;
    const baseEventType = addressSpace.findEventType("BaseEventType");
    let value = 0;
    let k = 0;
    const timer = setInterval(() => {
        value += 1;
        counter.setValueFromSource(new Variant({ dataType: DataType.Int32, value }));
        serverObject.raiseEvent(baseEventType, {
            severity: { dataType: DataType.UInt16, value: 100 * (1 + (k % 10)) },
            message: { dataType: DataType.LocalizedText, value: { text: `tick ${k}` } },
            sourceName: { dataType: DataType.String, value: "Ticker" },
        });
        k += 1;
    }, 100);
    await serve(server, { tmpDir: pki, cleanup: () => { clearInterval(timer); } });
}

runMain("node_sub_server.js", main);
