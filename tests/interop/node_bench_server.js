#!/usr/bin/env node
// A node-opcua server with the benchmark address space of guide/benchmarks.md, the peer of our
// server in the load tester's tests and in scripts/benchmarks.sh:
//   node node_bench_server.js <port> [variableCount] [minSamplingMs]
//
// Its own namespace (index 1) holds, under Objects/Benchmark:
//   ns=1;i=1000 .. ns=1;i=<1000+variableCount-1>  Int32, value = id (default count 1100), readable
//                                                  and writable by anonymous users
//   ns=1;s=Counter                                 Int32 counter of 10 ms steps: its value is the
//                                                  number of 10 ms periods since the start (set
//                                                  from the source on a 10 ms timer, so every step
//                                                  is a change; a late timer makes it jump, as a
//                                                  clock-driven counter does), MinimumSamplingInterval 10
// Endpoints: SecurityPolicy None, and Basic256Sha256 in Sign and SignAndEncrypt; every client
// certificate is trusted (its PKI accepts unknown certificates); anonymous login allowed.
// Limits for load tests: 1000 Sessions, 1000 connections per endpoint, 1000 Subscriptions.
// Sampling: node-opcua revises every sampling interval to at least
// MonitoredItem.minimumSamplingInterval (50 ms by default), so a 10 ms sampling request would
// sample at 50 ms; minSamplingMs (default 10) lowers that floor so the subscribe scenario's 10 ms
// sampling is served as asked (the revised interval is what the server then really does).
// Prints "READY <port>" on stdout once it listens (nothing else: node-opcua's logging goes to
// stderr) and stops when stdin closes or on SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();  // before node-opcua is loaded

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, MonitoredItem, DataType, Variant, MessageSecurityMode, SecurityPolicy, nodesets } =
    require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const variableCount = Number(process.argv[3] || 1100);
    const minSamplingMs = Number(process.argv[4] || 10);
    MonitoredItem.minimumSamplingInterval = minSamplingMs;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-bench-server-"));
    const serverCertificateManager = new OPCUACertificateManager({
        automaticallyAcceptUnknownCertificate: true, rootFolder: path.join(root, "pki"),
    });
    const server = new OPCUAServer({
        port,
        nodeset_filename: [nodesets.standard],
        securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
        securityModes: [MessageSecurityMode.None, MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
        allowAnonymous: true,
        serverCertificateManager,
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-bench-server" },
        // The certificate names 127.0.0.1 and localhost besides the host name, so that a secure
        // client passes its host-name check at either address.
        alternateHostname: ["127.0.0.1", "localhost"],
        maxConnectionsPerEndpoint: 1000,
        serverCapabilities: {
            maxSessions: 1000,
            maxSubscriptions: 1000,
            maxSubscriptionsPerSession: 10,
            minSupportedSampleRate: minSamplingMs,
        },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    const ns = addressSpace.getOwnNamespace();
    const folder = ns.addFolder(addressSpace.rootFolder.objects, { nodeId: "s=Benchmark", browseName: "Benchmark" });
    for (let id = 1000; id < 1000 + variableCount; ++id) {
        ns.addVariable({
            componentOf: folder, nodeId: `i=${id}`, browseName: `Int32_${id}`, dataType: "Int32",
            accessLevel: "CurrentRead | CurrentWrite", userAccessLevel: "CurrentRead | CurrentWrite",
            value: new Variant({ dataType: DataType.Int32, value: id }),
        });
    }
    const counter = ns.addVariable({
        componentOf: folder, nodeId: "s=Counter", browseName: "Counter", dataType: "Int32",
        minimumSamplingInterval: 10,
        value: new Variant({ dataType: DataType.Int32, value: 0 }),
    });
    const t0 = Date.now();
    let last = 0;
    const timer = setInterval(() => {
        const step = Math.floor((Date.now() - t0) / 10) % 0x7fffffff;
        if (step === last) return;
        last = step;
        counter.setValueFromSource(new Variant({ dataType: DataType.Int32, value: step }), undefined, new Date(t0 + step * 10));
    }, 10);

    await serve(server, { tmpDir: root, cleanup: () => { clearInterval(timer); } });
}

runMain("node_bench_server.js", main);
