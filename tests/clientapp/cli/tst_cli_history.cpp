// `ua-client history` (issue 30 item 5, the command line) as users run it: the built executable
// against our server in this process, which samples the demo signals every 100 ms into a temporary
// SQLite file. At the start an Engineer inserts a fixed series into Demo.Simulation.Ramp's history
// twenty minutes back (value 7k mod 11 at P0 + k x 100 ms, k = 0..59), whose lines are known exactly;
// the sampled values (Ramp is (t / 100 ms) mod 100 at its timestamp t) are checked for a relative
// --from. Raw (text, CSV, JSON; pages of 4 values), --max, --bounds, --aggregate with --interval,
// --at, --modified after an Engineer's HistoryUpdate, Good_NoData, the server's Bad_ answers (exit 1)
// and the bad input refused before anything is sent (exit 2).
#include "../HistoryTestServer.h"
#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <functional>
#include <memory>
#include <optional>

using namespace ua;

namespace {

const QString kHistoryRamp = QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Ramp");

struct HistoryCliRun {
    int exitCode = -1;
    QString out, err;
    QString text() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out.left(3000), err.left(3000)); }
    QStringList lines() const { return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
};

double historyFixed(int k) { return double((7 * k) % 11); }

QString isoMs(int64_t ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs); }

int64_t parsedMs(const QString& iso) {
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : -1;
}

} // namespace

class TestCliHistory : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void rawAsTextCsvAndJson();
    void maxAndBounds();
    void aggregateAgainstTheRawValues();
    void atTimesAndRelativeTimes();
    void modifiedAfterAnUpdate();
    void eventsOfTheServerObject();
    void serverAnswers();
    void badInput_data();
    void badInput();
    void badShapes();

private:
    HistoryCliRun run(QStringList args);
    // HistoryUpdate of ops as the Engineer (a Client of its own); Good or the first failure.
    StatusCode engineerUpdate(const std::function<std::vector<HistoryUpdateOperation>(const NodeId& ramp)>& ops);
    // The fixed series' line k as text output prints it.
    QString fixedLine(int k) const { return isoMs(m_p0Ms + k * 100) + QStringLiteral("  ") + QString::number(historyFixed(k)) + QStringLiteral("  Good"); }
    QStringList history(QStringList more) const {
        return QStringList{QStringLiteral("history"), m_url, kHistoryRamp, QStringLiteral("--security"), QStringLiteral("none")} + more;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    QString m_url;
    int64_t m_startMs = 0;
    int64_t m_p0Ms = 0;  // the fixed series
};

HistoryCliRun TestCliHistory::run(QStringList args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    env.remove(QStringLiteral("UA_PASSWORD"));
    p.setProcessEnvironment(env);
    args << QStringLiteral("--pki") << m_dir.filePath(QStringLiteral("client-pki"));
    p.start(QStringLiteral(UA_CLIENT_EXECUTABLE), args);
    HistoryCliRun r;
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    QElapsedTimer t;
    t.start();
    // Our server lives on this thread: keep its event loop turning while the client runs.
    while (p.state() != QProcess::NotRunning && t.elapsed() < 60000) QTest::qWait(20);
    if (p.state() != QProcess::NotRunning) p.kill();
    p.waitForFinished();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestCliHistory::initTestCase() {
    QVERIFY(m_dir.isValid());
    const ServerConfig cfg = test::HistoryTestServer::config(m_dir);  // Ramp and Sine every 100 ms, an Engineer
    m_startMs = QDateTime::currentMSecsSinceEpoch();
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server->port());
    m_p0Ms = (m_startMs - 1200000) / 1000 * 1000;
    const StatusCode inserted = engineerUpdate([this](const NodeId& ramp) {
        UpdateDataDetails insert;
        insert.nodeId = ramp;
        insert.performInsertReplace = PerformUpdateType::Insert;
        insert.updateValues = Array<DataValue>::emptyArray();
        for (int k = 0; k < 60; ++k) {
            DataValue d{Variant(historyFixed(k))};
            d.setSourceTimestamp(DateTime::fromUnixMs(m_p0Ms + k * 100));
            insert.updateValues.push_back(d);
        }
        return std::vector<HistoryUpdateOperation>{insert};
    });
    QCOMPARE(inserted.code, status::Good.code);
    // 4 s of sampled values for the relative times.
    QTest::qWait(int(std::max<int64_t>(0, m_startMs + 4200 - QDateTime::currentMSecsSinceEpoch())));
}

