// The client's small parts: NodeIdConverter ("nsu=" strings), the RelativePath text form,
// EndpointUrl, the reconnect backoff and the extended sequence numbers.
#include "ua/client/calls/DeadlineQueues.h"
#include "ua/client/discovery/EndpointUrl.h"
#include "ua/client/browse/NodeIdConverter.h"
#include "ua/client/calls/PendingTable.h"
#include "ua/client/session/ReconnectBackoff.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/client/subscriptions/SequenceNumbers.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QtTest>
#include "TestMain.h"
#include <map>
#include <set>

using namespace ua;

class TestClientParts : public QObject {
    Q_OBJECT
private slots:
    void persistentStringsUseNamespaceUris_data();
    void persistentStringsUseNamespaceUris();
    void persistentStringsRefuseUnknownNamespaces();
    void namespaceIndexesMayChange();
    void relativePathText_data();
    void relativePathText();
    void relativePathRejectsBadText_data();
    void relativePathRejectsBadText();
    void endpointUrls_data();
    void endpointUrls();
    void backoffGrowsWithJitter();
    void sequenceNumbersGoOnPastTheWrap();
    void deadlineQueuesKeepEachTimeoutInOrder();
    void deadlineQueuesDropCompletedCallsAtTheFront();
    void pendingTableFindsByHandleAndForgetsTakenCalls();
    void pendingTableKeepsReferencesWhileGrowing();
};

static const std::vector<String> kNamespaces{String(kOpcUaNamespaceUri), String("urn:test:server"), String("http://x.org/UA/Demo/")};

void TestClientParts::persistentStringsUseNamespaceUris_data() {
    QTest::addColumn<QString>("nodeId");
    QTest::addColumn<QString>("persistent");
    QTest::newRow("ns0 numeric") << "i=2253" << "i=2253";
    QTest::newRow("ns1 numeric") << "ns=1;i=1000" << "nsu=urn:test:server;i=1000";
    QTest::newRow("ns2 string") << "ns=2;s=Demo.Static" << "nsu=http://x.org/UA/Demo/;s=Demo.Static";
    QTest::newRow("ns1 guid") << "ns=1;g=09087e75-8e5e-499b-954f-f2a9603db28a" << "nsu=urn:test:server;g=09087E75-8E5E-499B-954F-F2A9603DB28A";
    QTest::newRow("ns2 opaque") << "ns=2;b=AAEC" << "nsu=http://x.org/UA/Demo/;b=AAEC";
}

void TestClientParts::persistentStringsUseNamespaceUris() {
    QFETCH(QString, nodeId);
    QFETCH(QString, persistent);
    const NodeIdConverter c(kNamespaces);
    const auto id = NodeId::parse(nodeId.toStdString());
    QVERIFY(id);
    const auto s = c.toPersistentString(*id);
    QVERIFY(s);
    QCOMPARE(QString::fromStdString(*s), persistent);
    const auto back = c.fromPersistentString(*s);
    QVERIFY(back);
    QCOMPARE(*back, *id);
    // The free functions agree.
    QCOMPARE(*toPersistentString(*id, kNamespaces), *s);
    QCOMPARE(*fromPersistentString(*s, kNamespaces), *id);
}

void TestClientParts::persistentStringsRefuseUnknownNamespaces() {
    const NodeIdConverter c(kNamespaces);
    QVERIFY(!c.toPersistentString(NodeId(7, 1)));                       // index not in the array
    QVERIFY(!c.fromPersistentString("nsu=urn:unknown;i=1"));            // URI the server does not have
    QVERIFY(!c.fromPersistentString("ns=1;i=1000"));                    // an index alone is not persistent
    QVERIFY(!c.fromPersistentString("svr=1;nsu=urn:test:server;i=1"));  // another server
    QVERIFY(!c.fromPersistentString("garbage"));
    QCOMPARE(*c.fromPersistentString("nsu=http://opcfoundation.org/UA/;i=85"), NodeId(id::ObjectsFolder));
    QCOMPARE(*c.fromPersistentString("i=85"), NodeId(id::ObjectsFolder));
    // A default converter knows namespace 0 only.
    QCOMPARE(NodeIdConverter().namespaceArray().size(), std::size_t(1));
}

