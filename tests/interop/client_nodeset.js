#!/usr/bin/env node
// node-opcua's client against our server with imported NodeSet2 files (issue 29 item 2):
//   node client_nodeset.js <endpointUrl> <valued.json> <nodeset file>...
// valued.json: the nodes that have a <Value> in the files, as ["<namespace uri>|i=123", ...]
// (tst_node_nodeset writes it from its own reading of the files).
// The reference is node-opcua's own address space, built from the same files by its own NodeSet2
// loader (generateAddressSpace). For every node of every namespace those files define, the script
// reads all attributes (1..27) from our server and compares them with the reference: NodeClass,
// BrowseName (name and namespace URI), DisplayName, Description, the attributes of each NodeClass
// (IsAbstract, Symmetric, InverseName, ContainsNoLoops, EventNotifier, DataType, ValueRank,
// ArrayDimensions, AccessLevel, MinimumSamplingInterval, Historizing, Executable), the Values of
// built-in types, and checks that an attribute the NodeClass lacks is Bad_AttributeIdInvalid. It
// browses each node in both directions (with BrowseNext) and compares its references with the
// reference's. NodeIds are compared as namespace URI + identifier (the indexes differ).
// Where node-opcua's loader departs from the file or the specification, the difference is counted
// and reported as such, not as a mismatch (each named in `known` below):
//   - a symmetric ReferenceType: node-opcua gives it its BrowseName as InverseName; OPC 10000-3
//     5.3.2 says the InverseName "shall be omitted" (ours is);
//   - a non-symmetric ReferenceType without an InverseName in the file: node-opcua gives it its
//     BrowseName, ours has none;
//   - a Description node-opcua's loader did not keep (on Methods, with a Locale): ours is the file's;
//   - a Variable without a <Value> in the file: node-opcua fills in its DataType's default (or a
//     value it derives), ours is null;
//   - ArrayDimensions="0" with ValueRank -3: node-opcua drops it; ValueRank 1 without
//     ArrayDimensions: node-opcua gives zeros; ours are what the file says;
//   - a type's inverse HasTypeDefinition references (its instances): node-opcua keeps none.
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const logged = [];
const log = (...a) => { const line = a.join(" "); logged.push(line); process.stderr.write(line + "\n"); };
console.log = console.info = console.warn = console.debug = console.error = log;
const opcua = require("node-opcua");
const { AddressSpace } = require("node-opcua-address-space");
const { generateAddressSpace } = require("node-opcua-address-space/nodeJS");
const { nodesets } = require("node-opcua-nodesets");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, StatusCodes, NodeId, BrowseDirection, NodeClass } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

const A = { NodeId: 1, NodeClass: 2, BrowseName: 3, DisplayName: 4, Description: 5, WriteMask: 6, UserWriteMask: 7,
            IsAbstract: 8, Symmetric: 9, InverseName: 10, ContainsNoLoops: 11, EventNotifier: 12, Value: 13, DataType: 14,
            ValueRank: 15, ArrayDimensions: 16, AccessLevel: 17, UserAccessLevel: 18, MinimumSamplingInterval: 19,
            Historizing: 20, Executable: 21, UserExecutable: 22, DataTypeDefinition: 23, RolePermissions: 24,
            UserRolePermissions: 25, AccessRestrictions: 26, AccessLevelEx: 27 };
// The attributes each NodeClass has (OPC 10000-3 5), beyond the common ones 1..7 and 24..26.
const classAttributes = {
    [NodeClass.Object]: [A.EventNotifier],
    [NodeClass.Variable]: [A.Value, A.DataType, A.ValueRank, A.ArrayDimensions, A.AccessLevel, A.UserAccessLevel,
                           A.MinimumSamplingInterval, A.Historizing, A.AccessLevelEx],
    [NodeClass.Method]: [A.Executable, A.UserExecutable],
    [NodeClass.ObjectType]: [A.IsAbstract],
    [NodeClass.VariableType]: [A.Value, A.DataType, A.ValueRank, A.ArrayDimensions, A.IsAbstract],
    [NodeClass.ReferenceType]: [A.IsAbstract, A.Symmetric, A.InverseName],
    [NodeClass.DataType]: [A.IsAbstract, A.DataTypeDefinition],
    [NodeClass.View]: [A.ContainsNoLoops, A.EventNotifier],
};

