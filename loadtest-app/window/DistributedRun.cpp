// mpirun as a child of the window (see DistributedRun.h).
#include "window/DistributedRun.h"

#include "window/RunFiles.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <unistd.h>

namespace ua::loadtest {

namespace {

QString stepListText(const std::vector<int>& v) {
    QStringList parts;
    for (int x : v) parts << QString::number(x);
    return parts.join(QLatin1Char(','));
}

QString number(double v) { return QString::number(v, 'g', 12); }

} // namespace

std::optional<QString> hostfileText(const QString& hosts, QString* error) {
    QString out;
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString& entry : hosts.split(separators, Qt::SkipEmptyParts)) {
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        const QString host = colon < 0 ? entry : entry.left(colon);
        if (host.isEmpty()) {
            if (error) *error = QStringLiteral("%1: no host name").arg(entry);
            return std::nullopt;
        }
        if (colon < 0) {
            out += host + QLatin1Char('\n');
            continue;
        }
        bool ok = false;
        const int count = entry.mid(colon + 1).toInt(&ok);
        if (!ok || count < 1) {
            if (error) *error = QStringLiteral("%1: the ranks after ':' must be a whole number > 0").arg(entry);
            return std::nullopt;
        }
        out += QStringLiteral("%1 slots=%2\n").arg(host).arg(count);
    }
    if (out.isEmpty()) {
        if (error) *error = QStringLiteral("no host");
        return std::nullopt;
    }
    return out;
}

QStringList mpirunArguments(const DistributedSetup& setup, const LoadParameters& p, const SweepPlan& plan, const QString& label,
                            const QString& hostfile, const QString& jsonPath) {
    QStringList a{QStringLiteral("-np"), QString::number(setup.processes)};
    if (hostfile.isEmpty()) a << QStringLiteral("--oversubscribe");  // this machine: more ranks than cores is the user's call
    else a << QStringLiteral("--hostfile") << hostfile;
    if (::geteuid() == 0) a << QStringLiteral("--allow-run-as-root");
    if (!p.password.isEmpty()) a << QStringLiteral("-x") << QStringLiteral("UA_PASSWORD");
    a << (setup.executable.isEmpty() ? QCoreApplication::applicationFilePath() : setup.executable);
    a << QStringLiteral("sweep") << p.endpointUrl;
    a << QStringLiteral("--sessions") << stepListText(plan.sessions) << QStringLiteral("--outstanding") << stepListText(plan.outstanding);
    a << QStringLiteral("--scenario") << scenarioName(p.scenario) << QStringLiteral("--values") << QString::number(p.valuesPerRequest);
    a << QStringLiteral("--duration") << number(p.durationS) << QStringLiteral("--warmup") << number(p.warmupS);
    a << QStringLiteral("--rate") << number(p.targetRate) << QStringLiteral("--timeout") << QString::number(p.requestTimeoutMs);
    if (p.ioThreads > 0) a << QStringLiteral("--io-threads") << QString::number(p.ioThreads);  // 0: each rank's own rule
    a << QStringLiteral("--connect-window") << QString::number(p.connectWindow);
    if (!p.securityPolicyUri.isEmpty()) {
        a << QStringLiteral("--security") << p.securityPolicyUri;
        a << QStringLiteral("--mode")
          << (p.securityMode == MessageSecurityMode::Sign ? QStringLiteral("Sign") : QStringLiteral("SignAndEncrypt"));
    }
    if (!p.userName.isEmpty()) a << QStringLiteral("--user") << p.userName;
    if (!p.pkiDir.isEmpty()) a << QStringLiteral("--pki") << p.pkiDir;
    if (!p.trustServer) a << QStringLiteral("--no-trust");
    if (!p.variableNamespaceUri.isEmpty()) a << QStringLiteral("--namespace-uri") << p.variableNamespaceUri;
    a << QStringLiteral("--first-id") << QString::number(p.firstVariableId) << QStringLiteral("--variables")
      << QString::number(p.variableCount) << QStringLiteral("--browse-node") << p.browseNode;
    if (!p.counterNode.isEmpty()) a << QStringLiteral("--counter-node") << p.counterNode;
    a << QStringLiteral("--items") << QString::number(p.monitoredItems) << QStringLiteral("--sampling") << number(p.samplingIntervalMs)
      << QStringLiteral("--publishing") << number(p.publishingIntervalMs) << QStringLiteral("--queue-size")
      << QString::number(p.queueSize);
    if (p.serverPid > 0) a << QStringLiteral("--server-pid") << QString::number(p.serverPid);
    if (!p.readServerDiagnostics) a << QStringLiteral("--no-diagnostics");
    // The stop rules (the command line has no option for "a broken connection beats the server": always on).
    a << QStringLiteral("--max-errors") << number(plan.stopRules.maxErrorFraction * 100) << QStringLiteral("--max-p99-factor")
      << number(plan.stopRules.maxP99Factor) << QStringLiteral("--min-throughput-factor") << number(plan.stopRules.minThroughputFactor);
    if (!label.isEmpty()) a << QStringLiteral("--label") << label;
    a << QStringLiteral("--json") << jsonPath;
    return a;
}

