#!/usr/bin/env node
// node-opcua's client subscribing to events on our server's Server object (i=2253):
//   node client_events.js <endpointUrl>
// A ClientMonitoredItem on the EventNotifier attribute with an EventFilter selecting EventId,
// EventType, SourceName, Time, Message, Severity and the AuditEventType fields ClientUserId and
// Status, where "Severity > 500 Or OfType AuditEventType". While it runs, the server raises demo
// events (random Severity) and the script opens a second client whose Sessions (alice, then a
// wrong password) produce AuditOpenSecureChannel, AuditCreateSession and AuditActivateSession
// events. Also raw CreateMonitoredItems with bad EventFilters. Prints one JSON object
// {ok, checks: {name: {ok, detail}}, demoEvents}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, ClientSubscription,
        ClientMonitoredItem, TimestampsToReturn, MonitoringMode, UserTokenType, NodeId } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const fields = ["EventId", "EventType", "SourceName", "Time", "Message", "Severity"];
const BaseEventType = "i=2041", AuditEventType = "i=2052";
function select(name, type) {
    return new opcua.SimpleAttributeOperand({ typeDefinitionId: opcua.resolveNodeId(type || BaseEventType),
        browsePath: [opcua.coerceQualifiedName(name)], attributeId: AttributeIds.Value });
}
const literal = (dataType, value) => new opcua.LiteralOperand({ value: new opcua.Variant({ dataType, value }) });
const element = (index) => new opcua.ElementOperand({ index });
function eventFilter(whereElements) {
    return new opcua.EventFilter({
        selectClauses: [...fields.map((f) => select(f)), select("ClientUserId", AuditEventType), select("Status", AuditEventType)],
        whereClause: new opcua.ContentFilter({ elements: whereElements }),
    });
}
const op = (filterOperator, filterOperands) => new opcua.ContentFilterElement({ filterOperator, filterOperands });
const F = opcua.FilterOperator;

async function secondClient(url, userName, password) {
    const c = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await c.connect(url);
    let status = "Good";
    try {
        const s = await c.createSession({ type: UserTokenType.UserName, userName, password });
        await s.close();
    } catch (e) {
        status = String(e.message || e);
    }
    await c.disconnect();
    return status;
}