void TestClientParts::namespaceIndexesMayChange() {
    // Stored under one session, resolved under another where the server renumbered its namespaces.
    const NodeIdConverter before(kNamespaces);
    const NodeIdConverter after({String(kOpcUaNamespaceUri), String("http://x.org/UA/Demo/"), String("urn:other"), String("urn:test:server")});
    const std::string stored = *before.toPersistentString(NodeId(1, 1000));
    QCOMPARE(*after.fromPersistentString(stored), NodeId(3, 1000));
}

void TestClientParts::relativePathText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");  // per element: "<refId>|<inverse>|<subtypes>|<ns>:<name>"
    QTest::newRow("hierarchical") << "/Objects/Server/ServerStatus"
                                  << QStringList{"33|0|1|0:Objects", "33|0|1|0:Server", "33|0|1|0:ServerStatus"};
    QTest::newRow("aggregates with ns") << "/0:Objects/1:Bench.1:Double" << QStringList{"33|0|1|0:Objects", "33|0|1|1:Bench", "44|0|1|1:Double"};
    QTest::newRow("reference type") << "<HasComponent>2:Boiler<#!Organizes>Plant"
                                    << QStringList{"47|0|1|2:Boiler", "35|1|0|0:Plant"};
    QTest::newRow("escapes") << "/2:Block&.Output" << QStringList{"33|0|1|2:Block.Output"};
    QTest::newRow("all targets at the end") << "/Objects/" << QStringList{"33|0|1|0:Objects", "33|0|1|0:"};
}

void TestClientParts::relativePathText() {
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    const auto rp = parseRelativePath(text.toStdString());
    QVERIFY(rp);
    QStringList got;
    for (const auto& e : rp->elements)
        got << QStringLiteral("%1|%2|%3|%4:%5").arg(e.referenceTypeId.numeric()).arg(int(e.isInverse)).arg(int(e.includeSubtypes))
                   .arg(e.targetName.namespaceIndex).arg(e.targetName.name.toQString());
    QCOMPARE(got, expected);
    const auto bp = makeBrowsePath(NodeId(id::RootFolder), text.toStdString());
    QVERIFY(bp);
    QCOMPARE(bp->startingNode, NodeId(id::RootFolder));
}

void TestClientParts::relativePathRejectsBadText_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("no separator") << "Objects";
    QTest::newRow("unknown reference type") << "<NoSuchRef>X";
    QTest::newRow("unterminated reference") << "<HasComponent";
    QTest::newRow("dangling escape") << "/a&";
    QTest::newRow("empty name inside") << "//Objects";
}

void TestClientParts::relativePathRejectsBadText() {
    QFETCH(QString, text);
    QVERIFY(!parseRelativePath(text.toStdString()));
}

void TestClientParts::endpointUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("path");
    QTest::newRow("full") << "opc.tcp://plc.example:4841/UA/Server" << true << "plc.example" << 4841 << "/UA/Server";
    QTest::newRow("default port") << "opc.tcp://10.0.0.1" << true << "10.0.0.1" << 4840 << "";
    QTest::newRow("ipv6") << "opc.tcp://[::1]:4855" << true << "::1" << 4855 << "";
    QTest::newRow("upper-case scheme") << "OPC.TCP://h:1" << true << "h" << 1 << "";
    QTest::newRow("http") << "http://h:80" << false << "" << 0 << "";
    QTest::newRow("no host") << "opc.tcp://:4840" << false << "" << 0 << "";
    QTest::newRow("bad port") << "opc.tcp://h:99999" << false << "" << 0 << "";
}

void TestClientParts::endpointUrls() {
    QFETCH(QString, url);
    QFETCH(bool, valid);
    const auto e = EndpointUrl::parse(url);
    QCOMPARE(bool(e), valid);
    if (!valid) return;
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, path);
    QCOMPARE(e->host, host);
    QCOMPARE(int(e->port), port);
    QCOMPARE(e->path, path);
    QCOMPARE(EndpointUrl::parse(e->toString())->host, host);
    QCOMPARE(e->withHost("other").host, QString("other"));
}

