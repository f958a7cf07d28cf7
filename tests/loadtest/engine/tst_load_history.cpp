// The history-read scenario of the load tester (issue 30 item 6) against our Server in process with
// history in a temporary SQLite file: three benchmark variables hold 5,000 known values each, every
// request reads N values of K nodes (Read Raw, OPC 10000-11 6.5.3), and the counts add up: values =
// K x N per request (the server has more, so each ContinuationPoint is released before the request
// counts). A node without history and one the server does not know are errors with the server's
// exact status; parameters out of range are refused before anything is sent.
#include "engine/LoadRunner.h"
#include "RunStep.h"

#include "ua/server/history/HistoryManager.h"
#include "ua/server/history/HistoryStore.h"
#include "ua/server/runtime/Server.h"

#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::loadtest;

namespace {

constexpr uint32_t kFirstHistorized = 1000;
constexpr int kHistorized = 3;
constexpr int64_t kValuesEach = 5000;

QString errorsOf(const StepResult& r) {
    QStringList errors;
    for (const auto& [k, v] : r.errorsByStatus) errors << QStringLiteral("%1 x %2").arg(v).arg(k);
    return QStringLiteral("error '%1' sent %2 answered %3 errors %4 (%5) timeouts %6")
        .arg(r.error)
        .arg(r.sent)
        .arg(r.answered)
        .arg(r.errors)
        .arg(errors.join(QStringLiteral(", ")))
        .arg(r.timeouts);
}

} // namespace

class TestLoadHistory : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;

    LoadParameters base() const {
        LoadParameters p;
        p.endpointUrl = m_server->endpointUrl();
        p.scenario = Scenario::HistoryRead;
        p.sessions = 2;
        p.outstanding = 1;
        p.durationS = 1;
        p.warmupS = 0.3;
        p.ioThreads = 1;
        p.readServerDiagnostics = false;
        for (int n = 0; n < kHistorized; ++n) p.historyNodes << QStringLiteral("ns=1;i=%1").arg(kFirstHistorized + uint32_t(n));
        return p;
    }

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
        qRegisterMetaType<StepResult>();
        QVERIFY(m_dir.isValid());
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        cfg.benchmarkVariables = 1100;
        cfg.security.pkiDir = m_dir.filePath(QStringLiteral("pki"));
        cfg.history.databasePath = m_dir.filePath(QStringLiteral("history.sqlite"));
        m_server = std::make_unique<Server>(cfg);
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
        QVERIFY(m_server->history());
        // 5,000 values 100 ms apart, the last one now, then historized with a day's sampling
        // interval (so that at most one more comes during the test: the first sample).
        const int64_t first = DateTime::now().ticks - (kValuesEach - 1) * 100 * DateTime::kTicksPerMs;
        m_server->history()->runAndWait([&](HistoryStore& s) {
            for (int n = 0; n < kHistorized; ++n) {
                const int64_t series = s.series(NodeId(1, kFirstHistorized + uint32_t(n)));
                for (int64_t k = 0; k < kValuesEach; ++k) {
                    DataValue v{Variant(double(k))};
                    v.setSourceTimestamp(DateTime{first + k * 100 * DateTime::kTicksPerMs});
                    v.setServerTimestamp(v.sourceTimestamp);
                    s.append(series, v);
                }
            }
            s.flush(true, 0);
        });
        for (int n = 0; n < kHistorized; ++n) {
            HistorizedNode h;
            h.node = NodeId(1, kFirstHistorized + uint32_t(n));
            h.samplingIntervalMs = 86'400'000;
            QCOMPARE(m_server->setHistorized(h, true), StatusCode(status::Good));
        }
    }

    // 2 nodes x 100 values per request, the server holding 5,000 per node in the span: every
    // request returns exactly 200 values.
    void readsNValuesOfKNodes() {
        LoadParameters p = base();
        p.valuesPerRequest = 2;
        p.historyValuesPerNode = 100;
        p.historySpanS = 3600;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty() && r.errors == 0 && r.timeouts == 0, qPrintable(errorsOf(r)));
        QVERIFY2(r.answered > 10, qPrintable(errorsOf(r)));
        QCOMPARE(r.sent, r.answered);
        QCOMPARE(r.valuesPerS, 200 * r.requestsPerS);
        QVERIFY(r.p50Us > 0);
    }

    // The span decides where a read starts: 100 s back holds 1,000 of a node's values (one every
    // 100 ms), so numValuesPerNode 2,000 returns those 1,000 and no ContinuationPoint.
    void spanLimitsTheValues() {
        LoadParameters p = base();
        p.valuesPerRequest = 1;
        p.historyValuesPerNode = 2000;
        p.historySpanS = 100;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty() && r.errors == 0, qPrintable(errorsOf(r)));
        QVERIFY(r.answered > 0);
        // The values reach up to the test's start; a read from now - 100 s finds 1,000 of them less
        // those the window has slid past since (10 a second), plus the one sample that historizing
        // took.
        const double perRequest = r.valuesPerS / r.requestsPerS;
        QVERIFY2(perRequest >= 900 && perRequest <= 1001, qPrintable(QString::number(perRequest)));
    }

    // Nodes without history: our server answers Bad_HistoryOperationUnsupported for a Variable
    // that is not historized, and Bad_NodeIdUnknown for one it does not have; each request is one
    // error of that status, nothing else.
    void nodesWithoutHistoryAreErrors() {
        for (const auto& [node, expected] : {std::pair{QStringLiteral("ns=1;i=1050"), QStringLiteral("Bad_HistoryOperationUnsupported")},
                                             std::pair{QStringLiteral("ns=1;i=99999999"), QStringLiteral("Bad_NodeIdUnknown")}}) {
            LoadParameters p = base();
            p.historyNodes = {node};
            p.durationS = 0.5;
            p.warmupS = 0;
            const StepResult r = runTestStep(p);
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.answered, uint64_t(0));
            QVERIFY(r.errors > 0);
            QCOMPARE(r.sent, r.errors + r.timeouts);
            QCOMPARE(r.errorsByStatus.size(), std::size_t(1));
            QVERIFY2(r.errorsByStatus.count(expected), qPrintable(errorsOf(r)));
        }
    }

    // Out of range before anything is sent; a NodeId of a namespace the server lacks is named.
    void refusedParameters() {
        for (const auto& [values, span] : {std::pair{0, 3600.0}, std::pair{100'001, 3600.0}, std::pair{10, 0.0}, std::pair{10, -5.0}}) {
            LoadParameters p = base();
            p.historyValuesPerNode = values;
            p.historySpanS = span;
            const StepResult r = runTestStep(p);
            QVERIFY2(!r.error.isEmpty(), qPrintable(QStringLiteral("%1 values, span %2 accepted").arg(values).arg(span)));
            QCOMPARE(r.sent, uint64_t(0));
        }
        LoadParameters p = base();
        p.historyNodes = {QStringLiteral("nsu=urn:not-there;i=1")};
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.contains(QStringLiteral("urn:not-there")), qPrintable(r.error));
        QCOMPARE(r.sent, uint64_t(0));
    }
};

UA_TEST_GUILESS_MAIN(TestLoadHistory)
#include "tst_load_history.moc"