// A client on a SignAndEncrypt channel whose certificate the server does not trust: the OPN is
// refused (AuditOpenSecureChannel Status false, AuditCertificateUntrusted).
async function untrustedClient(url) {
    const c = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.SignAndEncrypt,
        securityPolicy: SecurityPolicy.Basic256Sha256, connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 200 } });
    try {
        await c.connect(url);
        await c.disconnect();
        return "connected";
    } catch (e) {
        return String(e.message || e);
    }
}

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    await client.connect(url);
    const session = await client.createSession();
    const out = { demoEvents: 0 };
    try {
        const auditing = await session.read({ nodeId: "i=2994", attributeId: AttributeIds.Value });
        check("Server_Auditing is true", auditing.value.value === true, auditing.toString());
        const notifier = await session.read({ nodeId: "i=2253", attributeId: AttributeIds.EventNotifier });
        check("Server is an EventNotifier", (notifier.value.value & 1) === 1, notifier.value.value);

        const sub = ClientSubscription.create(session, { requestedPublishingInterval: 100, requestedLifetimeCount: 100,
            requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 1 });
        await new Promise((resolve, reject) => { sub.once("started", resolve); sub.once("internal_error", reject); });

        // Severity > 500 Or OfType AuditEventType.
        const where = [op(F.Or, [element(1), element(2)]),
                       op(F.GreaterThan, [select("Severity"), literal(DataType.Int32, 500)]),
                       op(F.OfType, [literal(DataType.NodeId, opcua.resolveNodeId(AuditEventType))])];
        const events = [];
        const item = ClientMonitoredItem.create(sub, { nodeId: "i=2253", attributeId: AttributeIds.EventNotifier },
            { samplingInterval: 0, queueSize: 1000, discardOldest: true, filter: eventFilter(where) }, TimestampsToReturn.Both);
        item.on("changed", (eventFields) => {
            const e = {};
            const names = [...fields, "ClientUserId", "Status"];
            eventFields.forEach((v, i) => { e[names[i]] = v.value; });
            events.push(e);
        });
        await new Promise((resolve, reject) => { item.once("initialized", resolve); item.once("err", reject); });
        check("event item created", item.monitoredItemId > 0, item.monitoredItemId);

        await sleep(1500);  // demo events
        const alice = await secondClient(url, "alice", "alice-pw");
        const wrong = await secondClient(url, "alice", "not-her-password");
        check("second client sessions", alice === "Good" && wrong !== "Good", `${alice} / ${wrong}`);
        const untrusted = await untrustedClient(url);
        check("untrusted client refused", untrusted !== "connected", untrusted);
        // Methods/GenerateEvent of the demo namespace: one event passes the where clause, one not.
        const ns = (await session.readNamespaceArray()).indexOf("urn:ua-workbench:demo");
        const call = (message, severity) => session.call({ objectId: `ns=${ns};s=Demo.Methods`,
            methodId: `ns=${ns};s=Demo.Methods.GenerateEvent`, inputArguments: [
                { dataType: DataType.String, value: message }, { dataType: DataType.UInt16, value: severity }] });
        const loud = await call("generated loud", 900), quiet = await call("generated quiet", 10);
        check("GenerateEvent calls", loud.statusCode === StatusCodes.Good && quiet.statusCode === StatusCodes.Good,
              `${loud.statusCode} / ${quiet.statusCode}`);
        await sleep(1500);

        const generated = events.filter((e) => e.SourceName === "GenerateEvent");
        check("GenerateEvent raises an event", generated.length === 1 && generated[0].Message.text === "generated loud" &&
              generated[0].Severity === 900 && generated[0].EventType.toString() === "ns=0;i=2041",
              JSON.stringify(generated.map((e) => [e.Message.text, e.Severity])));

        const typeOf = (e) => (e.EventType ? e.EventType.toString() : "");
        const demo = events.filter((e) => typeOf(e) === "ns=0;i=2041");
        out.demoEvents = demo.length;
        check("demo events arrive", demo.length >= 5, demo.length);
        check("where clause: Severity > 500 only", demo.length > 0 && demo.every((e) => e.Severity > 500),
              demo.map((e) => e.Severity).join(","));
        const demoOnly = demo.filter((e) => e.SourceName !== "GenerateEvent");
        check("demo event fields", demoOnly.every((e) => e.SourceName === "Demo" && Buffer.isBuffer(e.EventId) &&
              e.EventId.length === 16 && e.Time instanceof Date && /^Demo event \d+/.test(e.Message.text) &&
              e.ClientUserId === null && e.Status === null),
              JSON.stringify(demoOnly[0] || {}));
        check("EventIds are unique", new Set(events.map((e) => e.EventId.toString("hex"))).size === events.length, events.length);

        const audit = (id) => events.filter((e) => typeOf(e) === `ns=0;i=${id}`);
        const opn = audit(2060), create = audit(2071), activate = audit(2075);
        const opnOk = opn.filter((e) => e.Status === true), opnFailed = opn.filter((e) => e.Status === false);
        check("AuditOpenSecureChannel", opnOk.length >= 2 && opn.every((e) => e.SourceName === "SecureChannel/OpenSecureChannel"),
              opnOk.length);
        check("AuditOpenSecureChannel refused", opnFailed.length >= 1 && /failed: BadCertificateUntrusted/.test(opnFailed[0].Message.text),
              JSON.stringify(opnFailed.map((e) => e.Message.text)));
        const untrustedAudit = audit(2087);
        check("AuditCertificateUntrusted", untrustedAudit.length >= 1 && untrustedAudit.every((e) => e.Status === false &&
              e.SourceName === "Security/Certificate"), untrustedAudit.length);
        check("AuditCreateSession", create.length >= 2 && create.every((e) => e.Status === true && e.SourceName ===
              "Session/CreateSession"), create.length);
        const ok = activate.filter((e) => e.Status === true), failed = activate.filter((e) => e.Status === false);
        check("AuditActivateSession of alice", ok.length >= 1 && ok.every((e) => e.ClientUserId === "alice"),
              JSON.stringify(ok.map((e) => [e.ClientUserId, e.Status, e.Message.text])));
        check("AuditActivateSession failed", failed.length >= 1 && failed.every((e) => e.ClientUserId === null &&
              /failed/.test(e.Message.text)), JSON.stringify(failed.map((e) => [e.ClientUserId, e.Message.text])));
        check("audit events pass OfType whatever their Severity",
              [...opn, ...create, ...activate].some((e) => e.Severity <= 500), activate.map((e) => e.Severity).join(","));

        // Raw CreateMonitoredItems with bad EventFilters.
        const raw = (itemToMonitor, filter) => session.createMonitoredItems({ subscriptionId: sub.subscriptionId,
            timestampsToReturn: TimestampsToReturn.Both, itemsToCreate: [{ itemToMonitor, monitoringMode: MonitoringMode.Reporting,
            requestedParameters: { clientHandle: 99, samplingInterval: 0, queueSize: 10, discardOldest: true, filter } }] });
        const onServer = { nodeId: "i=2253", attributeId: AttributeIds.EventNotifier };
        let r = await raw(onServer, eventFilter([op(F.Equals, [select("Severity")])]));
        let fr = r.results[0].filterResult;
        check("where clause operand count", r.results[0].statusCode === StatusCodes.BadEventFilterInvalid && fr &&
              fr.whereClauseResult.elementResults[0].statusCode === StatusCodes.BadFilterOperandCountMismatch,
              r.results[0].statusCode.toString());
        r = await raw(onServer, eventFilter([op(F.Like, [select("Message"), literal(DataType.String, "a%")])]));
        fr = r.results[0].filterResult;
        check("Like unsupported", r.results[0].statusCode === StatusCodes.BadEventFilterInvalid && fr &&
              fr.whereClauseResult.elementResults[0].statusCode === StatusCodes.BadFilterOperatorUnsupported,
              r.results[0].statusCode.toString());
        const badSelect = new opcua.EventFilter({ selectClauses: [select("Severity"), select("NoSuchField")] });
        r = await raw(onServer, badSelect);
        fr = r.results[0].filterResult;
        check("unknown select field", r.results[0].statusCode === StatusCodes.Good && fr &&
              fr.selectClauseResults[1] === StatusCodes.BadBrowseNameInvalid && fr.selectClauseResults[0] === StatusCodes.Good,
              fr ? fr.selectClauseResults.map(String).join(",") : "no filterResult");
        r = await raw({ nodeId: "i=85", attributeId: AttributeIds.EventNotifier }, eventFilter([]));
        check("not a notifier", r.results[0].statusCode === StatusCodes.BadNotSupported, r.results[0].statusCode.toString());
        r = await raw({ nodeId: "i=2256", attributeId: AttributeIds.Value }, eventFilter([]));
        check("EventFilter on a Value", r.results[0].statusCode === StatusCodes.BadFilterNotAllowed, r.results[0].statusCode.toString());

        await sub.terminate();
    } finally {
        await session.close(true);
        await client.disconnect();
    }
    return out;
}

main(process.argv[2]).then((out) => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks, ...out }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, error: String(e && e.stack || e), checks }) + "\n");
    process.exit(1);
});
