// The byte stream under one UA-TCP connection (OPC 10000-6 7.1), either end, as the connection
// code sees it: read what has arrived into a buffer of the caller's, write with whatever the
// kernel does not take at once queued, pause reading (backpressure), close gracefully or at once.
//
// Two kinds:
// - DescriptorStream (DescriptorStream.h): a connected TCP descriptor read and written with
//   recv()/send() on a QSocketNotifier. The request path: one recv() per batch of requests and one
//   send() per batch of responses, nothing else (QTcpSocket asks the kernel how much is there with
//   an ioctl(FIONREAD) before every read, and copies what it read into a buffer of its own).
// - QtSocketStream (QtSocketStream.h): any QTcpSocket, for the sockets that have no descriptor
//   (the fuzz harnesses' tests/fuzz/MemorySocket.h).
//
// The stream reports to its Handler (the connection) on the connection's thread; one thread only.
#pragma once

#include <QObject>
#include <cstddef>
#include <cstdint>

namespace ua {

class TcpStream : public QObject {
    Q_OBJECT
public:
    class Handler {
    public:
        // Bytes may be there: call read() (once is enough: it is called again while bytes
        // remain). Also called when the peer has closed or reset the connection: read() then
        // returns -1, and onClosed() follows.
        virtual void onReadable() = 0;
        // n bytes queued by earlier write() calls were taken by the kernel.
        virtual void onBytesWritten(std::size_t n) = 0;
        // The stream is Unconnected, for any reason but abort(): closed or reset by the peer, a
        // write that failed, or a disconnectFromHost() that finished. Called once, from the event
        // loop (never from inside a call of the handler's).
        virtual void onClosed() = 0;

    protected:
        ~Handler() = default;
    };

    enum class State { Connected, Closing, Unconnected };

    using QObject::QObject;

    // Up to max bytes into p: the count read (> 0), 0 when nothing is there now, -1 when the peer
    // has closed its side or the connection failed (the stream is Unconnected from then on, and
    // onClosed() follows).
    virtual std::ptrdiff_t read(uint8_t* p, std::size_t max) = 0;
    // Writes n bytes, in order after every byte written before. Returns how many the kernel took
    // at once; the rest is queued and reported by onBytesWritten() when it goes out.
    virtual std::size_t write(const uint8_t* p, std::size_t n) = 0;
    // Bytes queued and not yet taken by the kernel.
    virtual std::size_t bytesToWrite() const = 0;
    // false: nothing more is read (onReadable() is not called) until true again, when onReadable()
    // follows from the event loop; the kernel's receive window closes on a peer that goes on sending.
    virtual void setReading(bool on) = 0;
    // Once every queued byte is out, no more are sent (FIN); reading goes on. false when the
    // stream cannot do it now (something still queued, or no descriptor): then close it instead.
    virtual bool shutdownWrite() = 0;
    // Closes after the queued bytes are written; onClosed() follows when it is closed.
    virtual void disconnectFromHost() = 0;
    // Closes now; queued bytes are dropped; no onClosed().
    virtual void abort() = 0;
    virtual State state() const = 0;
};

} // namespace ua
