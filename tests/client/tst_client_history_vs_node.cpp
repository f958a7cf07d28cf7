// Our client's HistoryRead against a real peer (issue 30 item 4): node-opcua 2.186.4's server
// historizing two variables in memory (tests/interop/node_history_server.js).
//   - Live, value k at T0 + k x 100 ms, set every 100 ms: Read Raw of 30 values 7 per request
//     (the ContinuationPoints followed: 5 requests), every value and timestamp as the script set it;
//     the same at once; maxValues stopping early (Good_MoreData) with the ContinuationPoint released,
//     which node-opcua then refuses (Bad_ContinuationPointInvalid) while one not released goes on.
//   - Fixed, value (7k mod 11) at F0 + k x 100 ms: Read Processed with node-opcua's aggregates,
//     Count, Minimum and Maximum over 500 ms intervals against the values the script wrote, with
//     the status codes node-opcua gives them (Count's Calculated bit without the InfoType it needs);
//     an aggregate it does not compute (Total): Bad_AggregateNotSupported.
//   - What node-opcua does not offer, with its exact answers: Read At Time
//     (Bad_HistoryOperationUnsupported per node) and HistoryUpdate (Bad_ServiceUnsupported).
#include "ClientTestUtil.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/client/history/HistorianBits.h"
#include "ua/client/history/HistoryContinuation.h"

#include <QProcess>
#include <QtTest>
#include "TestMain.h"
#include <algorithm>
#include <memory>

using namespace ua;
using namespace ua::test;

namespace {

// node_history_server.js running until destroyed (stdin closed): "READY <port> <ns>,<T0>,<F0>".
class HistoryNodeServer {
public:
    ~HistoryNodeServer() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) m_process.kill();
    }
    bool start(QString* why) {
        m_process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        m_process.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_history_server.js"), QStringLiteral("0")});
        if (!m_process.waitForStarted()) return fail(why, QStringLiteral("node did not start"));
        QByteArray out;
        if (!QTest::qWaitFor([&] { return (out += m_process.readAllStandardOutput()).contains('\n') || m_process.state() == QProcess::NotRunning; }, 90000))
            return fail(why, QStringLiteral("no READY line within 90 s"));
        const QList<QByteArray> words = out.trimmed().split(' ');
        const QList<QByteArray> extra = words.size() == 3 ? words[2].split(',') : QList<QByteArray>();
        if (words.size() != 3 || words[0] != "READY" || extra.size() != 3)
            return fail(why, QString::fromUtf8(out + m_process.readAllStandardError().right(3000)));
        port = quint16(words[1].toUInt());
        ns = uint16_t(extra[0].toUInt());
        t0Ms = extra[1].toLongLong();
        f0Ms = extra[2].toLongLong();
        return true;
    }
    quint16 port = 0;
    uint16_t ns = 0;
    int64_t t0Ms = 0, f0Ms = 0;

private:
    bool fail(QString* why, const QString& text) {
        *why = text + QString::fromUtf8(m_process.readAllStandardError().right(3000));
        return false;
    }
    QProcess m_process;
};

double nodeHistNumber(const DataValue& d) {
    if (const double* v = d.value.get<double>()) return *v;
    if (const uint32_t* u = d.value.get<uint32_t>()) return *u;
    if (const int32_t* i = d.value.get<int32_t>()) return *i;
    return -1e300;
}

double fixedValue(int k) { return double((7 * k) % 11); }

} // namespace

class TestClientHistoryVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void rawWithContinuationPoints();
    void earlyStopReleasesTheContinuationPoint();
    void processedWithNodeOpcuaAggregates();
    void whatNodeOpcuaDoesNotOffer();

private:
    ServiceResult<HistoryValues> readRaw(const NodeId& node, int64_t fromMs, int64_t toMs, uint32_t perRequest, HistoryReadOptions o = {});
    ServiceResult<HistoryReadResponse> historyReadOnce(const HistoryReadRequest& req);
    NodeId live() const { return NodeId(m_node.ns, "Live"); }
    NodeId fixed() const { return NodeId(m_node.ns, "Fixed"); }

    HistoryNodeServer m_node;
    std::unique_ptr<Client> m_client;
};

void TestClientHistoryVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QString why;
    QVERIFY2(m_node.start(&why), qPrintable(why));
    m_client = std::make_unique<Client>();
    QCOMPARE(connectSession(*m_client, urlOf(m_node.port), this), status::Good);
    // Until Live's first 30 values are set: the script sets one every 100 ms of its own clock from
    // when it got ready, which may be up to a second after T0 (and later on a loaded machine).
    auto all30 = [this] {
        const ServiceResult<HistoryValues> r = readRaw(live(), m_node.t0Ms, m_node.t0Ms + 2950, 0);
        return r.response.nodes.size() == 1 && r.response.nodes[0].values.size() == 30;
    };
    QTRY_VERIFY_WITH_TIMEOUT(all30(), 30000);
}

