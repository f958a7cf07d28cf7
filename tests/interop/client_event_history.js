#!/usr/bin/env node
// node-opcua's client reading our server's event history (OPC 10000-4 5.11.3 HistoryRead with
// ReadEventDetails, OPC 10000-11 6.5.2):
//   node client_event_history.js <endpointUrl> <count>
// The test raised <count> events of SourceName "HistoryTest" on the Server object, one a
// millisecond, Message "history event k", Severity 100 x k (k = 1..count), before this runs. Checks:
// the Server object is a HistoricalEventNode (EventNotifier with the HistoryRead bit, the
// HistoricalEventFilter Property) and AccessHistoryEventsCapability is true; Read Event of them all
// in order with the selected fields; a where clause (Severity > 250); numValuesPerNode with
// ContinuationPoints to the end and a release; backward; and the Bad_ statuses (a Variable, no
// select clause, only startTime, an invalid ContinuationPoint).
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, HistoryReadRequest,
        TimestampsToReturn, BrowseDirection, FilterOperator } = opcua;
const { ReadEventDetails, EventFilter, SimpleAttributeOperand, ContentFilter, ContentFilterElement, LiteralOperand,
        ElementOperand } = require("node-opcua-types");

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

const field = (name) => new SimpleAttributeOperand({ typeDefinitionId: "i=2041", browsePath: [{ namespaceIndex: 0, name }],
                                                      attributeId: AttributeIds.Value });
const compare = (op, name, value, dataType) => new ContentFilterElement({ filterOperator: op,
    filterOperands: [field(name), new LiteralOperand({ value: { dataType, value } })] });
// Message, Severity, Time, SourceName of the test's events (and, with more, Severity > 250 too).
function filter(more) {
    const source = compare(FilterOperator.Equals, "SourceName", "HistoryTest", DataType.String);
    // The first element is the root: And of the two that follow.
    const elements = !more ? [source] : [
        new ContentFilterElement({ filterOperator: FilterOperator.And,
                                   filterOperands: [new ElementOperand({ index: 1 }), new ElementOperand({ index: 2 })] }),
        source, compare(FilterOperator.GreaterThan, "Severity", 250, DataType.UInt16)];
    return new EventFilter({ selectClauses: ["Message", "Severity", "Time", "SourceName"].map(field),
                             whereClause: new ContentFilter({ elements }) });
}

async function readEvents(session, nodeId, details, options = {}) {
    const response = await session.historyRead(new HistoryReadRequest({
        historyReadDetails: new ReadEventDetails(details), timestampsToReturn: TimestampsToReturn.Both,
        releaseContinuationPoints: !!options.release,
        nodesToRead: [{ nodeId, continuationPoint: options.continuationPoint || null }] }));
    return response.results[0];
}
const messages = (r) => ((r.historyData && r.historyData.events) || []).map((e) => e.eventFields[0].value.text);

