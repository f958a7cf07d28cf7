// The Client's side of Reverse Connect (OPC 10000-6 7.1.3, 7.1.2.6, 1.05.04): a TCP listener that
// Servers dial into. A Server that connects sends a ReverseHello (ServerUri, EndpointUrl); the
// listener checks it against the Servers it expects and hands the connection to a waiting
// ClientConnection, which answers with its Hello and opens the SecureChannel as on a connection it
// made itself.
//
// - A ReverseHello that names no expected Server (its EndpointUrl, and its ServerUri where the
//   expectation names one), or a field longer than 4096 bytes, is answered ERR
//   Bad_TcpEndpointUrlInvalid and the socket closed (7.1.2.6), as is a ReverseHello that does not
//   decode. Any other first message: ERR Bad_TcpMessageTypeInvalid (7.1.5), and closed.
// - No ReverseHello within acceptTimeoutMs: closed. More than maxPending sockets waiting for their
//   ReverseHello or held: the newest is closed at once (a guard against a flood).
// - A matching connection nobody waits for yet is held (the Server keeps a spare open so that the
//   next connection need not wait for a dial) until a waiter comes, the Server closes it, or
//   holdMs pass.
// Expected Servers are those the waiters name (remembered after they are served) and those given
// to expect(). EndpointUrls compare by scheme, host (case-insensitive), port (4840 if absent) and
// path.
//
// Threads: the listener lives in the thread that created it; waitFor() and cancel() may be called
// from any thread and the callback runs in its context's thread (dropped, and the connection
// closed, if the context is gone).
#pragma once

#include "ua/transport/ReverseHello.h"
#include "ua/types/StatusCode.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace ua {

struct ReverseExpectation {
    QString endpointUrl;  // the Server's EndpointUrl, as its ReverseHello names it
    QString serverUri;    // its ApplicationUri; empty: any
};

class ReverseListener;

// Outlives its listener: a waiter that may be destroyed after the listener (a Client still
// disconnecting) cancels through it, which does nothing once the listener is gone.
class ReverseListenerLink {
public:
    void cancel(uint64_t id);

private:
    friend class ReverseListener;
    std::mutex m_mutex;
    ReverseListener* m_listener = nullptr;
};

class ReverseListener : public QObject {
    Q_OBJECT
public:
    explicit ReverseListener(QObject* parent = nullptr);
    ~ReverseListener() override;

    // Listens on address:port (0: any free port, see port()). False with errorString() if not.
    bool listen(const QHostAddress& address, quint16 port);
    quint16 port() const;
    QString errorString() const { return m_error; }

    // ms for a ReverseHello after the TCP connect; ms a matching, unclaimed connection is held.
    void setAcceptTimeoutMs(uint32_t ms) { m_acceptTimeoutMs = ms; }
    void setHoldMs(uint32_t ms) { m_holdMs = ms; }
    void setMaxPending(int n) { m_maxPending = n; }
    // A Server to accept connections from before anyone waits for it (any thread).
    void expect(const ReverseExpectation& e);

    // fd: a connected socket descriptor whose ReverseHello has been read; the callee owns it.
    using Accepted = std::function<void(int fd, const ReverseHelloMessage& hello)>;
    // Calls accepted once, in context's thread, with the next connection from a Server matching e
    // (the oldest held one, or the next to come). Returns an id for cancel(). Any thread.
    uint64_t waitFor(QObject* context, const ReverseExpectation& e, Accepted accepted);
    void cancel(uint64_t id);
    // For waiters that may outlive the listener (ReverseListenerLink).
    const std::shared_ptr<ReverseListenerLink>& link() const { return m_link; }

    // Counters (any thread): connections handed over, and refused (ERR sent or closed unread).
    uint64_t handedOver() const { return m_handedOver.load(std::memory_order_relaxed); }
    uint64_t refused() const { return m_refused.load(std::memory_order_relaxed); }

    // True when hello names the Server e expects (the comparison described above).
    static bool matches(const ReverseExpectation& e, const ReverseHelloMessage& hello);

private:
    struct Pending;
    struct Waiter;
    void onNewConnection();
    void onReadable(Pending* p);
    void refuse(Pending* p, StatusCode status, const char* reason);
    void drop(Pending* p);
    void offer(Pending* p);  // a valid ReverseHello: to a waiter, held, or refused
    void addWaiter(std::shared_ptr<Waiter> w);
    void removeWaiter(uint64_t id);
    void deliver(Pending* p, const std::shared_ptr<Waiter>& w);
    bool known(const ReverseHelloMessage& hello) const;

    QTcpServer* m_server;
    QString m_error;
    uint32_t m_acceptTimeoutMs = 10'000;
    uint32_t m_holdMs = 120'000;
    int m_maxPending = 64;
    std::vector<std::unique_ptr<Pending>> m_pending;  // without a ReverseHello yet, or held
    std::vector<std::shared_ptr<Waiter>> m_waiters;   // oldest first
    std::vector<ReverseExpectation> m_known;
    std::atomic<uint64_t> m_nextId{1};
    std::atomic<uint64_t> m_handedOver{0};
    std::atomic<uint64_t> m_refused{0};
    std::shared_ptr<ReverseListenerLink> m_link;
};

} // namespace ua