StatusCode TestCliHistory::engineerUpdate(const std::function<std::vector<HistoryUpdateOperation>(const NodeId& ramp)>& ops) {
    ClientConfig e;
    e.identity = UserIdentity::fromUserName(QStringLiteral("engineer"), QStringLiteral("engineer-pw"));
    e.pkiDir = m_dir.filePath(QStringLiteral("engineer-pki"));  // the server's certificate encrypts the password
    e.securityPolicyUri = QString::fromUtf8(kSecurityPolicyNone);
    e.securityMode = MessageSecurityMode::None;
    e.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    Client engineer(e);
    std::optional<StatusCode> outcome;
    engineer.connectToServer(m_url, this, [&](const ServiceResult<GetEndpointsResponse>& r) {
        if (!r.isGood()) return void(outcome = r.status);
        engineer.createSession(this, [&](const ServiceResult<CreateSessionResponse>& cs) {
            if (!cs.isGood()) return void(outcome = cs.status);
            const auto ramp = engineer.nodeIdConverter().toNodeId(*ExpandedNodeId::parse(kHistoryRamp.toStdString()));
            if (!ramp) return void(outcome = status::BadNodeIdUnknown);
            engineer.historyUpdate(ops(*ramp), this, [&](const ServiceResult<HistoryUpdateResponse>& u) {
                StatusCode first = u.status;
                for (const HistoryUpdateResult& r : u.response.results) {
                    if (first.isGood() && r.statusCode.isBad()) first = r.statusCode;
                    for (StatusCode o : r.operationResults)
                        if (first.isGood() && o.isBad()) first = o;
                }
                outcome = first;
            });
        });
    });
    if (!QTest::qWaitFor([&] { return outcome.has_value(); }, 20000)) return status::BadTimeout;
    return *outcome;
}

void TestCliHistory::cleanupTestCase() { m_server.reset(); }

void TestCliHistory::rawAsTextCsvAndJson() {
    const QStringList range{QStringLiteral("--from"), isoMs(m_p0Ms), QStringLiteral("--to"), isoMs(m_p0Ms + 6000)};
    QStringList expected;
    for (int k = 0; k < 60; ++k) expected << fixedLine(k);
    const HistoryCliRun text = run(history(range + QStringList{QStringLiteral("--page"), QStringLiteral("4")}));
    QVERIFY2(text.exitCode == 0 && text.err.isEmpty(), qPrintable(text.text()));
    QCOMPARE(text.lines(), expected);
    static const QRegularExpression iso(QStringLiteral(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z  )"));
    QVERIFY2(iso.match(text.lines().front()).hasMatch(), qPrintable(text.lines().front()));
    const HistoryCliRun csv = run(history(range + QStringList{QStringLiteral("--csv")}));
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.text()));
    QStringList expectedCsv{QStringLiteral("sourceTimestamp,value,status")};
    for (const QString& line : expected) expectedCsv << line.split(QStringLiteral("  ")).join(QLatin1Char(','));
    QCOMPARE(csv.lines(), expectedCsv);
    const HistoryCliRun json = run(history(range + QStringList{QStringLiteral("--page"), QStringLiteral("4"), QStringLiteral("--json")}));
    QVERIFY2(json.exitCode == 0, qPrintable(json.text()));
    const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("status")).toString(), QStringLiteral("Good"));
    QCOMPARE(doc.value(QStringLiteral("node")).toString(), kHistoryRamp);
    const int requests = doc.value(QStringLiteral("requests")).toInt();
    QVERIFY2(requests == 15 || requests == 16, qPrintable(json.out.left(300)));  // 60 values, 4 a request
    const QJsonArray values = doc.value(QStringLiteral("values")).toArray();
    QCOMPARE(values.size(), 60);
    for (int k = 0; k < 60; ++k) {
        const QJsonObject v = values[k].toObject();
        QCOMPARE(v.value(QStringLiteral("sourceTimestamp")).toString(), isoMs(m_p0Ms + k * 100));
        QCOMPARE(v.value(QStringLiteral("value")).toDouble(), historyFixed(k));
        QCOMPARE(v.value(QStringLiteral("type")).toString(), QStringLiteral("Double"));
        QCOMPARE(v.value(QStringLiteral("status")).toString(), QStringLiteral("Good"));
    }
}

