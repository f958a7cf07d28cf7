#!/usr/bin/env node
// A node-opcua server for our client's interop tests: node node_server.js <port> [int32Count]
//
// SecurityPolicy None, anonymous users. Its own namespace (index 1) holds, under Objects/Bench:
//   ns=1;i=1000 .. ns=1;i=<1000+int32Count-1>  Int32, value = id (default count 20), writable
//   ns=1;s=Double                               Double 3.25, writable
//   ns=1;s=String                               String "hello", writable
//   ns=1;s=Int32Array                           Int32[] [1, 2, 3, 4, 5], writable
//   ns=1;s=Calculator                           Object (Objects/Calculator) with the Method
//   ns=1;s=Calculator.Multiply                  Multiply(Values Int32[], Factor Int32) -> (Products Int32[])
// A Session may hold 5 Browse ContinuationPoints at most.
// Prints "READY <port>" on stdout once it listens (nothing else goes to stdout: node-opcua's
// logging is sent to stderr) and stops when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, Variant, VariantArrayType, MessageSecurityMode, SecurityPolicy, nodesets } =
    require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const int32Count = Number(process.argv[3] || 20);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-server-"));
    const serverCertificateManager = new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager,
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-test-server" },
        // Few Browse ContinuationPoints per Session (node-opcua's default is no limit), so that a
        // client that does not release the ones it abandons runs out (Bad_NoContinuationPoints).
        serverCapabilities: { maxBrowseContinuationPoints: 5 },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getOwnNamespace();
    const bench = ns.addFolder(addressSpace.rootFolder.objects, { nodeId: "s=Bench", browseName: "Bench" });
    for (let id = 1000; id < 1000 + int32Count; ++id) {
        ns.addVariable({
            componentOf: bench, nodeId: `i=${id}`, browseName: `Int32_${id}`, dataType: "Int32",
            accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
            value: new Variant({ dataType: DataType.Int32, value: id }),
        });
    }
    ns.addVariable({
        componentOf: bench, nodeId: "s=Double", browseName: "Double", dataType: "Double",
        accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
        value: new Variant({ dataType: DataType.Double, value: 3.25 }),
    });
    ns.addVariable({
        componentOf: bench, nodeId: "s=String", browseName: "String", dataType: "String",
        accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
        value: new Variant({ dataType: DataType.String, value: "hello" }),
    });
    ns.addVariable({
        componentOf: bench, nodeId: "s=Int32Array", browseName: "Int32Array", dataType: "Int32", valueRank: 1,
        arrayDimensions: [0],
        accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
        value: new Variant({ dataType: DataType.Int32, arrayType: VariantArrayType.Array, value: new Int32Array([1, 2, 3, 4, 5]) }),
    });

    // ---- Methods (for our client's Call, tst_client_vs_node_server) -----------------------------
    const { StatusCodes } = require("node-opcua");
    const calculator = ns.addObject({ organizedBy: addressSpace.rootFolder.objects, nodeId: "s=Calculator", browseName: "Calculator" });
    const multiply = ns.addMethod(calculator, {
        nodeId: "s=Calculator.Multiply", browseName: "Multiply",
        inputArguments: [
            { name: "Values", dataType: DataType.Int32, valueRank: 1, arrayDimensions: [0] },
            { name: "Factor", dataType: DataType.Int32 },
        ],
        outputArguments: [{ name: "Products", dataType: DataType.Int32, valueRank: 1, arrayDimensions: [0] }],
    });
    multiply.bindMethod(async (inputArguments, _context) => {  // two parameters: node-opcua takes it as async
        const values = Array.from(inputArguments[0].value || []);
        const factor = inputArguments[1].value;
        return {
            statusCode: StatusCodes.Good,
            outputArguments: [{ dataType: DataType.Int32, arrayType: VariantArrayType.Array, value: new Int32Array(values.map((v) => v * factor)) }],
        };
    });
    // ---- end of Methods ---------------------------------------------------------------------------

    await serve(server, { tmpDir: pki });
}

runMain("node_server.js", main);