async function main(url, valuedFile, files) {
    const valued = new Set(JSON.parse(require("fs").readFileSync(valuedFile, "utf8")));
    const reference = AddressSpace.create();
    await generateAddressSpace(reference, [nodesets.standard, ...files]);
    const refUris = reference.getNamespaceArray().map((n) => n.namespaceUri);
    const imported = refUris.slice(1);

    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, keepSessionAlive: false });
    await client.connect(url);
    const session = await client.createSession();
    const ourUris = (await session.read({ nodeId: "i=2255", attributeId: A.Value })).value.value;
    const missingNs = imported.filter((u) => !ourUris.includes(u));
    check("namespaces", missingNs.length === 0, `NamespaceArray ${JSON.stringify(ourUris)}; missing ${JSON.stringify(missingNs)}`);

    // NodeIds as "<uri>|<identifier>", from either side's indexes.
    const idKinds = { 1: "i", 2: "s", 3: "g", 4: "b" };  // NodeIdType
    const key = (id, uris) => id ? `${uris[id.namespace]}|${idKinds[id.identifierType]}=${id.value}` : "null";
    const ours = (id) => new NodeId(id.identifierType, id.value, ourUris.indexOf(refUris[id.namespace]));
    const text = (lt) => (lt && lt.text) || "";

    const nodes = [];
    for (const uri of imported) {
        const idx = reference.getNamespace(uri)._nodeid_index;
        for (const n of (idx instanceof Map ? idx.values() : Object.values(idx))) nodes.push(n);
    }

    // Every attribute of every node.
    const mismatches = [];
    const counts = { nodes: 0, attributes: 0, values: 0, valuesSkipped: 0, absentOk: 0 };
    const kinds = {};  // mismatches per attribute, with the first examples
    const known = {};  // node-opcua's departures (see the top of the file), counted
    const knownDifference = (what) => { known[what] = (known[what] || 0) + 1; };
    const mismatch = (n, what, expected, actual) => {
        const k = (kinds[what] = kinds[what] || { count: 0, examples: [] });
        k.count++;
        let e = JSON.stringify(expected), a = JSON.stringify(actual);
        if (e && a && e.length + a.length > 200) {  // long texts: where they part
            let i = 0;
            while (i < e.length && e[i] === a[i]) ++i;
            e = `...${e.slice(Math.max(0, i - 30), i + 50)}...`;
            a = `...${a.slice(Math.max(0, i - 30), i + 50)}...`;
        }
        const line = `${key(n.nodeId, refUris)} ${what}: expected ${e}, got ${a}`;
        if (k.examples.length < 3) k.examples.push(line);
        mismatches.push(line);
    };
    const batch = 80;  // nodes per Read: 80 x 27 = 2160 operations, under MaxNodesPerRead
    for (let i = 0; i < nodes.length; i += batch) {
        const chunk = nodes.slice(i, i + batch);
        const toRead = [];
        for (const n of chunk) for (let a = 1; a <= 27; ++a) toRead.push({ nodeId: ours(n.nodeId), attributeId: a });
        const results = await session.read(toRead);
        chunk.forEach((n, j) => {
            const r = (a) => results[j * 27 + a - 1];
            const good = (a) => r(a).statusCode.isGood();
            const v = (a) => r(a).value.value;
            counts.nodes++;
            if (!good(A.NodeClass)) { mismatch(n, "NodeClass", n.nodeClass, r(A.NodeClass).statusCode.name); return; }
            const cmp = (a, what, expected, actual) => {
                counts.attributes++;
                if (JSON.stringify(expected) !== JSON.stringify(actual)) mismatch(n, what, expected, actual);
            };
            cmp(A.NodeId, "NodeId", key(n.nodeId, refUris), key(v(A.NodeId), ourUris));
            cmp(A.NodeClass, "NodeClass", n.nodeClass, v(A.NodeClass));
            cmp(A.BrowseName, "BrowseName", `${refUris[n.browseName.namespaceIndex]}|${n.browseName.name}`,
                `${ourUris[v(A.BrowseName).namespaceIndex]}|${v(A.BrowseName).name}`);
            cmp(A.DisplayName, "DisplayName", text(n.displayName[0] || n.displayName), text(v(A.DisplayName)));
            const ourDescription = good(A.Description) ? text(v(A.Description)) : "";
            if (!text(n.description) && ourDescription) knownDifference("a Description node-opcua did not keep");
            else cmp(A.Description, "Description", text(n.description), ourDescription);
            const has = new Set([1, 2, 3, 4, 5, 6, 7, 24, 25, 26, ...(classAttributes[n.nodeClass] || [])]);
            for (let a = 1; a <= 27; ++a) {
                if (has.has(a)) continue;
                counts.absentOk++;
                if (r(a).statusCode !== StatusCodes.BadAttributeIdInvalid) mismatch(n, `attribute ${a}`, "BadAttributeIdInvalid", r(a).statusCode.name);
            }
            switch (n.nodeClass) {
            case NodeClass.Object: cmp(A.EventNotifier, "EventNotifier", n.eventNotifier || 0, v(A.EventNotifier)); break;
            case NodeClass.View:
                cmp(A.EventNotifier, "EventNotifier", n.eventNotifier || 0, v(A.EventNotifier));
                cmp(A.ContainsNoLoops, "ContainsNoLoops", !!n.containsNoLoops, v(A.ContainsNoLoops));
                break;
            case NodeClass.Method: cmp(A.Executable, "Executable", n.executable !== false, v(A.Executable)); break;
            case NodeClass.ObjectType: case NodeClass.DataType:
                cmp(A.IsAbstract, "IsAbstract", !!n.isAbstract, v(A.IsAbstract)); break;
            case NodeClass.ReferenceType:
                cmp(A.IsAbstract, "IsAbstract", !!n.isAbstract, v(A.IsAbstract));
                cmp(A.Symmetric, "Symmetric", !!n.symmetric, v(A.Symmetric));
                if (n.symmetric) {
                    counts.attributes++;
                    if (good(A.InverseName) && text(v(A.InverseName))) mismatch(n, "InverseName of a symmetric type", "", text(v(A.InverseName)));
                    else knownDifference("symmetric InverseName omitted");
                } else if (!(good(A.InverseName) && text(v(A.InverseName))) && text(n.inverseName) === n.browseName.name) {
                    knownDifference("no InverseName in the file (node-opcua: the BrowseName)");
                } else {
                    cmp(A.InverseName, "InverseName", text(n.inverseName), good(A.InverseName) ? text(v(A.InverseName)) : "");
                }
                break;
            case NodeClass.VariableType: case NodeClass.Variable:
                cmp(A.DataType, "DataType", key(n.dataType, refUris), key(v(A.DataType), ourUris));
                cmp(A.ValueRank, "ValueRank", n.valueRank, v(A.ValueRank));
                const ourDims = v(A.ArrayDimensions) ? Array.from(v(A.ArrayDimensions)) : null;
                if (!n.arrayDimensions && n.valueRank === -3 && JSON.stringify(ourDims) === "[0]") knownDifference("ArrayDimensions 0 with ValueRank -3");
                else if (n.valueRank >= 1 && ourDims === null && n.arrayDimensions && n.arrayDimensions.length === n.valueRank &&
                         Array.from(n.arrayDimensions).every((d) => d === 0))
                    knownDifference("no ArrayDimensions in the file (node-opcua: zeros)");
                else cmp(A.ArrayDimensions, "ArrayDimensions", n.arrayDimensions ? Array.from(n.arrayDimensions) : null, ourDims);
                if (n.nodeClass === NodeClass.VariableType) { cmp(A.IsAbstract, "IsAbstract", !!n.isAbstract, v(A.IsAbstract)); break; }
                cmp(A.AccessLevel, "AccessLevel", n.accessLevel, v(A.AccessLevel));
                cmp(A.MinimumSamplingInterval, "MinimumSamplingInterval", n.minimumSamplingInterval || 0, v(A.MinimumSamplingInterval));
                cmp(A.Historizing, "Historizing", !!n.historizing, v(A.Historizing));
                compareValue(n, r(A.Value));
                break;
            }
        });
    }
    function compareValue(n, ours) {
        let expected;
        try { expected = n.readValue().value; } catch (e) { counts.valuesSkipped++; return; }
        const plain = (x) => {
            if (x === null || x === undefined) return x;
            if (typeof x === "bigint") return x.toString();
            if (Array.isArray(x) || ArrayBuffer.isView(x)) return Array.from(x, plain);
            if (x instanceof Date) return x.toISOString();
            if (typeof x === "object" && "text" in x && "locale" in x) return text(x);
            if (typeof x === "object" && "name" in x && "namespaceIndex" in x) return x.name;
            return x;
        };
        const simple = (t) => t >= 1 && t <= 13 || t === 20 || t === 21;  // Boolean .. DateTime, QualifiedName, LocalizedText
        if (!expected || !simple(expected.dataType) || expected.value === null || expected.value === undefined) { counts.valuesSkipped++; return; }
        if (!ours.statusCode.isGood()) { counts.values++; mismatch(n, "Value status", "Good", ours.statusCode.name); return; }
        const e = plain(expected.value), a = plain(ours.value.value);
        if ((a === null || a === undefined) && !valued.has(key(n.nodeId, refUris))) { knownDifference("no Value in the file (node-opcua: a default)"); return; }
        counts.values++;
        if (JSON.stringify(e) !== JSON.stringify(a)) mismatch(n, "Value", e, a);
    }
    check("every node and attribute", counts.nodes === nodes.length && mismatches.length === 0 && counts.attributes > nodes.length * 5,
          `${counts.nodes} nodes of ${imported.length} namespaces, ${counts.attributes} attributes compared, ${counts.absentOk} absent ` +
          `ones Bad_AttributeIdInvalid; node-opcua's departures ${JSON.stringify(known)}; ${mismatches.length} mismatches ${JSON.stringify(kinds)}`);
    check("values", counts.values > 0 && !kinds["Value"] && !kinds["Value status"],
          `${counts.values} values of built-in types compared, ${counts.valuesSkipped} structured or empty ones not compared`);

    // Browse each node both ways; its references against the reference's.
    const refMismatches = [];
    let references = 0;
    let inverseTypeDefinitions = 0;
    const browseBatch = 200;
    for (let i = 0; i < nodes.length; i += browseBatch) {
        const chunk = nodes.slice(i, i + browseBatch);
        let results = await session.browse(chunk.map((n) => ({ nodeId: ours(n.nodeId), browseDirection: BrowseDirection.Both,
            referenceTypeId: null, includeSubtypes: true, nodeClassMask: 0, resultMask: 63 })));
        const all = results.map((r) => [...(r.references || [])]);
        let pending = results.map((r, j) => [j, r.continuationPoint]).filter(([, cp]) => cp && cp.length);
        while (pending.length) {
            const next = await session.browseNext(pending.map(([, cp]) => cp), false);
            const again = [];
            next.forEach((r, k) => {
                const j = pending[k][0];
                all[j].push(...(r.references || []));
                if (r.continuationPoint && r.continuationPoint.length) again.push([j, r.continuationPoint]);
            });
            pending = again;
        }
        chunk.forEach((n, j) => {
            const got = new Set(all[j].map((r) => `${r.isForward ? ">" : "<"} ${key(r.referenceTypeId, ourUris)} ${key(r.nodeId, ourUris)}`));
            const want = new Set(n.allReferences().map((r) => `${r.isForward ? ">" : "<"} ${key(r.referenceType, refUris)} ${key(r.nodeId, refUris)}`));
            references += want.size;
            for (const w of want) if (!got.has(w) && refMismatches.length < 40) refMismatches.push(`${key(n.nodeId, refUris)} lacks ${w}`);
            for (const g of got) {
                if (want.has(g)) continue;
                if (g.startsWith(`< ${refUris[0]}|i=40 `)) { inverseTypeDefinitions++; continue; }  // node-opcua keeps none
                if (refMismatches.length < 40) refMismatches.push(`${key(n.nodeId, refUris)} has extra ${g}`);
            }
        });
    }
    check("references", refMismatches.length === 0 && references > nodes.length,
          `${references} references of ${nodes.length} nodes browsed both ways, and ${inverseTypeDefinitions} inverse ` +
          `HasTypeDefinition references node-opcua does not keep; ${JSON.stringify(refMismatches)}`);

    await session.close();
    await client.disconnect();
    reference.dispose();
}

const [url, valuedFile, ...files] = process.argv.slice(2);
main(url, valuedFile, files).then(() => {
    const ok = Object.keys(checks).length > 0 && Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e), log: logged.slice(-20) }) + "\n");
    process.exit(1);
});
