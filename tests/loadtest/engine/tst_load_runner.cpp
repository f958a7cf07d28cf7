// LoadRunner (loadtest-app/engine) against our Server in process: short steps of every scenario
// whose counts add up (sent == answered + errors + timeouts) and whose figures are plausible, the
// server's figures (CPU with serverPid, ServerDiagnosticsSummary), stop(), refused parameters, and
// the open loop against a server that stalls: a TCP proxy holds all traffic for 300 ms in the
// middle of the run; the latency from the intended send time shows the stall in p99, the closed
// loop only in max.
#include "engine/LoadRunner.h"
#include "RunStep.h"

#include "ua/server/runtime/Server.h"
#include "DemoNodeManager.h"
#include "ua/transport/TcpMessages.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include "TestServerConfig.h"
#include "ua/secure/SecurityPolicy.h"
#include <QtTest>
#include "TestMain.h"
#include <cmath>
#include <memory>

using namespace ua;
using namespace ua::loadtest;

namespace {

std::unique_ptr<Server> startServer(bool operatorAnonymous) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 1100;
    cfg.demoNamespace = true;
    cfg.demoUpdateRateMs = 10;  // the Ramp counter steps every 10 ms (subscribe fidelity)
    // Our server lets anonymous users write only with the Operator Role.
    if (operatorAnonymous) cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
    auto server = std::make_unique<Server>(cfg);
    if (!server->start()) {
        qWarning("server did not start: %s", qPrintable(server->errorString()));
        return nullptr;
    }
    return server;
}

QString describe(const StepResult& r) {
    QStringList errors;
    for (const auto& [k, v] : r.errorsByStatus) errors << QStringLiteral("%1 x %2").arg(v).arg(k);
    return QStringLiteral("error '%1' sent %2 answered %3 errors %4 (%5) timeouts %6, %7 req/s, p50 %8 p99 %9 max %10 us")
        .arg(r.error)
        .arg(r.sent)
        .arg(r.answered)
        .arg(r.errors)
        .arg(errors.join(QStringLiteral(", ")))
        .arg(r.timeouts)
        .arg(r.requestsPerS, 0, 'f', 0)
        .arg(r.p50Us)
        .arg(r.p99Us)
        .arg(r.maxUs);
}

void checkCounts(const StepResult& r) {
    QVERIFY2(r.error.isEmpty(), qPrintable(describe(r)));
    QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
    QVERIFY2(r.answered > 0, qPrintable(describe(r)));
    QVERIFY(r.durationS > 0);
    // Throughput counts answers by arrival inside the period, `answered` by send time: they differ
    // by the requests in flight at the period's end at most (sessions x outstanding).
    const double inFlight = double(r.sessions) * double(r.outstanding);
    QVERIFY2(std::abs(r.requestsPerS * r.durationS - double(r.answered)) <= inFlight + 0.5,
             qPrintable(QStringLiteral("%1 req/s x %2 s vs %3 answered").arg(r.requestsPerS).arg(r.durationS).arg(r.answered)));
    QVERIFY(r.p50Us > 0);
    QVERIFY(r.p50Us <= r.p90Us && r.p90Us <= r.p99Us && r.p99Us <= r.p999Us && r.p999Us <= r.maxUs);
    QCOMPARE(r.latency.count(), r.answered);
    QVERIFY(r.clientCpuMsPerOp > 0);
    QVERIFY(r.clientRssKb > 0);
}

