// Distributed runs (docs/LoadTesterCli.md "Distributed runs"): the built ua-loadtest as 3 ranks of
// an Open MPI job on this machine (`mpirun --oversubscribe -np 3`), against our ua-server spawned
// by rank 0. Checked: one process reports (a single result line, the JSON); the merged counts are
// the sums of the ranks' and the merged latency histogram is the bucket-by-bucket sum of theirs,
// its percentiles those of that sum; Sessions and rate are split between the ranks; a rank that
// cannot connect fails the step on every rank with rank 0 naming it (exit 3); usage errors stop
// every rank (exit 2); a rank stopped alone stops every rank after the same step. Skipped only
// when the tool was built without MPI (CI installs Open MPI). Steps of 1 s with a few Sessions: the machine may have 2 cores for the 3 ranks and the server.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <cmath>
#include <csignal>
#include <map>

namespace {

struct MpiRun {
    int exitCode = -1;
    QString out, err;
    QString text() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out.left(3000), err.right(3000)); }
};

QJsonObject readJsonFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The result lines of out ("read-1 5x1  req/s ..." or "... FAILED: ...").
QStringList mpiResultLines(const QString& out) {
    QStringList lines;
    static const QRegularExpression re(QStringLiteral("^[a-z]+(-\\d+)? \\d+x\\d+  "));
    for (const QString& l : out.split(QLatin1Char('\n')))
        if (re.match(l).hasMatch()) lines << l;
    return lines;
}

// ./test.sh --asan: Open MPI does not free all it allocates by MPI_Finalize, and unloads the
// plugins that allocated it, so LeakSanitizer cannot be told those leaks by name; the ranks keep
// AddressSanitizer's checks but not its leak check (the engine's own leaks are checked in process by
// the engine's tests). Harmless in other builds.
QString ranksAsanOptions(const QString& current) {
    return (current.isEmpty() ? QString() : current + QLatin1Char(':')) + QStringLiteral("detect_leaks=0");
}

uint64_t count(const QJsonObject& o, const char* key) { return uint64_t(o.value(QLatin1String(key)).toDouble()); }

// Bucket index -> count of a histogram's JSON ({"buckets": [[index, count], ...]}).
std::map<int, uint64_t> buckets(const QJsonObject& histogram) {
    std::map<int, uint64_t> out;
    for (const QJsonValue& v : histogram.value(QStringLiteral("buckets")).toArray())
        out[v.toArray().at(0).toInt()] += uint64_t(v.toArray().at(1).toDouble());
    return out;
}

// The nearest-rank percentile of summed buckets, computed here from the bucket layout of
// LatencyHistogram.h (32 linear sub-buckets per power of two from 1 µs: upper bound of bucket i is
// 2^(i/32) * (1 + (i%32 + 1)/32)), clamped to the largest value.
double percentileOf(const std::map<int, uint64_t>& b, double p, double maxUs) {
    uint64_t total = 0;
    for (const auto& [i, n] : b) total += n;
    const auto rank = uint64_t(std::max(1.0, std::ceil(p / 100.0 * double(total) - 1e-9)));
    uint64_t seen = 0;
    for (const auto& [i, n] : b) {
        seen += n;
        if (seen >= rank) return std::min(std::ldexp(1.0 + double(i % 32 + 1) / 32.0, i / 32), maxUs);
    }
    return maxUs;
}

} // namespace

class TestLoadtestMpi : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void mergedCountsAreTheRanksSums();
    void sweepSplitsTheRate();
    void failingRankFailsTheStep();
    void usageErrorStopsEveryRank();
    void oneStoppedRankStopsEveryRank();

private:
    // mpirun with `ranks` for each argument list (several lists: an MPMD job, ranks in order).
    MpiRun mpirun(const QList<QPair<int, QStringList>>& apps, int timeoutMs = 90000);
    QStringList stepArgs(const QString& json) const;
    QProcessEnvironment mpiEnvironment() const;

    QTemporaryDir m_dir;
};

void TestLoadtestMpi::initTestCase() {
    if (!UA_WITH_MPI) QSKIP("ua-loadtest was built without MPI (apt-get install openmpi-bin libopenmpi-dev)");
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo(QStringLiteral(UA_MPIEXEC)).isExecutable(), UA_MPIEXEC);
    QVERIFY(QFileInfo(QStringLiteral(UA_SERVER_EXECUTABLE)).isExecutable());
}