void TestCliHistory::maxAndBounds() {
    const HistoryCliRun five = run(history({QStringLiteral("--from"), isoMs(m_p0Ms), QStringLiteral("--to"), isoMs(m_p0Ms + 6000),
                                            QStringLiteral("--max"), QStringLiteral("5"), QStringLiteral("--page"), QStringLiteral("2")}));
    QVERIFY2(five.exitCode == 0, qPrintable(five.text()));
    QCOMPARE(five.lines(), (QStringList{fixedLine(0), fixedLine(1), fixedLine(2), fixedLine(3), fixedLine(4)}));
    QVERIFY2(five.err.contains(QStringLiteral("stopped at --max 5 values; the server has more (Good_MoreData)")), qPrintable(five.text()));
    // Off the 100 ms grid: the values inside and the nearest one on each side (the end bound is the
    // first sampled value, twenty minutes later).
    const HistoryCliRun bounds = run(history({QStringLiteral("--from"), isoMs(m_p0Ms + 50), QStringLiteral("--to"), isoMs(m_p0Ms + 5950),
                                              QStringLiteral("--bounds")}));
    QVERIFY2(bounds.exitCode == 0, qPrintable(bounds.text()));
    const QStringList lines = bounds.lines();
    QCOMPARE(lines.size(), 61);
    for (int k = 0; k < 60; ++k) QCOMPARE(lines[k], fixedLine(k));
    QVERIFY2(parsedMs(lines.back().section(QStringLiteral("  "), 0, 0)) >= m_startMs - 1000, qPrintable(lines.back()));
    // No value before the series: Bad_BoundNotFound at --from, without a value.
    const HistoryCliRun none = run(history({QStringLiteral("--from"), isoMs(m_p0Ms - 1000), QStringLiteral("--to"), isoMs(m_p0Ms + 150),
                                            QStringLiteral("--bounds")}));
    QVERIFY2(none.exitCode == 0, qPrintable(none.text()));
    QCOMPARE(none.lines(), (QStringList{isoMs(m_p0Ms - 1000) + QStringLiteral("    Bad_BoundNotFound"), fixedLine(0), fixedLine(1), fixedLine(2)}));
}

void TestCliHistory::aggregateAgainstTheRawValues() {
    struct Case { const char* name; std::function<double(const std::vector<double>&)> expected; };
    const Case cases[] = {
        {"Count", [](const std::vector<double>& v) { return double(v.size()); }},
        {"minimum", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }},  // any case
        {"MAXIMUM", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }},
    };
    for (const Case& c : cases) {
        const HistoryCliRun r = run(history({QStringLiteral("--from"), isoMs(m_p0Ms), QStringLiteral("--to"), isoMs(m_p0Ms + 3000),
                                             QStringLiteral("--aggregate"), QLatin1String(c.name), QStringLiteral("--interval"), QStringLiteral("500")}));
        QVERIFY2(r.exitCode == 0 && r.lines().size() == 6, qPrintable(QLatin1String(c.name) + r.text()));
        for (int i = 0; i < 6; ++i) {
            std::vector<double> raw;
            for (int k = 5 * i; k < 5 * i + 5; ++k) raw.push_back(historyFixed(k));
            const QStringList f = r.lines()[i].split(QStringLiteral("  "));
            QCOMPARE(f[0], isoMs(m_p0Ms + i * 500));
            QCOMPARE(f[1].toDouble(), c.expected(raw));
            QVERIFY2(f[2].startsWith(QLatin1String("Good")), qPrintable(r.lines()[i]));
        }
        if (QLatin1String(c.name) == QLatin1String("Count"))
            QCOMPARE(r.lines()[1], isoMs(m_p0Ms + 500) + QStringLiteral("  5  Good (Calculated)"));
    }
    // --interval 0 (the default): one interval for the whole range.
    const HistoryCliRun whole = run(history({QStringLiteral("--from"), isoMs(m_p0Ms), QStringLiteral("--to"), isoMs(m_p0Ms + 3000),
                                             QStringLiteral("--aggregate"), QStringLiteral("Count")}));
    QVERIFY2(whole.exitCode == 0, qPrintable(whole.text()));
    QCOMPARE(whole.lines(), QStringList{isoMs(m_p0Ms) + QStringLiteral("  30  Good (Calculated)")});
    // The aggregate by NodeId (i=2352 Count) and in JSON.
    const HistoryCliRun byId = run(history({QStringLiteral("--from"), isoMs(m_p0Ms), QStringLiteral("--to"), isoMs(m_p0Ms + 3000),
                                            QStringLiteral("--aggregate"), QStringLiteral("i=2352"), QStringLiteral("--interval"),
                                            QStringLiteral("1000"), QStringLiteral("--json")}));
    QVERIFY2(byId.exitCode == 0, qPrintable(byId.text()));
    const QJsonObject doc = QJsonDocument::fromJson(byId.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("aggregate")).toString(), QStringLiteral("Count"));
    QCOMPARE(doc.value(QStringLiteral("processingInterval")).toDouble(), 1000.0);
    const QJsonArray values = doc.value(QStringLiteral("values")).toArray();
    QCOMPARE(values.size(), 3);
    QCOMPARE(values[0].toObject().value(QStringLiteral("value")).toDouble(), 10.0);
    QCOMPARE(values[0].toObject().value(QStringLiteral("status")).toString(), QStringLiteral("Good (Calculated)"));
}

