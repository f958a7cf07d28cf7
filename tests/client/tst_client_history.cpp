// Our client's Historical Access against our server in process (issue 30 items 4 and 5, the client
// side; ua/client/history/, Client::historyRead*). The server samples the demo signals every 100 ms
// into a temporary SQLite file; at the start an Engineer also inserts a fixed series into Ramp's
// history twenty minutes back (value 7k mod 11 at P0 + k x 100 ms, k = 0..59), on which the reads are
// checked exactly, whatever a loaded machine lets the sampler keep.
//   - Read Raw: the fixed series at once and 4 per request (the same values, 15 or 16 requests), two
//     nodes at a time, bounds (Bad_BoundNotFound where there is none), TimestampsToReturn Source, and
//     the sampled values (Ramp is (t / 100 ms) mod 100 at its timestamp t);
//   - maxValues: stopped early with Good_MoreData, and the released ContinuationPoint refused by the
//     server afterwards (Bad_ContinuationPointInvalid) while one not released goes on;
//   - Read Processed: Count, Minimum, Maximum and Average over 500 ms intervals; a continuation of a
//     processed read (every 10,000 intervals) next to a failed node, which needs the aggregate list
//     cut to the open node;
//   - Read At Time: a stored value's own time and an interpolated midpoint, both bounds kinds;
//   - HistoryUpdate as an Engineer (insert, replace, update, delete, Read Modified with the user) and
//     refused to the Operator;
//   - the Bad_ statuses of the service and of the operations.
#include "ClientTestUtil.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/client/history/HistorianBits.h"
#include "ua/client/history/HistoryContinuation.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <memory>
#include <set>

using namespace ua;
using namespace ua::test;

namespace {

constexpr int64_t kHistMsTicks = DateTime::kTicksPerMs;

int64_t histMs(const DateTime& t) { return (t.ticks - DateTime::kUnixEpochTicks) / kHistMsTicks; }

double histFixed(int k) { return double((7 * k) % 11); }

double histNumber(const DataValue& d) {
    const double* v = d.value.get<double>();
    if (v) return *v;
    if (const int32_t* i = d.value.get<int32_t>()) return *i;
    return -1e300;
}

DataValue histValue(double v, const DateTime& t) {
    DataValue d{Variant(v)};
    d.setSourceTimestamp(t);
    return d;
}

} // namespace

class TestClientHistory : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void rawReadsEveryValueWithContinuationPoints();
    void maxValuesReleasesTheContinuationPoint();
    void processedCountMinimumMaximum();
    void processedContinuationNextToAFailedNode();
    void atTime();
    void historyUpdateRoundTripAsEngineer();
    void badStatuses();

private:
    ServiceResult<HistoryValues> readRaw(const std::vector<NodeId>& nodes, const ReadRawModifiedDetails& d, HistoryReadOptions o = {});
    ServiceResult<HistoryValues> readProcessed(const std::vector<NodeId>& nodes, const HistoryProcessedRead& p, HistoryReadOptions o = {});
    ServiceResult<HistoryValues> readAtTime(const std::vector<NodeId>& nodes, const ReadAtTimeDetails& d);
    ServiceResult<HistoryUpdateResponse> update(Client& c, std::vector<HistoryUpdateOperation> ops);
    ServiceResult<HistoryReadResponse> historyReadOnce(const HistoryReadRequest& req);
    ReadRawModifiedDetails range(int64_t fromMs, int64_t toMs, uint32_t perRequest = 0) const;
    NodeId demo(const char* name) const { return NodeId(m_ns, String(name)); }

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Client> m_client;    // anonymous: Operator
    std::unique_ptr<Client> m_engineer;  // Engineer
    uint16_t m_ns = 0;
    int64_t m_startMs = 0;               // the server's start
    int64_t m_p0Ms = 0;                  // the fixed series: histFixed(k) at P0 + k x 100 ms, k = 0..59
    int64_t m_fromMs = 0, m_toMs = 0;    // a range of 3 s of sampled values
    std::vector<DataValue> m_fixed;      // the fixed series as Read Raw returns it
};

