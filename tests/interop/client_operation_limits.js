#!/usr/bin/env node
// node-opcua's client against our server's MaxMonitoredItemsPerCall (OPC 10000-5 6.3.11):
//   node client_operation_limits.js <endpointUrl> <expected MaxMonitoredItemsPerCall>
// Reads Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall (i=11714) directly and
// through node-opcua's readOperationLimits(), sends CreateMonitoredItems with one item more than
// the limit (Bad_TooManyOperations for the request) and exactly the limit (Good), and lets
// node-opcua's createMonitoredItemsLimit() split a larger request by the published limit.
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, TimestampsToReturn,
        MonitoringMode, CreateMonitoredItemsRequest, readOperationLimits, createMonitoredItemsLimit } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

async function main(url, expected) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    try {
        const dv = await session.read({ nodeId: "i=11714", attributeId: AttributeIds.Value });
        check("i=11714 MaxMonitoredItemsPerCall", dv.statusCode === StatusCodes.Good && dv.value.dataType === DataType.UInt32 &&
              dv.value.value === expected, `${dv.statusCode.toString()} ${DataType[dv.value.dataType]} ${dv.value.value}`);
        const limits = await readOperationLimits(session);
        check("readOperationLimits", limits.maxMonitoredItemsPerCall === expected, JSON.stringify(limits));

        const sub = await session.createSubscription({ requestedPublishingInterval: 1000, requestedLifetimeCount: 60,
            requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
        const request = (n) => new CreateMonitoredItemsRequest({
            subscriptionId: sub.subscriptionId, timestampsToReturn: TimestampsToReturn.Both,
            itemsToCreate: Array.from({ length: n }, (_, i) => ({
                itemToMonitor: { nodeId: "i=2258", attributeId: AttributeIds.Value },  // Server_ServerStatus_CurrentTime
                monitoringMode: MonitoringMode.Reporting,
                requestedParameters: { clientHandle: i + 1, samplingInterval: 1000, queueSize: 1, discardOldest: true } })) });

        let over = "no error";
        try {
            const r = await session.createMonitoredItems(request(expected + 1));
            over = `answered ${r.responseHeader.serviceResult.toString()} with ${r.results ? r.results.length : 0} results`;
        } catch (e) {
            over = String(e && e.message || e);
        }
        check("CreateMonitoredItems over the limit", over.includes("BadTooManyOperations"), over);

        const at = await session.createMonitoredItems(request(expected));
        check("CreateMonitoredItems at the limit", at.responseHeader.serviceResult === StatusCodes.Good &&
              at.results.length === expected && at.results.every((r) => r.statusCode === StatusCodes.Good),
              `${at.responseHeader.serviceResult.toString()} ${at.results.length}`);

        const many = 2 * expected + 3;
        const split = await createMonitoredItemsLimit(limits.maxMonitoredItemsPerCall, session, request(many));
        check("createMonitoredItemsLimit splits by the published limit", split.results.length === many &&
              split.results.every((r) => r.statusCode === StatusCodes.Good), `${split.results.length} of ${many}`);

        await session.deleteSubscriptions({ subscriptionIds: [sub.subscriptionId] });
    } finally {
        await session.close();
        await client.disconnect();
    }
}

main(process.argv[2], Number(process.argv[3])).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e) }) + "\n");
    process.exit(1);
});
