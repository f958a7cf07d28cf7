#!/usr/bin/env node
// node-opcua's client through our server's NodeManagement service set (OPC 10000-4 5.8):
//   node client_nodemanagement.js <endpointUrl>
// As "admin" (ConfigureAdmin): AddNodes of a folder and a Variable below it (the second item's
// parent is the first item's node), browse, read and write them; AddNodes refused with
// Bad_BrowseNameDuplicated, Bad_ParentNodeIdInvalid, Bad_NodeIdExists, Bad_TypeDefinitionInvalid;
// AddReferences and its duplicate; DeleteReferences and again (Bad_NotFound); DeleteNodes (then a
// Read is Bad_NodeIdUnknown) and of a namespace 0 node (Bad_NoDeleteRights). As "viewer"
// (Observer): AddNodes and DeleteNodes are Bad_UserAccessDenied. The audit events of each request
// (AuditAddNodesEventType, ...) reach an event item on the Server object. node-opcua has no
// AddNodes API: the requests go through performMessageTransaction.
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const logged = [];
const log = (...a) => { const line = a.join(" "); logged.push(line); process.stderr.write(line + "\n"); };
console.log = console.info = console.warn = console.debug = console.error = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, StatusCodes, UserTokenType, AttributeIds, NodeClass, DataType,
        ClientSubscription, ClientMonitoredItem, TimestampsToReturn } = opcua;
const types = require("node-opcua-types");

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const transaction = (session, request) => new Promise((resolve, reject) =>
    session.performMessageTransaction(request, (err, response) => (err ? reject(err) : resolve(response))));
const names = (results) => results.map((r) => (r.statusCode || r).name).join(", ");

async function connect(url, userName) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, keepSessionAlive: false });
    await client.connect(url);
    const session = await client.createSession({ type: UserTokenType.UserName, userName, password: userName + "-pw" });
    return { client, session };
}

function folderItem(parent, requested, name) {
    return new types.AddNodesItem({ parentNodeId: parent, referenceTypeId: "i=35", requestedNewNodeId: requested,
        browseName: { namespaceIndex: 1, name }, nodeClass: NodeClass.Object,
        nodeAttributes: new types.ObjectAttributes({ specifiedAttributes: 64, displayName: { text: name } }),
        typeDefinition: "i=61" });
}