void TestClientParts::sequenceNumbersGoOnPastTheWrap() {
    constexpr uint64_t P = kSequencePeriod;
    QCOMPARE(wireSequence(1), 1u);
    QCOMPARE(wireSequence(P), 0xFFFFFFFFu);
    QCOMPARE(wireSequence(P + 1), 1u);  // 0 is skipped
    QCOMPARE(extendSequence(1, 1), uint64_t(1));
    QCOMPARE(extendSequence(5, 1), uint64_t(5));
    QCOMPARE(extendSequence(0xFFFFFFFFu, P), P);
    QCOMPARE(extendSequence(1, P + 1), P + 1);   // the number after 0xFFFFFFFF
    QCOMPARE(extendSequence(3, P - 1), P + 3);   // a gap across the wrap stays a gap of 4
    QCOMPARE(extendSequence(0xFFFFFFFEu, P + 2), P - 1);  // an old one from before the wrap stays old
    QCOMPARE(extendSequence(0xFFFFFFF0u, 1), uint64_t(0xFFFFFFF0u));  // nothing before the first turn
    QCOMPARE(extendSequence(0, P + 5), P);       // 0 (never sent) is 0xFFFFFFFF
    for (uint64_t e : {uint64_t(1), P - 3, P, P + 1, 3 * P + 17})
        for (int64_t d : {-1000, -1, 0, 1, 1000}) {  // expected within 1,000 of it, on either side
            if (int64_t(e) + d < 1) continue;
            QCOMPARE(extendSequence(wireSequence(e), uint64_t(int64_t(e) + d)), e);
        }
}

void TestClientParts::backoffGrowsWithJitter() {
    ReconnectPolicy p;
    p.initialDelayMs = 100;
    p.maxDelayMs = 1000;
    p.multiplier = 2;
    p.jitter = 0.25;
    // Without randomness (r = 0.5 is the midpoint): 100, 200, 400, 800, 1000, 1000.
    const uint32_t mid[] = {100, 200, 400, 800, 1000, 1000};
    for (int i = 0; i < 6; ++i) QCOMPARE(ReconnectBackoff::delayMs(p, i, 0.5), mid[i]);
    // The jitter bounds: +-25 %.
    QCOMPARE(ReconnectBackoff::delayMs(p, 2, 0.0), 300u);
    QCOMPARE(ReconnectBackoff::delayMs(p, 2, 1.0), 500u);
    // Random delays stay inside the bounds and are not all equal.
    ReconnectBackoff b(p);
    std::set<uint32_t> seen;
    for (int i = 0; i < 50; ++i) {
        b.reset();
        const uint32_t d = b.nextDelayMs();
        QVERIFY(d >= 75 && d <= 125);
        seen.insert(d);
    }
    QVERIFY(seen.size() > 1);
    p.maxAttempts = 2;
    ReconnectBackoff limited(p);
    QVERIFY(!limited.exhausted());
    limited.nextDelayMs();
    limited.nextDelayMs();
    QVERIFY(limited.exhausted());
    limited.reset();
    QVERIFY(!limited.exhausted());
}

// The pending calls of a Client (ClientCore): deadline = issue time + timeout, handles issued in
// increasing order. DeadlineQueues must give the earliest deadline of a pending call and the due
// calls, whatever the mix of timeouts, across the growth of its rings.
void TestClientParts::deadlineQueuesKeepEachTimeoutInOrder() {
    DeadlineQueues q;
    std::map<uint32_t, int64_t> pending;  // handle -> deadline
    auto isPending = [&](uint32_t h) { return pending.count(h) > 0; };
    const uint32_t timeouts[] = {5000, 100, 60000};
    uint32_t handle = 0;
    for (int64_t now = 0; now < 300; ++now) {  // 900 calls: every ring wraps and grows past 64
        for (uint32_t t : timeouts) {
            pending[++handle] = now + t;
            q.add(t, handle, now + t, isPending);
        }
    }
    QCOMPARE(q.earliest(isPending), int64_t(100));  // the first 100 ms call
    std::vector<uint32_t> due;
    q.takeDue(250, isPending, due);  // the 100 ms calls issued at 0..150
    QCOMPARE(due.size(), std::size_t(151));
    QVERIFY(std::is_sorted(due.begin(), due.end()));
    for (uint32_t h : due) {
        QCOMPARE(pending.at(h) - 100 <= 150, true);
        pending.erase(h);
    }
    QCOMPARE(q.earliest(isPending), int64_t(251));
    due.clear();
    q.takeDue(250, isPending, due);
    QVERIFY(due.empty());
    QCOMPARE(q.size(), std::size_t(900 - 151));
}

