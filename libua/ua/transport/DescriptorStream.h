// A TcpStream over a connected TCP descriptor (TcpStream.h): recv() into the caller's buffer when
// a QSocketNotifier says the descriptor is readable, send() straight from the caller's buffer, and
// what the kernel does not take at once queued here and written when the descriptor is writable.
// Per batch of requests one recv() and per batch of responses one send(): no ioctl(FIONREAD), no
// copy into a buffer of the stream's, no signal emitted (the notifiers call back directly).
// One thread: the one it was made on (its notifiers' thread).
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/transport/TcpStream.h"

#include <QHostAddress>

namespace ua {

class DirectSocketNotifier;

class DescriptorStream final : public TcpStream {
public:
    // Takes over fd (a connected TCP socket; made non-blocking, with TCP_NODELAY) and closes it when
    // destroyed. handler must outlive the stream (it is usually the stream's parent).
    DescriptorStream(int fd, Handler& handler, QObject* parent = nullptr);
    ~DescriptorStream() override;

    // The peer's address and port (getpeername()); a null address when the descriptor has none.
    QHostAddress peerAddress() const;
    quint16 peerPort() const;

    std::ptrdiff_t read(uint8_t* p, std::size_t max) override;
    std::size_t write(const uint8_t* p, std::size_t n) override;
    std::size_t bytesToWrite() const override { return m_queued.size() - m_queuedOffset; }
    void setReading(bool on) override;
    bool shutdownWrite() override;
    void disconnectFromHost() override;
    void abort() override;
    State state() const override { return m_state; }

private:
    static void onReadableNotified(void* stream) { static_cast<DescriptorStream*>(stream)->m_handler.onReadable(); }
    static void onWritableNotified(void* stream) { static_cast<DescriptorStream*>(stream)->onWritable(); }
    void onWritable();
    void closeNow();
    void reportClosed();

    int m_fd;
    Handler& m_handler;
    DirectSocketNotifier* m_readNotifier;  // activated by a direct call (DirectSocketNotifier.h)
    DirectSocketNotifier* m_writeNotifier;
    Buffer m_queued;               // bytes the kernel did not take yet, from m_queuedOffset on
    std::size_t m_queuedOffset = 0;
    State m_state = State::Connected;
    bool m_reading = true;         // setReading()
    bool m_closeWhenDrained = false;
    bool m_closedReported = false;
    QHostAddress m_peerAddress;
    quint16 m_peerPort = 0;
};

// A descriptor of our own (a close-on-exec dup) for a connection a QTcpSocket made or accepted, so
// that it can go on over a DescriptorStream: the connection stays open when Qt's copy is closed with
// the QTcpSocket. -1 when there is none (a test's socket without a descriptor) or dup() failed.
int duplicateDescriptor(qintptr socketDescriptor);

} // namespace ua