async function main(url) {
    const admin = await connect(url, "admin");
    const s = admin.session;

    // Audit events on the Server object.
    const sub = ClientSubscription.create(s, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
    await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
    const audits = [];
    const item = ClientMonitoredItem.create(sub, { nodeId: "i=2253", attributeId: AttributeIds.EventNotifier },
        { samplingInterval: 0, discardOldest: true, queueSize: 100,
          filter: new types.EventFilter({ selectClauses: [  // Status is AuditEventType's (i=2052), not BaseEventType's
              { typeDefinitionId: "i=2041", browsePath: [{ namespaceIndex: 0, name: "EventType" }], attributeId: AttributeIds.Value },
              { typeDefinitionId: "i=2041", browsePath: [{ namespaceIndex: 0, name: "SourceName" }], attributeId: AttributeIds.Value },
              { typeDefinitionId: "i=2052", browsePath: [{ namespaceIndex: 0, name: "Status" }], attributeId: AttributeIds.Value }] }) },
        TimestampsToReturn.Neither);
    item.on("changed", (fields) => audits.push({ type: fields[0].value && fields[0].value.toString(), source: fields[1].value,
                                                status: fields[2].value }));
    await new Promise((r) => item.once("initialized", r));

    const added = await transaction(s, new types.AddNodesRequest({ nodesToAdd: [
        folderItem("i=85", "ns=1;s=Plant", "Plant"),
        new types.AddNodesItem({ parentNodeId: "ns=1;s=Plant", referenceTypeId: "i=47", requestedNewNodeId: "ns=1;s=Plant.Temperature",
            browseName: { namespaceIndex: 1, name: "Temperature" }, nodeClass: NodeClass.Variable,
            nodeAttributes: new types.VariableAttributes({ specifiedAttributes: 64 | 16 | 524288 | 1 | 2097152,
                displayName: { text: "Temperature" }, dataType: "i=11", valueRank: -1, accessLevel: 3,
                value: { dataType: DataType.Double, value: 21.5 } }),
            typeDefinition: "i=63" }),
    ] }));
    check("AddNodes folder and variable", added.results.every((r) => r.statusCode === StatusCodes.Good) &&
          added.results[1].addedNodeId.toString() === "ns=1;s=Plant.Temperature", names(added.results));

    const browse = await s.browse({ nodeId: "ns=1;s=Plant", browseDirection: opcua.BrowseDirection.Forward, referenceTypeId: "i=47",
                                    includeSubtypes: true, nodeClassMask: 0, resultMask: 63 });
    const read = await s.read({ nodeId: "ns=1;s=Plant.Temperature", attributeId: AttributeIds.Value });
    check("browse and read the new nodes", browse.references.length === 1 && browse.references[0].browseName.name === "Temperature" &&
          read.value.value === 21.5, `${browse.references.map((r) => r.browseName.name)} value ${read.value.value}`);
    const written = await s.write({ nodeId: "ns=1;s=Plant.Temperature", attributeId: AttributeIds.Value,
                                    value: { value: { dataType: DataType.Double, value: 22.25 } } });
    const reread = await s.read({ nodeId: "ns=1;s=Plant.Temperature", attributeId: AttributeIds.Value });
    check("write the new variable", written === StatusCodes.Good && reread.value.value === 22.25, `${written.name} ${reread.value.value}`);

    const refused = await transaction(s, new types.AddNodesRequest({ nodesToAdd: [
        folderItem("i=85", "ns=1;s=Plant2", "Plant"),        // same BrowseName below Objects by Organizes
        folderItem("ns=1;s=Nowhere", null, "Lost"),
        folderItem("i=85", "ns=1;s=Plant", "Plant3"),
        new types.AddNodesItem({ parentNodeId: "i=85", referenceTypeId: "i=35", browseName: { namespaceIndex: 1, name: "NoType" },
            nodeClass: NodeClass.Object, nodeAttributes: new types.ObjectAttributes({}), typeDefinition: "i=0" }),
    ] }));
    const want = [StatusCodes.BadBrowseNameDuplicated, StatusCodes.BadParentNodeIdInvalid, StatusCodes.BadNodeIdExists,
                  StatusCodes.BadTypeDefinitionInvalid];
    check("AddNodes refusals", refused.results.every((r, i) => r.statusCode === want[i]), names(refused.results));

    const refItem = new types.AddReferencesItem({ sourceNodeId: "i=85", referenceTypeId: "i=35", isForward: true,
                                                  targetNodeId: "ns=1;s=Plant.Temperature", targetNodeClass: NodeClass.Variable });
    const refs = await transaction(s, new types.AddReferencesRequest({ referencesToAdd: [refItem, refItem] }));
    check("AddReferences and its duplicate", refs.results[0] === StatusCodes.Good &&
          refs.results[1] === StatusCodes.BadDuplicateReferenceNotAllowed, names(refs.results));
    const delRef = new types.DeleteReferencesItem({ sourceNodeId: "i=85", referenceTypeId: "i=35", isForward: true,
                                                    targetNodeId: "ns=1;s=Plant.Temperature", deleteBidirectional: true });
    const delRefs = await transaction(s, new types.DeleteReferencesRequest({ referencesToDelete: [delRef, delRef] }));
    check("DeleteReferences and again", delRefs.results[0] === StatusCodes.Good && delRefs.results[1] === StatusCodes.BadNotFound,
          names(delRefs.results));

    // A user without ConfigureAdmin.
    const viewer = await connect(url, "viewer");
    const denied = await transaction(viewer.session, new types.AddNodesRequest({ nodesToAdd: [folderItem("i=85", null, "Mine")] }));
    const deniedDelete = await transaction(viewer.session, new types.DeleteNodesRequest({ nodesToDelete: [
        new types.DeleteNodesItem({ nodeId: "ns=1;s=Plant.Temperature", deleteTargetReferences: true })] }));
    check("Observer may not add or delete", denied.results[0].statusCode === StatusCodes.BadUserAccessDenied &&
          deniedDelete.results[0] === StatusCodes.BadUserAccessDenied, `${names(denied.results)}; ${names(deniedDelete.results)}`);
    await viewer.session.close();
    await viewer.client.disconnect();

    const deleted = await transaction(s, new types.DeleteNodesRequest({ nodesToDelete: [
        new types.DeleteNodesItem({ nodeId: "ns=1;s=Plant.Temperature", deleteTargetReferences: true }),
        new types.DeleteNodesItem({ nodeId: "ns=1;s=Plant", deleteTargetReferences: true }),
        new types.DeleteNodesItem({ nodeId: "i=85", deleteTargetReferences: true }),
        new types.DeleteNodesItem({ nodeId: "ns=1;s=Plant", deleteTargetReferences: true }),
    ] }));
    const gone = await s.read({ nodeId: "ns=1;s=Plant.Temperature", attributeId: AttributeIds.Value });
    check("DeleteNodes", deleted.results[0] === StatusCodes.Good && deleted.results[1] === StatusCodes.Good &&
          deleted.results[2] === StatusCodes.BadNoDeleteRights && deleted.results[3] === StatusCodes.BadNodeIdUnknown &&
          gone.statusCode === StatusCodes.BadNodeIdUnknown, `${names(deleted.results)}; read after: ${gone.statusCode.name}`);

    const start = Date.now();
    const seen = (type) => audits.some((a) => a.type === type);
    while (!["ns=0;i=2091", "ns=0;i=2095", "ns=0;i=2097", "ns=0;i=2093"].every(seen) && Date.now() - start < 5000) await sleep(50);
    check("audit events", ["ns=0;i=2091", "ns=0;i=2095", "ns=0;i=2097", "ns=0;i=2093"].every(seen) &&
          audits.some((a) => a.source === "NodeManagement/AddNodes" && a.status === false),
          JSON.stringify(audits.filter((a) => String(a.source).startsWith("NodeManagement"))));

    await sub.terminate();
    await s.close();
    await admin.client.disconnect();
}

main(process.argv[2]).then(() => {
    const ok = Object.keys(checks).length > 0 && Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e), log: logged.slice(-20) }) + "\n");
    process.exit(1);
});
