// Parked Publish requests on a real SecureChannel (OPC 10000-4 5.6.5 Cancel, 5.13.5 Publish):
// responses sent later by the subscription engine, Cancel answering parked requests with
// Bad_RequestCancelledByClient and the right cancelCount, the oldest of too many answered with
// Bad_TooManyPublishRequests, and a keep-alive reaching the client.
#include "RawClient.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"

#include <QtTest>

#include <map>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

// The next message's request handle and either its service fault code or the decoded Resp.
template <class Resp>
bool readResponse(RawClient& c, uint32_t& handle, uint32_t& fault, Resp* out) {
    const RawMessage m = c.read();
    NodeId type;
    BinaryDecoder* d = nullptr;
    std::vector<uint8_t> storage;
    if (!RawClient::response(m, type, d, storage)) { delete d; return false; }
    bool ok = false;
    if (type == NodeId(id::ServiceFault_Encoding_DefaultBinary)) {
        ServiceFault f;
        decode(*d, f);
        handle = f.responseHeader.requestHandle;
        fault = f.responseHeader.serviceResult.code;
        ok = d->ok();
    } else if (type == NodeId(Resp::kBinaryEncodingId)) {
        Resp r;
        decode(*d, r);
        handle = r.responseHeader.requestHandle;
        fault = 0;
        ok = d->ok();
        if (out) *out = r;
    }
    delete d;
    return ok;
}

template <class Req>
void send(RawClient& c, Req req, const NodeId& token, uint32_t handle) {
    req.requestHeader.authenticationToken = token;
    req.requestHeader.requestHandle = handle;
    c.sendRaw(c.request(req));
}

// CreateSession (handle 1) and an anonymous ActivateSession (handle 2); the authenticationToken,
// or a null NodeId when either failed.
NodeId openSession(RawClient& c) {
    uint32_t handle = 0, fault = 0;
    CreateSessionRequest cs;
    cs.requestedSessionTimeout = 60000;
    send(c, cs, NodeId(), 1);
    CreateSessionResponse csr;
    if (!readResponse(c, handle, fault, &csr) || fault) return {};
    ActivateSessionRequest as;
    AnonymousIdentityToken anon;
    anon.policyId = String("anonymous");
    as.userIdentityToken = ExtensionObject::make(anon);
    send(c, as, csr.authenticationToken, 2);
    ActivateSessionResponse asr;
    if (!readResponse(c, handle, fault, &asr) || fault) return {};
    return csr.authenticationToken;
}

} // namespace

class TestPublishWire : public QObject {
    Q_OBJECT
private slots:
    void parkedPublishCancelAndOverflow();
    void closeSessionAnswersParkedPublishRequests_data();
    void closeSessionAnswersParkedPublishRequests();
};

void TestPublishWire::parkedPublishCancelAndOverflow() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    cfg.subscriptions.maxPublishRequestsPerSession = 3;
    Server server(cfg);
    QVERIFY(server.start());
    RawClient c;
    QVERIFY(c.connectTo(server.port()));
    QVERIFY(c.openChannel());
    uint32_t handle = 0, fault = 0;
    const NodeId token = openSession(c);
    QVERIFY(!token.isNull());

    // Publish without a Subscription: Bad_NoSubscription at once.
    send(c, PublishRequest{}, token, 10);
    QVERIFY(readResponse<PublishResponse>(c, handle, fault, nullptr));
    QCOMPARE(handle, 10u);
    QCOMPARE(fault, status::BadNoSubscription.code);

    CreateSubscriptionRequest sub;
    sub.requestedPublishingInterval = 60000;  // no keep-alive during the test but the first
    sub.requestedMaxKeepAliveCount = 1;
    sub.requestedLifetimeCount = 10;
    sub.publishingEnabled = true;
    send(c, sub, token, 3);
    CreateSubscriptionResponse subr;
    QVERIFY(readResponse(c, handle, fault, &subr));
    QVERIFY(subr.subscriptionId != 0);

    // Three parked, a fourth pushes the oldest out.
    send(c, PublishRequest{}, token, 21);
    send(c, PublishRequest{}, token, 22);
    send(c, PublishRequest{}, token, 22);
    send(c, PublishRequest{}, token, 23);
    QVERIFY(readResponse<PublishResponse>(c, handle, fault, nullptr));
    QCOMPARE(handle, 21u);
    QCOMPARE(fault, status::BadTooManyPublishRequests.code);

    // Cancel the two with handle 22: both answered, then the Cancel response with cancelCount 2.
    CancelRequest cancel;
    cancel.requestHandle = 22;
    send(c, cancel, token, 30);
    QVERIFY(readResponse<PublishResponse>(c, handle, fault, nullptr));
    QCOMPARE(handle, 22u);
    QCOMPARE(fault, status::BadRequestCancelledByClient.code);
    QVERIFY(readResponse<PublishResponse>(c, handle, fault, nullptr));
    QCOMPARE(handle, 22u);
    QCOMPARE(fault, status::BadRequestCancelledByClient.code);
    CancelResponse cr;
    QVERIFY(readResponse(c, handle, fault, &cr));
    QCOMPARE(handle, 30u);
    QCOMPARE(cr.cancelCount, 2u);

    // ModifySubscription to 100 ms: the first expiry sends a keep-alive on the parked request 23.
    ModifySubscriptionRequest mod;
    mod.subscriptionId = subr.subscriptionId;
    mod.requestedPublishingInterval = 100;
    mod.requestedMaxKeepAliveCount = 5;
    mod.requestedLifetimeCount = 30;
    send(c, mod, token, 31);
    ModifySubscriptionResponse mr;
    QVERIFY(readResponse(c, handle, fault, &mr));
    QCOMPARE(mr.revisedPublishingInterval, 100.0);
    PublishResponse keepAlive;
    QVERIFY(readResponse(c, handle, fault, &keepAlive));
    QCOMPARE(handle, 23u);
    QCOMPARE(keepAlive.subscriptionId, subr.subscriptionId);
    QVERIFY(keepAlive.notificationMessage.notificationData.empty());
    QCOMPARE(keepAlive.notificationMessage.sequenceNumber, 1u);
    QVERIFY(c.getEndpoints());  // the channel still serves other requests
}

