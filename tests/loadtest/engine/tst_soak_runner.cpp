// SoakRunner (loadtest-app/engine): the verdict on hand-made reports (memory and descriptor growth,
// errors), a short soak of the whole mix against our Server in process (a report per interval,
// every part of the mix served, no errors, this process's memory and descriptors read), and an
// unreachable server ending the soak with an error.
#include "engine/SoakRunner.h"

#include "ua/server/runtime/Server.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;
using namespace ua::loadtest;

namespace {

SoakReport reportAt(double tS, long serverRss, int serverFds, long clientRss = 1000, int clientFds = 10) {
    SoakReport r;
    r.tS = tS;
    r.server.rssKb = serverRss;
    r.serverFds = serverFds;
    r.client.rssKb = clientRss;
    r.clientFds = clientFds;
    return r;
}

} // namespace

class TestSoakRunner : public QObject {
    Q_OBJECT
    std::unique_ptr<Server> m_server;

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.*.info=false"));
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        cfg.benchmarkVariables = 100;
        cfg.demoNamespace = true;
        cfg.demoUpdateRateMs = 10;
        cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the write part
        m_server = std::make_unique<Server>(cfg);
        QVERIFY(m_server->start());
    }

    void verdictOnHandMadeReports() {
        SoakResult r;
        r.steps.resize(2);
        // The baseline is the first report at a quarter of the run (t = 25 of 100).
        r.reports = {reportAt(10, 50'000, 20), reportAt(30, 100'000, 30), reportAt(60, 104'000, 30), reportAt(100, 109'000, 32)};
        r.judge();
        QCOMPARE(r.baselineReport, 1);
        QCOMPARE(r.serverRssGrowthPercent, 9.0);
        QCOMPARE(r.serverFdGrowth, 2);
        QVERIFY(r.memoryFlat());
        QVERIFY(r.descriptorsFlat());
        QVERIFY(r.passed());
        // Growing memory, growing descriptors, errors: each fails the soak.
        r.reports.back().server.rssKb = 111'000;
        r.judge();
        QVERIFY(!r.memoryFlat());
        QVERIFY(!r.passed());
        r.reports.back().server.rssKb = 100'000;
        r.reports.back().clientFds = 13;
        r.judge();
        QVERIFY(r.memoryFlat());
        QVERIFY(!r.descriptorsFlat());
        r.reports.back().clientFds = 10;
        r.steps[1].timeouts = 1;
        r.judge();
        QCOMPARE(r.unexpectedErrors, uint64_t(1));
        QVERIFY(!r.passed());
        r.steps[1].timeouts = 0;
        r.steps[0].connectionBroken = true;
        r.judge();
        QVERIFY(!r.passed());
        // One report: no verdict on memory.
        r.steps[0].connectionBroken = false;
        r.reports.resize(1);
        r.judge();
        QCOMPARE(r.baselineReport, -1);
        QVERIFY(!r.passed());
    }

    void descriptorsOfThisProcess() {
        const int before = openFileDescriptors(0);
        QVERIFY(before > 2);
        QTcpServer extra;
        QVERIFY(extra.listen(QHostAddress::LocalHost));
        QCOMPARE(openFileDescriptors(0), before + 1);
        QCOMPARE(openFileDescriptors(999'999'999), -1);
    }

    void shortSoakServesEveryPart() {
        LoadParameters base;
        base.endpointUrl = m_server->endpointUrl();
        base.serverPid = QCoreApplication::applicationPid();  // the server is in this process
        SoakRunner soak;
        QSignalSpy reports(&soak, &SoakRunner::report);
        QSignalSpy finished(&soak, &SoakRunner::finished);
        soak.start(base, 200, 5, 1);
        QVERIFY(finished.wait(60'000));
        const SoakResult r = finished.at(0).at(0).value<SoakResult>();
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.parts.size(), std::size_t(5));
        QVERIFY2(r.reports.size() >= 4, qPrintable(QString::number(r.reports.size())));
        QCOMPARE(std::size_t(reports.size()), r.reports.size());
        std::vector<uint64_t> perPart(r.parts.size(), 0);
        for (const SoakReport& rep : r.reports) {
            QCOMPARE(rep.requests.size(), r.parts.size());
            for (std::size_t i = 0; i < perPart.size(); ++i) perPart[i] += rep.requests[i];
            QVERIFY(rep.server.rssKb > 0);
            QVERIFY(rep.serverFds > 2);
            QVERIFY(rep.clientFds > 2);
        }
        for (std::size_t i = 0; i < perPart.size(); ++i)
            QVERIFY2(perPart[i] > 0, qPrintable(r.parts[i] + QStringLiteral(" sent nothing")));
        QCOMPARE(r.unexpectedErrors, uint64_t(0));
        for (const StepResult& s : r.steps) {
            QVERIFY(s.answered > 0);
            QCOMPARE(s.serverCpuMsPerOp, -1.0);  // of the whole mix, not reported per part
        }
        // The read part's open loop at 200 requests/s over about 5 s.
        QVERIFY2(r.steps[0].answered > 500 && r.steps[0].answered < 1500, qPrintable(QString::number(r.steps[0].answered)));
        QVERIFY(r.baselineReport >= 0);
    }

    void unreachableServerEndsTheSoak() {
        quint16 port = 0;
        {
            QTcpServer probe;  // a port nobody listens on once it is closed
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            port = probe.serverPort();
        }
        LoadParameters base;
        base.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port);
        SoakRunner soak;
        QSignalSpy finished(&soak, &SoakRunner::finished);
        soak.start(base, 100, 30, 1);
        QVERIFY(finished.wait(60'000));
        const SoakResult r = finished.at(0).at(0).value<SoakResult>();
        QVERIFY(!r.error.isEmpty());
        QVERIFY(!r.passed());
    }

    void cleanupTestCase() { m_server.reset(); }
};

UA_TEST_GUILESS_MAIN(TestSoakRunner)
#include "tst_soak_runner.moc"
