// Session service set rules (OPC 10000-4 5.6) on raw SecureChannels against our server.
#include "RawSession.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"

#include <QtTest>

#include <cmath>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

CreateSessionResponse createSession(RawClient& c, double timeoutMs = 60000) {
    CreateSessionRequest req;
    req.sessionName = String("test");
    req.requestedSessionTimeout = timeoutMs;
    CreateSessionResponse r;
    rawCall(c, req, &r);
    return r;
}

StatusCode cancel(RawClient& c, const NodeId& token) {
    CancelRequest req;
    req.requestHeader.authenticationToken = token;
    CancelResponse r;
    return rawCall(c, req, &r);
}

} // namespace

class TestSessions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void createActivateClose();
    void sessionServicesNeedActivation();
    void otherChannelsAreRefused();
    void firstActivationMustUseTheCreatingChannel();
    void closeBeforeActivationOnTheCreatingChannel();
    void laterActivationMovesTheSession();
    void unactivatedSessionEndsWithItsChannel();
    void sessionTimesOut();
    void sessionTimeoutIsAlwaysARealNumber_data();
    void sessionTimeoutIsAlwaysARealNumber();
    void identityTokensTheEndpointDoesNotOfferAreInvalid();
    void addressSpaceUpdatesReachOpenConnections();
    void tooManySessions();

private:
    RawClient* channel();
    std::unique_ptr<Server> m_server;
    std::vector<std::unique_ptr<RawClient>> m_clients;
};

void TestSessions::initTestCase() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.ioThreads = 2;
    cfg.minSessionTimeoutMs = 300;
    cfg.maxSessions = 20;
    m_server = std::make_unique<Server>(cfg);
    QVERIFY(m_server->start());
}

RawClient* TestSessions::channel() {
    m_clients.push_back(std::make_unique<RawClient>());
    RawClient* c = m_clients.back().get();
    if (!c->connectTo(m_server->port()) || !c->openChannel()) return nullptr;
    return c;
}

void TestSessions::createActivateClose() {
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c);
    QVERIFY(!s.authenticationToken.isNull());
    QCOMPARE(s.revisedSessionTimeout, 60000.0);
    QCOMPARE(s.serverNonce.size(), std::size_t(32));
    QCOMPARE(s.serverEndpoints.size(), std::size_t(1));
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*c, s.authenticationToken), StatusCode());
    CloseSessionRequest close;
    close.requestHeader.authenticationToken = s.authenticationToken;
    close.deleteSubscriptions = true;
    CloseSessionResponse cr;
    QCOMPARE(rawCall(*c, close, &cr), StatusCode());
    QCOMPARE(cancel(*c, s.authenticationToken), status::BadSessionIdInvalid);
}

void TestSessions::sessionServicesNeedActivation() {
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c);
    QCOMPARE(cancel(*c, s.authenticationToken), status::BadSessionNotActivated);
    QCOMPARE(cancel(*c, NodeId(0, ByteString("not a token"))), status::BadSessionIdInvalid);
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*c, s.authenticationToken), StatusCode());
}

void TestSessions::otherChannelsAreRefused() {
    RawClient* a = channel();
    RawClient* b = channel();
    QVERIFY(a && b);
    const CreateSessionResponse s = createSession(*a);
    QCOMPARE(rawActivate(*a, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*b, s.authenticationToken), status::BadSessionIdInvalid);
    CloseSessionRequest close;
    close.requestHeader.authenticationToken = s.authenticationToken;
    CloseSessionResponse cr;
    QCOMPARE(rawCall(*b, close, &cr), status::BadSessionIdInvalid);
    // The Session stays usable on its own channel.
    QCOMPARE(cancel(*a, s.authenticationToken), StatusCode());
}

void TestSessions::firstActivationMustUseTheCreatingChannel() {
    RawClient* a = channel();
    RawClient* b = channel();
    QVERIFY(a && b);
    const CreateSessionResponse s = createSession(*a);
    QCOMPARE(rawActivate(*b, s.authenticationToken), status::BadSessionIdInvalid);
    QCOMPARE(rawActivate(*a, s.authenticationToken), StatusCode());
}

void TestSessions::closeBeforeActivationOnTheCreatingChannel() {
    // OPC 10000-4 5.7.4.1: CloseSession before the Session is activated is rejected when it comes
    // on another SecureChannel than its CreateSession, and served on that one (a client closes an
    // establishment it gave up on instead of leaving it to the activation time limit).
    RawClient* a = channel();
    RawClient* b = channel();
    QVERIFY(a && b);
    const int before = m_server->sessions().count();
    const CreateSessionResponse s = createSession(*a);
    QCOMPARE(m_server->sessions().count(), before + 1);
    CloseSessionRequest close;
    close.requestHeader.authenticationToken = s.authenticationToken;
    close.deleteSubscriptions = true;
    CloseSessionResponse cr;
    QCOMPARE(rawCall(*b, close, &cr), status::BadSessionIdInvalid);
    QCOMPARE(m_server->sessions().count(), before + 1);
    QCOMPARE(rawCall(*a, close, &cr), StatusCode());
    QCOMPARE(m_server->sessions().count(), before);
    QCOMPARE(rawActivate(*a, s.authenticationToken), status::BadSessionIdInvalid);  // it is gone
}

