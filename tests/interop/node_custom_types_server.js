#!/usr/bin/env node
// A node-opcua server with the custom DataTypes of data/custom-types.NodeSet2.xml, for our client's
// tests of custom structures (tests/client/tst_client_custom_types.cpp, and the shape changes of
// tests/clientapp/models/tst_custom_structure_vs_node.cpp; issue 29 item 3):
//   node node_custom_types_server.js <port>
// It loads the standard nodeset and the file (node-opcua builds the types from their
// DataTypeDefinitions and publishes the DataTypeDefinition attribute), then sets the variables of
// the "Custom" folder to values built by node-opcua itself (constructExtensionObject):
//   SetpointVariable     {Name "Furnace", Value 451.5, Mode Auto (5), Limits [10, 20, 30]}
//   RecipeVariable       {Title "Soup", Comment absent, Steps [{Stir, 2, Manual (1), []}], Batch 7}
//   MeasurementVariable  union: Label "full"
// Prints "READY <port> <namespace index>", then, whenever a client writes one of the three,
// "CHANGED <browse name> <value as JSON>" (node-opcua's decoding of what was written). Stops when
// stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, MessageSecurityMode, SecurityPolicy, nodesets } = require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-custom-"));
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard, path.join(__dirname, "data", "custom-types.NodeSet2.xml")],
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager: new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki }),
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-custom-types" },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getNamespaceIndex("urn:ua-workbench:test:custom-types");
    const node = (i) => addressSpace.findNode(`ns=${ns};i=${i}`);
    const make = (typeId, fields) => addressSpace.constructExtensionObject(node(typeId), fields);
    const set = (i, value) => node(i).setValueFromSource({ dataType: DataType.ExtensionObject, value });
    set(5002, make(3010, { name: "Furnace", value: 451.5, mode: 5, limits: [10, 20, 30] }));
    set(5003, make(3020, { title: "Soup", steps: [make(3010, { name: "Stir", value: 2, mode: 1, limits: [] })], batch: 7 }));
    set(5004, make(3030, { switchField: 3, label: "full" }));
    for (const i of [5002, 5003, 5004]) {
        const v = node(i);
        v.on("value_changed", (dv) => {
            const x = dv.value.value;
            process.stdout.write(`CHANGED ${v.browseName.name} ${JSON.stringify(x && x.toJSON ? x.toJSON() : x)}\n`);
        });
    }
    await serve(server, { tmpDir: pki, extra: String(ns) });
}

runMain("node_custom_types_server.js", main);
