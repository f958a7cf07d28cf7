#!/usr/bin/env node
// node-opcua's client reading our server's diagnostics (OPC 10000-5 6.3.3 - 6.3.5, 12.9, 12.11):
//   node client_diagnostics.js <endpointUrl> <sessions> <reads>
// An admin Session (user "admin", SecurityAdmin) watches while a scripted sequence runs: <sessions>
// anonymous Sessions opened and closed, a worker Session doing <reads> Reads, one Read of an unknown
// node and one Read the server rejects (maxAge < 0), and one login with a wrong password. Then the
// ServerDiagnosticsSummary counters, the worker's ReadCount (read by browse path through its
// SessionDiagnosticsObject) and SessionDiagnosticsArray must have changed by exactly that.
// Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, StatusCodes, UserTokenType, makeBrowsePath } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const kSummary = "i=2275";
const kFields = { CurrentSessionCount: "i=2277", CumulatedSessionCount: "i=2278", SecurityRejectedSessionCount: "i=2279",
                  RejectedSessionCount: "i=3705", SessionAbortCount: "i=2282", RejectedRequestsCount: "i=2288" };
const kSessionsSummary = "i=3706";
const kSessionDiagnosticsArray = "i=3707";
const kSessionSecurityDiagnosticsArray = "i=3708";
const kState = "i=2259";

function newClient() {
    return OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 60000 });
}

async function summary(session) {
    const ids = Object.keys(kFields);
    const values = await session.read(ids.map((k) => ({ nodeId: kFields[k], attributeId: AttributeIds.Value })));
    const out = {};
    ids.forEach((k, i) => { out[k] = values[i].value.value; });
    return out;
}

// The worker's ReadCount through its SessionDiagnosticsObject (BrowseName = its sessionName),
// waiting for the object to appear (the server adds them in batches, a few times a second).
async function readCountNode(session, sessionName) {
    for (let i = 0; i < 40; ++i) {
        const r = await session.translateBrowsePath(makeBrowsePath(kSessionsSummary,
            `/1:${sessionName}/0:SessionDiagnostics/0:ReadCount`));
        if (r.statusCode === StatusCodes.Good && r.targets.length === 1) return r.targets[0].targetId;
        await sleep(100);
    }
    return null;
}

