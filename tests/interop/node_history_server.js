#!/usr/bin/env node
// A node-opcua server that historizes variables, for our client's HistoryRead against a real peer
// (tests/client/tst_client_history_vs_node.cpp; issue 30 item 4):
//   node node_history_server.js <port>
// node-opcua keeps the raw history in memory (addressSpace.installHistoricalDataNode). Two Double
// variables in a folder "History" of the namespace "urn:ua-workbench:test:history":
//   s=Live    value k at sourceTimestamp T0 + k x 100 ms, k = 0, 1, 2, ..., set every 100 ms from
//             the start (T0: the start, whole seconds; the timestamps are set, not taken from the clock)
//   s=Fixed   60 values written at start, value (7k mod 11) at sourceTimestamp F0 + k x 100 ms,
//             k = 0..59, F0 = T0 - 60 s; never changes after
// The Part 13 aggregates node-opcua computes are installed (node-opcua-aggregates: Interpolative,
// Minimum, Maximum, Average, Count). Prints "READY <port> <ns>,<T0 ms>,<F0 ms>" (ms since 1970), then
// serves until stdin closes or SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();

const fs = require("fs");
const os = require("os");
const path = require("path");
const {
    OPCUAServer, OPCUACertificateManager, DataType, MessageSecurityMode, SecurityPolicy, StatusCodes,
    addAggregateSupport, AggregateFunction,
} = require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-history-"));
    const server = new OPCUAServer({
        port,
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager: new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki }),
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-history" },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const namespace = addressSpace.registerNamespace("urn:ua-workbench:test:history");
    const folder = namespace.addFolder(addressSpace.rootFolder.objects, { browseName: "History" });
    // No initial value: installHistoricalDataNode records a variable's current value unless it is
    // still waiting for one, and the history is to hold only the values set below.
    const make = (name) => namespace.addVariable({ componentOf: folder, nodeId: `s=${name}`, browseName: name, dataType: "Double" });
    const live = make("Live");
    const fixed = make("Fixed");
    addAggregateSupport(addressSpace, [AggregateFunction.Interpolative, AggregateFunction.Minimum, AggregateFunction.Maximum,
                                       AggregateFunction.Average, AggregateFunction.Count]);
    addressSpace.installHistoricalDataNode(live, { maxOnlineValues: 100000 });
    addressSpace.installHistoricalDataNode(fixed, { maxOnlineValues: 100000 });

    const t0 = Math.floor(Date.now() / 1000) * 1000;
    const f0 = t0 - 60000;
    const set = (v, value, ms) => v.setValueFromSource({ dataType: DataType.Double, value }, StatusCodes.Good, new Date(ms));
    for (let k = 0; k < 60; ++k) set(fixed, (7 * k) % 11, f0 + k * 100);
    let k = 0;
    set(live, k, t0);
    const timer = setInterval(() => { ++k; set(live, k, t0 + k * 100); }, 100);
    await serve(server, { tmpDir: pki, extra: `${namespace.index},${t0},${f0}`, cleanup: () => clearInterval(timer) });
}

runMain("node_history_server.js", main);