QProcessEnvironment TestLoadtestMpi::mpiEnvironment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    // CI runs as root; Open MPI refuses that unless told (both variables, Open MPI 4).
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    env.insert(QStringLiteral("ASAN_OPTIONS"), ranksAsanOptions(env.value(QStringLiteral("ASAN_OPTIONS"))));
    return env;
}

MpiRun TestLoadtestMpi::mpirun(const QList<QPair<int, QStringList>>& apps, int timeoutMs) {
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    QStringList args{QStringLiteral("--oversubscribe")};
    for (qsizetype i = 0; i < apps.size(); ++i) {
        if (i > 0) args << QStringLiteral(":");
        args << QStringLiteral("-np") << QString::number(apps[i].first) << QStringLiteral(UA_LOADTEST_EXECUTABLE) << apps[i].second;
    }
    p.start(QStringLiteral(UA_MPIEXEC), args);
    MpiRun r;
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.terminate();
        if (!p.waitForFinished(5000)) p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("(stopped after %1 ms) ").arg(timeoutMs);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err += QString::fromUtf8(p.readAllStandardError());
    return r;
}

QStringList TestLoadtestMpi::stepArgs(const QString& json) const {
    return {QStringLiteral("--duration"), QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0.3"),
            QStringLiteral("--json"), json, QStringLiteral("--quiet")};
}

void TestLoadtestMpi::mergedCountsAreTheRanksSums() {
    const QString json = m_dir.filePath(QStringLiteral("run.json"));
    const MpiRun r = mpirun({{3, QStringList{QStringLiteral("run"), QStringLiteral("--spawn-server=" UA_SERVER_EXECUTABLE),
                                             QStringLiteral("--sessions"), QStringLiteral("5"), QStringLiteral("--outstanding"),
                                             QStringLiteral("2")} + stepArgs(json)}});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    // Rank 0 alone prints: one result line for the whole step.
    const QStringList lines = mpiResultLines(r.out);
    QVERIFY2(lines.size() == 1 && lines[0].startsWith(QStringLiteral("read-1 5x2  req/s ")), qPrintable(r.text()));

    const QJsonObject run = readJsonFile(json);
    QVERIFY2(run.value("machine").toString().contains(QStringLiteral("3 ranks on ")), qPrintable(run.value("machine").toString()));
    QCOMPARE(run.value("parameters").toObject().value("sessions").toInt(), 5);
    const QJsonArray steps = run.value("steps").toArray();
    QCOMPARE(steps.size(), 1);
    const QJsonObject step = steps[0].toObject();
    QCOMPARE(step.value("sessions").toInt(), 5);
    const QJsonArray ranks = step.value("ranks").toArray();
    QCOMPARE(ranks.size(), 3);

    // Sessions 2, 2, 1; the counts, request rates and histograms sum to the step's.
    uint64_t sent = 0, answered = 0, errors = 0, timeouts = 0;
    double requestsPerS = 0;
    std::map<int, uint64_t> summed;
    double maxUs = 0;
    const int sessions[] = {2, 2, 1};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject rank = ranks[i].toObject();
        QCOMPARE(rank.value("rank").toInt(), i);
        QCOMPARE(rank.value("sessions").toInt(), sessions[i]);
        QVERIFY(!rank.value("host").toString().isEmpty());
        QVERIFY2(count(rank, "answered") > 0, qPrintable(QJsonDocument(rank).toJson()));  // every rank drove load
        QVERIFY(!rank.contains("error"));
        sent += count(rank, "sent");
        answered += count(rank, "answered");
        errors += count(rank, "errors");
        timeouts += count(rank, "timeouts");
        requestsPerS += rank.value("requestsPerS").toDouble();
        const QJsonObject h = rank.value("latency").toObject();
        QCOMPARE(uint64_t(h.value("count").toDouble()), count(rank, "answered"));
        for (const auto& [index, n] : buckets(h)) summed[index] += n;
        maxUs = std::max(maxUs, h.value("maxUs").toDouble());
    }
    QCOMPARE(count(step, "sent"), sent);
    QCOMPARE(count(step, "answered"), answered);
    QCOMPARE(count(step, "errors"), errors);
    QCOMPARE(count(step, "timeouts"), timeouts);
    QCOMPARE(errors + timeouts, uint64_t(0));
    QVERIFY(qAbs(step.value("requestsPerS").toDouble() - requestsPerS) <= 1e-6 * requestsPerS);
    // The merged histogram is the ranks' bucket by bucket, its percentiles those of the sum.
    const QJsonObject merged = step.value("latency").toObject();
    QVERIFY(buckets(merged) == summed);
    QCOMPARE(merged.value("maxUs").toDouble(), maxUs);
    QCOMPARE(step.value("maxUs").toDouble(), maxUs);
    QCOMPARE(step.value("p50Us").toDouble(), percentileOf(summed, 50, maxUs));
    QCOMPARE(step.value("p99Us").toDouble(), percentileOf(summed, 99, maxUs));
    QCOMPARE(step.value("p999Us").toDouble(), percentileOf(summed, 99.9, maxUs));
    // The server's figures (rank 0 spawned it, so it knows its process).
    QVERIFY(step.value("serverRssKb").toDouble() > 0);
    QVERIFY(step.value("serverCpuMsPerOp").toDouble() > 0);
    // The result line prints the merged figures.
    QVERIFY2(lines[0].contains(QStringLiteral("errors 0  timeouts 0")), qPrintable(lines[0]));
}

