// fuzz_client_responses: the client's handling of what a server sends. An input is a scenario byte
// (FuzzPeers.h ClientScenario: which services the client calls) and then the server's byte stream
// (ACK, OPN responses, MSG responses to each service, Publish responses, ERR, any chunking): it is
// cut into UA-TCP messages by their MessageSize and fed to the client's connection (a MemorySocket
// given by ClientConnection::setSocketFactory), message by message, with the event loop run after
// each, while the client issues its requests as the responses come. ASan/UBSan check the rest.
// Seeds: client_responses/corpus (fuzz_capture); found crashes: client_responses/crashes.
#include "FuzzPeers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace uafuzz;
    if (size < 1) return 0;
    fuzzApp();
    {
        ClientScenario scenario(Scenario(data[0] % uint8_t(Scenario::Count)));
        scenario.start();
        drainEvents();  // connected(), then the HEL
        forEachFrame(data + 1, size - 1, [&](const uint8_t* p, std::size_t n) {
            if (!g_clientSocket || g_clientSocket->state() != QAbstractSocket::ConnectedState) return;
            g_clientSocket->feed(reinterpret_cast<const char*>(p), qint64(n));
            drainEvents();
        });
        drainEvents();
    }
    drainEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}