void TestCliHistory::atTimesAndRelativeTimes() {
    const HistoryCliRun at = run(history({QStringLiteral("--at"), isoMs(m_p0Ms + 100) + QLatin1Char(',') + isoMs(m_p0Ms + 200)}));
    QVERIFY2(at.exitCode == 0, qPrintable(at.text()));
    QCOMPARE(at.lines(), (QStringList{fixedLine(1), fixedLine(2)}));  // stored values: as Read Raw gives them
    // Between 10 (P0 + 300 ms) and 6 (P0 + 400 ms): interpolated.
    const HistoryCliRun between = run(history({QStringLiteral("--at"), isoMs(m_p0Ms + 350)}));
    QVERIFY2(between.exitCode == 0, qPrintable(between.text()));
    QCOMPARE(between.lines(), QStringList{isoMs(m_p0Ms + 350) + QStringLiteral("  8  Good (Interpolated)")});
    // The last 3 seconds, counted back from now: the sampled values.
    const int64_t before = QDateTime::currentMSecsSinceEpoch();
    const HistoryCliRun recent = run(history({QStringLiteral("--from"), QStringLiteral("-3s")}));
    const int64_t after = QDateTime::currentMSecsSinceEpoch();
    QVERIFY2(recent.exitCode == 0 && recent.lines().size() >= 5, qPrintable(recent.text()));
    for (const QString& line : recent.lines()) {
        const QStringList f = line.split(QStringLiteral("  "));
        const int64_t t = parsedMs(f[0]);
        QVERIFY2(t >= before - 3000 - 100 && t <= after, qPrintable(line));
        QCOMPARE(f[1], QString::number((t / 100) % 100));
    }
    const HistoryCliRun hour = run(history({QStringLiteral("--from"), QStringLiteral("-1h"), QStringLiteral("--to"), QStringLiteral("now"),
                                            QStringLiteral("--max"), QStringLiteral("3")}));
    QVERIFY2(hour.exitCode == 0, qPrintable(hour.text()));
    QCOMPARE(hour.lines(), (QStringList{fixedLine(0), fixedLine(1), fixedLine(2)}));  // the series is the oldest of the hour
}