// A TCP proxy that forwards both ways and can hold all traffic for a while (an artificially slow server).
class StallingProxy : public QObject {
public:
    explicit StallingProxy(quint16 upstreamPort) : m_upstream(upstreamPort) {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* down = m_server.nextPendingConnection()) {
                if (m_busyEvery > 0 && ++m_connections % m_busyEvery == 0) {
                    // Refused as an overloaded server does: ERR Bad_TcpServerTooBusy to the Hello.
                    connect(down, &QTcpSocket::readyRead, down, [down] {
                        down->readAll();
                        Buffer b;
                        encodeError(b, ErrorMessage{status::BadTcpServerTooBusy, String("busy")});
                        down->write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
                        down->disconnectFromHost();
                    });
                    continue;
                }
                auto* up = new QTcpSocket(this);
                up->connectToHost(QHostAddress::LocalHost, m_upstream);
                up->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                down->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                m_pairs.push_back({down, up});
                connect(down, &QTcpSocket::readyRead, this, [this] { pump(); });
                connect(up, &QTcpSocket::readyRead, this, [this] { pump(); });
                connect(up, &QTcpSocket::connected, this, [this] { pump(); });
                connect(down, &QTcpSocket::disconnected, up, &QTcpSocket::disconnectFromHost);
                connect(up, &QTcpSocket::disconnected, down, &QTcpSocket::disconnectFromHost);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }
    // Closes every connection (both sides) at once.
    void dropAll() {
        for (auto& [down, up] : m_pairs) {
            down->abort();
            up->abort();
        }
    }
    // Every n-th connection is refused with ERR Bad_TcpServerTooBusy (0: none).
    void refuseEvery(int n) { m_busyEvery = n; }
    void hold(int ms) {
        m_holding = true;
        QTimer::singleShot(ms, this, [this] {
            m_holding = false;
            pump();
        });
    }

private:
    void pump() {
        if (m_holding) return;
        for (auto& [down, up] : m_pairs) {
            if (up->state() != QAbstractSocket::ConnectedState) continue;
            if (down->bytesAvailable()) up->write(down->readAll());
            if (up->bytesAvailable()) down->write(up->readAll());
        }
    }
    QTcpServer m_server;
    quint16 m_upstream;
    bool m_holding = false;
    int m_busyEvery = 0;
    int m_connections = 0;
    std::vector<std::pair<QTcpSocket*, QTcpSocket*>> m_pairs;
};

} // namespace

class TestLoadRunner : public QObject {
    Q_OBJECT
    std::unique_ptr<Server> m_server;