void TestClientHistory::initTestCase() {
    QVERIFY(m_dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = m_dir.filePath("server-pki");
    cfg.security.trustAllClients = true;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
    cfg.security.users.setUser("engineer", "engineer-pw", roleBit(Role::Engineer), 1000);
    cfg.demoUpdateRateMs = 100;
    cfg.history.databasePath = m_dir.filePath("history.sqlite");
    cfg.history.durabilityMs = 500;
    for (const char* name : {"Demo.Simulation.Ramp", "Demo.Simulation.Sine"}) {
        HistorizedNode h;
        h.node = NodeId(0, String(name));
        h.namespaceUri = "urn:ua-workbench:demo";
        h.samplingIntervalMs = 100;
        cfg.history.nodes.push_back(h);
    }
    m_startMs = QDateTime::currentMSecsSinceEpoch();
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));

    m_client = std::make_unique<Client>();
    QCOMPARE(connectSession(*m_client, urlOf(m_server->port()), this), status::Good);
    ClientConfig e;
    e.identity = UserIdentity::fromUserName(QStringLiteral("engineer"), QStringLiteral("engineer-pw"));
    e.pkiDir = m_dir.filePath("client-pki");  // the server's certificate encrypts the password on the None channel
    e.securityPolicyUri = QString::fromUtf8(kSecurityPolicyNone);
    e.securityMode = MessageSecurityMode::None;
    e.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    m_engineer = std::make_unique<Client>(e);
    QCOMPARE(connectSession(*m_engineer, urlOf(m_server->port()), this), status::Good);
    const auto ns = m_client->nodeIdConverter().toNodeId(*ExpandedNodeId::parse("nsu=urn:ua-workbench:demo;s=x"));
    QVERIFY(ns);
    m_ns = ns->namespaceIndex();

    // The fixed series, twenty minutes before the start (nothing sampled there).
    m_p0Ms = (m_startMs - 1200000) / 1000 * 1000;
    UpdateDataDetails insert;
    insert.nodeId = demo("Demo.Simulation.Ramp");
    insert.performInsertReplace = PerformUpdateType::Insert;
    insert.updateValues = Array<DataValue>::emptyArray();
    for (int k = 0; k < 60; ++k) insert.updateValues.push_back(histValue(histFixed(k), DateTime::fromUnixMs(m_p0Ms + k * 100)));
    const ServiceResult<HistoryUpdateResponse> u = update(*m_engineer, {insert});
    QCOMPARE(u.status, status::Good);
    QCOMPARE(u.response.results.size(), std::size_t(1));
    QCOMPARE(u.response.results[0].operationResults, Array<StatusCode>(std::vector<StatusCode>(60, status::GoodEntryInserted)));
    const ServiceResult<HistoryValues> all = readRaw({demo("Demo.Simulation.Ramp")}, range(m_p0Ms, m_p0Ms + 6000));
    QCOMPARE(all.status, status::Good);
    QCOMPARE(all.response.nodes.size(), std::size_t(1));
    m_fixed = all.response.nodes[0].values;

    // 4 s of sampling, then a range of 3 s that ends half a second back.
    QTest::qWait(int(std::max<int64_t>(0, m_startMs + 4200 - QDateTime::currentMSecsSinceEpoch())));
    m_toMs = (QDateTime::currentMSecsSinceEpoch() - 500) / 100 * 100;
    m_fromMs = m_toMs - 3000;
}

void TestClientHistory::cleanupTestCase() {
    m_engineer.reset();
    m_client.reset();
    m_server.reset();
}

ReadRawModifiedDetails TestClientHistory::range(int64_t fromMs, int64_t toMs, uint32_t perRequest) const {
    ReadRawModifiedDetails d;
    d.startTime = DateTime::fromUnixMs(fromMs);
    d.endTime = DateTime::fromUnixMs(toMs);
    d.numValuesPerNode = perRequest;
    return d;
}

