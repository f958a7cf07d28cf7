// SessionManager (libua/ua/server/SessionManager.h) on its own, with a clock the test sets: expiry
// looked at at each Session's deadline (an active Session is kept and expires a timeout after its
// last request), the activation timeout, channelClosed() and making room at maxSessions (OPC
// 10000-4 5.6.2, 5.7.2.1), and every removal reported once.
#include "ua/server/common/SessionManager.h"
#include "ua/server/common/ChannelSessions.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QTest>
#include "TestMain.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace ua;

namespace {
struct SessionEnds {
    std::vector<SessionEnd> ends;
    void attach(SessionManager& m) {
        m.onRemoved = [this](const Session&, SessionEnd why) { ends.push_back(why); };
    }
};
} // namespace

class TestSessionManager : public QObject {
    Q_OBJECT
private slots:
    void channelSessionsFindsOnlyTheExactToken();
    void anActiveSessionExpiresATimeoutAfterItsLastRequest() {
        SessionManager m(100);
        SessionEnds ends;
        ends.attach(m);
        const SessionPtr idle = m.create(1, 100, 0);
        const SessionPtr busy = m.create(2, 100, 0);
        m.markActivated(idle);
        m.markActivated(busy);
        busy->touch(80);
        QCOMPARE(m.expire(100), 0);  // not past 100 ms yet
        QCOMPARE(m.expire(101), 1);  // idle: 101 - 0 > 100
        QVERIFY(idle->closed);
        QVERIFY(!busy->closed);
        busy->touch(150);
        QCOMPARE(m.expire(181), 0);  // its deadline moved: 150 + 100
        QCOMPARE(m.expire(250), 0);
        QCOMPARE(m.expire(251), 1);
        QVERIFY(busy->closed);
        QCOMPARE(m.count(), 0);
        QCOMPARE(ends.ends, (std::vector<SessionEnd>{SessionEnd::TimedOut, SessionEnd::TimedOut}));
    }

