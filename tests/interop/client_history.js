#!/usr/bin/env node
// node-opcua's client reading and updating our server's history (OPC 10000-4 5.11.3 HistoryRead,
// 5.11.5 HistoryUpdate; OPC 10000-11 6.5.3, 6.8):
//   node client_history.js <endpointUrl>
// The server historizes Demo.Simulation.Ramp (and Sine, Random) every 100 ms. As an anonymous
// Operator: Read Raw forward and backward, numValuesPerNode with ContinuationPoints to the end,
// release, bounds, the HistoryServerCapabilities and the node's Historizing/AccessLevel/
// "HA Configuration", and the Bad_ statuses (unknown node, a node without history, NEITHER, an
// invalid ContinuationPoint, too few time parameters). As "engineer" (Engineer): HistoryUpdate
// insert, replace, update and delete in the past, read back, and Read Modified. As the Operator,
// HistoryUpdate is Bad_UserAccessDenied. Each HistoryUpdate's audit event reads back from the
// Server object's event history.
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, UserTokenType,
        TimestampsToReturn, HistoryReadRequest, ReadRawModifiedDetails, HistoryUpdateRequest, EnumPerformUpdate: PerformUpdateType,
        DataValue, Variant, BrowseDirection, FilterOperator } = opcua;
const { UpdateDataDetails, DeleteRawModifiedDetails, DeleteAtTimeDetails, ReadProcessedDetails, ReadAtTimeDetails, ReadEventDetails,
        EventFilter, SimpleAttributeOperand, ContentFilter, ContentFilterElement, LiteralOperand } = require("node-opcua-types");

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const transaction = (session, request) => new Promise((resolve, reject) =>
    session.performMessageTransaction(request, (err, response) => (err ? reject(err) : resolve(response))));
const times = (dvs) => dvs.map((d) => d.sourceTimestamp.getTime());
const ascending = (t) => t.every((x, i) => i === 0 || t[i - 1] < x);

async function connect(url, userName) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 60000 });
    await client.connect(url);
    const session = await client.createSession(userName ? { type: UserTokenType.UserName, userName, password: userName + "-pw" } : undefined);
    return { client, session };
}

async function readRaw(session, nodeId, details, options = {}) {
    const response = await session.historyRead(new HistoryReadRequest({
        historyReadDetails: new ReadRawModifiedDetails(details),
        timestampsToReturn: options.timestamps === undefined ? TimestampsToReturn.Both : options.timestamps,
        releaseContinuationPoints: !!options.release,
        nodesToRead: [{ nodeId, continuationPoint: options.continuationPoint || null }] }));
    return { service: response.responseHeader.serviceResult, result: response.results && response.results[0] };
}