void TestCliHistory::modifiedAfterAnUpdate() {
    // An Engineer inserts two values ten minutes before the server started, then replaces one.
    const int64_t t = (m_startMs - 600000) / 1000 * 1000;
    auto value = [](double v, int64_t ms) {
        DataValue d{Variant(v)};
        d.setSourceTimestamp(DateTime::fromUnixMs(ms));
        return d;
    };
    StatusCode s = engineerUpdate([&](const NodeId& ramp) {
        UpdateDataDetails insert;
        insert.nodeId = ramp;
        insert.performInsertReplace = PerformUpdateType::Insert;
        insert.updateValues = Array<DataValue>{value(1.25, t), value(2.5, t + 1000)};
        return std::vector<HistoryUpdateOperation>{insert};
    });
    QCOMPARE(s.code, status::Good.code);
    s = engineerUpdate([&](const NodeId& ramp) {
        UpdateDataDetails replace;
        replace.nodeId = ramp;
        replace.performInsertReplace = PerformUpdateType::Replace;
        replace.updateValues = Array<DataValue>{value(7.75, t + 1000)};
        return std::vector<HistoryUpdateOperation>{replace};
    });
    QCOMPARE(s.code, status::Good.code);

    const QStringList range{QStringLiteral("--from"), isoMs(t - 1000), QStringLiteral("--to"), isoMs(t + 5000)};
    const HistoryCliRun raw = run(history(range));
    QVERIFY2(raw.exitCode == 0, qPrintable(raw.text()));
    QVERIFY2(raw.lines().size() == 2 && raw.lines()[0] == isoMs(t) + QStringLiteral("  1.25  Good") &&
             raw.lines()[1].startsWith(isoMs(t + 1000) + QStringLiteral("  7.75  Good")), qPrintable(raw.text()));
    const HistoryCliRun modified = run(history(range + QStringList{QStringLiteral("--modified")}));
    QVERIFY2(modified.exitCode == 0, qPrintable(modified.text()));
    const QStringList lines = modified.lines();
    // The inserts and the replaced value (the old one), each with the update type, when and who.
    QVERIFY2(lines.size() >= 3, qPrintable(modified.text()));
    static const QRegularExpression row(QStringLiteral(R"(^(\S+)  (\S+)  (.+)  (Insert|Replace|Update|Delete)  (\S+)  engineer$)"));
    bool replacedOld = false;
    for (const QString& line : lines) {
        const QRegularExpressionMatch m = row.match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        const int64_t when = parsedMs(m.captured(5));
        QVERIFY2(when >= m_startMs && when <= QDateTime::currentMSecsSinceEpoch(), qPrintable(line));
        if (m.captured(4) == QLatin1String("Replace") && m.captured(2) == QLatin1String("2.5")) replacedOld = true;
    }
    QVERIFY2(replacedOld, qPrintable(modified.text()));
    const HistoryCliRun csv = run(history(range + QStringList{QStringLiteral("--modified"), QStringLiteral("--csv")}));
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.text()));
    QCOMPARE(csv.lines().front(), QStringLiteral("sourceTimestamp,value,status,updateType,modificationTime,userName"));
    QCOMPARE(csv.lines().size(), lines.size() + 1);
}