    void unactivatedSessionsAreAbortedAfterTheActivationTimeout() {
        SessionManager m(100, 0, 50);
        SessionEnds ends;
        ends.attach(m);
        const SessionPtr waiting = m.create(1, 10'000, 0);
        const SessionPtr activated = m.create(1, 10'000, 0);
        m.markActivated(activated);
        QCOMPARE(m.pendingCount(), 1);
        QCOMPARE(m.expire(50), 0);
        QCOMPARE(m.expire(51), 1);
        QVERIFY(waiting->closed);
        QVERIFY(!activated->closed);
        QCOMPARE(m.pendingCount(), 0);
        QCOMPARE(ends.ends, std::vector<SessionEnd>{SessionEnd::Aborted});
    }

    void aClosedChannelTakesOnlyItsUnactivatedSessions() {
        SessionManager m(100);
        const SessionPtr a = m.create(7, 1000, 0);
        const SessionPtr b = m.create(7, 1000, 0);
        const SessionPtr other = m.create(8, 1000, 0);
        m.markActivated(b);
        m.channelClosed(7);
        QVERIFY(a->closed);
        QVERIFY(!b->closed);  // activated: it outlives its channel (OPC 10000-4 5.6.2)
        QVERIFY(!other->closed);
        QCOMPARE(m.count(), 2);
        QCOMPARE(m.pendingCount(), 1);
    }

    void atMaxSessionsTheOldestUnactivatedMakesRoom() {
        SessionManager m(3);
        const SessionPtr first = m.create(1, 1000, 10);
        const SessionPtr second = m.create(1, 1000, 20);
        const SessionPtr third = m.create(1, 1000, 30);
        m.markActivated(first);
        const SessionPtr fourth = m.create(1, 1000, 40);
        QVERIFY(fourth);
        QVERIFY(second->closed);  // the oldest not activated
        QVERIFY(!third->closed);
        m.markActivated(third);
        m.markActivated(fourth);
        StatusCode refused;
        QVERIFY(!m.create(1, 1000, 50, &refused));
        QCOMPARE(refused, StatusCode(status::BadTooManySessions));
    }

    void aRemovedSessionIsNotExpiredAgain() {
        SessionManager m(10);
        SessionEnds ends;
        ends.attach(m);
        const SessionPtr s = m.create(1, 100, 0);
        m.markActivated(s);
        m.remove(s);
        QCOMPARE(m.expire(1000), 0);
        QCOMPARE(ends.ends, std::vector<SessionEnd>{SessionEnd::Closed});
    }

    // A timeout too large for the clock never expires; NaN and negative ones expire at the first
    // look (a revised timeout is never either: CreateSession clamps it).
    void timeoutsAtTheEdges() {
        SessionManager m(10);
        const SessionPtr huge = m.create(1, 1e300, 0);
        const SessionPtr inf = m.create(1, std::numeric_limits<double>::infinity(), 0);
        const SessionPtr neg = m.create(1, -5, 0);
        const SessionPtr nan = m.create(1, std::nan(""), 0);
        for (const auto& s : {huge, inf, neg, nan}) m.markActivated(s);
        QCOMPARE(m.expire(1), 2);
        QVERIFY(neg->closed && nan->closed);
        QCOMPARE(m.expire(std::numeric_limits<int64_t>::max() / 2), 0);
        QVERIFY(!huge->closed && !inf->closed);
    }
};

// ChannelSessions (a connection's own list, tried before the SessionManager) compares a Guid or
// opaque token with a copy of its bytes: the same token finds its Session, any other token (one
// byte, length, namespace or type apart) finds none, a token of another kind is compared through
// the Session, and closed Sessions are dropped.
void TestSessionManager::channelSessionsFindsOnlyTheExactToken() {
    SessionManager m(100);
    const SessionPtr a = m.create(1, 1000, 0);
    const SessionPtr b = m.create(1, 1000, 0);
    QCOMPARE(a->authenticationToken.idType(), NodeId::IdType::Guid);  // what this server issues
    const SessionPtr o = m.create(1, 1000, 0);
    o->authenticationToken = NodeId(0, ByteString(std::string(32, 'x')));
    const SessionPtr s = m.create(1, 1000, 0);
    s->authenticationToken = NodeId(0, String("a string token"));  // not copied: through the Session
    ChannelSessions cs;
    for (const SessionPtr& x : {a, b, o, s}) cs.remember(x);
    cs.remember(a);  // once
    QCOMPARE(cs.size(), std::size_t(4));
    QCOMPARE(cs.find(a->authenticationToken), a);
    QCOMPARE(cs.find(NodeId(0, Guid(a->authenticationToken.guid()))), a);  // an equal one, as decoded
    QCOMPARE(cs.find(b->authenticationToken), b);
    QCOMPARE(cs.find(NodeId(0, ByteString(std::string(32, 'x')))), o);
    QCOMPARE(cs.find(NodeId(0, String("a string token"))), s);
    Guid g = a->authenticationToken.guid();
    g.data4[7] ^= 1;
    QVERIFY(!cs.find(NodeId(0, g)));
    g = a->authenticationToken.guid();
    g.data1 ^= 0x80000000u;
    QVERIFY(!cs.find(NodeId(0, g)));
    QVERIFY(!cs.find(NodeId(1, a->authenticationToken.guid())));  // another namespace
    {  // an opaque token of the Guid's 16 bytes, as the copy lays them out: another type, no match
        const Guid& ag = a->authenticationToken.guid();
        std::string raw(16, '\0');
        std::memcpy(raw.data(), &ag.data1, 4);
        std::memcpy(raw.data() + 4, &ag.data2, 2);
        std::memcpy(raw.data() + 6, &ag.data3, 2);
        std::memcpy(raw.data() + 8, ag.data4.data(), 8);
        QVERIFY(!cs.find(NodeId(0, ByteString(raw))));
    }
    QVERIFY(!cs.find(NodeId(0, ByteString(std::string(31, 'x')))));
    QVERIFY(!cs.find(NodeId(0, ByteString(std::string(31, 'x') + 'y'))));
    QVERIFY(!cs.find(NodeId(0, String(std::string(32, 'x')))));  // a String with the same bytes
    QVERIFY(!cs.find(NodeId(0, ByteString())));                  // null
    QVERIFY(!cs.find(NodeId(0, 42u)));
    QVERIFY(!cs.find(NodeId(0, String("another string"))));
    // Closed: dropped as it is passed, and not found.
    a->closed = true;
    QVERIFY(!cs.find(a->authenticationToken));
    a->closed = false;
    QVERIFY(!cs.find(a->authenticationToken));  // dropped, not only skipped
    QCOMPARE(cs.size(), std::size_t(3));
    cs.forget(b);
    QVERIFY(!cs.find(b->authenticationToken));
    QCOMPARE(cs.find(o->authenticationToken), o);
}

UA_TEST_GUILESS_MAIN(TestSessionManager)
#include "tst_session_manager.moc"