DistributedRun::DistributedRun(QObject* parent) : QObject(parent) {}

DistributedRun::~DistributedRun() {
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) m_process->kill();
        m_process->waitForFinished(2000);
    }
}

bool DistributedRun::isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

bool DistributedRun::start(const DistributedSetup& setup, const LoadParameters& base, const SweepPlan& plan, const QString& label,
                           QString* error) {
    auto fail = [error](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (isRunning()) return fail(tr("A distributed sweep is running"));
    if (!setup.enabled()) return fail(tr("A distributed sweep needs 2 processes or more"));
    if (plan.sessions.empty() || plan.sessions.front() < setup.processes)
        return fail(tr("Each step needs a Session per process at least: the smallest Sessions value is %1, the processes %2")
                        .arg(plan.sessions.empty() ? 0 : plan.sessions.front())
                        .arg(setup.processes));
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) return fail(tr("No temporary folder: %1").arg(m_dir->errorString()));
    QString hostfile;
    const QString hosts = setup.hosts.trimmed();
    if (!hosts.isEmpty() && QFileInfo(hosts).isFile()) {
        hostfile = hosts;  // an Open MPI hostfile as it is
    } else if (!hosts.isEmpty()) {
        QString why;
        const auto text = hostfileText(hosts, &why);
        if (!text) return fail(tr("Hosts: %1").arg(why));
        hostfile = m_dir->filePath(QStringLiteral("hosts"));
        QFile f(hostfile);
        if (!f.open(QIODevice::WriteOnly) || f.write(text->toUtf8()) < 0) return fail(tr("Cannot write %1").arg(hostfile));
    }
    m_jsonPath = m_dir->filePath(QStringLiteral("run.json"));
    const QStringList args = mpirunArguments(setup, base, plan, label, hostfile, m_jsonPath);
    m_commandLine = setup.mpirun + QLatin1Char(' ') + args.join(QLatin1Char(' '));
    m_lastErrors.clear();
    m_partial[0].clear();
    m_partial[1].clear();
    delete m_process;
    m_process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!base.password.isEmpty()) env.insert(QStringLiteral("UA_PASSWORD"), base.password);
    m_process->setProcessEnvironment(env);
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { readLines(QProcess::StandardOutput); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { readLines(QProcess::StandardError); });
    connect(m_process, &QProcess::finished, this, &DistributedRun::done);
    m_process->start(setup.mpirun, args);
    if (!m_process->waitForStarted(10000))
        return fail(tr("Cannot start %1: %2 (install openmpi-bin)").arg(setup.mpirun, m_process->errorString()));
    return true;
}

void DistributedRun::stop() {
    if (isRunning()) m_process->terminate();  // mpirun sends SIGTERM to every rank
}

void DistributedRun::readLines(QProcess::ProcessChannel channel) {
    m_process->setReadChannel(channel);
    QByteArray& partial = m_partial[channel == QProcess::StandardOutput ? 0 : 1];
    partial += m_process->readAll();
    qsizetype end;
    while ((end = partial.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(partial.left(end)).trimmed();
        partial.remove(0, end + 1);
        if (line.isEmpty()) continue;
        if (channel == QProcess::StandardOutput) {
            emit resultLine(line);
        } else {
            if (!line.startsWith(QLatin1String("---"))) m_lastErrors << line;  // mpirun's frames
            while (m_lastErrors.size() > 8) m_lastErrors.removeFirst();
            emit progress(line);
        }
    }
}

void DistributedRun::done(int exitCode, QProcess::ExitStatus status) {
    readLines(QProcess::StandardOutput);
    readLines(QProcess::StandardError);
    RunResult run;
    QString error;
    if (QFileInfo::exists(m_jsonPath)) {
        if (auto r = loadRunJson(m_jsonPath, &error)) run = std::move(*r);
    } else {
        error = tr("mpirun ended (%1) without a result: %2")
                    .arg(status == QProcess::CrashExit ? tr("stopped") : tr("exit code %1").arg(exitCode))
                    .arg(m_lastErrors.isEmpty() ? tr("no message") : m_lastErrors.join(QLatin1Char('\n')));
    }
    m_dir.reset();
    emit finished(run, error, status == QProcess::CrashExit ? -1 : exitCode);
}

} // namespace ua::loadtest
