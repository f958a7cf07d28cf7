// What a Server admits under load (docs/Scalability.md): bounds on handshakes and
// Session establishments in progress (a connect storm costs RSA work per client; the excess is
// answered at once, before any of it), and on what one channel, or all of them, may hold in memory
// (backpressure: responses a peer does not read, chunked requests that never finish).
#pragma once

#include <cstdint>

namespace ua {

struct AdmissionConfig {
    static constexpr int kHandshakesPerIoThread = 8;
    // SecureChannels in their handshake at once, server-wide: a connection counts from its Hello
    // until a Session is first activated on it, it closes, or handshakeTimeoutMs has passed. A
    // Hello beyond gets ERR Bad_TcpServerTooBusy (OPC 10000-6 7.1.5) after busyDelayMs, before any
    // OpenSecureChannel is read, so no RSA work is spent on it. 0: no bound; -1 (default):
    // kHandshakesPerIoThread per I/O thread (16 on 2 cores: on this 2-core machine a storm of
    // 1,000 SignAndEncrypt clients got 20 Sessions/s through 16, 14-16 through 64, 7.5 through 256
    // and none without a bound; docs/Benchmarks.md).
    int maxHandshakes = -1;
    uint32_t handshakeTimeoutMs = 10'000;  // ms
    // A connection whose Hello is not complete this long after it was accepted (idle, or a Hello
    // trickled a byte at a time) gets ERR Bad_Timeout and is closed: "the Server shall close the
    // TransportConnection after a period of time if it does not receive a Hello", configurable with
    // a default of at most two minutes (OPC 10000-6 7.1.3). ms; 0: no limit (not conformant).
    uint32_t helloTimeoutMs = 10'000;
    // How long a refused connection waits before its ERR Bad_TcpServerTooBusy (ms): "a Server can
    // control how frequently a Client reconnects by waiting to return this error" (7.1.5). A
    // connection beyond maxChannels is answered at once (it holds a socket).
    uint32_t busyDelayMs = 100;
    // Sessions created and not yet activated, server-wide. CreateSession beyond, and an
    // ActivateSession that moves an activated Session to another channel or user, are answered
    // Bad_ServerTooBusy (OPC 10000-4 5.7.2, 5.7.3) before any signature is made or checked; the first
    // ActivateSession of a created Session is always served. 0: no bound; -1 (default): as
    // maxHandshakes.
    int maxPendingSessions = -1;
    // A Session not activated this long after CreateSession is removed (ms; counted in
    // SessionAbortCount). At maxSessions, CreateSession first removes the oldest Session not
    // activated (OPC 10000-4 5.7.2.1).
    uint32_t activationTimeoutMs = 10'000;
};

struct BackpressureConfig {
    // A connection stops reading requests while more than maxQueuedResponses of its responses are
    // written but not yet taken by the kernel (QTcpSocket::bytesWritten), and reads again at
    // resumeQueuedResponses. 0: no pause.
    int maxQueuedResponses = 100;
    int resumeQueuedResponses = 50;
    // Bytes of incomplete chunked requests (their chunks so far) held at once by all channels. A
    // chunk that would go over: ERR Bad_TcpNotEnoughResources (OPC 10000-6 7.1.5), its channel
    // closed. 0: no budget.
    uint64_t chunkBudgetBytes = 64ull << 20;
    // A chunked request whose final chunk has not come this long after its first one: ERR
    // Bad_RequestTimeout, the channel closed (ms; 0: no limit).
    uint32_t chunkTimeoutMs = 30'000;
};

} // namespace ua
