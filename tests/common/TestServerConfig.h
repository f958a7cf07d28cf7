// The ServerConfig of a Server that a test runs in its own process: any free port (Server::port()),
// localhost only, two I/O threads (the tests run on 2 cores beside other builds), no demo namespace;
// the default 1,100 benchmark variables ns=1;i=1000.. (ServerConfig::benchmarkVariables) stay.
// A test changes what it tests on the copy it gets.
#pragma once

#include "ua/server/runtime/ServerConfig.h"

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

} // namespace ua::test
