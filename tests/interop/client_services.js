#!/usr/bin/env node
// node-opcua's client exercising our server's View and Attribute services:
//   node client_services.js <endpointUrl>
// Browses the whole Server object subtree, reads ServerStatus, reads and writes every demo
// scalar and array type, TranslateBrowsePaths, BrowseNext with maxReferencesPerNode 2, and the
// benchmark layout. Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, BrowseDirection, DataType,
        StatusCodes, makeBrowsePath, resolveNodeId, NodeClassMask } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

const types = ["Boolean", "SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Float", "Double",
    "String", "DateTime", "Guid", "ByteString", "XmlElement", "NodeId", "ExpandedNodeId", "StatusCode",
    "QualifiedName", "LocalizedText", "ExtensionObject", "DataValue", "Variant", "DiagnosticInfo"];
// The value to write back per type: the same value read (a round trip through node-opcua's codec).
const notWritable = new Set(["DataValue", "DiagnosticInfo"]);  // node-opcua cannot carry these in a Variant write

async function browseAll(session, nodeId, seen, depth) {
    if (seen.has(nodeId) || depth > 8) return;
    seen.add(nodeId);
    const result = await session.browse({ nodeId, browseDirection: BrowseDirection.Forward, referenceTypeId: "HierarchicalReferences",
        includeSubtypes: true, nodeClassMask: 0, resultMask: 63 });
    if (result.statusCode !== StatusCodes.Good) throw new Error(`browse ${nodeId}: ${result.statusCode.toString()}`);
    for (const r of result.references || []) await browseAll(session, r.nodeId.toString(), seen, depth + 1);
}

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    try {
        // Namespaces.
        const ns = await session.readNamespaceArray();
        const demo = ns.indexOf("urn:ua-workbench:demo");
        check("NamespaceArray", ns[0] === "http://opcfoundation.org/UA/" && demo > 1 && ns.length >= 3, JSON.stringify(ns));

        // ServerStatus.
        const st = await session.read({ nodeId: "i=2256", attributeId: AttributeIds.Value });
        const v = st.value.value;
        check("ServerStatus", st.statusCode === StatusCodes.Good && v && v.state === 0 && v.buildInfo.softwareVersion,
              st.statusCode.toString() + " " + JSON.stringify(v && v.buildInfo));
        const state = await session.read({ nodeId: "i=2259", attributeId: AttributeIds.Value });
        check("ServerStatus.State", state.value.value === 0, state.toString());
        const t = await session.read({ nodeId: "i=2258", attributeId: AttributeIds.Value });
        check("CurrentTime", Math.abs(t.value.value.getTime() - Date.now()) < 60000, t.value.value);
        const lim = await session.read({ nodeId: "i=11705", attributeId: AttributeIds.Value });
        check("OperationLimits.MaxNodesPerRead", lim.statusCode === StatusCodes.Good && lim.value.value > 0, lim.toString());

        // The whole Server object subtree.
        const seen = new Set();
        await browseAll(session, "i=2253", seen, 0);
        check("BrowseServerSubtree", seen.size > 50, seen.size + " nodes");

        // BrowseNext with a small maxReferencesPerNode: follow the ContinuationPoints to the end.
        const full = await session.browse({ nodeId: "i=2253", browseDirection: BrowseDirection.Forward, resultMask: 63,
            referenceTypeId: "HierarchicalReferences", includeSubtypes: true });
        session.requestedMaxReferencesPerNode = 2;
        let page = await session.browse({ nodeId: "i=2253", browseDirection: BrowseDirection.Forward, resultMask: 63,
            referenceTypeId: "HierarchicalReferences", includeSubtypes: true });
        const pages = [(page.references || []).length];
        let collected = [...(page.references || [])];
        while (page.continuationPoint && page.continuationPoint.length && pages.length < 100) {
            page = await session.browseNext(page.continuationPoint, false);
            pages.push((page.references || []).length);
            collected = collected.concat(page.references || []);
        }
        session.requestedMaxReferencesPerNode = 0;
        check("BrowseNext", page.statusCode === StatusCodes.Good && pages.length > 2 && pages.every((n) => n <= 2) &&
              collected.length === (full.references || []).length, `pages ${pages.join(",")} total ${collected.length}/${(full.references || []).length}`);
        // Releasing a ContinuationPoint, then using it: Bad_ContinuationPointInvalid.
        session.requestedMaxReferencesPerNode = 2;
        const first = await session.browse({ nodeId: "i=2253", browseDirection: BrowseDirection.Forward, resultMask: 63,
            referenceTypeId: "HierarchicalReferences", includeSubtypes: true });
        session.requestedMaxReferencesPerNode = 0;
        // node-opcua's browseNext() asserts a result even on release, where OPC 10000-4 5.8.3 says the
        // results array is empty: send the release as a plain BrowseNextRequest.
        const releaseResponse = await new Promise((resolve, reject) => session.performMessageTransaction(
            new opcua.BrowseNextRequest({ releaseContinuationPoints: true, continuationPoints: [first.continuationPoint] }),
            (err, r) => (err ? reject(err) : resolve(r))));
        check("BrowseNext.ReleaseEmptyResults", releaseResponse.responseHeader.serviceResult === StatusCodes.Good &&
              (releaseResponse.results || []).length === 0, (releaseResponse.results || []).length + " results");
        const released = await session.browseNext(first.continuationPoint, false);
        check("BrowseNext.Released", released.statusCode === StatusCodes.BadContinuationPointInvalid, released.statusCode.toString());

        // TranslateBrowsePaths.
        const tr = await session.translateBrowsePath(makeBrowsePath("i=85", "/Server/ServerStatus/State"));
        check("TranslateBrowsePaths", tr.statusCode === StatusCodes.Good && tr.targets[0].targetId.toString() === "ns=0;i=2259",
              tr.statusCode.toString() + " " + (tr.targets && tr.targets[0] && tr.targets[0].targetId.toString()));
        const bad = await session.translateBrowsePath(makeBrowsePath("i=85", "/Server/NoSuchChild"));
        check("TranslateBrowsePaths.NoMatch", bad.statusCode === StatusCodes.BadNoMatch, bad.statusCode.toString());

        // Every demo scalar and array type: read, write back, read again.
        for (const kind of ["Scalars", "Arrays"]) {
            for (const type of types) {
                const nodeId = `ns=${demo};s=Demo.${kind}.${type}`;
                const r1 = await session.read({ nodeId, attributeId: AttributeIds.Value });
                if (r1.statusCode !== StatusCodes.Good) { check(`Read.${kind}.${type}`, false, r1.statusCode.toString()); continue; }
                check(`Read.${kind}.${type}`, true, r1.value.toString());
                if (notWritable.has(type)) continue;
                const w = await session.write({ nodeId, attributeId: AttributeIds.Value, value: { value: r1.value } });
                const r2 = await session.read({ nodeId, attributeId: AttributeIds.Value });
                check(`Write.${kind}.${type}`, w === StatusCodes.Good && r2.statusCode === StatusCodes.Good &&
                      r2.value.dataType === r1.value.dataType, w.toString() + " " + r2.value.toString());
            }
        }
        // A value of the wrong type is refused.
        const mismatch = await session.write({ nodeId: `ns=${demo};s=Demo.Scalars.Int32`, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.String, value: "no" } } });
        check("Write.TypeMismatch", mismatch === StatusCodes.BadTypeMismatch, mismatch.toString());
        // Write a new value and read it back.
        const w32 = await session.write({ nodeId: `ns=${demo};s=Demo.Scalars.Int32`, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.Int32, value: 4242 } } });
        const r32 = await session.read({ nodeId: `ns=${demo};s=Demo.Scalars.Int32`, attributeId: AttributeIds.Value });
        check("Write.Int32.Value", w32 === StatusCodes.Good && r32.value.value === 4242, r32.value.toString());

        // IndexRange on a String.
        const ir = await session.read({ nodeId: `ns=${demo};s=Demo.IndexRange.String`, attributeId: AttributeIds.Value, indexRange: "2:4" });
        check("Read.IndexRange", ir.statusCode === StatusCodes.Good && ir.value.value === "234", ir.toString());

        // The benchmark layout: ns=1;i=1000.. value = id.
        const bench = await session.read([1000, 1550, 2099].map((i) => ({ nodeId: `ns=1;i=${i}`, attributeId: AttributeIds.Value })));
        check("Benchmark", bench.every((d, k) => d.value.value === [1000, 1550, 2099][k]), bench.map((d) => d.value.value).join(","));

        // Analog items: AnalogItemType with EURange and EngineeringUnits properties.
        const eu = await session.translateBrowsePath(makeBrowsePath(`ns=${demo};s=Demo.Analog.Temperature`, "/0:EURange"));
        const range = eu.statusCode === StatusCodes.Good ? await session.read({ nodeId: eu.targets[0].targetId, attributeId: AttributeIds.Value }) : null;
        check("Analog.EURange", range && range.value.value && range.value.value.low === -40 && range.value.value.high === 120,
              range ? range.toString() : eu.statusCode.toString());
        const unitsPath = await session.translateBrowsePath(makeBrowsePath(`ns=${demo};s=Demo.Analog.Temperature`, "/0:EngineeringUnits"));
        const units = unitsPath.statusCode === StatusCodes.Good ? await session.read({ nodeId: unitsPath.targets[0].targetId, attributeId: AttributeIds.Value }) : null;
        check("Analog.EngineeringUnits", units && units.value.value && units.value.value.unitId === 4408652, units ? units.toString() : unitsPath.statusCode.toString());
        const typeDef = await session.browse({ nodeId: `ns=${demo};s=Demo.Analog.Temperature`, referenceTypeId: "HasTypeDefinition",
            browseDirection: BrowseDirection.Forward, resultMask: 63 });
        check("Analog.TypeDefinition", typeDef.references && typeDef.references[0] && typeDef.references[0].nodeId.toString() === "ns=0;i=2368",
              typeDef.references && typeDef.references[0] && typeDef.references[0].nodeId.toString());
        // The simulation's update rate is writable and bounded.
        const rateOk = await session.write({ nodeId: `ns=${demo};s=Demo.Simulation.UpdateRate`, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.UInt32, value: 50 } } });
        const rateBad = await session.write({ nodeId: `ns=${demo};s=Demo.Simulation.UpdateRate`, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.UInt32, value: 1 } } });
        const ramp1 = await session.read({ nodeId: `ns=${demo};s=Demo.Simulation.Ramp`, attributeId: AttributeIds.Value });
        await new Promise((r) => setTimeout(r, 120));
        const ramp2 = await session.read({ nodeId: `ns=${demo};s=Demo.Simulation.Ramp`, attributeId: AttributeIds.Value });
        check("Simulation.UpdateRate", rateOk === StatusCodes.Good && rateBad === StatusCodes.BadOutOfRange &&
              ramp2.sourceTimestamp.getTime() - ramp1.sourceTimestamp.getTime() >= 100 &&
              ramp1.sourceTimestamp.getTime() % 50 === 0, `${rateOk} ${rateBad} ${ramp1.sourceTimestamp.toISOString()} ${ramp2.sourceTimestamp.toISOString()}`);
        // The matrix keeps its dimensions.
        const mx = await session.read({ nodeId: `ns=${demo};s=Demo.Matrix`, attributeId: AttributeIds.Value });
        check("Matrix", mx.value.dimensions && mx.value.dimensions.join("x") === "2x3" && mx.value.value.length === 6, mx.toString());

        // Simulation signals change.
        const s1 = await session.read({ nodeId: `ns=${demo};s=Demo.Simulation.Ramp`, attributeId: AttributeIds.Value });
        check("Simulation", s1.statusCode === StatusCodes.Good && typeof s1.value.value === "number", s1.toString());

        // Attributes other than Value.
        const dn = await session.read({ nodeId: "i=2253", attributeId: AttributeIds.DisplayName });
        check("Read.DisplayName", dn.value.value.text === "Server", dn.toString());
        const badAttr = await session.read({ nodeId: "i=2253", attributeId: AttributeIds.Value });
        check("Read.AttributeIdInvalid", badAttr.statusCode === StatusCodes.BadAttributeIdInvalid, badAttr.statusCode.toString());
        const unknown = await session.read({ nodeId: "ns=1;s=NoSuchNode", attributeId: AttributeIds.Value });
        check("Read.NodeIdUnknown", unknown.statusCode === StatusCodes.BadNodeIdUnknown, unknown.statusCode.toString());
    } finally {
        await session.close();
        await client.disconnect();
    }
}

main(process.argv[2]).then(() => {
    const ok = Object.values(checks).every((c) => c.ok) && Object.keys(checks).length > 0;
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err), checks }) + "\n");
    process.exit(1);
});