void TestClientHistoryVsNode::cleanupTestCase() { m_client.reset(); }

ServiceResult<HistoryValues> TestClientHistoryVsNode::readRaw(const NodeId& node, int64_t fromMs, int64_t toMs, uint32_t perRequest,
                                                              HistoryReadOptions o) {
    ReadRawModifiedDetails d;
    d.startTime = DateTime::fromUnixMs(fromMs);
    d.endTime = DateTime::fromUnixMs(toMs);
    d.numValuesPerNode = perRequest;
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadRaw({node}, d, o, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

ServiceResult<HistoryReadResponse> TestClientHistoryVsNode::historyReadOnce(const HistoryReadRequest& req) {
    Awaited<ServiceResult<HistoryReadResponse>> r;
    m_client->call<HistoryReadRequest, HistoryReadResponse>(req, this, r.callback());
    if (!r.wait(30000)) return {status::BadTimeout, {}, 0};
    return *r;
}

void TestClientHistoryVsNode::rawWithContinuationPoints() {
    // T0 .. T0 + 2950 ms: the values 0..29 (node-opcua includes endTime, so the end is kept off the grid).
    const int64_t t0 = m_node.t0Ms;
    for (uint32_t perRequest : {7u, 0u}) {
        const ServiceResult<HistoryValues> r = readRaw(live(), t0, t0 + 2950, perRequest);
        QCOMPARE(r.status, status::Good);
        QCOMPARE(r.response.nodes.size(), std::size_t(1));
        const HistoryNodeValues& n = r.response.nodes[0];
        QCOMPARE(n.status, status::Good);
        QCOMPARE(n.requests, perRequest ? 5u : 1u);  // 7 + 7 + 7 + 7 + 2
        QCOMPARE(n.values.size(), std::size_t(30));
        for (int k = 0; k < 30; ++k) {
            const DataValue& v = n.values[std::size_t(k)];
            QCOMPARE(nodeHistNumber(v), double(k));
            QCOMPARE(v.sourceTimestamp, DateTime::fromUnixMs(t0 + k * 100));
            QCOMPARE(v.status, status::Good);
        }
    }
}

void TestClientHistoryVsNode::earlyStopReleasesTheContinuationPoint() {
    const int64_t t0 = m_node.t0Ms;
    HistoryReadOptions ten;
    ten.maxValues = 10;
    const ServiceResult<HistoryValues> r = readRaw(live(), t0, t0 + 2950, 7, ten);
    const HistoryNodeValues& n = r.response.nodes[0];
    QCOMPARE(n.status, status::GoodMoreData);
    QCOMPARE(n.requests, 2u);
    QCOMPARE(n.values.size(), std::size_t(10));
    QCOMPARE(nodeHistNumber(n.values.back()), 9.0);

    // Through the follower with a recording HistoryRead: the release reaches node-opcua.
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
    ReadRawModifiedDetails d;
    d.startTime = DateTime::fromUnixMs(t0);
    d.endTime = DateTime::fromUnixMs(t0 + 2950);
    d.numValuesPerNode = 7;
    const HistoryReadRequest first = makeHistoryReadRequest({live()}, ExtensionObject::make(d), TimestampsToReturn::Both);
    Awaited<ServiceResult<HistoryValues>> followed;
    recording(HistoryReadRequest(first), 10000, followHistoryContinuationPoints(first, ten, 10000, recording, followed.callback()));
    QVERIFY(followed.wait());
    QCOMPARE(followed->response.nodes[0].values, n.values);
    QTRY_COMPARE_WITH_TIMEOUT(rec->releaseAnswers, 1, 10000);
    QCOMPARE(rec->releaseStatus, status::Good);
    QCOMPARE(rec->requests.size(), std::size_t(3));
    const ByteString released = rec->requests[2].nodesToRead[0].continuationPoint;
    QVERIFY(rec->requests[2].releaseContinuationPoints && !released.isEmpty());
    HistoryReadRequest again = first;
    again.nodesToRead[0].continuationPoint = released;
    const ServiceResult<HistoryReadResponse> stale = historyReadOnce(again);
    QCOMPARE(stale.status, status::Good);
    QCOMPARE(stale.response.results.size(), std::size_t(1));
    QCOMPARE(stale.response.results[0].statusCode, status::BadContinuationPointInvalid);
    // A ContinuationPoint not released: node-opcua goes on with the next 7.
    const ServiceResult<HistoryReadResponse> page1 = historyReadOnce(first);
    QVERIFY(page1.response.results.size() == 1 && !page1.response.results[0].continuationPoint.isEmpty());
    HistoryReadRequest next = first;
    next.nodesToRead[0].continuationPoint = page1.response.results[0].continuationPoint;
    const ServiceResult<HistoryReadResponse> page2 = historyReadOnce(next);
    QCOMPARE(page2.response.results[0].statusCode, status::Good);
    const HistoryData* data = page2.response.results[0].historyData.get<HistoryData>();
    QVERIFY(data && data->dataValues.size() == 7);
    QCOMPARE(nodeHistNumber(data->dataValues[0]), 7.0);
    next.releaseContinuationPoints = true;
    next.nodesToRead[0].continuationPoint = page2.response.results[0].continuationPoint;
    QCOMPARE(historyReadOnce(next).response.results[0].statusCode, status::Good);
}

void TestClientHistoryVsNode::processedWithNodeOpcuaAggregates() {
    const int64_t f0 = m_node.f0Ms;
    HistoryProcessedRead p;
    p.startTime = DateTime::fromUnixMs(f0);
    p.endTime = DateTime::fromUnixMs(f0 + 3000);
    p.processingIntervalMs = 500;
    p.aggregateTypes = {*aggregateFromName("Count"), *aggregateFromName("Minimum"), *aggregateFromName("Maximum")};
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadProcessed({fixed(), fixed(), fixed()}, p, {}, this, r.callback());
    QVERIFY(r.wait(30000));
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.nodes.size(), std::size_t(3));
    for (std::size_t a = 0; a < 3; ++a) {
        const HistoryNodeValues& n = r->response.nodes[a];
        QCOMPARE(n.status, status::Good);
        QCOMPARE(n.values.size(), std::size_t(6));
        for (int i = 0; i < 6; ++i) {
            std::vector<double> raw;
            for (int k = 5 * i; k < 5 * i + 5; ++k) raw.push_back(fixedValue(k));
            const DataValue& v = n.values[std::size_t(i)];
            QCOMPARE(v.sourceTimestamp, DateTime::fromUnixMs(f0 + i * 500));
            const double expected = a == 0 ? 5.0 : a == 1 ? *std::min_element(raw.begin(), raw.end()) : *std::max_element(raw.begin(), raw.end());
            QCOMPARE(nodeHistNumber(v), expected);
            // node-opcua: Count is Good with the Calculated bit (0x1) but without the InfoType DataValue
            // (0x400) that OPC 10000-4 7.39.1 asks for with it, so the bit does not count as a historian
            // bit; Minimum and Maximum are Good without bits when the interval starts with a raw value
            // (each of these does).
            QCOMPARE(v.status, a == 0 ? StatusCode(historianInfo::kCalculated) : status::Good);
            QCOMPARE(historianInfo::bitsOf(v.status), 0u);
        }
    }
    QVERIFY(r->response.nodes[0].values[0].value.get<uint32_t>());
    // An aggregate node-opcua does not compute.
    p.aggregateTypes = {*aggregateFromName("Total")};
    Awaited<ServiceResult<HistoryValues>> total;
    m_client->historyReadProcessed({fixed()}, p, {}, this, total.callback());
    QVERIFY(total.wait(30000));
    QCOMPARE(total->status, status::Good);
    QCOMPARE(total->response.nodes[0].status, status::BadAggregateNotSupported);
}

void TestClientHistoryVsNode::whatNodeOpcuaDoesNotOffer() {
    ReadAtTimeDetails at;
    at.reqTimes = Array<DateTime>{DateTime::fromUnixMs(m_node.f0Ms + 150)};
    Awaited<ServiceResult<HistoryValues>> r;
    m_client->historyReadAtTime({fixed()}, at, {}, this, r.callback());
    QVERIFY(r.wait(30000));
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.nodes[0].status, status::BadHistoryOperationUnsupported);
    DeleteAtTimeDetails del;
    del.nodeId = fixed();
    del.reqTimes = Array<DateTime>{DateTime::fromUnixMs(m_node.f0Ms)};
    Awaited<ServiceResult<HistoryUpdateResponse>> u;
    m_client->historyUpdate({del}, this, u.callback());
    QVERIFY(u.wait(30000));
    QCOMPARE(u->status, status::BadServiceUnsupported);
}

UA_TEST_GUILESS_MAIN(TestClientHistoryVsNode)
#include "tst_client_history_vs_node.moc"
