// fuzz_capture OUT_DIR: records the seeds of the stream fuzz targets from real traffic. For each
// ClientScenario (FuzzPeers.h) our Client talks to our Server in process over two linked
// MemorySockets (the server's side is the FuzzServer connection that fuzz_server_stream uses, with
// the same deterministic Session tokens); what the client sent is written as
// OUT_DIR/server_stream/corpus/seed-<scenario>, and the scenario byte plus what the server sent as
// OUT_DIR/client_responses/corpus/seed-<scenario>. Run it again after a protocol change:
//   build/tests/fuzz/fuzz_capture tests/fuzz
#include "FuzzPeers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cstdio>

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "fuzz_capture: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

const char* name(uafuzz::Scenario s) {
    switch (s) {
    case uafuzz::Scenario::Services: return "services";
    case uafuzz::Scenario::Subscriptions: return "subscriptions";
    case uafuzz::Scenario::Discovery: return "discovery";
    case uafuzz::Scenario::Chunked: return "chunked";
    case uafuzz::Scenario::Count: break;
    }
    return "?";
}

} // namespace

int main(int argc, char** argv) {
    using namespace uafuzz;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR   (tests/fuzz)\n", argv[0]);
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    FuzzServer& fs = FuzzServer::instance();
    bool ok = true;
    for (uint8_t k = 0; k < uint8_t(Scenario::Count); ++k) {
        const Scenario which = Scenario(k);
        MemorySocket* serverSocket = nullptr;
        QPointer<ua::ServerConnection> conn = fs.connect(serverSocket);
        QPointer<MemorySocket> serverGuard(serverSocket);
        QByteArray fromClient, fromServer;
        serverSocket->setRecord(&fromServer);
        {
            ClientScenario scenario(which);
            scenario.start();
            QPointer<MemorySocket> clientSocket = g_clientSocket;
            if (!clientSocket) qFatal("the client made no connection");
            MemorySocket::link(clientSocket, serverSocket);
            clientSocket->setRecord(&fromClient);
            for (int i = 0; i < 400 && clientSocket && clientSocket->state() != QAbstractSocket::UnconnectedState; ++i) fs.pump();
            if (g_clientSocket != clientSocket) std::fprintf(stderr, "fuzz_capture: %s made a second connection (not recorded)\n", name(which));
        }
        fs.finish(conn, serverGuard);
        ok &= writeFile(out + QStringLiteral("/server_stream/corpus/seed-%1").arg(QLatin1String(name(which))), fromClient);
        ok &= writeFile(out + QStringLiteral("/client_responses/corpus/seed-%1").arg(QLatin1String(name(which))),
                        QByteArray(1, char(k)) + fromServer);
        std::printf("fuzz_capture: %-14s client sent %6lld bytes, server sent %6lld bytes\n", name(which),
                    static_cast<long long>(fromClient.size()), static_cast<long long>(fromServer.size()));
    }
    return ok ? 0 : 1;
}
