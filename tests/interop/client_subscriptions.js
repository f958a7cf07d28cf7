#!/usr/bin/env node
// node-opcua's client using our server's Subscription and MonitoredItem services:
//   node client_subscriptions.js <endpointUrl>
// One ClientSubscription (100 ms) with ClientMonitoredItems on Demo.Simulation.Ramp (its update
// rate written to 100 ms) and on Demo.Scalars.Int32 (written by the script), a
// ClientMonitoredItemGroup, raw CreateMonitoredItems calls with bad filters, ModifySubscription,
// SetPublishingMode, the ServerCapabilities limits, the Server's GetMonitoredItems and ResendData
// Methods, and the sequence numbers of every NotificationMessage. Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, ClientSubscription,
        ClientMonitoredItem, ClientMonitoredItemGroup, TimestampsToReturn, DataChangeFilter, DataChangeTrigger,
        DeadbandType, MonitoringMode } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    try {
        const ns = await session.readNamespaceArray();
        const demo = ns.indexOf("urn:ua-workbench:demo");
        const id = (name) => `ns=${demo};s=${name}`;

        // ServerCapabilities of the two service sets.
        const caps = await session.read([24096, 24098, 24097, 24104].map((i) => ({ nodeId: `i=${i}`, attributeId: AttributeIds.Value })));
        check("ServerCapabilities", caps.every((c) => c.statusCode === StatusCodes.Good && c.value.value > 0),
              caps.map((c) => c.value.value).join(","));

        // The Ramp changes every 100 ms.
        await session.write({ nodeId: id("Demo.Simulation.UpdateRate"), attributeId: AttributeIds.Value,
                              value: { value: { dataType: DataType.UInt32, value: 100 } } });

        const sub = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 60,
            requestedMaxKeepAliveCount: 5, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
        const seqs = [];
        let keepAlives = 0;
        sub.on("raw_notification", (m) => { if (m.notificationData && m.notificationData.length) seqs.push(m.sequenceNumber); });
        sub.on("keepalive", () => { ++keepAlives; });
        await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });
        check("CreateSubscription", sub.subscriptionId > 0 && sub.publishingInterval === 100 && sub.maxKeepAliveCount === 5 &&
              sub.lifetimeCount === 60, `${sub.subscriptionId} ${sub.publishingInterval} ${sub.maxKeepAliveCount} ${sub.lifetimeCount}`);

        const ramp = [];
        const rampItem = ClientMonitoredItem.create(sub, { nodeId: id("Demo.Simulation.Ramp"), attributeId: AttributeIds.Value },
            { samplingInterval: 50, discardOldest: true, queueSize: 10 }, TimestampsToReturn.Both);
        rampItem.on("changed", (dv) => ramp.push(dv.value.value));
        const written = [];
        const intItem = ClientMonitoredItem.create(sub, { nodeId: id("Demo.Scalars.Int32"), attributeId: AttributeIds.Value },
            { samplingInterval: 10, discardOldest: true, queueSize: 10 }, TimestampsToReturn.Both);
        intItem.on("changed", (dv) => written.push(dv.value.value));
        await Promise.all([new Promise((r) => rampItem.once("initialized", r)), new Promise((r) => intItem.once("initialized", r))]);
        check("MonitoredItems created", rampItem.monitoredItemId > 0 && intItem.monitoredItemId > 0 &&
              rampItem.monitoringParameters.samplingInterval === 50, `${rampItem.monitoredItemId} ${intItem.monitoredItemId}`);

        for (let v = 1; v <= 5; ++v) {
            await session.write({ nodeId: id("Demo.Scalars.Int32"), attributeId: AttributeIds.Value,
                                  value: { value: { dataType: DataType.Int32, value: v * 100 } } });
            await sleep(60);
        }
        await sleep(1500);
        check("written values arrive in order", JSON.stringify(written.slice(-5)) === JSON.stringify([100, 200, 300, 400, 500]),
              JSON.stringify(written));
        check("initial value first", written.length === 6 && written[0] === -32, JSON.stringify(written));
        let steps = 0;
        for (let i = 1; i < ramp.length; ++i) if (ramp[i] === (ramp[i - 1] + 1) % 100) ++steps;
        check("Ramp changes every 100 ms", ramp.length >= 15 && steps >= ramp.length - 3, `${ramp.length} values, ${steps} +1 steps: ${JSON.stringify(ramp)}`);
        let consecutive = seqs.length > 5;
        for (let i = 1; i < seqs.length; ++i) if (seqs[i] !== seqs[i - 1] + 1) consecutive = false;
        check("sequence numbers consecutive", consecutive && seqs[0] === 1, JSON.stringify(seqs));

        // A group of items on the analog variables with a percent deadband.
        const filter = new DataChangeFilter({ trigger: DataChangeTrigger.StatusValue, deadbandType: DeadbandType.Percent, deadbandValue: 10 });
        const group = ClientMonitoredItemGroup.create(sub, [
            { nodeId: id("Demo.Analog.Temperature"), attributeId: AttributeIds.Value },
            { nodeId: id("Demo.Analog.Pressure"), attributeId: AttributeIds.Value }],
            { samplingInterval: 20, queueSize: 5, discardOldest: true, filter }, TimestampsToReturn.Both);
        const analog = [];
        group.on("changed", (item, dv) => analog.push(dv.value.value));
        await new Promise((r) => group.once("initialized", r));
        await sleep(400);
        await session.write({ nodeId: id("Demo.Analog.Temperature"), attributeId: AttributeIds.Value,
                              value: { value: { dataType: DataType.Double, value: 30 } } });   // 8.5 < 16: filtered
        await sleep(300);
        await session.write({ nodeId: id("Demo.Analog.Temperature"), attributeId: AttributeIds.Value,
                              value: { value: { dataType: DataType.Double, value: 60 } } });   // 38.5 > 16: reported
        await sleep(600);
        check("percent deadband", JSON.stringify(analog.slice().sort((a, b) => a - b)) === JSON.stringify([1.013, 21.5, 60]),
              JSON.stringify(analog));

        // Bad filters through a raw CreateMonitoredItems.
        const bad = await session.createMonitoredItems({ subscriptionId: sub.subscriptionId, timestampsToReturn: TimestampsToReturn.Both,
            itemsToCreate: [
                { itemToMonitor: { nodeId: id("Demo.Analog.Temperature"), attributeId: AttributeIds.Value }, monitoringMode: MonitoringMode.Reporting,
                  requestedParameters: { clientHandle: 901, samplingInterval: 100, queueSize: 1, discardOldest: true,
                      filter: new DataChangeFilter({ deadbandType: DeadbandType.Percent, deadbandValue: 150 }) } },
                { itemToMonitor: { nodeId: id("Demo.Scalars.String"), attributeId: AttributeIds.Value }, monitoringMode: MonitoringMode.Reporting,
                  requestedParameters: { clientHandle: 902, samplingInterval: 100, queueSize: 1, discardOldest: true,
                      filter: new DataChangeFilter({ deadbandType: DeadbandType.Absolute, deadbandValue: 1 }) } },
                { itemToMonitor: { nodeId: id("Demo.Scalars.Double"), attributeId: AttributeIds.Value }, monitoringMode: MonitoringMode.Reporting,
                  requestedParameters: { clientHandle: 903, samplingInterval: -1, queueSize: 0, discardOldest: true } }] });
        const r = bad.results;
        check("Bad_DeadbandFilterInvalid", r[0].statusCode === StatusCodes.BadDeadbandFilterInvalid, r[0].statusCode.toString());
        check("Bad_FilterNotAllowed", r[1].statusCode === StatusCodes.BadFilterNotAllowed, r[1].statusCode.toString());
        check("revised -1 and queue 0", r[2].statusCode === StatusCodes.Good && r[2].revisedSamplingInterval === 100 &&
              r[2].revisedQueueSize === 1, `${r[2].statusCode.toString()} ${r[2].revisedSamplingInterval} ${r[2].revisedQueueSize}`);

        // ModifySubscription and SetPublishingMode.
        const mod = await session.modifySubscription({ subscriptionId: sub.subscriptionId, requestedPublishingInterval: 200,
            requestedLifetimeCount: 2, requestedMaxKeepAliveCount: 4, maxNotificationsPerPublish: 0, priority: 1 });
        check("ModifySubscription revises", mod.revisedPublishingInterval === 200 && mod.revisedMaxKeepAliveCount === 4 &&
              mod.revisedLifetimeCount === 12, `${mod.revisedPublishingInterval} ${mod.revisedMaxKeepAliveCount} ${mod.revisedLifetimeCount}`);
        const mode = await session.setPublishingMode(false, [sub.subscriptionId, 4242424]);
        check("SetPublishingMode", mode[0] === StatusCodes.Good && mode[1] === StatusCodes.BadSubscriptionIdInvalid,
              mode.map((s) => s.toString()).join(","));
        const before = keepAlives;
        await sleep(2500);
        check("keep-alives while publishing is disabled", keepAlives > before, `${before} -> ${keepAlives}`);
        await session.setPublishingMode(true, [sub.subscriptionId]);

        // OPC 10000-5 9.1 GetMonitoredItems and 9.2 ResendData, Methods of the Server object.
        const items = await session.getMonitoredItems(sub.subscriptionId);
        const serverHandles = Array.from(items.serverHandles || []), clientHandles = Array.from(items.clientHandles || []);
        check("GetMonitoredItems", serverHandles.includes(rampItem.monitoredItemId) && serverHandles.includes(intItem.monitoredItemId) &&
              serverHandles.length === clientHandles.length, `${JSON.stringify(serverHandles)} ${JSON.stringify(clientHandles)}`);
        const call = (methodId, subscriptionId, s = session) => s.call({ objectId: "i=2253", methodId,
            inputArguments: [{ dataType: DataType.UInt32, value: subscriptionId }] });
        const unknown = await call("i=11492", 987654);
        check("GetMonitoredItems of an unknown id", unknown.statusCode === StatusCodes.BadSubscriptionIdInvalid, unknown.statusCode.toString());
        const count = written.length;
        const resent = await call("i=12873", sub.subscriptionId);
        await sleep(800);
        check("ResendData", resent.statusCode === StatusCodes.Good && written.length === count + 1 &&
              written[written.length - 1] === written[count - 1], `${resent.statusCode.toString()} ${JSON.stringify(written.slice(count - 1))}`);
        const other = await client.createSession();
        const foreign = await call("i=11492", sub.subscriptionId, other);
        const foreignResend = await call("i=12873", sub.subscriptionId, other);
        check("Subscription Methods from another Session", foreign.statusCode === StatusCodes.BadUserAccessDenied &&
              foreignResend.statusCode === StatusCodes.BadUserAccessDenied, `${foreign.statusCode.toString()} ${foreignResend.statusCode.toString()}`);
        await other.close();

        await sub.terminate();
        const gone = await session.deleteSubscriptions({ subscriptionIds: [sub.subscriptionId] });
        check("DeleteSubscriptions of a deleted id", gone.results[0] === StatusCodes.BadSubscriptionIdInvalid, gone.results[0].toString());
    } finally {
        await session.close();
        await client.disconnect();
    }
}

const url = process.argv[2];
main(url).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e) }) + "\n");
    process.exit(1);
});
