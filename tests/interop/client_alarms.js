#!/usr/bin/env node
// node-opcua's client against our server's alarm conditions (OPC 10000-9):
//   node client_alarms.js <endpointUrl> <conditionNodeId> <inputNodeId> [<notifierNodeId>]
// The condition is an ExclusiveLevelAlarm on the Double input (High 10, HighHigh 20). The script
// subscribes to the Server object's events selecting the condition fields (and the ConditionId:
// the NodeId attribute of ConditionType with an empty path), writes the input into High, then
// Acknowledges (the type's Method, i=9111, with the condition as ObjectId) and Confirms (the
// condition's own Confirm node, found by browsing), runs ConditionRefresh (RefreshStart, the
// retained condition, RefreshEnd, in that order) and its error cases, shelves, disables and
// enables, checking each Method's status code against Part 9. With a notifier (an Object with
// HasEventSource to the input), a second event item on it must get the condition's events and the
// condition in ConditionRefresh, as the one on the Server object does. Prints one JSON object
// {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, ClientSubscription,
        ClientMonitoredItem, TimestampsToReturn, BrowseDirection } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ConditionType = "i=2782", AlarmConditionType = "i=2915", ExclusiveLimitAlarmType = "i=9341";
const fields = [
    ["EventId"], ["EventType"], ["SourceNode"], ["Message"], ["Severity"],
    ["ConditionName", ConditionType], ["Retain", ConditionType], ["EnabledState/Id", ConditionType],
    ["AckedState/Id", "i=2881"], ["ConfirmedState/Id", "i=2881"], ["ActiveState/Id", AlarmConditionType],
    ["SuppressedOrShelved", AlarmConditionType], ["LimitState/CurrentState", ExclusiveLimitAlarmType],
    ["Comment", ConditionType], ["ClientUserId", "i=2052"], ["ConditionEventId", "i=8944"],
];
function select(path, type) {
    return new opcua.SimpleAttributeOperand({ typeDefinitionId: opcua.resolveNodeId(type || "i=2041"),
        browsePath: path.split("/").map((n) => opcua.coerceQualifiedName(n)), attributeId: AttributeIds.Value });
}
const conditionIdClause = new opcua.SimpleAttributeOperand({ typeDefinitionId: opcua.resolveNodeId(ConditionType),
    browsePath: [], attributeId: AttributeIds.NodeId });
const eventFilter = new opcua.EventFilter({ selectClauses: [...fields.map(([p, t]) => select(p, t)), conditionIdClause] });

