// One client connection on its I/O thread: UA-TCP framing and the Hello/Acknowledge exchange
// (OPC 10000-6 7.1), its SecureChannel, and the dispatch of complete requests to the services.
// Every protocol violation is answered with an ERR and the socket closed (docs/Protocol.md).
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/secure/ServerSecureChannel.h"
#include "ua/transport/BatchedWriter.h"
#include "ua/transport/MessageFramer.h"
#include "ua/transport/TcpStream.h"
#include "ua/server/common/ChannelSessions.h"
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/common/ResponseTarget.h"
#include "ua/server/runtime/ReverseConnector.h"

#include <QObject>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QHostAddress;
class QTcpSocket;
class QTimer;

namespace ua {

class IoWorker;
class ServerParts;
class ThreadSnapshot;

class ServerConnection : public QObject, private TcpStream::Handler {
    Q_OBJECT
public:
    // A connection over an accepted descriptor, which it takes over (DescriptorStream).
    ServerConnection(ServerParts& server, qintptr socketDescriptor);
    // A connection this server opened to a Client's reverse-connect listener (OPC 10000-6 7.1.3):
    // it sends the ReverseHello at once and waits origin.helloTimeoutMs for the Hello (ERR
    // Bad_Timeout then), and reports to its ReverseConnector when the Hello came or it closed.
    ServerConnection(ServerParts& server, qintptr socketDescriptor, ReverseOrigin origin);
    // A connection over a socket that is already connected, which it takes over (QtSocketStream).
    // The seam for tests that feed the byte stream without the network: the fuzz harnesses give
    // it a tests/fuzz/MemorySocket.h.
    ServerConnection(ServerParts& server, QTcpSocket* socket);
    ~ServerConnection() override;

    // Sessions this connection has created or activated: looked up here without a lock.
    ChannelSessions& sessions() { return m_sessions; }
    SessionPtr findSession(const NodeId& authenticationToken) { return m_sessions.find(authenticationToken); }
    uint32_t channelId() const { return m_channelId; }
    // "host:port" of the TCP peer (for the Session diagnostics).
    const QString& peerAddress() const { return m_peerAddress; }
    ServerSecureChannel* channel() { return m_channel; }
    // The address space snapshot for the current request: the I/O thread's (runtime/IoWorker.h),
    // reloaded only when the server has published a new one (one relaxed atomic load per request
    // otherwise).
    const AddressSpace& addressSpace();
    // Shared with ResponseTargets of responses sent later (parked Publish requests).
    const std::shared_ptr<ConnectionLink>& link() const { return m_link; }
    // Sends an ERR with error and reason (at most 4096 bytes) after what is already queued, and
    // closes the connection (Server::shutdown(): Bad_ServerHalted). Its thread only.
    void closeWithError(StatusCode error, const std::string& reason) { fail(error, reason); }
    // A Session was activated on this channel: its handshake is over (AdmissionConfig.h).
    void handshakeDone();
    // Bytes of storage held by the connection's own reused buffers: the framer's, the batched
    // writer's and the SecureChannel's (not the stream's queue of unsent bytes). For tests and
    // diagnostics; its thread.
    std::size_t bufferCapacity() const;
    // A buffer above this many bytes is given back once the connection is idle (releaseIdleBuffers).
    static constexpr std::size_t kIdleBufferKeep = 8192;

private:
    explicit ServerConnection(ServerParts& server);  // the common part; then start()
    void start(TcpStream* stream, const QHostAddress& peer, quint16 peerPort);
    // TcpStream::Handler
    void onReadable() override;
    void onBytesWritten(std::size_t n) override;
    void onClosed() override;

    void processMessages();
    bool processMessage(const uint8_t* p, std::size_t n);
    void handleHello(const uint8_t* p, std::size_t n);
    void reportReverse(ReverseHub::Outcome outcome);  // once, for a reverse connection
    void fail(StatusCode error, const std::string& reason);
    void closeConnection();
    // After a batch and after a tick: the timer for the earliest deadline; lookAtBuffers: and an
    // idle check if a buffer grew above what the last check kept (not right after a check).
    void armHousekeeping(bool lookAtBuffers = true);
    void disarmDeadline(int64_t& deadlineMs);  // that deadline is gone: re-armed for the next one
    void onHousekeeping();
    void releaseIdleBuffers();
    void send(const uint8_t* p, std::size_t n);