// --events: the Server object's event history (Read Event). Three events an hour back, a second
// apart (the audit events of the command line's own Sessions are recent: outside the range).
void TestCliHistory::eventsOfTheServerObject() {
    const int64_t t0 = (QDateTime::currentMSecsSinceEpoch() - 3'600'000) / 1000 * 1000;
    for (int k = 0; k < 3; ++k) {
        auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "CliTest", "cli event " + std::to_string(k), uint16_t(100 + k));
        e->set("Time", Variant(DateTime::fromUnixMs(t0 + k * 1000)));
        m_server->events().raise(std::move(e));
    }
    const auto events = [&](QStringList more) {
        return QStringList{QStringLiteral("history"), m_url, QStringLiteral("i=2253"), QStringLiteral("--security"), QStringLiteral("none"),
                           QStringLiteral("--events"), QStringLiteral("--from"), isoMs(t0), QStringLiteral("--to"), isoMs(t0 + 3000)} + more;
    };
    const auto line = [&](int k) {
        return QStringLiteral("%1  %2  CliTest  i=2041  cli event %3").arg(isoMs(t0 + k * 1000)).arg(100 + k).arg(k);
    };
    const HistoryCliRun all = run(events({QStringLiteral("--page"), QStringLiteral("2")}));  // two requests
    QVERIFY2(all.exitCode == 0, qPrintable(all.text()));
    QCOMPARE(all.lines(), (QStringList{line(0), line(1), line(2)}));
    const HistoryCliRun csv = run(events({QStringLiteral("--csv")}));
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.text()));
    QCOMPARE(csv.lines().value(0), QStringLiteral("time,severity,sourceName,eventType,message"));
    QCOMPARE(csv.lines().value(3), line(2).split(QStringLiteral("  ")).join(QLatin1Char(',')));
    const HistoryCliRun json = run(events({QStringLiteral("--json"), QStringLiteral("--page"), QStringLiteral("1")}));
    QVERIFY2(json.exitCode == 0, qPrintable(json.text()));
    const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("requests")).toInt(), 3);
    QCOMPARE(doc.value(QStringLiteral("events")).toArray().size(), 3);
    QCOMPARE(doc.value(QStringLiteral("events")).toArray()[1].toObject().value(QStringLiteral("message")).toString(), QStringLiteral("cli event 1"));
    // --max: two events, the ContinuationPoint released, a note.
    const HistoryCliRun two = run(events({QStringLiteral("--max"), QStringLiteral("2"), QStringLiteral("--page"), QStringLiteral("1")}));
    QVERIFY2(two.exitCode == 0, qPrintable(two.text()));
    QCOMPARE(two.lines(), (QStringList{line(0), line(1)}));
    QVERIFY2(two.err.contains(QStringLiteral("stopped at --max 2 events; the server has more (Good_MoreData)")), qPrintable(two.text()));
    // A Variable keeps no events: the operation's status, exit 1.
    QStringList onRamp = events({});
    onRamp[2] = kHistoryRamp;
    const HistoryCliRun ramp = run(onRamp);
    QCOMPARE(ramp.exitCode, 1);
    QVERIFY2(ramp.err.contains(QStringLiteral("Bad_HistoryOperationUnsupported")), qPrintable(ramp.text()));
    // Read Event takes no aggregate.
    const HistoryCliRun shape = run(events({QStringLiteral("--aggregate"), QStringLiteral("Count")}));
    QCOMPARE(shape.exitCode, 2);
    QVERIFY2(shape.err.contains(QStringLiteral("--events reads a notifier's events")), qPrintable(shape.text()));
}

void TestCliHistory::serverAnswers() {
    // Long before the server started: no values, not an error.
    const HistoryCliRun none = run(history({QStringLiteral("--from"), isoMs(m_startMs - 7200000), QStringLiteral("--to"),
                                            isoMs(m_startMs - 3600000)}));
    QVERIFY2(none.exitCode == 0 && none.out.isEmpty() && none.err.contains(QStringLiteral("no values (Good_NoData)")), qPrintable(none.text()));
    QStringList args{QStringLiteral("history"), m_url, QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Nope"), QStringLiteral("--from"),
                     QStringLiteral("-1m"), QStringLiteral("--security"), QStringLiteral("none")};
    HistoryCliRun r = run(args);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Demo.Nope: Bad_NodeIdUnknown")), qPrintable(r.text()));
    args[2] = QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.UpdateRate");  // not historized
    r = run(args);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_HistoryOperationUnsupported")), qPrintable(r.text()));
    r = run(history({QStringLiteral("--from"), QStringLiteral("-1m"), QStringLiteral("--aggregate"), QStringLiteral("StandardDeviationSample"),
                     QStringLiteral("--interval"), QStringLiteral("1000")}));
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_AggregateNotSupported")), qPrintable(r.text()));
    // The processing interval rounds to 0 ticks: the server's Bad_InvalidArgument.
    r = run(history({QStringLiteral("--from"), QStringLiteral("-1m"), QStringLiteral("--aggregate"), QStringLiteral("Count"),
                     QStringLiteral("--interval"), QStringLiteral("0.00001")}));
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_InvalidArgument")), qPrintable(r.text()));
}