    LoadParameters base(Scenario s) const {
        LoadParameters p;
        p.endpointUrl = m_server->endpointUrl();
        p.scenario = s;
        p.sessions = 2;
        p.outstanding = 2;
        p.durationS = 1.5;
        p.warmupS = 0.5;
        p.ioThreads = 1;
        return p;
    }

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
        qRegisterMetaType<StepResult>();
        qRegisterMetaType<TimelineSample>();
        m_server = startServer(true);
        QVERIFY(m_server);
    }

    void readOne() {
        LoadParameters p = base(Scenario::Read);
        p.sessions = 4;
        std::vector<TimelineSample> samples;
        const StepResult r = runTestStep(p, &samples);
        checkCounts(r);
        QCOMPARE(r.errors, uint64_t(0));
        QCOMPARE(r.timeouts, uint64_t(0));
        QVERIFY2(r.requestsPerS > 200, qPrintable(describe(r)));
        QCOMPARE(r.valuesPerS, r.requestsPerS);
        QCOMPARE(r.sessions, 4);
        QCOMPARE(r.outstanding, 2);
        QVERIFY(r.durationS >= 1.4 && r.durationS < 1.7);
        QVERIFY(r.clientCpuPercent > 0);
        QCOMPARE(r.serverCpuMsPerOp, -1.0);  // no serverPid
        QCOMPARE(r.minFidelityPercent, -1.0);
        // The timeline: one sample a second, warm-up marked, the measured ones with requests.
        QVERIFY2(samples.size() >= 1 && samples.size() <= 3, qPrintable(QString::number(samples.size())));
        QCOMPARE(r.timeline.size(), samples.size());
        QVERIFY(samples.back().requestsPerS > 0);
        QVERIFY(samples.back().p99Us > 0);
        QCOMPARE(samples.front().warmup, samples.front().tS <= 0);
        // Our server answers ServerDiagnosticsSummary: 4 load Sessions + the runner's own are open.
        QVERIFY(r.serverDiagnostics);
        QVERIFY(r.serverDiagnostics->after.at(QStringLiteral("currentSessionCount")) >= 5);
        QCOMPARE(r.serverDiagnostics->delta.at(QStringLiteral("cumulatedSessionCount")), qint64(0));
    }

    void readOverReverseConnect() {
        // Every Session's connection is one a server opened to the load tester's listener (issue 32
        // item 1): a server of its own that dials the port, with a spare per connection.
        const quint16 port = test::freeLocalPort();
        Server dialling(test::reverseDialingServerConfig(port));  // with the benchmark variables
        QVERIFY2(dialling.start(), qPrintable(dialling.errorString()));
        LoadParameters p = base(Scenario::Read);
        p.endpointUrl = dialling.endpointUrl();
        p.reverseListenPort = port;
        p.sessions = 6;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QVERIFY2(r.error.isEmpty(), qPrintable(describe(r)));
        QCOMPARE(r.errors, uint64_t(0));
        QCOMPARE(r.timeouts, uint64_t(0));
        QVERIFY2(r.answered > 0, qPrintable(describe(r)));
        QCOMPARE(r.sessions, 6);
        // 6 load Sessions and the runner's own, each over a spare the server dialled.
        QVERIFY(dialling.reverseConnectStates()[0].used >= 7);
        const auto back = LoadParameters::fromJson(p.toJson());
        QVERIFY(back);
        QCOMPARE(back->reverseListenPort, port);
        dialling.stop();
    }

    void readHundred() {
        LoadParameters p = base(Scenario::Read);
        p.valuesPerRequest = 100;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QCOMPARE(r.errors, uint64_t(0));
        QCOMPARE(r.valuesPerS, 100 * r.requestsPerS);
    }

    void write() {
        LoadParameters p = base(Scenario::Write);
        p.valuesPerRequest = 100;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QVERIFY2(r.errors == 0, qPrintable(describe(r)));
        QCOMPARE(r.valuesPerS, 100 * r.requestsPerS);
    }

    void writeRefusedWithoutOperatorRole() {
        // The default ServerConfig: anonymous Sessions have no Operator Role, so every Write of the
        // benchmark variables fails with Bad_UserAccessDenied; each counts as an error.
        auto plain = startServer(false);
        QVERIFY(plain);
        LoadParameters p = base(Scenario::Write);
        p.endpointUrl = plain->endpointUrl();
        p.durationS = 0.5;
        p.warmupS = 0;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
        QCOMPARE(r.answered, uint64_t(0));
        QVERIFY(r.errors > 0);
        QCOMPARE(r.errorsByStatus.size(), std::size_t(1));
        QCOMPARE(r.errorsByStatus.at(QStringLiteral("Bad_UserAccessDenied")), r.errors);
    }

    void browse() {
        const StepResult r = runTestStep(base(Scenario::Browse));
        checkCounts(r);
        QCOMPARE(r.errors, uint64_t(0));
        // The Server object has a dozen references or more (both directions).
        QVERIFY2(r.valuesPerS >= 10 * r.requestsPerS, qPrintable(QStringLiteral("%1 refs/s").arg(r.valuesPerS)));
    }

    void subscribe() {
        LoadParameters p = base(Scenario::Subscribe);
        p.monitoredItems = 20;
        p.samplingIntervalMs = 10;
        p.publishingIntervalMs = 100;
        p.durationS = 2;
        p.warmupS = 0.5;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
        // 2 Sessions x ~10 messages/s; 40 items x ~100 samples/s.
        QVERIFY2(r.requestsPerS >= 10, qPrintable(describe(r)));
        QVERIFY2(r.notificationsPerS > 0.7 * 40 * 100, qPrintable(QString::number(r.notificationsPerS)));
        QCOMPARE(r.notificationsPerS, r.valuesPerS);
        QVERIFY2(r.minFidelityPercent >= 90, qPrintable(QStringLiteral("min %1 %, mean %2 %, %3 items below 99 %")
                                                             .arg(r.minFidelityPercent)
                                                             .arg(r.meanFidelityPercent)
                                                             .arg(r.itemsBelow99)));
        QVERIFY2(r.meanFidelityPercent >= r.minFidelityPercent && r.meanFidelityPercent <= 100.0,
                 qPrintable(QStringLiteral("min %1 %, mean %2 %").arg(r.minFidelityPercent, 0, 'g', 17).arg(r.meanFidelityPercent, 0, 'g', 17)));
        QVERIFY(r.serverDiagnostics);
        QVERIFY(r.serverDiagnostics->after.at(QStringLiteral("currentSubscriptionCount")) >= 2);
    }

    void connectStorm() {
        LoadParameters p = base(Scenario::Connect);
        p.sessions = 4;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QVERIFY2(r.errors == 0, qPrintable(describe(r)));
        QCOMPARE(r.sessionsPerS, r.requestsPerS);
        QVERIFY(r.sessionsPerS > 5);
        QCOMPARE(r.serverTooBusy, uint64_t(0));
        QVERIFY(r.serverDiagnostics);
        // Every completed cycle created a Session (the counters are read while the storm runs: the
        // "before" read answers a little after the measurement began).
        QVERIFY2(r.serverDiagnostics->delta.at(QStringLiteral("cumulatedSessionCount")) >= qint64(0.9 * double(r.answered)),
                 qPrintable(QString::number(r.serverDiagnostics->delta.at(QStringLiteral("cumulatedSessionCount")))));
        QCOMPARE(r.connectionBroken, false);
        qInfo("connect: %s; cumulatedSessionCount +%lld", qPrintable(describe(r)),
              static_cast<long long>(r.serverDiagnostics->delta.at(QStringLiteral("cumulatedSessionCount"))));
    }

    void connectBackOff() {
        // Every third connection is refused with ERR Bad_TcpServerTooBusy: each refusal is counted,
        // the worker backs off and tries again, and the cycle then completes (no error).
        StallingProxy proxy(m_server->port());
        proxy.refuseEvery(3);
        LoadParameters p = base(Scenario::Connect);
        p.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(proxy.port());
        p.sessions = 3;
        p.durationS = 1.5;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        qInfo("connect through a busy proxy: %s; too busy %llu, retries %llu", qPrintable(describe(r)),
              static_cast<unsigned long long>(r.serverTooBusy), static_cast<unsigned long long>(r.retries));
        QVERIFY(r.serverTooBusy > 0);
        // Each refusal is retried, except that a cycle refused 7 times in a row gives up (an error
        // Bad_TcpServerTooBusy after 6 retries): rare here, but a worker can keep drawing the third slot.
        QVERIFY2(r.errors == 0 || (r.errorsByStatus.size() == 1 && r.errorsByStatus.count(QStringLiteral("Bad_TcpServerTooBusy"))),
                 qPrintable(describe(r)));
        QVERIFY2(r.errors <= r.answered / 20, qPrintable(describe(r)));
        QCOMPARE(r.retries, r.serverTooBusy - r.errors);
        // About one connection in three was refused.
        QVERIFY2(double(r.serverTooBusy) >= 0.25 * double(r.answered) && double(r.serverTooBusy) <= 0.75 * double(r.answered),
                 qPrintable(describe(r)));
        // The back-off (20 ms and more per refusal) costs time: fewer cycles per second than without.
        QVERIFY(r.p99Us >= 15'000);
    }

    void connectionLost_data() {
        QTest::addColumn<double>("rate");
        QTest::newRow("closed loop") << 0.0;
        QTest::newRow("open loop") << 200.0;
    }
    void connectionLost() {
        // The proxy drops every connection 0.5 s into the measured period: the step says so, the
        // requests in flight count as errors, the lost Sessions stop (no spinning on instant
        // failures, no waiting for requests that can never be sent), and the counts still add up.
        QFETCH(double, rate);
        StallingProxy proxy(m_server->port());
        LoadParameters p = base(Scenario::Read);
        p.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(proxy.port());
        p.targetRate = rate;
        p.readServerDiagnostics = false;  // and then there are none
        LoadRunner runner;
        QObject::connect(&runner, &LoadRunner::phaseChanged, &proxy, [&proxy](LoadRunner::Phase ph) {
            if (ph == LoadRunner::Phase::Measuring) QTimer::singleShot(500, &proxy, [&proxy] { proxy.dropAll(); });
        });
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QElapsedTimer t;
        t.start();
        runner.start(p);
        QVERIFY(finished.wait(30'000));
        QVERIFY2(t.elapsed() < 6000, qPrintable(QString::number(t.elapsed())));
        const StepResult r = finished.at(0).at(0).value<StepResult>();
        qInfo("%s", qPrintable(describe(r)));
        QVERIFY(r.error.isEmpty());
        QVERIFY(r.connectionBroken);
        QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
        QVERIFY(r.answered > 0);
        QVERIFY(r.errors + r.timeouts > 0);
        QVERIFY2(r.errors + r.timeouts <= uint64_t(p.sessions * p.outstanding), qPrintable(describe(r)));
        QCOMPARE(r.timeouts, uint64_t(0));
        QVERIFY(!r.serverDiagnostics);
    }

    void secureChannel() {
        // Basic256Sha256 SignAndEncrypt: the client certificate is created in pkiDir on first use,
        // the server's is trusted without asking (trustServer), and every Session is encrypted.
        QTemporaryDir serverPki, clientPki;
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        cfg.demoNamespace = false;
        cfg.security.pkiDir = serverPki.path();
        cfg.security.trustAllClients = true;
        Server secure(cfg);
        QVERIFY2(secure.start(), qPrintable(secure.errorString()));
        LoadParameters p = base(Scenario::Read);
        p.endpointUrl = secure.endpointUrl();
        p.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
        p.securityMode = MessageSecurityMode::SignAndEncrypt;
        p.pkiDir = clientPki.path();
        p.durationS = 1;
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QCOMPARE(r.errors, uint64_t(0));
        QVERIFY(QDir(clientPki.path()).exists(QStringLiteral("own")));
        // Refused when the server's certificate may not be trusted without asking.
        p.trustServer = false;
        QTemporaryDir emptyPki;
        p.pkiDir = emptyPki.path();
        const StepResult refused = runTestStep(p);
        QVERIFY2(refused.error.contains(QStringLiteral("Bad_CertificateUntrusted")), qPrintable(refused.error));
    }

    void serverFigures() {
        LoadParameters p = base(Scenario::Read);
        p.serverPid = QCoreApplication::applicationPid();  // the server runs in this process
        const StepResult r = runTestStep(p);
        checkCounts(r);
        QVERIFY(r.serverCpuMsPerOp > 0);
        QVERIFY(r.serverCpuPercent > 0);
        QVERIFY(r.serverRssKb > 0);
        // The server's CPU time here is the whole process's: at least the client's.
        QVERIFY(r.serverCpuMsPerOp >= r.clientCpuMsPerOp * 0.99);
    }

    void stopEarly() {
        LoadParameters p = base(Scenario::Read);
        p.durationS = 20;
        p.warmupS = 0.2;
        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QSignalSpy phases(&runner, &LoadRunner::phaseChanged);
        runner.start(p);
        QVERIFY(runner.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(runner.phase(), LoadRunner::Phase::Measuring, 10'000);
        QTest::qWait(500);
        QElapsedTimer t;
        t.start();
        runner.stop();
        QVERIFY(finished.wait(10'000));
        QVERIFY(t.elapsed() < 5000);
        const StepResult r = finished.at(0).at(0).value<StepResult>();
        checkCounts(r);
        QVERIFY(r.durationS < 2);
        QCOMPARE(runner.phase(), LoadRunner::Phase::Idle);
        QList<LoadRunner::Phase> seen;
        for (const auto& args : phases) seen << args.at(0).value<LoadRunner::Phase>();
        const QList<LoadRunner::Phase> expected{LoadRunner::Phase::Connecting, LoadRunner::Phase::WarmingUp, LoadRunner::Phase::Measuring,
                                                LoadRunner::Phase::Draining, LoadRunner::Phase::Closing, LoadRunner::Phase::Idle};
        QCOMPARE(seen, expected);
    }

    void refused() {
        LoadParameters p = base(Scenario::Read);
        p.sessions = 0;
        StepResult r = runTestStep(p);
        QVERIFY(r.error.contains(QStringLiteral("sessions")));
        p = base(Scenario::Subscribe);
        p.targetRate = 100;
        r = runTestStep(p);
        QVERIFY(r.error.contains(QStringLiteral("open loop")));
        // Nobody listens there.
        QTcpServer closed;
        closed.listen(QHostAddress::LocalHost, 0);
        const quint16 port = closed.serverPort();
        closed.close();
        p = base(Scenario::Read);
        p.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port);
        r = runTestStep(p);
        QVERIFY2(r.error.contains(QStringLiteral("Bad_")), qPrintable(r.error));
        QCOMPARE(r.sent, uint64_t(0));
        // A counter the server does not have.
        p = base(Scenario::Subscribe);
        p.counterNode = QStringLiteral("nsu=urn:nowhere;i=5");
        r = runTestStep(p);
        QVERIFY2(r.error.contains(QStringLiteral("counterNode")), qPrintable(r.error));
        // A counter in a namespace the server has, but no such node: the failing service is named.
        p.counterNode = QStringLiteral("ns=1;s=NoSuchCounter");
        r = runTestStep(p);
        QVERIFY2(r.error.contains(QStringLiteral("CreateMonitoredItems")) && r.error.contains(QStringLiteral("Bad_NodeIdUnknown")),
                 qPrintable(r.error));
    }

    void openLoopAboveCapacity() {
        // A target rate far above what the server (and this machine) can answer: the throughput is
        // what was answered inside the period, not the target; the requests the schedule wanted and
        // that never got a slot count as sent and timed out; a warning says the rate was not kept.
        LoadParameters p = base(Scenario::Read);
        p.sessions = 1;
        p.outstanding = 2;
        p.targetRate = 1'000'000;
        p.durationS = 1;
        p.warmupS = 0;
        p.requestTimeoutMs = 500;
        const StepResult r = runTestStep(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sent, r.answered + r.errors + r.timeouts);
        QVERIFY2(r.sent >= uint64_t(0.99 * p.targetRate * r.durationS), qPrintable(describe(r)));  // the schedule's
        // Some never got a slot (timed out). How many depends on the machine: one that answers
        // 180,000 requests/s on 2 in flight answered more than it timed out (the check was
        // timeouts > answered, which held on slower machines only).
        QVERIFY2(r.timeouts > 0 && r.answered < r.sent, qPrintable(describe(r)));
        QVERIFY2(r.requestsPerS > 0 && r.requestsPerS < 0.5 * p.targetRate, qPrintable(describe(r)));
        QVERIFY(r.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("target rate was not kept")));
        // The timeline ends with the measurement (the drain is not charted as measured seconds).
        QVERIFY(!r.timeline.empty());
        QVERIFY2(r.timeline.back().tS <= r.durationS + 0.1, qPrintable(QString::number(r.timeline.back().tS)));
    }

    void openLoopPacerWakesOnlyWhenSomethingIsDue() {
        // 60 Sessions, 20 requests/s in all: the schedule has a send due every 50 ms, so the
        // pacer (armed for the next due send) runs about once per request. A pacer on a 1 ms tick
        // ran about 2,000 times in these 2 s, whatever the rate.
        LoadParameters p = base(Scenario::Read);
        p.sessions = 60;
        p.outstanding = 1;
        p.targetRate = 20;
        p.durationS = 1.5;
        p.warmupS = 0.5;
        p.connectWindow = 60;
        const StepResult r = runTestStep(p);
        // Not checkCounts(): the generator's CPU over the period can read 0 (10 ms clock ticks).
        QVERIFY2(r.error.isEmpty(), qPrintable(describe(r)));
        QCOMPARE(r.sent, r.answered);
        // The schedule's 30 requests of the period were all sent, and every Session took its turn.
        QVERIFY2(r.sent >= 29 && r.sent <= 31, qPrintable(describe(r)));
        const double scheduled = p.targetRate * (p.warmupS + p.durationS);  // 40
        QVERIFY2(r.pacerWakeups >= uint64_t(0.9 * scheduled) && r.pacerWakeups <= uint64_t(2 * scheduled + 5),
                 qPrintable(QStringLiteral("%1 pacer runs for %2 scheduled requests").arg(r.pacerWakeups).arg(scheduled)));
    }

    void stopInWarmupMeasuresNothing() {
        LoadParameters p = base(Scenario::Read);
        p.warmupS = 5;
        p.durationS = 2;
        LoadRunner runner;
        QSignalSpy finished(&runner, &LoadRunner::finished);
        QSignalSpy phases(&runner, &LoadRunner::phaseChanged);
        runner.start(p);
        QTRY_VERIFY_WITH_TIMEOUT(runner.phase() == LoadRunner::Phase::WarmingUp, 10000);
        QTest::qWait(300);
        runner.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        const StepResult r = finished.at(0).at(0).value<StepResult>();
        QVERIFY2(r.error.contains(QStringLiteral("warm-up")), qPrintable(r.error));
    }

    void openLoopShowsStall() {
        // 300 requests/s over 2 Sessions x 4 outstanding; the proxy holds everything for 300 ms
        // 1 s into the measured period. Requests due during the stall wait (at most 4 in flight per
        // Session) and their latency from the intended time reaches ~300 ms: ~3 % of the requests
        // are above 250 ms, so p99 shows the stall.
        StallingProxy proxy(m_server->port());
        LoadParameters p = base(Scenario::Read);
        p.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(proxy.port());
        p.outstanding = 4;
        p.targetRate = 300;
        p.durationS = 2.5;
        p.warmupS = 0.5;
        auto stallAt = [&](LoadRunner& runner) {
            QObject::connect(&runner, &LoadRunner::phaseChanged, &proxy, [&proxy](LoadRunner::Phase ph) {
                if (ph == LoadRunner::Phase::Measuring) QTimer::singleShot(1000, &proxy, [&proxy] { proxy.hold(300); });
            });
        };
        StepResult open;
        {
            LoadRunner runner;
            stallAt(runner);
            QSignalSpy finished(&runner, &LoadRunner::finished);
            runner.start(p);
            QVERIFY(finished.wait(30'000));
            open = finished.at(0).at(0).value<StepResult>();
        }
        checkCounts(open);
        QCOMPARE(open.errors + open.timeouts, uint64_t(0));
        // Every request due in the period was sent, the stalled ones too.
        QVERIFY2(double(open.sent) >= 0.95 * 300 * open.durationS && double(open.sent) <= 1.02 * 300 * open.durationS + 2,
                 qPrintable(describe(open)));
        QVERIFY2(open.p99Us >= 250'000, qPrintable(describe(open)));
        QVERIFY2(open.maxUs >= 280'000, qPrintable(describe(open)));
        QVERIFY2(open.p50Us < 50'000, qPrintable(describe(open)));

        // The closed loop: the stall holds only the 8 requests in flight; the thousands of others
        // hide it below p99 (coordinated omission), and only max shows it.
        p.targetRate = 0;
        StepResult closed;
        {
            LoadRunner runner;
            stallAt(runner);
            QSignalSpy finished(&runner, &LoadRunner::finished);
            runner.start(p);
            QVERIFY(finished.wait(30'000));
            closed = finished.at(0).at(0).value<StepResult>();
        }
        checkCounts(closed);
        qInfo("open loop:   %s", qPrintable(describe(open)));
        qInfo("closed loop: %s", qPrintable(describe(closed)));
        QVERIFY2(closed.maxUs >= 250'000, qPrintable(describe(closed)));
        QVERIFY2(closed.p99Us < open.p99Us / 2, qPrintable(describe(closed)));
    }
};

UA_TEST_GUILESS_MAIN(TestLoadRunner)
#include "tst_load_runner.moc"
