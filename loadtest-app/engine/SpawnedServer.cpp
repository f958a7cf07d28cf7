#include "SpawnedServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace ua::loadtest {

namespace {

// ua-server next to this program (an installation) or in the build tree's server-app/ (this
// program at build/loadtest-app/ua-loadtest), else on PATH.
QString findServerExecutable() {
    const QString here = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {here + QStringLiteral("/ua-server"), here + QStringLiteral("/../server-app/ua-server")}) {
        const QFileInfo f(candidate);
        if (f.isFile() && f.isExecutable()) return f.canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("ua-server"));
}

// A port nobody listens on right now (the server binds it a moment later; a clash is retried).
quint16 freePort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) return 0;
    return probe.serverPort();
}

// The server's configuration for a load test (server-app/ServerSettings.h): every default (the
// demo users, anonymous Sessions with the Operator Role so that the write scenario may write the
// benchmark variables, None and Basic256Sha256 endpoints) except what a measurement needs: every
// client certificate trusted (the secure scenarios), the demo signals (the subscribe scenario's
// Ramp counter) stepping every 10 ms, no demo events, no shutdown delay.
QJsonObject serverSettings(const QString& pkiDir) {
    return QJsonObject{
        {"version", 1},
        {"endpoint", QJsonObject{{"host", "localhost"}}},
        {"security", QJsonObject{{"pkiDir", pkiDir}, {"trustAllClients", true}}},
        {"demo", QJsonObject{{"namespace", true}, {"updateRateMs", 10}, {"eventsMs", 0}}},
        {"shutdownDelaySeconds", 0},
    };
}

bool accepts(quint16 port) {
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    return s.waitForConnected(200);
}

} // namespace

struct SpawnedServer::Impl {
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<QProcess> process;
    quint16 port = 0;

    QString logTail() const {
        QFile f(dir->filePath(QStringLiteral("server.log")));
        if (!f.open(QIODevice::ReadOnly)) return {};
        const QByteArray all = f.readAll();
        return QString::fromLocal8Bit(all.right(1500)).trimmed();
    }
};

SpawnedServer::SpawnedServer() : d(std::make_unique<Impl>()) {}

SpawnedServer::~SpawnedServer() { stop(); }

bool SpawnedServer::start(const QString& executable, const QStringList& extraArgs, int timeoutMs, QString* error) {
    auto fail = [error](const QString& why) {
        if (error) *error = why;
        return false;
    };
    stop();
    const QString program = executable.isEmpty() ? findServerExecutable() : executable;
    if (program.isEmpty())
        return fail(QStringLiteral("ua-server not found next to %1 nor in ../server-app/ nor on PATH (give its path)")
                        .arg(QCoreApplication::applicationDirPath()));
    const QFileInfo info(program);
    if (!info.isFile() || !info.isExecutable()) return fail(QStringLiteral("%1 is not an executable file").arg(program));

    d->dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/ua-loadtest-server-XXXXXX"));
    if (!d->dir->isValid()) return fail(QStringLiteral("cannot create a temporary folder: %1").arg(d->dir->errorString()));
    const QString pki = d->dir->filePath(QStringLiteral("pki"));
    const QString config = d->dir->filePath(QStringLiteral("ua-server.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(serverSettings(pki)).toJson()) < 0)
        return fail(QStringLiteral("cannot write %1: %2").arg(config, f.errorString()));
    f.close();

    QElapsedTimer clock;
    clock.start();
    // A port found free may be taken before the server binds it: then the server exits at once
    // ("cannot start on port"), and another port is tried.
    for (int attempt = 0; attempt < 3; ++attempt) {
        d->port = freePort();
        if (d->port == 0) return fail(QStringLiteral("no free TCP port on localhost"));
        d->process = std::make_unique<QProcess>();
        d->process->setProgram(info.absoluteFilePath());
        d->process->setArguments(QStringList{QStringLiteral("--headless"), QStringLiteral("--port"), QString::number(d->port),
                                             QStringLiteral("--config"), config, QStringLiteral("--pki"), pki} +
                                 extraArgs);
        // Its output goes to a file: nobody has to drain a pipe while the load runs.
        d->process->setProcessChannelMode(QProcess::MergedChannels);
        d->process->setStandardOutputFile(d->dir->filePath(QStringLiteral("server.log")));
        d->process->setStandardInputFile(QProcess::nullDevice());
        // In the child, before exec: a process group of its own, so that Ctrl+C in a terminal (SIGINT
        // to the foreground group) reaches only the load tester, which ends the step and closes the
        // Sessions before it stops the server; and SIGTERM when the load tester dies without that.
        d->process->setChildProcessModifier([] {
            ::setpgid(0, 0);
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        });
        d->process->start();
        if (!d->process->waitForStarted(5000)) {
            const QString why = d->process->errorString();
            d->process.reset();
            return fail(QStringLiteral("cannot start %1: %2").arg(program, why));
        }
        // Ready when the port accepts connections (the server prints "listening on" just before).
        while (clock.elapsed() < timeoutMs) {
            if (d->process->state() != QProcess::Running) break;
            if (accepts(d->port)) return true;
            // Waits 50 ms and notices an exit (a sleep would not: QProcess learns of it from events).
            if (d->process->waitForFinished(50)) break;
        }
        if (d->process->state() == QProcess::Running) {
            const QString log = d->logTail();
            stop();
            return fail(QStringLiteral("%1 did not accept connections on port %2 within %3 ms%4")
                            .arg(program)
                            .arg(d->port)
                            .arg(timeoutMs)
                            .arg(log.isEmpty() ? QString() : QStringLiteral(": ") + log));
        }
        d->process->waitForFinished(1000);
        const QString log = d->logTail();
        const bool portTaken = log.contains(QStringLiteral("cannot start on port"));
        d->process.reset();
        if (!portTaken || clock.elapsed() >= timeoutMs)
            return fail(QStringLiteral("%1 exited at start%2").arg(program, log.isEmpty() ? QString() : QStringLiteral(": ") + log));
    }
    return fail(QStringLiteral("%1 could not bind a free port").arg(program));
}

void SpawnedServer::stop() {
    if (!d->process) return;
    if (d->process->state() != QProcess::NotRunning) {
        d->process->terminate();   // SIGTERM: Sessions closed, then exit (no shutdown delay configured)
        if (!d->process->waitForFinished(5000)) {
            d->process->kill();
            d->process->waitForFinished(2000);
        }
    }
    d->process.reset();
    d->port = 0;
}

QString SpawnedServer::endpointUrl() const {
    return d->port ? QStringLiteral("opc.tcp://localhost:%1").arg(d->port) : QString();
}

qint64 SpawnedServer::pid() const {
    return d->process && d->process->state() == QProcess::Running ? d->process->processId() : 0;
}

} // namespace ua::loadtest
