#include "ua/client/channel/ReverseListener.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/transport/ContextRef.h"
#include "ua/transport/DescriptorStream.h"
#include "ua/transport/TcpMessages.h"

#include <QLoggingCategory>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <unistd.h>

namespace ua {

namespace {
Q_LOGGING_CATEGORY(lcReverseListen, "ua.client.reverse", QtInfoMsg)

// The largest ReverseHello: the header and two Strings of at most 4096 bytes each.
constexpr uint32_t kMaxReverseHelloSize = uint32_t(kTcpHeaderSize) + 2 * (4 + kMaxEndpointUrlLength);

// A descriptor on its way to a waiter: closed unless the waiter took it.
struct OwnedFd {
    int fd;
    explicit OwnedFd(int f) : fd(f) {}
    ~OwnedFd() {
        if (fd >= 0) ::close(fd);
    }
    int take() { return std::exchange(fd, -1); }
};

struct UrlKey {
    QString scheme, host, path;
    int port = 4840;
    bool valid = false;
};
UrlKey keyOf(const QString& text) {
    const QUrl url(text.trimmed());
    UrlKey k;
    k.valid = url.isValid() && !url.host().isEmpty();
    k.scheme = url.scheme().toLower();
    k.host = url.host().toLower();
    k.port = url.port(4840);
    k.path = url.path();
    if (k.path == QLatin1String("/")) k.path.clear();
    return k;
}
} // namespace

struct ReverseListener::Pending {
    QTcpSocket* socket = nullptr;
    QTimer* timer = nullptr;            // the accept timeout, then the hold time
    std::optional<ReverseHelloMessage> hello;  // set once read: the connection is held
};

struct ReverseListener::Waiter {
    uint64_t id = 0;
    ReverseExpectation expectation;
    ContextRef context;  // not set: accepted runs on the listener's thread
    Accepted accepted;
};

void ReverseListenerLink::cancel(uint64_t id) {
    std::lock_guard lock(m_mutex);  // the listener's destructor takes it first
    if (m_listener) m_listener->cancel(id);
}

ReverseListener::ReverseListener(QObject* parent)
    : QObject(parent), m_server(new QTcpServer(this)), m_link(std::make_shared<ReverseListenerLink>()) {
    m_link->m_listener = this;
    connect(m_server, &QTcpServer::newConnection, this, &ReverseListener::onNewConnection);
}

ReverseListener::~ReverseListener() {
    {
        std::lock_guard lock(m_link->m_mutex);
        m_link->m_listener = nullptr;
    }
    // Quietly: abort() emits disconnected, whose handler would change m_pending under the loop.
    for (auto& p : m_pending) {
        p->timer->stop();
        p->timer->disconnect(this);
        if (p->socket) {
            p->socket->disconnect(this);
            p->socket->abort();
        }
    }
}

bool ReverseListener::listen(const QHostAddress& address, quint16 port) {
    if (m_server->listen(address, port)) return true;
    m_error = m_server->errorString();
    return false;
}

quint16 ReverseListener::port() const { return m_server->serverPort(); }

bool ReverseListener::matches(const ReverseExpectation& e, const ReverseHelloMessage& hello) {
    if (!e.serverUri.isEmpty() && e.serverUri != hello.serverUri.toQString()) return false;
    const UrlKey a = keyOf(e.endpointUrl);
    const UrlKey b = keyOf(hello.endpointUrl.toQString());
    return a.valid && b.valid && a.scheme == b.scheme && a.host == b.host && a.port == b.port && a.path == b.path;
}

void ReverseListener::expect(const ReverseExpectation& e) {
    QMetaObject::invokeMethod(this, [this, e] { m_known.push_back(e); }, Qt::AutoConnection);
}

uint64_t ReverseListener::waitFor(QObject* context, const ReverseExpectation& e, Accepted accepted) {
    auto w = std::make_shared<Waiter>();
    w->id = m_nextId.fetch_add(1, std::memory_order_relaxed);
    w->expectation = e;
    w->context = ContextRef(context);  // here, on the caller's thread (ContextRef.h)
    w->accepted = std::move(accepted);
    const uint64_t id = w->id;
    if (thread() == QThread::currentThread()) addWaiter(std::move(w));
    else QMetaObject::invokeMethod(this, [this, w] { addWaiter(w); }, Qt::QueuedConnection);
    return id;
}

void ReverseListener::cancel(uint64_t id) {
    if (thread() == QThread::currentThread()) removeWaiter(id);
    else QMetaObject::invokeMethod(this, [this, id] { removeWaiter(id); }, Qt::QueuedConnection);
}

void ReverseListener::addWaiter(std::shared_ptr<Waiter> w) {
    const bool seen = std::any_of(m_known.begin(), m_known.end(), [&](const ReverseExpectation& k) {
        return k.endpointUrl == w->expectation.endpointUrl && k.serverUri == w->expectation.serverUri;
    });
    if (!seen) m_known.push_back(w->expectation);
    // The oldest held connection that matches goes to it at once.
    for (auto& p : m_pending) {
        if (p->hello && matches(w->expectation, *p->hello)) {
            deliver(p.get(), w);
            return;
        }
    }
    m_waiters.push_back(std::move(w));
}

void ReverseListener::removeWaiter(uint64_t id) {
    m_waiters.erase(std::remove_if(m_waiters.begin(), m_waiters.end(), [id](const auto& w) { return w->id == id; }),
                    m_waiters.end());
}

bool ReverseListener::known(const ReverseHelloMessage& hello) const {
    return std::any_of(m_known.begin(), m_known.end(), [&](const ReverseExpectation& k) { return matches(k, hello); });
}

void ReverseListener::onNewConnection() {
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        // Held connections count too: a peer that sends a known ReverseHello again and again holds no
        // more than this many sockets.
        if (int(m_pending.size()) >= m_maxPending) {
            m_refused.fetch_add(1, std::memory_order_relaxed);
            qCWarning(lcReverseListen, "reverse connection from %s closed: %d connections pending or held already",
                      qPrintable(socket->peerAddress().toString()), m_maxPending);
            socket->abort();
            socket->deleteLater();
            continue;
        }
        auto p = std::make_unique<Pending>();
        Pending* raw = p.get();
        p->socket = socket;
        p->timer = new QTimer(socket);
        p->timer->setSingleShot(true);
        connect(p->timer, &QTimer::timeout, this, [this, raw] {
            qCInfo(lcReverseListen, "reverse connection from %s closed: %s", qPrintable(raw->socket->peerAddress().toString()),
                   raw->hello ? "nobody asked for it in time" : "no ReverseHello in time");
            if (!raw->hello) m_refused.fetch_add(1, std::memory_order_relaxed);
            drop(raw);
        });
        connect(socket, &QTcpSocket::readyRead, this, [this, raw] { onReadable(raw); });
        connect(socket, &QTcpSocket::disconnected, this, [this, raw] { drop(raw); });
        p->timer->start(int(std::min<uint32_t>(m_acceptTimeoutMs, INT32_MAX)));
        m_pending.push_back(std::move(p));
        onReadable(raw);  // bytes that came with the connection
    }
}

