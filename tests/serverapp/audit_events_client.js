#!/usr/bin/env node
// node-opcua's client subscribed to the audit events of our server while the server app's
// administrator acts (tst_audit_trail):
//   node audit_events_client.js <endpointUrl>
// One event item on the Server object (i=2253) with the whereClause "OfType AuditEventType", selecting
// EventType, SourceNode, SourceName, Message, ClientUserId, Status, SessionId (AuditSessionEventType)
// and TrustListId (TrustListUpdatedAuditEventType). Prints {"ready":true} once the item is created,
// then waits for a line "report" on stdin, waits a second for the last notifications, prints
// {"events":[...]} (each field as a string, a Boolean or null) and exits (1 after printing
// {"error": ...} on any failure).
"use strict";
const path = require("path");
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require(require.resolve("node-opcua", { paths: [path.join(__dirname, "..", "interop")] }));
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, ClientSubscription, ClientMonitoredItem,
        TimestampsToReturn } = opcua;

const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const fields = [["EventType", "i=2041"], ["SourceNode", "i=2041"], ["SourceName", "i=2041"], ["Message", "i=2041"],
                ["ClientUserId", "i=2052"], ["Status", "i=2052"], ["SessionId", "i=2069"], ["TrustListId", "i=12561"]];
const select = ([name, type]) => new opcua.SimpleAttributeOperand({ typeDefinitionId: opcua.resolveNodeId(type),
    browsePath: [opcua.coerceQualifiedName(name)], attributeId: AttributeIds.Value });

function plain(v) {
    if (v === null || v === undefined || v.dataType === DataType.Null) return null;
    const x = v.value;
    if (x === null || x === undefined) return null;
    if (typeof x === "boolean") return x;
    if (x.text !== undefined) return x.text;  // LocalizedText
    return x.toString();
}

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    const sub = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
    await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
    const filter = new opcua.EventFilter({ selectClauses: fields.map(select), whereClause: new opcua.ContentFilter({ elements: [
        new opcua.ContentFilterElement({ filterOperator: opcua.FilterOperator.OfType, filterOperands: [
            new opcua.LiteralOperand({ value: new opcua.Variant({ dataType: DataType.NodeId, value: opcua.resolveNodeId("i=2052") }) })] })] }) });
    const events = [];
    const item = ClientMonitoredItem.create(sub, { nodeId: "i=2253", attributeId: AttributeIds.EventNotifier },
        { samplingInterval: 0, queueSize: 1000, discardOldest: true, filter }, TimestampsToReturn.Both);
    item.on("changed", (values) => {
        const e = {};
        values.forEach((v, i) => { e[fields[i][0]] = plain(v); });
        events.push(e);
    });
    await new Promise((resolve, reject) => { item.once("initialized", resolve); item.once("err", reject); });
    print({ ready: true, sessionId: session.sessionId.toString() });

    const rl = require("readline").createInterface({ input: process.stdin });
    await new Promise((resolve) => rl.on("line", (l) => { if (l.trim() === "report") resolve(); }));
    rl.close();
    await sleep(1000);
    await sub.terminate();
    await session.close();
    await client.disconnect();
    print({ events });
}

main(process.argv[2])
    .then(() => process.exit(0))
    .catch((e) => { print({ error: String(e && e.stack || e) }); process.exit(1); });