ServiceResult<HistoryValues> TestClientHistory::readRaw(const std::vector<NodeId>& nodes, const ReadRawModifiedDetails& d,
                                                        HistoryReadOptions o) {
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadRaw(nodes, d, o, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

ServiceResult<HistoryValues> TestClientHistory::readProcessed(const std::vector<NodeId>& nodes, const HistoryProcessedRead& p,
                                                              HistoryReadOptions o) {
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadProcessed(nodes, p, o, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

ServiceResult<HistoryValues> TestClientHistory::readAtTime(const std::vector<NodeId>& nodes, const ReadAtTimeDetails& d) {
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadAtTime(nodes, d, {}, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

ServiceResult<HistoryUpdateResponse> TestClientHistory::update(Client& c, std::vector<HistoryUpdateOperation> ops) {
    Awaited<ServiceResult<HistoryUpdateResponse>> r;
    c.historyUpdate(std::move(ops), this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

ServiceResult<HistoryReadResponse> TestClientHistory::historyReadOnce(const HistoryReadRequest& req) {
    Awaited<ServiceResult<HistoryReadResponse>> r;
    m_client->call<HistoryReadRequest, HistoryReadResponse>(req, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

void TestClientHistory::rawReadsEveryValueWithContinuationPoints() {
    // The fixed series as inserted: every value, its timestamp, Good, a server timestamp.
    QCOMPARE(m_fixed.size(), std::size_t(60));
    for (int k = 0; k < 60; ++k) {
        const DataValue& v = m_fixed[std::size_t(k)];
        QCOMPARE(v.sourceTimestamp, DateTime::fromUnixMs(m_p0Ms + k * 100));
        QCOMPARE(histNumber(v), histFixed(k));
        QCOMPARE(v.status, status::Good);
        QVERIFY(v.hasServerTimestamp);
    }
    // 4 values per request: the same values, the ContinuationPoints followed to the end.
    const NodeId ramp = demo("Demo.Simulation.Ramp"), sine = demo("Demo.Simulation.Sine");
    const ServiceResult<HistoryValues> paged = readRaw({ramp}, range(m_p0Ms, m_p0Ms + 6000, 4));
    QCOMPARE(paged.status, status::Good);
    const HistoryNodeValues& p = paged.response.nodes[0];
    QCOMPARE(p.status, status::Good);
    QCOMPARE(p.values, m_fixed);
    QVERIFY2(p.requests == 15 || p.requests == 16, qPrintable(QStringLiteral("%1 requests").arg(p.requests)));
    // Two nodes at a time, each with its own ContinuationPoints (Sine over the sampled range).
    const ServiceResult<HistoryValues> sineAlone = readRaw({sine}, range(m_fromMs, m_toMs));
    const ServiceResult<HistoryValues> both = readRaw({sine, ramp}, range(m_fromMs, m_toMs, 7));
    QCOMPARE(both.response.nodes.size(), std::size_t(2));
    QVERIFY(!sineAlone.response.nodes[0].values.empty());
    QCOMPARE(both.response.nodes[0].values, sineAlone.response.nodes[0].values);
    const ServiceResult<HistoryValues> rampAlone = readRaw({ramp}, range(m_fromMs, m_toMs));
    QCOMPARE(both.response.nodes[1].values, rampAlone.response.nodes[0].values);
    // The sampled values: on the 100 ms grid, in order, Ramp's value of its own timestamp.
    const std::vector<DataValue>& sampled = rampAlone.response.nodes[0].values;
    QVERIFY2(sampled.size() >= 10 && sampled.size() <= 30, qPrintable(QString::number(sampled.size())));
    int64_t previous = m_fromMs - 1;
    for (const DataValue& v : sampled) {
        const int64_t t = histMs(v.sourceTimestamp);
        QVERIFY2(t >= m_fromMs && t < m_toMs && t > previous && t % 100 == 0, qPrintable(QString::number(t)));
        QCOMPARE(histNumber(v), double((t / 100) % 100));
        previous = t;
    }
    // Bounds: off the grid, the values inside and the nearest one on each side; the end bound is the
    // first sampled value, twenty minutes later.
    ReadRawModifiedDetails bounded = range(m_p0Ms + 50, m_p0Ms + 5950, 5);
    bounded.returnBounds = true;
    const ServiceResult<HistoryValues> b = readRaw({ramp}, bounded);
    const std::vector<DataValue>& withBounds = b.response.nodes[0].values;
    QCOMPARE(withBounds.size(), std::size_t(61));
    QCOMPARE(withBounds.front(), m_fixed.front());
    QCOMPARE(std::vector<DataValue>(withBounds.begin() + 1, withBounds.end() - 1), std::vector<DataValue>(m_fixed.begin() + 1, m_fixed.end()));
    QVERIFY(histMs(withBounds.back().sourceTimestamp) >= m_startMs - 1000);
    // No value before the series: the start bound is Bad_BoundNotFound at startTime, without a value.
    bounded = range(m_p0Ms - 1000, m_p0Ms + 250);
    bounded.returnBounds = true;
    const ServiceResult<HistoryValues> first = readRaw({ramp}, bounded);
    const std::vector<DataValue>& f = first.response.nodes[0].values;
    QCOMPARE(f.size(), std::size_t(5));
    QCOMPARE(f[0].status, status::BadBoundNotFound);
    QCOMPARE(f[0].sourceTimestamp, DateTime::fromUnixMs(m_p0Ms - 1000));
    QVERIFY(!f[0].hasValue);
    QCOMPARE(std::vector<DataValue>(f.begin() + 1, f.end()), std::vector<DataValue>(m_fixed.begin(), m_fixed.begin() + 4));
    // TimestampsToReturn Source: no server timestamps.
    HistoryReadOptions source;
    source.timestampsToReturn = TimestampsToReturn::Source;
    const ServiceResult<HistoryValues> s = readRaw({ramp}, range(m_p0Ms, m_p0Ms + 6000, 10), source);
    const std::vector<DataValue>& sourceOnly = s.response.nodes[0].values;
    QCOMPARE(sourceOnly.size(), m_fixed.size());
    QVERIFY(std::none_of(sourceOnly.begin(), sourceOnly.end(), [](const DataValue& v) { return v.hasServerTimestamp; }));
}

void TestClientHistory::maxValuesReleasesTheContinuationPoint() {
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    HistoryReadOptions six;
    six.maxValues = 6;
    const ServiceResult<HistoryValues> r = readRaw({ramp}, range(m_p0Ms, m_p0Ms + 6000, 4), six);
    const HistoryNodeValues& n = r.response.nodes[0];
    QCOMPARE(n.status, status::GoodMoreData);
    QCOMPARE(n.requests, 2u);
    QCOMPARE(n.values, std::vector<DataValue>(m_fixed.begin(), m_fixed.begin() + 6));

    // The same through the follower with a recording HistoryRead, to see the release reach the server.
    struct Recorded {
        std::vector<HistoryReadRequest> requests;
        int releaseAnswers = 0;
        StatusCode releaseStatus;
    };
    auto rec = std::make_shared<Recorded>();
    HistoryReadCall recording = [this, rec](HistoryReadRequest&& req, uint32_t timeoutMs, ServiceCallback<HistoryReadResponse> done) {
        rec->requests.push_back(req);
        const bool release = req.releaseContinuationPoints;
        m_client->call<HistoryReadRequest, HistoryReadResponse>(std::move(req), this, [rec, release, done](const ServiceResult<HistoryReadResponse>& a) {
            if (release) {
                ++rec->releaseAnswers;
                rec->releaseStatus = a.status.isBad() || a.response.results.empty() ? a.status : a.response.results[0].statusCode;
            }
            if (done) done(a);
        }, timeoutMs);
    };
    const HistoryReadRequest first = makeHistoryReadRequest({ramp}, ExtensionObject::make(range(m_p0Ms, m_p0Ms + 6000, 4)), TimestampsToReturn::Both);
    Awaited<ServiceResult<HistoryValues>> followed;
    recording(HistoryReadRequest(first), 10000, followHistoryContinuationPoints(first, six, 10000, recording, followed.callback()));
    QVERIFY(followed.wait());
    QTRY_COMPARE_WITH_TIMEOUT(rec->releaseAnswers, 1, 10000);
    QCOMPARE(rec->releaseStatus, status::Good);
    QCOMPARE(rec->requests.size(), std::size_t(3));  // first, one continuation, the release
    const HistoryReadRequest& release = rec->requests[2];
    QVERIFY(release.releaseContinuationPoints);
    QCOMPARE(release.nodesToRead.size(), std::size_t(1));
    QVERIFY(!release.nodesToRead[0].continuationPoint.isEmpty());
    // The released ContinuationPoint is gone on the server ...
    HistoryReadRequest again = first;
    again.nodesToRead[0].continuationPoint = release.nodesToRead[0].continuationPoint;
    const ServiceResult<HistoryReadResponse> stale = historyReadOnce(again);
    QCOMPARE(stale.status, status::Good);
    QCOMPARE(stale.response.results.size(), std::size_t(1));
    QCOMPARE(stale.response.results[0].statusCode, status::BadContinuationPointInvalid);
    // ... while one that was not released goes on where it stopped.
    const ServiceResult<HistoryReadResponse> page1 = historyReadOnce(first);
    QCOMPARE(page1.response.results.size(), std::size_t(1));
    QVERIFY(!page1.response.results[0].continuationPoint.isEmpty());
    HistoryReadRequest next = first;
    next.nodesToRead[0].continuationPoint = page1.response.results[0].continuationPoint;
    const ServiceResult<HistoryReadResponse> page2 = historyReadOnce(next);
    QCOMPARE(page2.response.results.size(), std::size_t(1));
    QVERIFY(!page2.response.results[0].statusCode.isBad());
    const HistoryData* data = page2.response.results[0].historyData.get<HistoryData>();
    QVERIFY(data && data->dataValues.size() == 4);
    QCOMPARE(data->dataValues[0], m_fixed[4]);
    next.releaseContinuationPoints = true;
    next.nodesToRead[0].continuationPoint = page2.response.results[0].continuationPoint;
    if (!next.nodesToRead[0].continuationPoint.isEmpty()) historyReadOnce(next);
}

void TestClientHistory::processedCountMinimumMaximum() {
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    HistoryProcessedRead p;
    p.startTime = DateTime::fromUnixMs(m_p0Ms);
    p.endTime = DateTime::fromUnixMs(m_p0Ms + 3000);
    p.processingIntervalMs = 500;
    p.aggregateTypes = {*aggregateFromName("Count"), *aggregateFromName("Minimum"), *aggregateFromName("Maximum"),
                        *aggregateFromName("Average")};
    const ServiceResult<HistoryValues> r = readProcessed({ramp, ramp, ramp, ramp}, p);
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.nodes.size(), std::size_t(4));
    for (std::size_t a = 0; a < 4; ++a) {
        const HistoryNodeValues& n = r.response.nodes[a];
        QVERIFY2(!n.status.isBad(), n.status.name().c_str());
        QCOMPARE(n.values.size(), std::size_t(6));  // 3 s in 500 ms intervals
        for (int i = 0; i < 6; ++i) {
            std::vector<double> raw;
            for (int k = 5 * i; k < 5 * i + 5; ++k) raw.push_back(histFixed(k));
            const DataValue& got = n.values[std::size_t(i)];
            QCOMPARE(got.sourceTimestamp, DateTime::fromUnixMs(m_p0Ms + i * 500));  // each interval's result at its start
            QVERIFY2(got.status.isGood(), got.status.name().c_str());
            double sum = 0;
            for (double v : raw) sum += v;
            const double expected = a == 0 ? double(raw.size()) : a == 1 ? *std::min_element(raw.begin(), raw.end())
                                  : a == 2 ? *std::max_element(raw.begin(), raw.end()) : sum / double(raw.size());
            QCOMPARE(histNumber(got), expected);
        }
    }
    // Count is Int32 and Calculated (OPC 10000-13 5.4.3.21).
    QVERIFY(r.response.nodes[0].values[1].value.get<int32_t>());
    QCOMPARE(historianInfo::bitsOf(r.response.nodes[0].values[1].status) & historianInfo::kDataLocationMask, historianInfo::kCalculated);
}

void TestClientHistory::processedContinuationNextToAFailedNode() {
    // 0.1 ms intervals over 1.5 s: 15,000 intervals; the server pauses every 10,000 with a
    // ContinuationPoint. The second node fails at once, so the continuation carries the first
    // alone, and its aggregate list must be cut to one (else Bad_AggregateListMismatch).
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    HistoryProcessedRead p;
    p.startTime = DateTime::fromUnixMs(m_p0Ms);
    p.endTime = DateTime::fromUnixMs(m_p0Ms + 1500);
    p.processingIntervalMs = 0.1;
    p.aggregateTypes = {*aggregateFromName("Count")};
    const ServiceResult<HistoryValues> r = readProcessed({ramp, demo("Demo.NoSuchNode")}, p);
    QCOMPARE(r.status, status::Good);
    const HistoryNodeValues& n = r.response.nodes[0];
    QVERIFY2(!n.status.isBad(), n.status.name().c_str());
    QCOMPARE(n.requests, 2u);
    QCOMPARE(n.values.size(), std::size_t(15000));
    double counted = 0;
    for (const DataValue& v : n.values)
        if (v.hasValue) counted += histNumber(v);
    QCOMPARE(counted, 15.0);  // the values at P0 .. P0 + 1400 ms, each in its own interval
    QCOMPARE(histNumber(n.values[1000]), 1.0);  // P0 + 100 ms
    QCOMPARE(r.response.nodes[1].status, status::BadNodeIdUnknown);
}

void TestClientHistory::atTime() {
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    const DateTime at = DateTime::fromUnixMs(m_p0Ms + 300);   // the stored 10
    const DateTime mid = DateTime::fromUnixMs(m_p0Ms + 350);  // between 10 and 6 (at P0 + 400 ms)
    for (bool simple : {false, true}) {
        ReadAtTimeDetails d;
        d.reqTimes = Array<DateTime>{at, mid};
        d.useSimpleBounds = simple;
        const ServiceResult<HistoryValues> r = readAtTime({ramp}, d);
        QCOMPARE(r.status, status::Good);
        const HistoryNodeValues& n = r.response.nodes[0];
        QVERIFY2(!n.status.isBad(), n.status.name().c_str());
        QCOMPARE(n.values.size(), std::size_t(2));
        QCOMPARE(n.values[0].sourceTimestamp, at);
        QCOMPARE(histNumber(n.values[0]), 10.0);
        QCOMPARE(historianInfo::bitsOf(n.values[0].status) & historianInfo::kDataLocationMask, 0u);  // Raw
        QCOMPARE(n.values[1].sourceTimestamp, mid);
        QCOMPARE(histNumber(n.values[1]), 8.0);  // sloped between the two
        QCOMPARE(historianInfo::bitsOf(n.values[1].status) & historianInfo::kDataLocationMask, historianInfo::kInterpolated);
    }
}

void TestClientHistory::historyUpdateRoundTripAsEngineer() {
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    // Ten minutes before the server started: no sampled value there.
    const int64_t t = (m_startMs - 600000) / 1000 * 1000;
    auto at = [t](int64_t s) { return DateTime::fromUnixMs(t + s * 1000); };
    UpdateDataDetails insert;
    insert.nodeId = ramp;
    insert.performInsertReplace = PerformUpdateType::Insert;
    insert.updateValues = Array<DataValue>{histValue(1.5, at(0)), histValue(2.5, at(1)), histValue(3.5, at(2))};
    ServiceResult<HistoryUpdateResponse> u = update(*m_engineer, {insert});
    QCOMPARE(u.status, status::Good);
    QCOMPARE(u.response.results.size(), std::size_t(1));
    QCOMPARE(u.response.results[0].statusCode, status::Good);
    QCOMPARE(u.response.results[0].operationResults,
             (Array<StatusCode>{status::GoodEntryInserted, status::GoodEntryInserted, status::GoodEntryInserted}));
    // Insert where a value is: refused; Replace: one there and one not; Update: either.
    UpdateDataDetails again = insert;
    again.updateValues = Array<DataValue>{histValue(9, at(0))};
    UpdateDataDetails replace;
    replace.nodeId = ramp;
    replace.performInsertReplace = PerformUpdateType::Replace;
    replace.updateValues = Array<DataValue>{histValue(20, at(1)), histValue(21, at(5))};
    UpdateDataDetails upsert;
    upsert.nodeId = ramp;
    upsert.performInsertReplace = PerformUpdateType::Update;
    upsert.updateValues = Array<DataValue>{histValue(30, at(2)), histValue(40, at(3))};
    u = update(*m_engineer, {again, replace, upsert});
    QCOMPARE(u.response.results.size(), std::size_t(3));
    QCOMPARE(u.response.results[0].operationResults, Array<StatusCode>{status::BadEntryExists});
    QCOMPARE(u.response.results[1].operationResults, (Array<StatusCode>{status::GoodEntryReplaced, status::BadNoEntryExists}));
    QCOMPARE(u.response.results[2].operationResults, (Array<StatusCode>{status::GoodEntryReplaced, status::GoodEntryInserted}));
    // Read back, raw and modified.
    ReadRawModifiedDetails d = range(t, t + 10000);
    std::vector<double> values;
    const ServiceResult<HistoryValues> back = readRaw({ramp}, d);  // kept: a range-for over a temporary's member dangles
    for (const DataValue& v : back.response.nodes[0].values) values.push_back(histNumber(v));
    QCOMPARE(values, (std::vector<double>{1.5, 20, 30, 40}));
    d.isReadModified = true;
    const HistoryNodeValues modified = readRaw({ramp}, d).response.nodes[0];
    QVERIFY2(!modified.status.isBad(), modified.status.name().c_str());
    QVERIFY(modified.values.size() >= 5);
    QCOMPARE(modified.modifications.size(), modified.values.size());
    std::multiset<int> types;
    for (const ModificationInfo& m : modified.modifications) {
        QCOMPARE(m.userName.str(), std::string("engineer"));
        types.insert(int(m.updateType));
    }
    QVERIFY(types.count(int(HistoryUpdateType::Insert)) >= 3);
    QVERIFY(types.count(int(HistoryUpdateType::Replace)) >= 1);
    // Delete at a time (one there, one not), then the rest of the range.
    DeleteAtTimeDetails delAt;
    delAt.nodeId = ramp;
    delAt.reqTimes = Array<DateTime>{at(0), at(7)};
    u = update(*m_engineer, {delAt});
    QCOMPARE(u.response.results[0].operationResults, (Array<StatusCode>{status::Good, status::BadNoEntryExists}));
    DeleteRawModifiedDetails delRaw;
    delRaw.nodeId = ramp;
    delRaw.startTime = at(0);
    delRaw.endTime = at(10);
    u = update(*m_engineer, {delRaw});
    QCOMPARE(u.response.results[0].statusCode, status::Good);
    u = update(*m_engineer, {delRaw});
    QCOMPARE(u.response.results[0].statusCode, status::BadNoData);
    d.isReadModified = false;
    const HistoryNodeValues gone = readRaw({ramp}, d).response.nodes[0];
    QCOMPARE(gone.status, status::GoodNoData);
    QVERIFY(gone.values.empty());
    // The anonymous Operator may read history but not change it.
    u = update(*m_client, {insert});
    QCOMPARE(u.status, status::Good);
    QCOMPARE(u.response.results[0].statusCode, status::BadUserAccessDenied);
    QCOMPARE(update(*m_engineer, {}).status, status::BadNothingToDo);
}

void TestClientHistory::badStatuses() {
    const NodeId ramp = demo("Demo.Simulation.Ramp");
    const ReadRawModifiedDetails d = range(m_p0Ms, m_p0Ms + 6000);
    const ServiceResult<HistoryValues> r = readRaw({demo("Demo.NoSuchNode"), demo("Demo.Simulation.UpdateRate"), ramp}, d);
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.nodes[0].status, status::BadNodeIdUnknown);
    QCOMPARE(r.response.nodes[1].status, status::BadHistoryOperationUnsupported);  // not historized
    QCOMPARE(r.response.nodes[2].values, m_fixed);
    // Long before any value: no data.
    const HistoryNodeValues none = readRaw({ramp}, range(m_startMs - 7200000, m_startMs - 3600000)).response.nodes[0];
    QCOMPARE(none.status, status::GoodNoData);
    QVERIFY(none.values.empty());
    // Service level.
    QCOMPARE(readRaw({}, d).status, status::BadNothingToDo);
    HistoryReadOptions neither;
    neither.timestampsToReturn = TimestampsToReturn::Neither;
    QCOMPARE(readRaw({ramp}, d, neither).status, status::BadTimestampsToReturnInvalid);
    HistoryProcessedRead p;
    p.startTime = d.startTime;
    p.endTime = d.endTime;
    p.processingIntervalMs = 500;
    p.aggregateTypes = {*aggregateFromName("Count"), *aggregateFromName("Average")};
    const ServiceResult<HistoryValues> mismatch = readProcessed({ramp, ramp, ramp}, p);
    QCOMPARE(mismatch.status, status::BadAggregateListMismatch);
    QVERIFY(mismatch.response.nodes.empty());
    // Operation level: an aggregate the server does not compute; a processing interval it refuses.
    p.aggregateTypes = {*aggregateFromName("StandardDeviationSample")};
    QCOMPARE(readProcessed({ramp}, p).response.nodes[0].status, status::BadAggregateNotSupported);
    p.aggregateTypes = {*aggregateFromName("Count")};
    p.processingIntervalMs = -1;
    QCOMPARE(readProcessed({ramp}, p).response.nodes[0].status, status::BadInvalidArgument);
    ReadAtTimeDetails empty;
    empty.reqTimes = Array<DateTime>::emptyArray();
    QCOMPARE(readAtTime({ramp}, empty).response.nodes[0].status, status::BadInvalidArgument);
    // Read Modified with bounds (OPC 10000-11 6.5.3.1).
    ReadRawModifiedDetails both = d;
    both.isReadModified = true;
    both.returnBounds = true;
    QCOMPARE(readRaw({ramp}, both).response.nodes[0].status, status::BadInvalidArgument);
}

UA_TEST_GUILESS_MAIN(TestClientHistory)
#include "tst_client_history.moc"
