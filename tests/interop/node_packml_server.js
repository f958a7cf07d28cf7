#!/usr/bin/env node
// A node-opcua server that loads a companion specification with structured DataTypes, PackML
// (node-opcua-nodesets' Opc.Ua.PackML.NodeSet2.xml), for our client's test of custom structures
// (tests/client/tst_client_custom_types.cpp; issue 29 item 3):
//   node node_packml_server.js <port>
// It adds one Variable "Product" (s=Product in the server's own namespace) of
// PackMLProductDataType: arrays of PackMLDescriptorDataType (each with an EUInformation of
// namespace 0) and of PackMLIngredientsDataType (each with its own array of descriptors), built
// by node-opcua (constructExtensionObject):
//   {ProductID 17, ProcessVariables [{1, "Speed", mm, 2.5}, {2, "Temp", mm, 80}],
//    Ingredients [{IngredientID 3, Parameter [{4, "Flour", mm, 0.5}]}]}
// Prints "READY <port> <own namespace index>", then, whenever a client writes it,
// "CHANGED Product <value as JSON>" (node-opcua's decoding of what was written). Stops when stdin
// closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, MessageSecurityMode, SecurityPolicy, nodesets } = require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-packml-"));
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard, nodesets.packML],
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager: new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki }),
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-packml" },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const packml = addressSpace.getNamespaceIndex("http://opcfoundation.org/UA/PackML/");
    const type = (name) => addressSpace.findDataType(name, packml);
    const mm = { namespaceUri: "http://www.opcfoundation.org/UA/units/un/cefact", unitId: 5066068, displayName: { text: "mm" }, description: { text: "millimetre" } };
    const descriptor = (id, name, value) => addressSpace.constructExtensionObject(type("PackMLDescriptorDataType"), { ID: id, name, unit: mm, value });
    const product = addressSpace.constructExtensionObject(type("PackMLProductDataType"), {
        productID: 17,
        processVariables: [descriptor(1, "Speed", 2.5), descriptor(2, "Temp", 80)],
        ingredients: [addressSpace.constructExtensionObject(type("PackMLIngredientsDataType"), { ingredientID: 3, parameter: [descriptor(4, "Flour", 0.5)] })],
    });
    const own = addressSpace.getOwnNamespace();
    const v = own.addVariable({
        organizedBy: addressSpace.rootFolder.objects,
        browseName: "Product",
        nodeId: "s=Product",
        dataType: type("PackMLProductDataType"),
        accessLevel: "CurrentRead | CurrentWrite",
        userAccessLevel: "CurrentRead | CurrentWrite",
    });
    v.setValueFromSource({ dataType: DataType.ExtensionObject, value: product });
    v.on("value_changed", (dv) => {
        const x = dv.value.value;
        process.stdout.write(`CHANGED Product ${JSON.stringify(x && x.toJSON ? x.toJSON() : x)}\n`);
    });
    await serve(server, { tmpDir: pki, extra: String(own.index) });
}

runMain("node_packml_server.js", main);