void ReverseListener::onReadable(Pending* p) {
    if (p->hello) {  // nothing may come before our Hello: the Server broke the protocol
        if (p->socket->bytesAvailable() > 0) refuse(p, status::BadTcpMessageTypeInvalid, "a message before the Hello");
        return;
    }
    if (p->socket->bytesAvailable() < qint64(kTcpHeaderSize)) return;
    uint8_t header[kTcpHeaderSize];
    p->socket->peek(reinterpret_cast<char*>(header), qint64(kTcpHeaderSize));
    const TcpHeader h = readTcpHeader(header);
    if (h.type != TcpMessageType::ReverseHello) {
        refuse(p, status::BadTcpMessageTypeInvalid, "the first message is no ReverseHello");
        return;
    }
    if (h.messageSize < kTcpHeaderSize || h.messageSize > kMaxReverseHelloSize) {
        refuse(p, status::BadTcpEndpointUrlInvalid, "a ReverseHello longer than two 4096-byte fields");
        return;
    }
    if (p->socket->bytesAvailable() < qint64(h.messageSize)) return;
    QByteArray bytes = p->socket->read(qint64(h.messageSize));
    auto hello = decodeReverseHello(reinterpret_cast<const uint8_t*>(bytes.constData()) + kTcpHeaderSize,
                                    std::size_t(bytes.size()) - kTcpHeaderSize);
    if (!hello) {
        refuse(p, status::BadTcpEndpointUrlInvalid, "a ReverseHello that does not decode, or a field over 4096 bytes");
        return;
    }
    if (!known(*hello)) {
        qCInfo(lcReverseListen, "refused a reverse connection from %s: ServerUri '%s', EndpointUrl '%s' not expected",
               qPrintable(p->socket->peerAddress().toString()), qPrintable(hello->serverUri.toQString()),
               qPrintable(hello->endpointUrl.toQString()));
        refuse(p, status::BadTcpEndpointUrlInvalid, "a ReverseHello from a Server this Client does not expect");
        return;
    }
    p->hello = std::move(hello);
    offer(p);
}