void TestCliHistory::badInput_data() {
    QTest::addColumn<QStringList>("more");
    QTest::addColumn<QString>("message");
    const QString from = QStringLiteral("--from");
    QTest::newRow("unknown aggregate") << QStringList{from, "-1m", "--aggregate", "Avg"} << "--aggregate Avg: unknown aggregate (OPC 10000-13: Interpolative, Average,";
    QTest::newRow("interval NaN") << QStringList{from, "-1m", "--aggregate", "Count", "--interval", "nan"} << "--interval nan: expected a processing interval in milliseconds >= 0";
    QTest::newRow("interval negative") << QStringList{from, "-1m", "--aggregate", "Count", "--interval", "-5"} << "--interval -5: expected a processing interval";
    QTest::newRow("interval infinite") << QStringList{from, "-1m", "--aggregate", "Count", "--interval", "inf"} << "--interval inf: expected a processing interval";
    QTest::newRow("interval text") << QStringList{from, "-1m", "--aggregate", "Count", "--interval", "fast"} << "--interval fast: expected a processing interval";
    QTest::newRow("interval without aggregate") << QStringList{from, "-1m", "--interval", "500"} << "--interval is the processing interval of --aggregate";
    QTest::newRow("from after to") << QStringList{from, "2026-11-30T10:00:00Z", "--to", "2026-11-30T09:00:00Z"} << "--from 2026-11-30T10:00:00.000Z is not before --to 2026-11-30T09:00:00.000Z";
    QTest::newRow("from equals to") << QStringList{from, "2026-11-30T10:00:00Z", "--to", "2026-11-30T10:00:00Z"} << "is not before --to";
    QTest::newRow("from in the future") << QStringList{from, "9999-01-01T00:00:00Z"} << "is not before --to";
    QTest::newRow("no from") << QStringList{"--to", "now"} << "history: --from TIME is missing";
    QTest::newRow("time text") << QStringList{from, "yesterday"} << "--from yesterday: \"yesterday\" is not a time (ISO 8601";
    QTest::newRow("relative unit") << QStringList{from, "-10x"} << "\"-10x\" is not a time";
    QTest::newRow("before 1601") << QStringList{from, "-99999999d"} << "-99999999d reaches before 1601-01-01";
    QTest::newRow("date before 1601") << QStringList{from, "1500-01-01T00:00:00Z"} << "before 1601-01-01";
    QTest::newRow("max 0") << QStringList{from, "-1m", "--max", "0"} << "--max 0: expected a positive number of values";
    QTest::newRow("max negative") << QStringList{from, "-1m", "--max", "-3"} << "--max -3: expected a positive number of values";
    QTest::newRow("page 0") << QStringList{from, "-1m", "--page", "0"} << "--page 0: expected a number of values from 1 to 4294967295";
    QTest::newRow("page too big") << QStringList{from, "-1m", "--page", "4294967296"} << "--page 4294967296: expected a number of values from 1";
    QTest::newRow("at with from") << QStringList{"--at", "now", from, "-1m"} << "--at reads the given times only";
    QTest::newRow("at empty element") << QStringList{"--at", "now,,now"} << "--at now,,now: an empty time in the list";
    QTest::newRow("at bad element") << QStringList{"--at", "now,soon"} << "\"soon\" is not a time";
    QTest::newRow("bounds and modified") << QStringList{from, "-1m", "--bounds", "--modified"} << "--bounds and --modified exclude each other";
    QTest::newRow("aggregate and bounds") << QStringList{from, "-1m", "--aggregate", "Count", "--bounds"} << "--aggregate excludes --bounds, --modified and --page";
    QTest::newRow("json and csv") << QStringList{from, "-1m", "--json", "--csv"} << "--json and --csv exclude each other";
}

void TestCliHistory::badInput() {
    QFETCH(QStringList, more);
    QFETCH(QString, message);
    const HistoryCliRun r = run(history(more));
    QVERIFY2(r.exitCode == 2 && r.err.contains(message) && r.out.isEmpty(), qPrintable(message + QLatin1Char('\n') + r.text()));
}

void TestCliHistory::badShapes() {
    // Options of history on another command, and history without its node.
    HistoryCliRun other = run({QStringLiteral("read"), m_url, QStringLiteral("i=2258"), QStringLiteral("--from"), QStringLiteral("-1m")});
    QVERIFY2(other.exitCode == 2 && other.err.contains(QStringLiteral("--from is an option of history only")), qPrintable(other.text()));
    other = run({QStringLiteral("history"), m_url, QStringLiteral("--from"), QStringLiteral("-1m")});
    QVERIFY2(other.exitCode == 2 && other.err.contains(QStringLiteral("usage: ua-client history <url> <node>")), qPrintable(other.text()));
}

UA_TEST_GUILESS_MAIN(TestCliHistory)
#include "tst_cli_history.moc"
