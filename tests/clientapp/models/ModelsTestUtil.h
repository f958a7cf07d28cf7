// Shared by the client models' tests: our Server in process with the demo namespace (DemoNodeManager:
// Scalars, Arrays, Simulation signals every 100 ms, Methods) and anonymous Sessions that may write and
// call (the Operator Role), and a Connection of the client app connected to it.
#pragma once

#include "../../client/ClientTestUtil.h"
#include "core/Connection.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "DemoNodeManager.h"

#include <QAbstractItemModel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

namespace ua::test {

// The first row under parent whose first column reads name (invalid when there is none).
inline QModelIndex childRowNamed(const QAbstractItemModel& m, const QModelIndex& parent, const QString& name) {
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == name) return m.index(r, 0, parent);
    return {};
}

inline std::unique_ptr<Server> startDemoServer() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.demoNamespace = true;
    cfg.demoUpdateRateMs = 100;  // Simulation/Sine changes every 100 ms
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // writes and calls anonymously
    auto server = std::make_unique<Server>(cfg);
    if (!server->start()) {
        qWarning("server did not start: %s", qPrintable(server->errorString()));
        return nullptr;
    }
    return server;
}

// connectTo(url) (SecurityPolicy None, anonymous) and waits for connectFinished.
inline StatusCode connectApp(clientapp::Connection& c, const QString& url) {
    clientapp::ConnectionSettings s;
    s.endpointUrl = url;
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
    s.securityMode = MessageSecurityMode::None;
    QSignalSpy finished(&c, &clientapp::Connection::connectFinished);
    c.connectTo(s);
    if (finished.isEmpty() && !finished.wait(20000)) return status::BadTimeout;
    return finished.at(0).at(0).value<StatusCode>();
}

// A NodeId of the demo namespace ("Demo.Scalars.Int32") in the connected session's indexes.
inline NodeId demoNode(const clientapp::Connection& c, const char* name) {
    const int ns = c.client()->nodeIdConverter().indexOf(DemoNodeManager::kUri);
    return NodeId(uint16_t(ns < 0 ? 0 : ns), name);
}

// How many records of a service the log holds.
inline int logCount(const clientapp::Connection& c, const QString& service) {
    int n = 0;
    for (const auto& r : c.log()->records()) n += r.service == service;
    return n;
}

// A Connection to url as user (password "<user>-pw", the test servers' convention) over
// Basic256Sha256 in mode, its server certificate accepted (AcceptOnce, also when it changes on a
// reconnect); null when it does not connect.
inline std::unique_ptr<clientapp::Connection> connectAsUser(const QString& url, const QString& clientPki, const QString& user,
                                                            MessageSecurityMode mode) {
    auto c = std::make_unique<clientapp::Connection>(clientPki);
    c->setTrustPrompt([](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; });
    clientapp::ConnectionSettings s;
    s.endpointUrl = url;
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = mode;
    s.identityKind = UserIdentity::Kind::UserName;
    s.userName = user;
    s.password = user + QStringLiteral("-pw");
    QSignalSpy finished(c.get(), &clientapp::Connection::connectFinished);
    c->connectTo(s);
    if (finished.isEmpty() && !finished.wait(20000)) return nullptr;
    const StatusCode st = finished.at(0).at(0).value<StatusCode>();
    if (st.isBad()) qWarning("connect as %s: %s", qPrintable(user), st.name().c_str());
    return st.isGood() ? std::move(c) : nullptr;
}

// A node-opcua server script of tests/interop, stopped by closing its stdin.
struct NodeServerProcess {
    QProcess process;
    quint16 port = 0;
    QString info;  // what the READY line says after the port (e.g. the server's PKI folder)
    QString error;

    void start(const QString& script) {
        process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(QStringLiteral(UA_NODE_EXECUTABLE), {script, QStringLiteral("0")});
    }
    // Waits for its "READY <port> [...]" line.
    bool waitReady() {
        if (!process.waitForStarted()) {
            error = process.errorString();
            return false;
        }
        QByteArray out;
        const bool lineOrExit = QTest::qWaitFor(
            [&] { return (out += process.readAllStandardOutput()).contains('\n') || process.state() == QProcess::NotRunning; }, 90000);
        if (!lineOrExit) {
            error = QStringLiteral("no READY line within 90 s");
            return false;
        }
        const QList<QByteArray> words = out.left(out.indexOf('\n')).trimmed().split(' ');
        if (words.size() < 2 || words[0] != "READY") {
            error = QString::fromUtf8(out) + QString::fromUtf8(process.readAllStandardError().right(3000));
            return false;
        }
        port = quint16(words[1].toUInt());
        if (words.size() > 2) info = QString::fromUtf8(words[2]);
        return port > 0;
    }
    QString url() const { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port); }
    ~NodeServerProcess() {
        if (process.state() == QProcess::NotRunning) return;
        process.closeWriteChannel();
        if (!process.waitForFinished(10000)) process.kill();
        process.waitForFinished(5000);
    }
};


} // namespace ua::test