void ReverseListener::offer(Pending* p) {
    for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
        if (matches((*it)->expectation, *p->hello)) {
            auto w = std::move(*it);
            m_waiters.erase(it);
            deliver(p, w);
            return;
        }
    }
    p->timer->start(int(std::min<uint32_t>(m_holdMs, INT32_MAX)));  // held for a waiter to come
}

void ReverseListener::deliver(Pending* p, const std::shared_ptr<Waiter>& w) {
    // The connection goes on over a copy of the descriptor (ClientConnection's DescriptorStream).
    const int own = duplicateDescriptor(p->socket->socketDescriptor());
    const ReverseHelloMessage hello = *p->hello;
    drop(p);
    if (own < 0) return;
    m_handedOver.fetch_add(1, std::memory_order_relaxed);
    auto owned = std::make_shared<OwnedFd>(own);
    Accepted accepted = w->accepted;
    if (!w->context.isSet()) {
        accepted(owned->take(), hello);
        return;
    }
    // Dropped when the waiter's context is gone: the descriptor is closed with `owned`.
    w->context.run([owned, hello, accepted] { accepted(owned->take(), hello); });
}

void ReverseListener::refuse(Pending* p, StatusCode code, const char* reason) {
    m_refused.fetch_add(1, std::memory_order_relaxed);
    // Out of the pending list first: the socket's signals no longer reach this object, so nothing
    // below (a disconnected emitted at once) can touch p.
    QTcpSocket* s = std::exchange(p->socket, nullptr);
    p->timer->stop();
    p->timer->disconnect(this);  // a child of s: it goes with s
    s->disconnect(this);
    drop(p);
    Buffer out;
    ErrorMessage e;
    e.error = code;
    e.reason = String(reason);
    encodeError(out, e);
    s->write(reinterpret_cast<const char*>(out.data()), qint64(out.size()));
    // Closed once the ERR is written (disconnected), at the latest after a second.
    connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    QTimer::singleShot(1000, s, [s] {
        s->abort();
        s->deleteLater();
    });
    s->disconnectFromHost();
}

void ReverseListener::drop(Pending* p) {
    auto it = std::find_if(m_pending.begin(), m_pending.end(), [p](const auto& q) { return q.get() == p; });
    if (it == m_pending.end()) return;
    std::unique_ptr<Pending> owned = std::move(*it);
    m_pending.erase(it);
    owned->timer->stop();
    owned->timer->disconnect(this);
    if (owned->socket) {
        owned->socket->disconnect(this);
        owned->socket->abort();
        owned->socket->deleteLater();  // its timer with it
    }
}

} // namespace ua
