// A TcpStream over a QTcpSocket (TcpStream.h), which it takes over as its child: for the sockets
// that have no descriptor, such as the fuzz harnesses' tests/fuzz/MemorySocket.h. Every byte goes
// through QTcpSocket's own buffers (write() returns 0: all is reported by onBytesWritten()).
#pragma once

#include "ua/transport/TcpStream.h"

class QTcpSocket;

namespace ua {

class QtSocketStream final : public TcpStream {
public:
    QtSocketStream(QTcpSocket* socket, Handler& handler, QObject* parent = nullptr);

    QTcpSocket* socket() const { return m_socket; }

    std::ptrdiff_t read(uint8_t* p, std::size_t max) override;
    std::size_t write(const uint8_t* p, std::size_t n) override;
    std::size_t bytesToWrite() const override;
    void setReading(bool on) override;
    bool shutdownWrite() override;
    void disconnectFromHost() override;
    void abort() override;
    State state() const override;

private:
    void reportClosed();
    // Calls onReadable() once from the event loop (if reading then): for bytes that readyRead
    // will not announce again. One call pending at most.
    void announceLater();

    QTcpSocket* m_socket;
    Handler& m_handler;
    bool m_reading = true;
    long long m_savedReadBufferSize = 0;
    bool m_closedReported = false;
    bool m_announcePending = false;  // announceLater()
};

} // namespace ua