async function main(url, sessions, reads) {
    const adminClient = newClient();
    await adminClient.connect(url);
    const admin = await adminClient.createSession({ type: UserTokenType.UserName, userName: "admin", password: "admin-pw" });
    const before = await summary(admin);
    const wholeBefore = (await admin.read({ nodeId: kSummary, attributeId: AttributeIds.Value })).value.value;
    check("ServerDiagnosticsSummary decodes", wholeBefore && wholeBefore.cumulatedSessionCount === before.CumulatedSessionCount,
          JSON.stringify(wholeBefore));

    // <sessions> anonymous Sessions opened and closed.
    const churn = newClient();
    await churn.connect(url);
    for (let i = 0; i < sessions; ++i) {
        const s = await churn.createSession();
        await s.close();
    }
    await churn.disconnect();

    // The worker.
    const workerClient = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 60000,
        clientName: "diag-worker" });
    await workerClient.connect(url);
    const worker = await workerClient.createSession();
    const workerName = worker.name;
    const countNode = await readCountNode(admin, workerName);
    check("SessionDiagnosticsObject found by browse path", countNode !== null, workerName);
    const count0 = countNode ? (await admin.read({ nodeId: countNode, attributeId: AttributeIds.Value })).value.value : null;
    for (let i = 0; i < reads; ++i) await worker.read({ nodeId: kState, attributeId: AttributeIds.Value });
    const unknown = await worker.read({ nodeId: "ns=0;i=999999", attributeId: AttributeIds.Value });
    check("unknown node: Bad_NodeIdUnknown", unknown.statusCode === StatusCodes.BadNodeIdUnknown, unknown.statusCode.name);
    let rejected = "none";
    try {
        await worker.read({ nodeId: kState, attributeId: AttributeIds.Value }, -5);
    } catch (err) {
        rejected = String(err && err.message ? err.message : err);
    }
    check("maxAge < 0: Bad_MaxAgeInvalid", /MaxAgeInvalid/.test(rejected), rejected.slice(0, 200));
    const denied = await worker.read({ nodeId: kSessionDiagnosticsArray, attributeId: AttributeIds.Value });
    check("SessionDiagnosticsArray: Bad_UserAccessDenied for anonymous", denied.statusCode === StatusCodes.BadUserAccessDenied,
          denied.statusCode.name);
    const count1 = countNode ? (await admin.read({ nodeId: countNode, attributeId: AttributeIds.Value })).value.value : null;
    // reads + the unknown node + the rejected one + the denied array read.
    check("worker ReadCount.totalCount", count0 && count1 && count1.totalCount - count0.totalCount === reads + 3,
          count0 && count1 ? `${count0.totalCount} -> ${count1.totalCount}` : "no counter");
    check("worker ReadCount.errorCount", count0 && count1 && count1.errorCount - count0.errorCount === 1,
          count0 && count1 ? `${count0.errorCount} -> ${count1.errorCount}` : "no counter");

    // One login with a wrong password.
    const wrongClient = newClient();
    await wrongClient.connect(url);
    let wrong = "accepted";
    try {
        await wrongClient.createSession({ type: UserTokenType.UserName, userName: "alice", password: "not-her-password" });
    } catch (err) {
        wrong = String(err && err.message ? err.message : err);
    }
    await wrongClient.disconnect();
    check("wrong password refused", wrong !== "accepted", wrong.slice(0, 200));

    // The Session of the refused login is removed when its channel closes: wait for it.
    let after = await summary(admin);
    for (let i = 0; i < 40 && after.CurrentSessionCount !== before.CurrentSessionCount + 1; ++i) {
        await sleep(100);
        after = await summary(admin);
    }
    const delta = (k) => after[k] - before[k];
    // The churn Sessions, the worker and the refused login's Session (CreateSession succeeded).
    check("CumulatedSessionCount", delta("CumulatedSessionCount") === sessions + 2,
          `${before.CumulatedSessionCount} -> ${after.CumulatedSessionCount}`);
    check("CurrentSessionCount", delta("CurrentSessionCount") === 1, `${before.CurrentSessionCount} -> ${after.CurrentSessionCount}`);
    check("SecurityRejectedSessionCount", delta("SecurityRejectedSessionCount") === 1,
          `${before.SecurityRejectedSessionCount} -> ${after.SecurityRejectedSessionCount}`);
    check("RejectedSessionCount", delta("RejectedSessionCount") === 1, `${before.RejectedSessionCount} -> ${after.RejectedSessionCount}`);

    // SessionDiagnosticsArray lists exactly the open Sessions: admin and worker.
    const list = (await admin.read({ nodeId: kSessionDiagnosticsArray, attributeId: AttributeIds.Value })).value.value || [];
    const ids = list.map((d) => d.sessionId.toString()).sort();
    const open = [admin.sessionId.toString(), worker.sessionId.toString()].sort();
    check("SessionDiagnosticsArray lists the open Sessions", JSON.stringify(ids) === JSON.stringify(open),
          `${JSON.stringify(ids)} vs ${JSON.stringify(open)}`);
    const mine = list.find((d) => d.sessionId.toString() === worker.sessionId.toString());
    check("SessionDiagnosticsArray entry of the worker", mine && mine.sessionName === workerName &&
          mine.readCount.totalCount === count1.totalCount, mine ? `${mine.sessionName} ${mine.readCount.totalCount}` : "missing");
    const security = (await admin.read({ nodeId: kSessionSecurityDiagnosticsArray, attributeId: AttributeIds.Value })).value.value || [];
    const adminSecurity = security.find((d) => d.sessionId.toString() === admin.sessionId.toString());
    check("SessionSecurityDiagnosticsArray", security.length === 2 && adminSecurity && adminSecurity.clientUserIdOfSession === "admin" &&
          adminSecurity.authenticationMechanism === "UserName",
          adminSecurity ? `${security.length} ${adminSecurity.clientUserIdOfSession} ${adminSecurity.authenticationMechanism}` : security.length);

    await worker.close();
    await workerClient.disconnect();
    await admin.close();
    await adminClient.disconnect();
}

const [url, sessions, reads] = process.argv.slice(2);
main(url, Number(sessions || 3), Number(reads || 5)).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack ? err.stack : err) }) + "\n");
    process.exit(1);
});
