#!/usr/bin/env node
// node-opcua's clients against our server's TransferSubscriptions user rule (OPC 10000-4 5.14.7.1):
//   node transfer_subscriptions.js <endpointUrl> <certA.pem> <keyA.pem> <certB.pem> <keyB.pem>
// A and B are two client applications (their certificates carry two ApplicationUris). In each
// scenario one Session creates a Subscription and another Session, possibly of the other
// application, on another channel, with another user, tries to take it. Users the server must
// know: alice/alice-pw, bob/bob-pw. Prints {ok, checks: {name: {ok, detail}}} and exits 0.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, UserTokenType } = require("node-opcua");

const [url, certA, keyA, certB, keyB] = process.argv.slice(2);
const app = { A: { certificateFile: certA, privateKeyFile: keyA, applicationName: "transfer-A" },
              B: { certificateFile: certB, privateKeyFile: keyB, applicationName: "transfer-B" } };
const none = [MessageSecurityMode.None, SecurityPolicy.None];
const sign = [MessageSecurityMode.Sign, SecurityPolicy.Basic256Sha256];
const sae = [MessageSecurityMode.SignAndEncrypt, SecurityPolicy.Basic256Sha256];
const anonymous = { type: UserTokenType.Anonymous };
const user = (userName) => ({ type: UserTokenType.UserName, userName, password: userName + "-pw" });

const open = [];
async function session(which, [mode, policy], identity) {
    const client = OPCUAClient.create({ ...app[which], endpointMustExist: false, securityMode: mode,
        securityPolicy: policy, connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 30000 });
    await client.connect(url);
    open.push(client);
    return client.createSession(identity);
}

async function closeAll() {
    for (const c of open.splice(0)) {
        try { await c.disconnect(); } catch (_) { /* gone */ }
    }
}

async function createSubscription(s) {
    const r = await s.createSubscription({ requestedPublishingInterval: 100, requestedLifetimeCount: 600,
        requestedMaxKeepAliveCount: 10, maxNotificationsPerPublish: 0, publishingEnabled: true, priority: 0 });
    return r.subscriptionId;
}

async function transfer(s, id) {
    const r = await s.transferSubscriptions({ subscriptionIds: [id], sendInitialValues: false });
    return r.results[0].statusCode.name;
}

const checks = {};
async function scenario(name, expected, body) {
    let got;
    try {
        got = await body();
    } catch (err) {
        got = "error: " + String(err && err.message ? err.message : err).slice(0, 300);
    } finally {
        await closeAll();
    }
    checks[name] = { ok: got === expected, detail: `expected ${expected}, got ${got}` };
}

// Owner and taker: [application, channel, identity]; the owner creates, the taker transfers.
async function takeOver(owner, taker) {
    const a = await session(...owner);
    const id = await createSubscription(a);
    const b = await session(...taker);
    return transfer(b, id);
}

async function main() {
    // Anonymous (5.14.7.1): same ApplicationUri, and the taker's channel Sign or SignAndEncrypt.
    await scenario("anonymousOtherApplicationOverNone", "BadUserAccessDenied",
        () => takeOver(["A", none, anonymous], ["B", none, anonymous]));
    await scenario("anonymousSameApplicationOverNone", "BadUserAccessDenied",
        () => takeOver(["A", none, anonymous], ["A", none, anonymous]));
    await scenario("anonymousOtherApplicationSigned", "BadUserAccessDenied",
        () => takeOver(["A", sae, anonymous], ["B", sae, anonymous]));
    await scenario("anonymousSameApplicationSigned", "Good",
        () => takeOver(["A", sae, anonymous], ["A", sign, anonymous]));
    await scenario("anonymousTakesFromUser", "BadUserAccessDenied",
        () => takeOver(["A", sae, user("alice")], ["A", sae, anonymous]));
    // A named user: the same ClientUserId, whatever the application and channel.
    await scenario("sameUserOtherApplication", "Good",
        () => takeOver(["A", sae, user("alice")], ["B", none, user("alice")]));
    await scenario("otherUser", "BadUserAccessDenied",
        () => takeOver(["A", sae, user("alice")], ["A", sae, user("bob")]));
    // The owner's ActivateSession changes its user from alice to bob: the Subscription follows.
    const afterChangeUser = async (taker) => {
        const a = await session("A", sae, user("alice"));
        const id = await createSubscription(a);
        const changed = await a.changeUser(user("bob"));
        if (changed.name !== "Good") return "changeUser " + changed.name;
        return transfer(await session(...taker), id);
    };
    await scenario("ownerChangedUserOldUserRefused", "BadUserAccessDenied", () => afterChangeUser(["A", sae, user("alice")]));
    await scenario("ownerChangedUserNewUserTakes", "Good", () => afterChangeUser(["B", none, user("bob")]));
    // Table 96: a Subscription the Session already owns.
    await scenario("alreadyOwned", "BadNothingToDo", async () => {
        const a = await session("A", sae, user("alice"));
        return transfer(a, await createSubscription(a));
    });
    // After the refusals the server still serves a transfer.
    await scenario("afterwards", "Good",
        () => takeOver(["B", sae, anonymous], ["B", sae, anonymous]));
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
}

main().then(() => process.exit(0), (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack ? err.stack : err) }) + "\n");
    process.exit(1);
});