void TestLoadtestMpi::sweepSplitsTheRate() {
    const QString json = m_dir.filePath(QStringLiteral("sweep.json"));
    const MpiRun r = mpirun({{3, QStringList{QStringLiteral("sweep"), QStringLiteral("--spawn-server=" UA_SERVER_EXECUTABLE),
                                             QStringLiteral("--sessions"), QStringLiteral("3,4"), QStringLiteral("--rate"),
                                             QStringLiteral("600"), QStringLiteral("--no-stop")} + stepArgs(json)}});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = mpiResultLines(r.out);
    QVERIFY2(lines.size() == 2 && lines[0].startsWith(QStringLiteral("read-1 3x1  ")) && lines[1].startsWith(QStringLiteral("read-1 4x1  ")),
             qPrintable(r.text()));
    const QJsonArray steps = readJsonFile(json).value("steps").toArray();
    QCOMPARE(steps.size(), 2);
    const std::vector<std::vector<double>> rates = {{200, 200, 200}, {300, 150, 150}};  // by Sessions: 1,1,1 and 2,1,1
    for (int s = 0; s < 2; ++s) {
        const QJsonObject step = steps[s].toObject();
        const QJsonArray ranks = step.value("ranks").toArray();
        QCOMPARE(ranks.size(), 3);
        uint64_t answered = 0;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject rank = ranks[i].toObject();
            QCOMPARE(rank.value("targetRate").toDouble(), rates[std::size_t(s)][std::size_t(i)]);
            answered += count(rank, "answered");
        }
        QCOMPARE(count(step, "answered"), answered);
        // Open loop at 600/s over the ranks for a second: the merged rate is about the target.
        const double perS = step.value("requestsPerS").toDouble();
        QVERIFY2(perS > 450 && perS < 750, qPrintable(QString::number(perS)));
    }
}

void TestLoadtestMpi::failingRankFailsTheStep() {
    QTcpServer probe;  // a port that nobody listens on
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const QString badUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(probe.serverPort());
    probe.close();
    // An MPMD job: ranks 0 and 1 drive the spawned server, rank 2 an endpoint nobody serves.
    const QString json = m_dir.filePath(QStringLiteral("failed.json"));
    const QStringList shape{QStringLiteral("--sessions"), QStringLiteral("3")};
    const MpiRun r = mpirun({{2, QStringList{QStringLiteral("run"), QStringLiteral("--spawn-server=" UA_SERVER_EXECUTABLE)} + shape + stepArgs(json)},
                             {1, QStringList{QStringLiteral("run"), badUrl} + shape + stepArgs(json)}});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));  // no step could run
    const QStringList lines = mpiResultLines(r.out);
    QVERIFY2(lines.size() == 1, qPrintable(r.text()));
    QVERIFY2(QRegularExpression(QStringLiteral("^read-1 3x1  FAILED: rank 2 of 3 \\([^)]+\\): connect to ") +
                                QRegularExpression::escape(badUrl) + QStringLiteral(": Bad_"))
                 .match(lines[0])
                 .hasMatch(),
             qPrintable(r.text()));
    // The JSON says which rank failed and why; the others' parts were fine.
    const QJsonArray ranks = readJsonFile(json).value("steps").toArray().at(0).toObject().value("ranks").toArray();
    QCOMPARE(ranks.size(), 3);
    QVERIFY(!ranks[0].toObject().contains("error"));
    QVERIFY(!ranks[1].toObject().contains("error"));
    QVERIFY2(ranks[2].toObject().value("error").toString().startsWith(QStringLiteral("connect to ") + badUrl),
             qPrintable(QJsonDocument(ranks[2].toObject()).toJson()));
}

