#include "ua/server/runtime/ReverseConnector.h"

#include "ua/transport/DescriptorStream.h"

#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <algorithm>

namespace ua {

namespace {
Q_LOGGING_CATEGORY(lcReverse, "ua.server.reverse", QtInfoMsg)
// A TCP connect that has not succeeded after this long counts as failed (an unreachable host
// would otherwise hold the dial for the kernel's SYN retries, about 2 minutes).
constexpr int kDialTimeoutMs = 10'000;
} // namespace

struct ReverseConnector::Target {
    TargetState state;
    QString host;
    quint16 port = 0;
    QTcpSocket* socket = nullptr;  // while dialing
    QTimer* retry = nullptr;       // single shot: the next dial
    QTimer* dialTimeout = nullptr;
};

void ReverseHub::report(int target, Outcome outcome) {
    std::lock_guard lock(m_mutex);
    if (!m_connector) return;
    // Posted under the lock: the connector's destructor takes it first, and ~QObject drops the
    // events still posted to it.
    QMetaObject::invokeMethod(m_connector, [c = m_connector, target, outcome] { c->onReport(target, outcome); },
                              Qt::QueuedConnection);
}

void ReverseHub::detach() {
    std::lock_guard lock(m_mutex);
    m_connector = nullptr;
}

ReverseConnector::ReverseConnector(ReverseConnectConfig config, QString serverUri, QString endpointUrl, HandOver handOver,
                                   QObject* parent)
    : QObject(parent), m_config(std::move(config)), m_serverUri(std::move(serverUri)), m_endpointUrl(std::move(endpointUrl)),
      m_handOver(std::move(handOver)), m_hub(std::make_shared<ReverseHub>(this)) {
    m_config.helloTimeoutMs = std::clamp<uint32_t>(m_config.helloTimeoutMs, 1, 120'000);
    m_config.retryMinMs = std::max<uint32_t>(m_config.retryMinMs, 1);
    m_config.retryMaxMs = std::max(m_config.retryMaxMs, m_config.retryMinMs);
    for (const QString& text : m_config.clientUrls) {
        auto t = std::make_unique<Target>();
        t->state.url = text.trimmed();
        const QUrl url(t->state.url);
        t->host = url.host();
        const int port = url.port(4840);
        t->state.valid = url.isValid() && url.scheme() == QLatin1String("opc.tcp") && !t->host.isEmpty() && port > 0;
        t->port = quint16(port);
        if (!t->state.valid) t->state.lastError = QStringLiteral("not an opc.tcp://host:port URL");
        t->retry = new QTimer(this);
        t->retry->setSingleShot(true);
        t->dialTimeout = new QTimer(this);
        t->dialTimeout->setSingleShot(true);
        const int index = int(m_targets.size());
        connect(t->retry, &QTimer::timeout, this, [this, index] { dial(index); });
        connect(t->dialTimeout, &QTimer::timeout, this, [this, index] { onDialFailed(index, QStringLiteral("connect timed out")); });
        m_targets.push_back(std::move(t));
    }
}

ReverseConnector::~ReverseConnector() { m_hub->detach(); }

void ReverseConnector::start() {
    for (int i = 0; i < int(m_targets.size()); ++i) {
        if (m_targets[i]->state.valid) dial(i);
        else qCWarning(lcReverse, "reverse connect to '%s' left out: %s", qPrintable(m_targets[i]->state.url),
                       qPrintable(m_targets[i]->state.lastError));
    }
}

std::vector<ReverseConnector::TargetState> ReverseConnector::states() const {
    std::lock_guard lock(m_stateMutex);
    std::vector<TargetState> out;
    out.reserve(m_targets.size());
    for (const auto& t : m_targets) out.push_back(t->state);
    return out;
}

void ReverseConnector::dial(int index) {
    Target& t = *m_targets[size_t(index)];
    if (t.socket || t.state.spareOpen) return;
    t.socket = new QTcpSocket(this);
    {
        std::lock_guard lock(m_stateMutex);
        t.state.dialing = true;
        ++t.state.dials;
    }
    connect(t.socket, &QTcpSocket::connected, this, [this, index] { onConnected(index); });
    connect(t.socket, &QTcpSocket::errorOccurred, this, [this, index] {
        const Target& target = *m_targets[size_t(index)];
        onDialFailed(index, target.socket ? target.socket->errorString() : QString());
    });
    t.dialTimeout->start(kDialTimeoutMs);
    t.socket->connectToHost(t.host, t.port);
}

void ReverseConnector::onConnected(int index) {
    Target& t = *m_targets[size_t(index)];
    t.dialTimeout->stop();
    QTcpSocket* socket = std::exchange(t.socket, nullptr);
    // The connection goes on over our own copy of the descriptor, as an accepted one does.
    const int own = duplicateDescriptor(socket->socketDescriptor());
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
    if (own < 0) {
        onDialFailed(index, QStringLiteral("no descriptor"));
        return;
    }
    {
        std::lock_guard lock(m_stateMutex);
        t.state.dialing = false;
        t.state.spareOpen = true;
    }
    qCDebug(lcReverse, "reverse connection to %s open: ReverseHello sent", qPrintable(t.state.url));
    ReverseOrigin origin;
    origin.hub = m_hub;
    origin.target = index;
    origin.serverUri = m_serverUri;
    origin.endpointUrl = m_endpointUrl;
    origin.helloTimeoutMs = m_config.helloTimeoutMs;
    m_handOver(own, std::move(origin));
}

void ReverseConnector::onDialFailed(int index, const QString& error) {
    Target& t = *m_targets[size_t(index)];
    t.dialTimeout->stop();
    if (QTcpSocket* socket = std::exchange(t.socket, nullptr)) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
    {
        std::lock_guard lock(m_stateMutex);
        t.state.dialing = false;
        ++t.state.failures;
        t.state.lastError = error;
    }
    if (t.state.failures == 1)
        qCWarning(lcReverse, "reverse connect to %s failed: %s (tried again with back-off)", qPrintable(t.state.url),
                  qPrintable(error));
    retryLater(index);
}

void ReverseConnector::onReport(int index, ReverseHub::Outcome outcome) {
    if (index < 0 || index >= int(m_targets.size())) return;
    Target& t = *m_targets[size_t(index)];
    {
        std::lock_guard lock(m_stateMutex);
        t.state.spareOpen = false;
        switch (outcome) {
        case ReverseHub::Outcome::Hello:
            ++t.state.used;
            t.state.failures = 0;
            t.state.lastError.clear();
            break;
        case ReverseHub::Outcome::TimedOut:
            t.state.failures = 0;  // the listener is there; the Client did not need a connection
            break;
        case ReverseHub::Outcome::Closed:
            ++t.state.failures;
            t.state.lastError = QStringLiteral("closed by the Client before its Hello");
            break;
        }
    }
    switch (outcome) {
    case ReverseHub::Outcome::Hello: dial(index); break;  // the next spare at once
    case ReverseHub::Outcome::TimedOut: t.retry->start(int(m_config.retryMinMs)); break;
    case ReverseHub::Outcome::Closed: retryLater(index); break;
    }
}

uint32_t ReverseConnector::retryDelayMs(uint32_t failures) const {
    uint64_t delay = m_config.retryMinMs;
    for (uint32_t i = 1; i < failures && delay < m_config.retryMaxMs; ++i) delay *= 2;
    return uint32_t(std::min<uint64_t>(delay, m_config.retryMaxMs));
}

void ReverseConnector::retryLater(int index) {
    Target& t = *m_targets[size_t(index)];
    t.retry->start(int(retryDelayMs(std::max<uint32_t>(t.state.failures, 1))));
}

} // namespace ua
