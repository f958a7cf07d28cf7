// fuzz_server_stream: the server's byte stream from the first byte on. An input is what a client
// sends over one connection (HEL, OPN, MSG, CLO, any chunking, any service): it is cut into
// UA-TCP messages by their MessageSize (FuzzPeers.h forEachFrame) and fed to one ServerConnection
// over a MemorySocket, message by message, with the event loop and the publishing clock run after
// each. The server's answers are not checked; ASan/UBSan and the server's own invariants are.
// Seeds: server_stream/corpus (fuzz_capture); found crashes: server_stream/crashes.
#include "FuzzPeers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace uafuzz;
    FuzzServer& fs = FuzzServer::instance();
    MemorySocket* socket = nullptr;
    QPointer<ua::ServerConnection> conn = fs.connect(socket);
    QPointer<MemorySocket> guard(socket);
    forEachFrame(data, size, [&](const uint8_t* p, std::size_t n) {
        if (!guard || guard->state() != QAbstractSocket::ConnectedState) return;  // the server closed it
        guard->feed(reinterpret_cast<const char*>(p), qint64(n));
        fs.pump();
    });
    fs.pump();
    fs.finish(conn, guard);
    return 0;
}