void TestLoadtestMpi::usageErrorStopsEveryRank() {
    // Fewer Sessions than ranks: every rank stops, rank 0 alone says why.
    const MpiRun r = mpirun({{3, {QStringLiteral("run"), QStringLiteral("opc.tcp://127.0.0.1:4840"), QStringLiteral("--sessions"),
                                  QStringLiteral("2")}}});
    QVERIFY2(r.exitCode == 2, qPrintable(r.text()));
    QVERIFY2(r.err.count(QStringLiteral("--sessions 2 is fewer than the 3 ranks")) == 1, qPrintable(r.text()));
    // ab runs in one process only.
    const MpiRun ab = mpirun({{2, {QStringLiteral("ab"), QStringLiteral("--a"), QStringLiteral("spawn"), QStringLiteral("--b"),
                                   QStringLiteral("spawn")}}});
    QVERIFY2(ab.exitCode == 2 && ab.err.count(QStringLiteral("ab runs in one process")) == 1, qPrintable(ab.text()));
}

void TestLoadtestMpi::oneStoppedRankStopsEveryRank() {
    // SIGTERM to rank 1 alone, during the first step of four (a signal reaches a job's processes at
    // different times; Ctrl+C on mpirun sends it to every rank): rank 1 ends its share of the step
    // early, and before the next step the ranks agree that one was stopped, so all stop after this
    // step (without that, ranks 0 and 2 would wait for rank 1 in the next step until killed).
    const QString json = m_dir.filePath(QStringLiteral("stopped.json"));
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    p.start(QStringLiteral(UA_MPIEXEC),
            {QStringLiteral("--oversubscribe"), QStringLiteral("-np"), QStringLiteral("3"), QStringLiteral(UA_LOADTEST_EXECUTABLE),
             QStringLiteral("sweep"), QStringLiteral("--spawn-server=" UA_SERVER_EXECUTABLE), QStringLiteral("--sessions"),
             QStringLiteral("3,4,5,6"), QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--warmup"),
             QStringLiteral("0.3"), QStringLiteral("--no-stop"), QStringLiteral("--json"), json});
    QVERIFY(p.waitForStarted());
    // Rank 0's progress (stderr) says when the first step measures: stop rank 1 then.
    QElapsedTimer t;
    t.start();
    QByteArray err;
    while (!err.contains("measuring") && t.elapsed() < 30000) {
        p.waitForReadyRead(200);
        err += p.readAllStandardError();
    }
    QVERIFY2(err.contains("measuring"), err.constData());
    // Rank 1: mpirun's child with OMPI_COMM_WORLD_RANK=1 in its environment.
    qint64 rank1 = 0;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QList<QByteArray> fields = stat.readAll().split(')').value(1).trimmed().split(' ');  // after "(comm)"
        if (fields.size() < 2 || fields[1].toLongLong() != p.processId()) continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(entry));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains("OMPI_COMM_WORLD_RANK=1")) rank1 = entry.toLongLong();
    }
    QVERIFY2(rank1 > 0, "rank 1's process not found among mpirun's children");
    ::kill(pid_t(rank1), SIGTERM);
    const bool ended = p.waitForFinished(30000);
    if (!ended) {  // mpirun ends the ranks it started on SIGTERM
        p.terminate();
        if (!p.waitForFinished(10000)) p.kill();
    }
    QVERIFY2(ended, "the job did not end after rank 1 was stopped");
    err += p.readAllStandardError();
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString text = out + QString::fromUtf8(err);
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(text));
    // One step ran, on all 3 ranks; rank 0 says the sweep was stopped and writes it.
    const QJsonArray steps = readJsonFile(json).value("steps").toArray();
    QVERIFY2(steps.size() == 1, qPrintable(text));
    QCOMPARE(mpiResultLines(out).size(), 1);
    const QJsonArray ranks = steps[0].toObject().value("ranks").toArray();
    QCOMPARE(ranks.size(), 3);
    for (const QJsonValue& r : ranks) QVERIFY(count(r.toObject(), "answered") > 0);
    QVERIFY2(text.contains(QStringLiteral("1 of 4 steps ran (stopped)")), qPrintable(text));
}

UA_TEST_GUILESS_MAIN(TestLoadtestMpi)
#include "tst_loadtest_mpi.moc"
