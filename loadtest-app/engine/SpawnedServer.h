// Our headless server (ua-server --headless) started as a child process for a load test
// (`ua-loadtest --spawn-server`): on a free port, with its own configuration and certificate store
// in a temporary folder, stopped (SIGTERM, then SIGKILL) when the object goes.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

namespace ua::loadtest {

class SpawnedServer {
public:
    SpawnedServer();
    ~SpawnedServer();
    // Starts executable (empty: ua-server next to this program) with --headless, a free --port and
    // extraArgs, and waits up to timeoutMs until it accepts connections. false with *error set when
    // it could not.
    bool start(const QString& executable, const QStringList& extraArgs = {}, int timeoutMs = 20000,
               QString* error = nullptr);
    void stop();
    QString endpointUrl() const;   // "opc.tcp://localhost:<port>"
    qint64 pid() const;            // 0 when not running

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ua::loadtest