void TestPublishWire::closeSessionAnswersParkedPublishRequests_data() {
    QTest::addColumn<bool>("deleteSubscriptions");
    QTest::newRow("deleteSubscriptions true") << true;
    QTest::newRow("deleteSubscriptions false") << false;
}

// OPC 10000-4 5.7.4.1: CloseSession answers every outstanding request of the Session with
// Bad_SessionClosed: three parked Publish requests are answered at once (their 6 s timeoutHint
// far away), with or without deleteSubscriptions; without it the Subscription stays.
void TestPublishWire::closeSessionAnswersParkedPublishRequests() {
    QFETCH(bool, deleteSubscriptions);
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    Server server(cfg);
    QVERIFY(server.start());
    RawClient c;
    QVERIFY(c.connectTo(server.port()));
    QVERIFY(c.openChannel());
    uint32_t handle = 0, fault = 0;
    const NodeId token = openSession(c);
    QVERIFY(!token.isNull());
    CreateSubscriptionRequest sub;
    sub.requestedPublishingInterval = 60000;
    sub.requestedMaxKeepAliveCount = 10;
    sub.requestedLifetimeCount = 30;
    sub.publishingEnabled = true;
    send(c, sub, token, 3);
    CreateSubscriptionResponse subr;
    QVERIFY(readResponse(c, handle, fault, &subr));
    QVERIFY(subr.subscriptionId != 0);
    const int subscriptions = server.subscriptionRegistry().subscriptionCount();

    for (uint32_t h = 41; h <= 43; ++h) {
        PublishRequest p;
        p.requestHeader.timeoutHint = 6000;
        send(c, p, token, h);
    }
    QTest::qWait(100);  // parked on the Subscriptions' thread
    CloseSessionRequest close;
    close.deleteSubscriptions = deleteSubscriptions;
    send(c, close, token, 50);
    // Four answers, in any order: the Publish faults come from the Subscriptions' thread.
    std::map<uint32_t, uint32_t> answered;  // requestHandle -> fault (0: a response)
    QElapsedTimer clock;
    clock.start();
    while (answered.size() < 4 && clock.elapsed() < 3000) {
        const RawMessage m = c.read();
        NodeId type;
        BinaryDecoder* d = nullptr;
        std::vector<uint8_t> storage;
        if (!RawClient::response(m, type, d, storage)) {
            delete d;
            break;
        }
        if (type == NodeId(id::ServiceFault_Encoding_DefaultBinary)) {
            ServiceFault f;
            decode(*d, f);
            answered[f.responseHeader.requestHandle] = f.responseHeader.serviceResult.code;
        } else if (type == NodeId(CloseSessionResponse::kBinaryEncodingId)) {
            CloseSessionResponse r;
            decode(*d, r);
            answered[r.responseHeader.requestHandle] = r.responseHeader.serviceResult.code;
        }
        delete d;
    }
    QVERIFY2(clock.elapsed() < 3000, "answered before the timeoutHint");
    QCOMPARE(answered.size(), std::size_t(4));
    for (uint32_t h = 41; h <= 43; ++h) QCOMPARE(answered[h], status::BadSessionClosed.code);
    QCOMPARE(answered[50], 0u);
    QTRY_COMPARE(server.subscriptionRegistry().subscriptionCount(), subscriptions - (deleteSubscriptions ? 1 : 0));
    QVERIFY(c.getEndpoints());  // the channel still serves other requests
}

UA_TEST_GUILESS_MAIN(TestPublishWire)
#include "tst_publish_wire.moc"