async function main(url) {
    const { client, session } = await connect(url);
    const ns = await session.readNamespaceArray();
    const demo = ns.indexOf("urn:ua-workbench:demo");
    const ramp = `ns=${demo};s=Demo.Simulation.Ramp`;
    try {
        const attrs = await session.read([AttributeIds.Historizing, AttributeIds.AccessLevel, AttributeIds.UserAccessLevel]
            .map((a) => ({ nodeId: ramp, attributeId: a })));
        check("Historizing and the HistoryRead bits", attrs[0].value.value === true && (attrs[1].value.value & 0x0c) === 0x0c &&
              (attrs[2].value.value & 0x04) === 0x04, attrs.map((a) => a.value.value).join(","));
        const conf = await session.browse({ nodeId: ramp, browseDirection: BrowseDirection.Forward, referenceTypeId: "HasHistoricalConfiguration",
            includeSubtypes: true, nodeClassMask: 0, resultMask: 63 });
        const haConf = conf.references.map((r) => r.browseName.toString());
        check("HA Configuration", haConf.join() === "HA Configuration", haConf.join());
        const caps = await session.read(["AccessHistoryDataCapability", "InsertDataCapability", "DeleteRawCapability", "AccessHistoryEventsCapability"]
            .map((n) => ({ nodeId: { AccessHistoryDataCapability: "i=11193", InsertDataCapability: "i=11196", DeleteRawCapability: "i=11199",
                                      AccessHistoryEventsCapability: "i=11242" }[n], attributeId: AttributeIds.Value })));
        check("HistoryServerCapabilities", caps.map((c) => c.value.value).join() === "true,true,true,true", caps.map((c) => c.value.value).join());

        await sleep(1500);  // 100 ms sampling: more than ten values by now
        // An end half a second back: every value up to it was sampled (every 100 ms) and stored. It
        // lies between two samples (50 ms after a 100-ms boundary), so that the forward read (end
        // excluded) and the backward one (from it, included) see the same values.
        const now = new Date(Math.floor((Date.now() - 500) / 100) * 100 + 50);
        const start = new Date(now.getTime() - 60000);
        const all = await session.readHistoryValue(ramp, start, now, { returnBounds: false });
        const values = all.historyData.dataValues;
        // node-opcua asks for bounds by default: none before the first value (FIRST); after the end the
        // newest values.
        const withBounds = (await session.readHistoryValue(ramp, start, now)).historyData.dataValues;
        const edge = (d) => `${d.statusCode.name}@${d.sourceTimestamp.getTime() - start.getTime()}`;
        const last = withBounds[withBounds.length - 1];
        check("node-opcua's default bounds: FIRST, and the first value after endTime", withBounds.length === values.length + 2 &&
              edge(withBounds[0]) === "BadBoundNotFound@0" && last.statusCode.isGood() && last.sourceTimestamp > now,
              `${withBounds.length} ${edge(withBounds[0])} ${edge(withBounds[withBounds.length - 1])}`);
        check("Read Raw of the last minute", all.statusCode.isGood() && values.length >= 10 && ascending(times(values)) &&
              values.every((d) => d.value.dataType === DataType.Double), `${all.statusCode.name} ${values.length} values`);
        const backward = await session.readHistoryValue(ramp, now, start, { returnBounds: false });
        const back = times(backward.historyData.dataValues);
        check("Read Raw backward (endTime before startTime)", back.length === values.length && ascending(back.slice().reverse()),
              `${back.length} values`);

        // numValuesPerNode 4: ContinuationPoints until everything up to the first read's last value came.
        const end = new Date(times(values)[values.length - 1] + 1);
        let got = [], cp = null, rounds = 0, statuses = [];
        do {
            const r = await readRaw(session, ramp, { startTime: start, endTime: end, numValuesPerNode: 4 }, { continuationPoint: cp });
            statuses.push(r.result.statusCode.name);
            got = got.concat(r.result.historyData.dataValues);
            cp = r.result.continuationPoint;
            ++rounds;
        } while (cp && cp.length && rounds < 100);
        check("numValuesPerNode with ContinuationPoints", got.length === values.length && times(got).join() === times(values).join() &&
              rounds === Math.ceil(values.length / 4), `${got.length} in ${rounds} reads: ${statuses.join(",")}`);
        const first = await readRaw(session, ramp, { startTime: start, endTime: end, numValuesPerNode: 2 });
        const released = await readRaw(session, ramp, { startTime: start, endTime: end, numValuesPerNode: 2 },
            { continuationPoint: first.result.continuationPoint, release: true });
        const reused = await readRaw(session, ramp, { startTime: start, endTime: end, numValuesPerNode: 2 },
            { continuationPoint: first.result.continuationPoint });
        check("release frees the ContinuationPoint", released.result.statusCode.isGood() &&
              reused.result.statusCode === StatusCodes.BadContinuationPointInvalid, `${released.result.statusCode.name} ${reused.result.statusCode.name}`);

        const mid = new Date((times(values)[2] + times(values)[3]) / 2);
        const bounded = await readRaw(session, ramp, { startTime: mid, endTime: end, returnBounds: true });
        const bt = times(bounded.result.historyData.dataValues);
        // The value before startTime, the values from it on, and the first value after endTime.
        check("returnBounds gives the values around the range", bt[0] === times(values)[2] && bt.length === values.length - 1 &&
              bt[bt.length - 1] > end.getTime(),
              `${bt.length} first ${bt[0]} vs ${times(values)[2]}`);
        const early = await readRaw(session, ramp, { startTime: new Date(2001, 0, 1), endTime: new Date(2001, 0, 2), returnBounds: true });
        const eb = early.result.historyData.dataValues.map((d) => d.statusCode.name);
        check("bounds of a range before the history: Bad_BoundNotFound, then the first value", eb.join() === "BadBoundNotFound,Good" &&
              early.result.historyData.dataValues[1].sourceTimestamp.getTime() === times(values)[0], eb.join());
        const none = await readRaw(session, ramp, { startTime: new Date(2001, 0, 1), endTime: new Date(2001, 0, 2) });
        check("no values in range: Good_NoData", none.result.statusCode === StatusCodes.GoodNoData, none.result.statusCode.name);
        const sourceOnly = await readRaw(session, ramp, { startTime: start, endTime: end, numValuesPerNode: 1 }, { timestamps: TimestampsToReturn.Source });
        const d0 = sourceOnly.result.historyData.dataValues[0];
        check("TimestampsToReturn Source", d0.sourceTimestamp && !d0.serverTimestamp, `${d0.sourceTimestamp} ${d0.serverTimestamp}`);

        const unknown = await readRaw(session, `ns=${demo};s=Nope`, { startTime: start, endTime: end });
        const notHistorized = await readRaw(session, `ns=${demo};s=Demo.Scalars.Int32`, { startTime: start, endTime: end });
        // A ServiceFault: node-opcua rejects the call with the serviceResult in its message.
        const neither = await readRaw(session, ramp, { startTime: start, endTime: end }, { timestamps: TimestampsToReturn.Neither })
            .then(() => ({ service: { name: "no fault" } }),
                  (err) => ({ service: { name: /BadTimestampsToReturnInvalid/.test(String(err)) ? "BadTimestampsToReturnInvalid" : String(err) } }));
        const badCp = await readRaw(session, ramp, { startTime: start, endTime: end }, { continuationPoint: Buffer.from("not-a-cp") });
        const oneTime = await readRaw(session, ramp, { startTime: start });
        const got5 = [unknown.result.statusCode, notHistorized.result.statusCode, neither.service, badCp.result.statusCode, oneTime.result.statusCode]
            .map((s) => s.name);
        check("bad requests", got5.join() === "BadNodeIdUnknown,BadHistoryOperationUnsupported,BadTimestampsToReturnInvalid," +
              "BadContinuationPointInvalid,BadInvalidTimestampArgument", got5.join());

        // Read Processed (OPC 10000-13): node-opcua's readAggregateValue, 500 ms intervals over the
        // first two seconds of the values (Ramp steps every 100 ms: five values per interval).
        const p0 = new Date(times(values)[0]);
        const p1 = new Date(p0.getTime() + 2000);
        const counts = await session.readAggregateValue({ nodeId: ramp }, p0, p1, opcua.AggregateFunction.Count, 500);
        const cv = counts.historyData.dataValues;
        check("Read Processed: Count per 500 ms interval", counts.statusCode.isGood() && cv.length === 4 &&
              cv.every((d, i) => d.value.value === 5 && d.sourceTimestamp.getTime() === p0.getTime() + 500 * i),
              `${counts.statusCode.name} ${cv.map((d) => `${d.value.value}@${d.sourceTimestamp.getTime() - p0.getTime()}`).join(" ")}`);
        const minmax = await Promise.all([opcua.AggregateFunction.Minimum, opcua.AggregateFunction.Maximum]
            .map((f) => session.readAggregateValue({ nodeId: ramp }, p0, new Date(p0.getTime() + 500), f, 0)));
        const raw5 = values.slice(0, 5).map((d) => d.value.value);
        check("Read Processed: Minimum and Maximum of one interval", minmax[0].historyData.dataValues[0].value.value === Math.min(...raw5) &&
              minmax[1].historyData.dataValues[0].value.value === Math.max(...raw5),
              `${minmax.map((m) => m.historyData.dataValues[0].value.value).join(",")} of ${raw5.join(",")}`);
        const unsupported = await session.readAggregateValue({ nodeId: ramp }, p0, p1, opcua.AggregateFunction.StandardDeviationSample, 500);
        check("Read Processed: an aggregate it lacks is Bad_AggregateNotSupported",
              unsupported.statusCode === StatusCodes.BadAggregateNotSupported, unsupported.statusCode.name);
        const mismatch = await session.historyRead(new HistoryReadRequest({
            historyReadDetails: new ReadProcessedDetails({ startTime: p0, endTime: p1, processingInterval: 500, aggregateType: [] }),
            timestampsToReturn: TimestampsToReturn.Source, nodesToRead: [{ nodeId: ramp }] })).then(() => "no fault", (e) => String(e));
        check("Read Processed: no aggregate for the node is Bad_AggregateListMismatch", /BadAggregateListMismatch/.test(mismatch), mismatch);
        // Read At Time: a raw timestamp gives the raw value; halfway between two values of Ramp a
        // sloped interpolation (the value + 0.5, Interpolated bit 0x02 in the StatusCode's low bits).
        const t1 = times(values)[5], t2 = times(values)[6];
        const atTime = await session.historyRead(new HistoryReadRequest({
            historyReadDetails: new ReadAtTimeDetails({ reqTimes: [new Date(t1), new Date((t1 + t2) / 2)], useSimpleBounds: false }),
            timestampsToReturn: TimestampsToReturn.Source, nodesToRead: [{ nodeId: ramp }] }));
        const at = atTime.results[0].historyData.dataValues;
        const v1 = values[5].value.value, v2 = values[6].value.value;
        check("Read At Time: raw and interpolated", at.length === 2 && at[0].value.value === v1 &&
              (v2 < v1 || (Math.abs(at[1].value.value - (v1 + v2) / 2) < 1e-9 && (at[1].statusCode.value & 0x3) === 0x2)),
              `${at.map((d) => `${d.value.value}/${d.statusCode.toString()}`).join(" ")} from ${v1},${v2}`);

        // HistoryUpdate: not for an Operator.
        const past = new Date(times(values)[0] - 5000);
        const dv = (t, v) => new DataValue({ value: new Variant({ dataType: DataType.Double, value: v }), sourceTimestamp: t,
                                              statusCode: StatusCodes.Good });
        const insert = (nodeId, type, list) => new HistoryUpdateRequest({ historyUpdateDetails: [new UpdateDataDetails({
            nodeId, performInsertReplace: type, updateValues: list })] });
        const denied = await transaction(session, insert(ramp, PerformUpdateType.Insert, [dv(past, 42)]));
        check("HistoryUpdate as Operator: Bad_UserAccessDenied", denied.results[0].statusCode === StatusCodes.BadUserAccessDenied,
              denied.results[0].statusCode.name);

        const eng = await connect(url, "engineer");
        const s2 = eng.session;
        try {
            const ins = await transaction(s2, insert(ramp, PerformUpdateType.Insert, [dv(past, 42), dv(new Date(past.getTime() + 1000), 43)]));
            const again = await transaction(s2, insert(ramp, PerformUpdateType.Insert, [dv(past, 44)]));
            const rep = await transaction(s2, insert(ramp, PerformUpdateType.Replace, [dv(past, 45), dv(new Date(past.getTime() + 500), 46)]));
            const upd = await transaction(s2, insert(ramp, PerformUpdateType.Update, [dv(new Date(past.getTime() + 1000), 47),
                                                                                       dv(new Date(past.getTime() + 2000), 48)]));
            const future = await transaction(s2, insert(ramp, PerformUpdateType.Insert, [dv(new Date(Date.now() + 3600000), 1)]));
            const codes = [ins, again, rep, upd, future].map((r) => r.results[0].operationResults.map((s) => s.name).join("+"));
            check("UpdateDataDetails insert, replace, update; a value in the future", codes.join() ===
                  "GoodEntryInserted+GoodEntryInserted,BadEntryExists,GoodEntryReplaced+BadNoEntryExists,GoodEntryReplaced+GoodEntryInserted," +
                  "BadInvalidTimestamp", codes.join());
            const back2 = await session.readHistoryValue(ramp, new Date(past.getTime() - 1), new Date(past.getTime() + 2001), { returnBounds: false });
            const v2 = back2.historyData.dataValues.map((d) => d.value.value);
            check("the updated history reads back", v2.join() === "45,47,48", v2.join());
            const del = await transaction(s2, new HistoryUpdateRequest({ historyUpdateDetails: [
                new DeleteAtTimeDetails({ nodeId: ramp, reqTimes: [new Date(past.getTime() + 2000), new Date(past.getTime() + 3000)] }),
                new DeleteRawModifiedDetails({ nodeId: ramp, isDeleteModified: false, startTime: past, endTime: new Date(past.getTime() + 1001) }),
                new DeleteRawModifiedDetails({ nodeId: ramp, isDeleteModified: false, startTime: past, endTime: new Date(past.getTime() + 1001) })] }));
            const dc = [del.results[0].operationResults.map((s) => s.name).join("+"), del.results[1].statusCode.name, del.results[2].statusCode.name];
            check("DeleteAtTime and DeleteRawModified", dc.join() === "Good+BadNoEntryExists,Good,BadNoData", dc.join());
            const gone = await session.readHistoryValue(ramp, new Date(past.getTime() - 1), new Date(past.getTime() + 2001), { returnBounds: false });
            check("deleted values are gone", gone.historyData.dataValues.length === 0, gone.historyData.dataValues.length);
            const modified = await readRaw(session, ramp, { isReadModified: true, startTime: new Date(past.getTime() - 1),
                                                             endTime: new Date(past.getTime() + 2001) });
            const md = modified.result.historyData;
            const kinds = (md.modificationInfos || []).map((m, i) => `${m.updateType}:${md.dataValues[i].value.value}:${m.userName}`);
            check("Read Modified lists every change with its ModificationInfo", kinds.join() ===
                  "1:42:engineer,2:42:engineer,4:45:engineer,1:43:engineer,3:43:engineer,4:47:engineer,3:48:engineer,4:48:engineer", kinds.join());

            // The audit events of every HistoryUpdate above (OPC 10000-11 5.8), from the Server
            // object's event history: of type AuditHistoryUpdateEventType or below, in order. The
            // fields selected with AuditHistoryValueUpdateEventType are null in the delete events
            // (AuditHistoryAtTimeDeleteEventType, AuditHistoryRawModifyDeleteEventType), which are
            // not of that type.
            const op = (type, name) => new SimpleAttributeOperand({ typeDefinitionId: type, browsePath: [{ namespaceIndex: 0, name }],
                                                                    attributeId: AttributeIds.Value });
            const audits = await session.historyRead(new HistoryReadRequest({ timestampsToReturn: TimestampsToReturn.Both,
                historyReadDetails: new ReadEventDetails({ startTime: new Date(Date.now() - 600000), endTime: new Date(Date.now() + 60000),
                    filter: new EventFilter({ selectClauses: [op("i=2041", "EventType"), op("i=2052", "Status"), op("i=2052", "ClientUserId"),
                                                              op("i=3006", "UpdatedNode"), op("i=3006", "PerformInsertReplace"),
                                                              op("i=3006", "NewValues")],
                        whereClause: new ContentFilter({ elements: [new ContentFilterElement({ filterOperator: FilterOperator.OfType,
                            filterOperands: [new LiteralOperand({ value: { dataType: DataType.NodeId, value: opcua.resolveNodeId("i=2104") } })] })] }) }) }),
                nodesToRead: [{ nodeId: "i=2253" }] }));
            const shown = (v) => (v === null || v === undefined ? "-" : v);
            const auditLines = ((audits.results[0].historyData && audits.results[0].historyData.events) || []).map((e) => {
                const f = e.eventFields.map((x) => x.value);
                return `${f[0] && f[0].value}:${f[1]}:${shown(f[2])}:${f[3] && f[3].toString() === ramp}:${shown(f[4])}:${shown(f[5] && f[5].length)}`;
            });
            check("HistoryUpdate audit events in the event history", auditLines.join() ===
                  "3006:false:-:true:1:1,3006:true:engineer:true:1:2,3006:false:engineer:true:1:1,3006:false:engineer:true:2:2," +
                  "3006:true:engineer:true:3:2,3006:false:engineer:true:1:1,3019:false:engineer:null:-:-,3014:true:engineer:null:-:-," +
                  "3014:false:engineer:null:-:-", `${audits.results[0].statusCode.name} ${auditLines.join()}`);
        } finally {
            await s2.close();
            await eng.client.disconnect();
        }
    } finally {
        await session.close();
        await client.disconnect();
    }
}

main(process.argv[2]).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack || err) }) + "\n");
    process.exit(1);
});