void TestSessions::laterActivationMovesTheSession() {
    RawClient* a = channel();
    RawClient* b = channel();
    QVERIFY(a && b);
    const CreateSessionResponse s = createSession(*a);
    QCOMPARE(rawActivate(*a, s.authenticationToken), StatusCode());
    QCOMPARE(rawActivate(*b, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*b, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*a, s.authenticationToken), status::BadSessionIdInvalid);
}

void TestSessions::unactivatedSessionEndsWithItsChannel() {
    RawClient* a = channel();
    RawClient* b = channel();
    QVERIFY(a && b);
    const int before = m_server->sessions().count();
    const CreateSessionResponse s = createSession(*a);
    QCOMPARE(m_server->sessions().count(), before + 1);
    a->socket().disconnectFromHost();
    QTRY_COMPARE(m_server->sessions().count(), before);
    QCOMPARE(rawActivate(*b, s.authenticationToken), status::BadSessionIdInvalid);
}

void TestSessions::sessionTimesOut() {
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c, 100);  // revised up to the 300 ms minimum
    QCOMPARE(s.revisedSessionTimeout, 300.0);
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
    QTest::qWait(1600);  // the server checks for expiry every second
    QCOMPARE(cancel(*c, s.authenticationToken), status::BadSessionIdInvalid);
}

// Every requestedSessionTimeout has a defined revision (5.7.2): NaN, 0, negatives and -infinity
// the server's minimum, +infinity and huge values its maximum; the Session is usable with it.
void TestSessions::sessionTimeoutIsAlwaysARealNumber_data() {
    QTest::addColumn<double>("requested");
    QTest::addColumn<double>("revised");
    const double maxMs = ServerConfig().maxSessionTimeoutMs;
    QTest::newRow("NaN") << double(NAN) << 300.0;
    QTest::newRow("0") << 0.0 << 300.0;
    QTest::newRow("negative") << -5000.0 << 300.0;
    QTest::newRow("-infinity") << -double(INFINITY) << 300.0;
    QTest::newRow("+infinity") << double(INFINITY) << maxMs;
    QTest::newRow("huge") << 1e300 << maxMs;
    QTest::newRow("within") << 4321.5 << 4321.5;
}

void TestSessions::sessionTimeoutIsAlwaysARealNumber() {
    QFETCH(double, requested);
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c, requested);
    QVERIFY(!s.authenticationToken.isNull());
    QTEST(s.revisedSessionTimeout, "revised");
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
    QCOMPARE(cancel(*c, s.authenticationToken), StatusCode());  // still there
}

void TestSessions::identityTokensTheEndpointDoesNotOfferAreInvalid() {
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c);
    ActivateSessionRequest req;
    req.requestHeader.authenticationToken = s.authenticationToken;
    UserNameIdentityToken user;
    user.policyId = String("username");
    user.userName = String("operator");
    req.userIdentityToken = ExtensionObject::make(user);
    ActivateSessionResponse r;
    // Without PKI the None endpoint offers no username policy (OPC 10000-4 7.41: no unencrypted
    // secrets): a token for a policy the endpoint does not list is invalid.
    QCOMPARE(rawCall(*c, req, &r), status::BadIdentityTokenInvalid);
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
}

void TestSessions::addressSpaceUpdatesReachOpenConnections() {
    RawClient* c = channel();
    QVERIFY(c);
    const CreateSessionResponse s = createSession(*c);
    QCOMPARE(rawActivate(*c, s.authenticationToken), StatusCode());
    auto displayName = [&] {
        ReadRequest req;
        req.requestHeader.authenticationToken = s.authenticationToken;
        ReadValueId r;
        r.nodeId = NodeId(1, 1000u);
        r.attributeId = uint32_t(AttributeId::DisplayName);
        req.nodesToRead = Array<ReadValueId>{r};
        ReadResponse resp;
        if (rawCall(*c, req, &resp).isBad() || resp.results.size() != 1) return QString("<failed>");
        const LocalizedText* t = resp.results[0].value.get<LocalizedText>();
        return t ? t->text.toQString() : QString("<no text>");
    };
    QCOMPARE(displayName(), QString("Int32_1000"));
    QCOMPARE(m_server->updateAddressSpace([](AddressSpace& a) {
        a.findMutable(NodeId(1, 1000u))->setDisplayName(LocalizedText{String(), String("Renamed")});
        return StatusCode();
    }), StatusCode());
    QCOMPARE(displayName(), QString("Renamed"));  // same connection, its cached snapshot refreshed
}

void TestSessions::tooManySessions() {
    RawClient* c = channel();
    QVERIFY(c);
    int created = 0;
    StatusCode last;
    for (int i = 0; i < 30; ++i) {
        CreateSessionRequest req;
        req.requestedSessionTimeout = 60000;
        CreateSessionResponse r;
        last = rawCall(*c, req, &r);
        if (last.isBad()) break;
        // Activated: a Session not activated would make room for the next one (OPC 10000-4
        // 5.7.2.1; tests/client/tst_admission unactivatedSessionsDoNotExhaustAnything).
        QCOMPARE(rawActivate(*c, r.authenticationToken), status::Good);
        ++created;
    }
    QCOMPARE(last, status::BadTooManySessions);
    QCOMPARE(m_server->sessions().count(), 20);
}

UA_TEST_GUILESS_MAIN(TestSessions)
#include "tst_sessions.moc"