// A completed call is not searched for: it leaves when it reaches the front, and a run of them at
// the front leaves at the next add, so a steady load keeps each ring about as long as the calls
// in flight.
void TestClientParts::deadlineQueuesDropCompletedCallsAtTheFront() {
    DeadlineQueues q;
    std::map<uint32_t, int64_t> pending;
    auto isPending = [&](uint32_t h) { return pending.count(h) > 0; };
    uint32_t handle = 0;
    for (int64_t now = 0; now < 10000; ++now) {  // 10 in flight, answered in issue order
        pending[++handle] = now + 1000;
        q.add(1000, handle, now + 1000, isPending);
        if (handle > 10) pending.erase(handle - 10);
    }
    QVERIFY2(q.size() <= 11, qPrintable(QString::number(q.size())));
    pending.clear();  // the last ten answered too
    // One call never answered holds the ring open behind it until it is due; then the rest goes.
    const uint32_t stuck = handle + 1;
    for (int64_t now = 10000; now < 10500; ++now) {
        pending[++handle] = now + 1000;
        q.add(1000, handle, now + 1000, isPending);
        if (handle - 10 > stuck) pending.erase(handle - 10);
    }
    QCOMPARE(q.earliest(isPending), int64_t(11000));
    std::vector<uint32_t> due;
    q.takeDue(11000, isPending, due);
    QCOMPARE(due, std::vector<uint32_t>{stuck});
    pending.erase(stuck);
    QVERIFY2(q.size() <= 11, qPrintable(QString::number(q.size())));
    QCOMPARE(q.earliest(isPending), int64_t(10500 - 10 + 1000));
}

UA_TEST_GUILESS_MAIN(TestClientParts)
// The pending calls by RequestHandle (ClientCore): a handle is never 0, finds its call until it is
// taken, and a handle whose slot was reused by a later call finds nothing (a late response).
void TestClientParts::pendingTableFindsByHandleAndForgetsTakenCalls() {
    PendingTable<std::string> t;
    const uint32_t a = t.add("a");
    const uint32_t b = t.add("b");
    QVERIFY(a != 0 && b != 0 && a != b);
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(*t.find(a), std::string("a"));
    QCOMPARE(*t.find(b), std::string("b"));
    QVERIFY(!t.find(0));
    QVERIFY(!t.find(b + 1000));
    QVERIFY(t.contains(a) && t.contains(b) && !t.contains(0) && !t.contains(b + 1000));
    QCOMPARE(t.take(a).value(), std::string("a"));
    QVERIFY(!t.find(a));
    QVERIFY(!t.contains(a));
    QVERIFY(!t.take(a));
    QVERIFY(!t.erase(a));
    const uint32_t c = t.add("c");  // a's slot, another serial
    QCOMPARE(c & PendingTable<std::string>::kIndexMask, a & PendingTable<std::string>::kIndexMask);
    QVERIFY(c != a);
    QVERIFY(!t.find(a));
    QCOMPARE(*t.find(c), std::string("c"));
    std::set<uint32_t> seen;
    t.forEach([&](uint32_t h, const std::string&) { seen.insert(h); });
    QCOMPARE(seen, (std::set<uint32_t>{b, c}));
    // A slot reused many times (the serial wraps): no handle is 0, and a stale one is never found.
    uint32_t last = c;
    QVERIFY(t.take(c));
    for (int i = 0; i < 5000; ++i) {
        const uint32_t h = t.add("x");
        QVERIFY(h != 0);
        QVERIFY(h != last);
        QVERIFY(!t.find(last));
        QVERIFY(!t.contains(last));
        QVERIFY(t.contains(h));
        QVERIFY(i % 2 ? t.erase(h) : bool(t.take(h)));
        QVERIFY(!t.contains(h));
        last = h;
    }
    QCOMPARE(t.size(), std::size_t(1));
}

// ClientCore holds a reference to a pending call while the completion of another adds more.
void TestClientParts::pendingTableKeepsReferencesWhileGrowing() {
    PendingTable<int> t;
    const uint32_t first = t.add(1);
    int& ref = *t.find(first);
    std::vector<uint32_t> handles;
    for (int i = 0; i < 100000; ++i) handles.push_back(t.add(int(i)));
    QCOMPARE(&ref, t.find(first));
    QCOMPARE(ref, 1);
    for (std::size_t i = 0; i < handles.size(); ++i) QCOMPARE(*t.find(handles[i]), int(i));
    QCOMPARE(t.size(), std::size_t(100001));
}

#include "tst_client_parts.moc"