async function main(url, count) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    try {
        const server = "i=2253";
        const notifier = await session.read({ nodeId: server, attributeId: AttributeIds.EventNotifier });
        check("Server EventNotifier: SubscribeToEvents and HistoryRead", (notifier.value.value & 0x05) === 0x05, notifier.value.value);
        const props = await session.browse({ nodeId: server, browseDirection: BrowseDirection.Forward, referenceTypeId: "HasProperty",
            includeSubtypes: true, nodeClassMask: 0, resultMask: 63 });
        const hef = props.references.find((r) => r.browseName.name === "HistoricalEventFilter");
        const hefValue = hef && await session.read({ nodeId: hef.nodeId, attributeId: AttributeIds.Value });
        check("HistoricalEventFilter Property", hefValue && hefValue.value.value && hefValue.value.value.selectClauses.length >= 5,
              hefValue && JSON.stringify(hefValue.value.value && hefValue.value.value.selectClauses.length));
        const cap = await session.read({ nodeId: "i=11242", attributeId: AttributeIds.Value });
        check("AccessHistoryEventsCapability", cap.value.value === true, cap.value.value);

        const start = new Date(Date.now() - 3600 * 1000), end = new Date(Date.now() + 60 * 1000);
        const expected = Array.from({ length: count }, (_, k) => `history event ${k + 1}`);
        const all = await readEvents(session, server, { startTime: start, endTime: end, filter: filter(false) });
        const ev = (all.historyData && all.historyData.events) || [];
        check("Read Event: all, in order, with the selected fields", all.statusCode.isGood() && messages(all).join() === expected.join() &&
              ev.every((e, k) => e.eventFields.length === 4 && e.eventFields[1].value === 100 * (k + 1) &&
                         e.eventFields[2].value instanceof Date && e.eventFields[3].value === "HistoryTest") &&
              ev.every((e, k) => k === 0 || ev[k - 1].eventFields[2].value <= e.eventFields[2].value),
              `${all.statusCode.name} ${messages(all).join()}`);
        const severe = await readEvents(session, server, { startTime: start, endTime: end, filter: filter(true) });
        check("a where clause: Severity > 250", messages(severe).join() === expected.slice(2).join(), messages(severe).join());

        let got = [], cp = null, reads = 0, statuses = [];
        do {
            const r = await readEvents(session, server, { startTime: start, endTime: end, numValuesPerNode: 2, filter: filter(false) },
                                       { continuationPoint: cp });
            statuses.push(r.statusCode.name);
            got = got.concat(messages(r));
            cp = r.continuationPoint && r.continuationPoint.length ? r.continuationPoint : null;
        } while (cp && ++reads < 20);
        check("numValuesPerNode 2 with ContinuationPoints", got.join() === expected.join() && statuses[0] === "GoodMoreData" &&
              statuses.length === Math.ceil(count / 2), `${statuses.join()} ${got.join()}`);
        const first = await readEvents(session, server, { startTime: start, endTime: end, numValuesPerNode: 1, filter: filter(false) });
        const released = await readEvents(session, server, { startTime: start, endTime: end, numValuesPerNode: 1, filter: filter(false) },
                                          { continuationPoint: first.continuationPoint, release: true });
        const after = await readEvents(session, server, { startTime: start, endTime: end, numValuesPerNode: 1, filter: filter(false) },
                                       { continuationPoint: first.continuationPoint });
        check("release frees the ContinuationPoint", first.statusCode.name === "GoodMoreData" && released.statusCode.isGood() &&
              after.statusCode === StatusCodes.BadContinuationPointInvalid, `${first.statusCode.name} ${released.statusCode.name} ${after.statusCode.name}`);
        const back = await readEvents(session, server, { startTime: end, endTime: start, filter: filter(false) });
        check("backward (endTime before startTime)", messages(back).join() === expected.slice().reverse().join(), messages(back).join());
        const none = await readEvents(session, server, { startTime: new Date(0), endTime: new Date(1000), filter: filter(false) });
        check("no events in range: Good_NoData", none.statusCode === StatusCodes.GoodNoData, none.statusCode.name);

        const ns = await session.readNamespaceArray();
        const variable = `ns=${ns.indexOf("urn:ua-workbench:demo")};s=Demo.Scalars.Int32`;
        const bad = [
            await readEvents(session, variable, { startTime: start, endTime: end, filter: filter(false) }),
            await readEvents(session, "i=85", { startTime: start, endTime: end, filter: filter(false) }),
            await readEvents(session, server, { startTime: start, endTime: end, filter: new EventFilter({ selectClauses: [] }) }),
            await readEvents(session, server, { startTime: start, filter: filter(false) }),
            await readEvents(session, server, { startTime: start, endTime: end, filter: filter(false) }, { continuationPoint: Buffer.from("nope") }),
        ].map((r) => r.statusCode.name);
        check("bad requests", bad.join() === "BadHistoryOperationUnsupported,BadHistoryOperationUnsupported,BadEventFilterInvalid," +
              "BadInvalidTimestampArgument,BadContinuationPointInvalid", bad.join());
    } finally {
        await session.close();
        await client.disconnect();
    }
}

main(process.argv[2], Number(process.argv[3])).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack || err) }) + "\n");
    process.exit(1);
});
