#!/usr/bin/env node
// A node-opcua demo server for the client app's window tests and screenshots (and to try the
// window by hand): node tests/clientapp/node_demo_server.js [port] (0 or none: a free port;
// node-opcua is loaded from tests/interop/node_modules).
//
// SecurityPolicy None and Basic256Sha256 (Sign, SignAndEncrypt); anonymous users and user1/password1.
// Its own namespace (urn:ua-workbench:node-opcua-demo-server) holds, under Objects/Demo:
//   ns=1;s=Demo.Counter    Int32, +1 every 200 ms
//   ns=1;s=Demo.Sine       Double, sin(2 pi t / 10 s) * 100, every 200 ms
//   ns=1;s=Demo.Setpoint   Double 20.5, writable
//   ns=1;s=Demo.Message    String "hello", writable
//   ns=1;s=Demo.Values     Int32[] [1, 2, 3], writable
//   ns=1;s=Demo.Add        Method Add(A Double, B Double) -> (Sum Double)
// Counter and Sine keep their history (node-opcua's in-memory historian; Sine from ten minutes before
// the start), with the aggregates Interpolative, Minimum, Maximum, Average and Count;
// and every second an event of BaseEventType on the Server object (i=2253): SourceName "Demo",
// Severity 100, 200, ..., 1000, 100, ..., Message "demo event <k>".
// Prints "READY <port>" on stdout once it listens (node-opcua's logging goes to stderr) and stops
// when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("../interop/node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
// node-opcua from tests/interop/node_modules (or the working directory's).
const opcua = require(require.resolve("node-opcua", { paths: [process.cwd(), path.join(__dirname, "..", "interop")] }));
const { OPCUAServer, OPCUACertificateManager, DataType, Variant, VariantArrayType, MessageSecurityMode,
        SecurityPolicy, StatusCodes, nodesets } = opcua;

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-demo-server-"));
    const serverCertificateManager = new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
        securityModes: [MessageSecurityMode.None, MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
        allowAnonymous: true,
        userManager: { isValidUser: (user, password) => user === "user1" && password === "password1" },
        serverCertificateManager,
        // The certificate names 127.0.0.1 and localhost besides the host name, so that a client's
        // host-name check passes at the URLs a user types for a local server.
        alternateHostname: ["127.0.0.1", "localhost"],
        serverInfo: {
            applicationUri: "urn:ua-workbench:node-opcua-demo-server",
            applicationName: { text: "node-opcua demo server" },
        },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getOwnNamespace();
    const demo = ns.addObject({ organizedBy: addressSpace.rootFolder.objects, nodeId: "s=Demo", browseName: "Demo" });
    const counter = ns.addVariable({
        componentOf: demo, nodeId: "s=Demo.Counter", browseName: "Counter", dataType: "Int32",
        value: new Variant({ dataType: DataType.Int32, value: 0 }),
    });
    // No initial value: the history below starts with the back-dated values (installHistoricalDataNode
    // would record a current value first); the last of them is the value at start.
    const sine = ns.addVariable({
        componentOf: demo, nodeId: "s=Demo.Sine", browseName: "Sine", dataType: "Double",
    });
    const rw = "CurrentRead | CurrentWrite";
    ns.addVariable({
        componentOf: demo, nodeId: "s=Demo.Setpoint", browseName: "Setpoint", dataType: "Double",
        accessLevel: rw, userAccessLevel: rw, value: new Variant({ dataType: DataType.Double, value: 20.5 }),
    });
    ns.addVariable({
        componentOf: demo, nodeId: "s=Demo.Message", browseName: "Message", dataType: "String",
        accessLevel: rw, userAccessLevel: rw, value: new Variant({ dataType: DataType.String, value: "hello" }),
    });
    ns.addVariable({
        componentOf: demo, nodeId: "s=Demo.Values", browseName: "Values", dataType: "Int32", valueRank: 1,
        arrayDimensions: [0], accessLevel: rw, userAccessLevel: rw,
        value: new Variant({ dataType: DataType.Int32, arrayType: VariantArrayType.Array, value: new Int32Array([1, 2, 3]) }),
    });
    const add = ns.addMethod(demo, {
        nodeId: "s=Demo.Add", browseName: "Add",
        inputArguments: [
            { name: "A", dataType: DataType.Double, description: { text: "first addend" } },
            { name: "B", dataType: DataType.Double, description: { text: "second addend" } },
        ],
        outputArguments: [{ name: "Sum", dataType: DataType.Double, description: { text: "A + B" } }],
    });
    add.bindMethod(async (inputArguments, _context) => ({
        statusCode: StatusCodes.Good,
        outputArguments: [{ dataType: DataType.Double, value: inputArguments[0].value + inputArguments[1].value }],
    }));

    // History (the window's History tab): node-opcua's in-memory historian on Counter and Sine, and
    // the aggregates it computes; Sine's ten minutes before the start written back-dated.
    opcua.addAggregateSupport(addressSpace, [opcua.AggregateFunction.Interpolative, opcua.AggregateFunction.Minimum,
                                             opcua.AggregateFunction.Maximum, opcua.AggregateFunction.Average,
                                             opcua.AggregateFunction.Count]);
    addressSpace.installHistoricalDataNode(counter, { maxOnlineValues: 100000 });
    addressSpace.installHistoricalDataNode(sine, { maxOnlineValues: 100000 });
    const t0 = Date.now();
    const sineAt = (ms) => new Variant({ dataType: DataType.Double, value: 100 * Math.sin(2 * Math.PI * (ms - t0) / 10000) });
    for (let ms = t0 - 600000; ms <= t0; ms += 200) sine.setValueFromSource(sineAt(ms), StatusCodes.Good, new Date(ms));

    const serverObject = addressSpace.rootFolder.objects.server;
    const baseEventType = addressSpace.findEventType("BaseEventType");
    let count = 0;
    const timer = setInterval(() => {
        count += 1;
        counter.setValueFromSource(new Variant({ dataType: DataType.Int32, value: count }));
        sine.setValueFromSource(sineAt(Date.now()));
    }, 200);
    let k = 0;
    const events = setInterval(() => {
        serverObject.raiseEvent(baseEventType, {
            severity: { dataType: DataType.UInt16, value: 100 * (1 + (k % 10)) },
            message: { dataType: DataType.LocalizedText, value: { text: `demo event ${k}` } },
            sourceName: { dataType: DataType.String, value: "Demo" },
        });
        k += 1;
    }, 1000);
    await serve(server, { tmpDir: pki, cleanup: () => { clearInterval(timer); clearInterval(events); } });
}

runMain("node_demo_server.js", main);