async function main(url, conditionText, inputText, notifierText) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    const condition = opcua.resolveNodeId(conditionText), input = opcua.resolveNodeId(inputText);
    try {
        const sub = ClientSubscription.create(session, { requestedPublishingInterval: 50, requestedLifetimeCount: 200,
            requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
        await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
        const events = [];
        const item = ClientMonitoredItem.create(sub, { nodeId: "i=2253", attributeId: AttributeIds.EventNotifier },
            { samplingInterval: 0, queueSize: 1000, discardOldest: true, filter: eventFilter }, TimestampsToReturn.Both);
        item.on("changed", (values) => {
            const e = {};
            fields.forEach(([p], i) => { e[p] = values[i].value; });
            e.ConditionId = values[fields.length].value;
            events.push(e);
        });
        await new Promise((resolve, reject) => { item.once("initialized", resolve); item.once("err", reject); });
        // The same filter on the notifier above the input (the notifier hierarchy, OPC 10000-3 7.17).
        const areaEvents = [];
        if (notifierText) {
            const area = ClientMonitoredItem.create(sub, { nodeId: opcua.resolveNodeId(notifierText), attributeId: AttributeIds.EventNotifier },
                { samplingInterval: 0, queueSize: 1000, discardOldest: true, filter: eventFilter }, TimestampsToReturn.Both);
            area.on("changed", (values) => {
                areaEvents.push({ EventType: values[1].value.toString(), ConditionId: values[fields.length].value,
                                  EventId: values[0].value });
            });
            await new Promise((resolve, reject) => { area.once("initialized", resolve); area.once("err", reject); });
        }
        const ofCondition = () => events.filter((e) => e.ConditionId && e.ConditionId.toString() === condition.toString());
        const lastOf = () => ofCondition().slice(-1)[0];
        const waitFor = async (what, pred, ms = 5000) => {
            for (let t = 0; t < ms; t += 50) {
                const e = ofCondition().find(pred);
                if (e) return e;
                await sleep(50);
            }
            log("timed out waiting for", what, JSON.stringify(ofCondition().slice(-3)));
            return undefined;
        };
        const write = (v) => session.write({ nodeId: input, attributeId: AttributeIds.Value,
            value: { value: { dataType: DataType.Double, value: v } } });
        const text = (t) => ({ dataType: DataType.LocalizedText, value: new opcua.LocalizedText({ locale: "en", text: t }) });
        const call = (objectId, methodId, args) => session.call({ objectId, methodId, inputArguments: args || [] });

        // Into High.
        check("write 5", (await write(5)) === StatusCodes.Good);
        await sleep(400);
        check("write 15", (await write(15)) === StatusCodes.Good);
        const high = await waitFor("High", (e) => e["ActiveState/Id"] === true);
        check("alarm active in High", high && high["AckedState/Id"] === false && high.Retain === true &&
              high["LimitState/CurrentState"] && high["LimitState/CurrentState"].text === "High" &&
              high.EventType.toString() === "ns=0;i=9482" && high.SourceNode.toString() === input.toString(),
              JSON.stringify(high));
        if (notifierText) {
            await sleep(300);
            check("the notifier's item got the condition event", high && areaEvents.some((e) => e.EventId &&
                  Buffer.compare(e.EventId, high.EventId) === 0), areaEvents.length);
            check("the notifier's item got no demo events of other sources",
                  areaEvents.every((e) => e.ConditionId || e.EventType === "ns=0;i=2787" || e.EventType === "ns=0;i=2788"),
                  JSON.stringify(areaEvents.map((e) => e.EventType)));
        }

        // Acknowledge: the type's Method with the condition as ObjectId.
        const ackId = "i=9111";
        let r = await call(condition, ackId, [{ dataType: DataType.ByteString, value: Buffer.from("not an event") }, text("x")]);
        check("Acknowledge with an unknown EventId", r.statusCode === StatusCodes.BadEventIdUnknown, r.statusCode.toString());
        r = await call(condition, ackId, [{ dataType: DataType.ByteString, value: high.EventId }, text("seen by node")]);
        check("Acknowledge", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        const acked = await waitFor("acked", (e) => e["AckedState/Id"] === true);
        check("acknowledged event", acked && acked["ConfirmedState/Id"] === false && acked.Comment.text === "seen by node" &&
              acked.Retain === true, JSON.stringify(acked));
        r = await call(condition, ackId, [{ dataType: DataType.ByteString, value: high.EventId }, text("again")]);
        check("Acknowledge with the old EventId", r.statusCode === StatusCodes.BadEventIdUnknown, r.statusCode.toString());
        r = await call(condition, ackId, [{ dataType: DataType.ByteString, value: acked.EventId }, text("again")]);
        check("Acknowledge twice", r.statusCode === StatusCodes.BadConditionBranchAlreadyAcked, r.statusCode.toString());
        await sleep(300);
        const audits = events.filter((e) => e.EventType.toString() === "ns=0;i=8944");
        check("AuditConditionAcknowledgeEvent", audits.length >= 1 && audits.some((e) => e.ConditionEventId &&
              Buffer.compare(e.ConditionEventId, high.EventId) === 0), audits.length);

        // Confirm: the condition's own Method node.
        const browsed = await session.browse({ nodeId: condition, browseDirection: BrowseDirection.Forward,
            referenceTypeId: "i=47", includeSubtypes: true, nodeClassMask: 4, resultMask: 63 });
        const confirmNode = browsed.references.find((x) => x.browseName.name === "Confirm");
        check("the condition has a Confirm Method", confirmNode, browsed.references.map((x) => x.browseName.name).join(","));
        r = await call(condition, confirmNode ? confirmNode.nodeId : "i=9113",
                       [{ dataType: DataType.ByteString, value: acked.EventId }, text("confirmed by node")]);
        check("Confirm", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        const confirmed = await waitFor("confirmed", (e) => e["ConfirmedState/Id"] === true && e["AckedState/Id"] === true);
        check("confirmed and still retained (active)", confirmed && confirmed.Retain === true, JSON.stringify(confirmed));

        // ConditionRefresh: start, the retained condition, end; in order.
        const before = events.length;
        r = await call(ConditionType, "i=3875", [{ dataType: DataType.UInt32, value: sub.subscriptionId }]);
        check("ConditionRefresh", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        await sleep(500);
        const seq = events.slice(before).map((e) => e.EventType.toString() === "ns=0;i=2787" ? "start"
            : e.EventType.toString() === "ns=0;i=2788" ? "end" : e.ConditionId ? "condition" : "other");
        const s = seq.indexOf("start"), c = seq.indexOf("condition", s), end = seq.indexOf("end", s);
        check("RefreshStart, condition, RefreshEnd", s >= 0 && c > s && end > c, seq.join(","));
        if (notifierText) {
            const areaSeq = areaEvents.map((e) => e.EventType === "ns=0;i=2787" ? "start" : e.EventType === "ns=0;i=2788" ? "end"
                : e.ConditionId ? "condition" : "other");
            const as = areaSeq.lastIndexOf("start"), ac = areaSeq.indexOf("condition", as), ae = areaSeq.indexOf("end", as);
            check("the notifier's item in the refresh", as >= 0 && ac > as && ae > ac, areaSeq.join(","));
        }
        r = await call(ConditionType, "i=3875", [{ dataType: DataType.UInt32, value: 987654 }]);
        check("ConditionRefresh of an unknown Subscription", r.statusCode === StatusCodes.BadSubscriptionIdInvalid,
              r.statusCode.toString());
        const empty = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
            requestedMaxKeepAliveCount: 10, publishingEnabled: true });
        await new Promise((resolve, reject) => { empty.once("started", resolve); empty.once("internal_error", reject); });
        r = await call(ConditionType, "i=3875", [{ dataType: DataType.UInt32, value: empty.subscriptionId }]);
        check("ConditionRefresh without event items", r.statusCode === StatusCodes.BadNothingToDo, r.statusCode.toString());
        await empty.terminate();
        r = await call(ConditionType, "i=12912", [{ dataType: DataType.UInt32, value: sub.subscriptionId },
                                                   { dataType: DataType.UInt32, value: 424242 }]);
        check("ConditionRefresh2 of an unknown item", r.statusCode === StatusCodes.BadMonitoredItemIdInvalid, r.statusCode.toString());
        const before2 = events.length;
        r = await call(ConditionType, "i=12912", [{ dataType: DataType.UInt32, value: sub.subscriptionId },
                                                   { dataType: DataType.UInt32, value: item.monitoredItemId }]);
        await sleep(400);
        // In order, among whatever else the item receives meanwhile (the demo server's own
        // BaseEventType events can come before the RefreshStart).
        const seq2 = events.slice(before2).map((e) => e.EventType.toString());
        const s2 = seq2.indexOf("ns=0;i=2787"), c2 = seq2.indexOf("ns=0;i=9482", s2), e2 = seq2.indexOf("ns=0;i=2788", s2);
        check("ConditionRefresh2", r.statusCode === StatusCodes.Good && s2 >= 0 && c2 > s2 && e2 > c2,
              `${r.statusCode} ${seq2.join(",")}`);

        // Shelving on the ShelvingState object (the type's Methods).
        const shelving = opcua.resolveNodeId(`ns=${condition.namespace};s=${condition.value}/ShelvingState`);
        r = await call(shelving, "i=2949", [{ dataType: DataType.Double, value: 0 }]);
        check("TimedShelve 0 ms", r.statusCode === StatusCodes.BadShelvingTimeOutOfRange, r.statusCode.toString());
        r = await call(shelving, "i=2949", [{ dataType: DataType.Double, value: 600 }]);
        check("TimedShelve 600 ms", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        const shelved = await waitFor("shelved", (e) => e.SuppressedOrShelved === true);
        check("shelved event", shelved, JSON.stringify(lastOf()));
        const unshelved = await waitFor("unshelved", (e) => shelved && e.SuppressedOrShelved === false &&
            events.indexOf(e) > events.indexOf(shelved));
        check("unshelved by itself", unshelved, JSON.stringify(lastOf()));
        r = await call(shelving, "i=2947", []);
        check("Unshelve when not shelved", r.statusCode === StatusCodes.BadConditionNotShelved, r.statusCode.toString());

        // Disable / Enable (the type's Methods).
        r = await call(condition, "i=9028", []);
        check("Disable", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        const disabled = await waitFor("disabled", (e) => e["EnabledState/Id"] === false);
        check("disabled event, not retained", disabled && disabled.Retain === false, JSON.stringify(disabled));
        r = await call(condition, "i=9028", []);
        check("Disable twice", r.statusCode === StatusCodes.BadConditionAlreadyDisabled, r.statusCode.toString());
        r = await call(condition, "i=9029", [{ dataType: DataType.ByteString, value: disabled.EventId }, text("x")]);
        check("AddComment while disabled", r.statusCode === StatusCodes.BadConditionDisabled, r.statusCode.toString());
        r = await call(condition, "i=9027", []);
        check("Enable", r.statusCode === StatusCodes.Good, r.statusCode.toString());
        const enabled = await waitFor("enabled", (e) => e["EnabledState/Id"] === true && events.indexOf(e) > events.indexOf(disabled));
        check("enabled again: active and unacknowledged", enabled && enabled["ActiveState/Id"] === true &&
              enabled["AckedState/Id"] === false, JSON.stringify(enabled));
        r = await call(ConditionType, "i=9027", []);
        check("Enable on ConditionType", r.statusCode === StatusCodes.BadNodeIdInvalid, r.statusCode.toString());

        // Back to normal.
        await write(5);
        const normal = await waitFor("normal", (e) => e["ActiveState/Id"] === false && events.indexOf(e) > events.indexOf(enabled));
        check("back to normal, retained until acknowledged", normal && normal.Retain === true, JSON.stringify(normal));
        await sub.terminate();
    } finally {
        await session.close(true);
        await client.disconnect();
    }
}

main(process.argv[2], process.argv[3], process.argv[4], process.argv[5]).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, error: String(e && e.stack || e), checks }) + "\n");
    process.exit(1);
});