    // --- Admission control and backpressure (ServerConnectionAdmission.cpp) ---
    void setUpAdmission();                 // the constructor's part
    bool admitHello();                     // false: refused (ERR Bad_TcpServerTooBusy on its way)
    void refuseBusy(const char* reason, uint32_t delayMs);
    void scheduleDelete();
    void helloTimedOut();                  // ERR Bad_Timeout: no Hello within helloTimeoutMs
    void handshakeTimedOut();              // no Session activated within handshakeTimeoutMs: the slot is given back
    void noteSent(std::size_t n);          // one response (or ACK/ERR) handed to the socket
    void noteWritten(std::size_t n);       // n bytes of them went to the kernel
    bool mustPauseReading();               // true: stop reading now (or already stopped)
    void resumeReading();
    void checkChunkTimeout(int64_t nowMs);

    ServerParts& m_server;
    TcpStream* m_stream;       // its child
    ServerSecureChannel* m_channel = nullptr;  // m_channelStorage's, once the Hello came
    QTimer* m_housekeeping;    // single-shot, for m_housekeepingDueMs (armHousekeeping)
    MessageFramer m_framer;
    BatchedWriter m_writer;    // the responses of one onReadable() go out in one write
    uint32_t m_maxChunk;       // bytes: before the Hello, the size a Hello may have
    uint32_t m_channelId;
    IoWorker* m_worker;        // of this thread; null without a running server (tests)
    ChannelSessions m_sessions;
    ThreadSnapshot* m_snapshot;  // the worker's, or without one its child
    std::shared_ptr<ConnectionLink> m_link;
    bool m_closing = false;
    bool m_deleteScheduled = false;
    // Admission and backpressure state (ServerConnectionAdmission.cpp).
    bool m_inHandshake = false;            // holds one of AdmissionControl's handshakes
    bool m_readPaused = false;             // not reading: too many responses queued, or refused
    bool m_checkOnResume = false;          // an idle check found reading paused: armed again on resume
    uint64_t m_bytesQueued = 0;            // bytes handed to the socket since the start
    uint64_t m_bytesFlushed = 0;           // of them, bytes the socket has written to the kernel
    std::vector<uint64_t> m_responseEnds;  // ring: m_bytesQueued after each response not yet flushed
    std::size_t m_ringHead = 0;
    std::size_t m_ringCount = 0;
    // Idle buffers (releaseIdleBuffers).
    static constexpr int64_t kNever = INT64_MAX;
    static constexpr int64_t kIdleCheckMs = 1000;
    int64_t m_housekeepingDueMs = kNever;  // when m_housekeeping fires (Server::monotonicMs())
    int64_t m_idleCheckMs = kNever;        // the next idle check, armed when a buffer grew
    int64_t m_helloDeadlineMs = kNever;    // no Hello by then: ERR Bad_Timeout (helloTimeoutMs)
    int64_t m_handshakeDeadlineMs = kNever;  // the handshake slot is given back then (handshakeTimeoutMs)
    int64_t m_busyRefusalMs = kNever;      // a delayed refusal: ERR Bad_TcpServerTooBusy then (refuseBusy)
    int64_t m_deleteDueMs = kNever;        // closing: deleted then if the peer has not closed its side
    uint64_t m_bytesQueuedAtCheck = 0;     // m_bytesQueued when the idle check was armed
    std::size_t m_capacityKept = 0;        // bufferCapacity() after the last release
    std::size_t m_localCapacityKept = 0;   // of it, the framer's and the writer's
    // Last: what a request does not read (above, the fields it does, in as few cache lines as
    // they fit), then the channel, whose own fields start with what each request reads.
    std::string m_busyReason;  // the log text of m_busyRefusalMs's refusal
    QString m_peerAddress;
    std::optional<ReverseOrigin> m_reverse;  // a reverse connection, until it reported
    std::optional<ServerSecureChannel> m_channelStorage;  // through m_channel, which is among the hot fields
};

} // namespace ua
