// The ServerConfig of a Server that a test runs in its own process: any free port (Server::port()),
// localhost only, two I/O threads (the tests run on 2 cores beside other builds), no demo namespace;
// the default 1,100 benchmark variables ns=1;i=1000.. (ServerConfig::benchmarkVariables) stay.
// A test changes what it tests on the copy it gets.
#pragma once

#include "ua/server/runtime/ServerConfig.h"
#include "ua/server/users/Roles.h"

#include <QTcpServer>

namespace ua::test {

inline ServerConfig localServerConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = false;
    return cfg;
}

// A TCP port of 127.0.0.1 that nobody listens on now (a listener opened and closed at once).
inline quint16 freeLocalPort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// localServerConfig() on 127.0.0.1 with one I/O thread that dials opc.tcp://127.0.0.1:clientPort
// (Reverse Connect, docs/ReverseConnect.md), retrying every 50..200 ms until someone listens there.
inline ServerConfig reverseDialingServerConfig(quint16 clientPort) {
    ServerConfig cfg = localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.reverseConnect.clientUrls = {QStringLiteral("opc.tcp://127.0.0.1:%1").arg(clientPort)};
    cfg.reverseConnect.retryMinMs = 50;
    cfg.reverseConnect.retryMaxMs = 200;
    return cfg;
}

// localServerConfig() on 127.0.0.1 with one I/O thread, no benchmark variables, a PKI in pkiDir that
// accepts every client certificate, and two users: "admin" / "admin-pw" (SecurityAdmin) and
// "alice" / "alice-pw" (Operator): for push certificate management (docs/Security.md).
inline ServerConfig securityAdminServerConfig(const QString& pkiDir) {
    ServerConfig cfg = localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = pkiDir;
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::SecurityAdmin), 1000);
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 1000);
    return cfg;
}

} // namespace ua::test
