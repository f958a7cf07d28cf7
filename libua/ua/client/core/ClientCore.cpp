#include "ua/client/core/ClientCore.h"

#include <QLoggingCategory>
#include <QTimer>
#include <algorithm>

Q_LOGGING_CATEGORY(lcClient, "ua.client", QtInfoMsg)

namespace ua {

const char* enumName(ClientState s) {
    switch (s) {
    case ClientState::Disconnected: return "Disconnected";
    case ClientState::Connecting: return "Connecting";
    case ClientState::ChannelOpen: return "ChannelOpen";
    case ClientState::Connected: return "Connected";
    case ClientState::Reconnecting: return "Reconnecting";
    }
    return "?";
}

ClientCore::ClientCore(ClientConfig config)
    : m_config(std::move(config)), m_backoff(m_config.reconnect), m_calls(this, m_config.requestTimeoutMs),
      m_keepAliveTimer(new QTimer(this)), m_reconnectTimer(new QTimer(this)) {
    // The Hello must offer at least 8192 bytes each way (7.1.2.3).
    m_config.transport.receiveBufferSize = std::max<uint32_t>(m_config.transport.receiveBufferSize, 8192);
    m_config.transport.sendBufferSize = std::max<uint32_t>(m_config.transport.sendBufferSize, 8192);
    m_reconnectTimer->setSingleShot(true);
    connect(m_keepAliveTimer, &QTimer::timeout, this, &ClientCore::onKeepAlive);
    connect(m_reconnectTimer, &QTimer::timeout, this, &ClientCore::attemptReconnect);
}

ClientCore::~ClientCore() { shutdown(); }

ClientSnapshot ClientCore::snapshot() const {
    QMutexLocker lock(&m_snapshotMutex);
    return m_snapshot;
}

void ClientCore::publish() {
    ClientSnapshot s;
    s.state = m_state;
    s.endpointUrl = m_urlText;
    s.sessionId = m_session.activated ? m_session.sessionId : NodeId();
    s.revisedSessionTimeoutMs = m_session.revisedTimeoutMs;
    s.endpoints = m_endpoints;
    s.endpoint = m_endpoint;
    s.userTokenPolicy = m_tokenPolicy;
    s.nodeIdConverter = m_converter;
    s.serverState = m_serverState;
    if (m_conn && m_conn->channel().isAcknowledged()) s.acknowledge = m_conn->channel().acknowledge();
    s.reconnectCount = m_reconnectCount;
    QMutexLocker lock(&m_snapshotMutex);
    m_snapshot = std::move(s);
}

void ClientCore::setState(ClientState s, StatusCode reason) {
    const bool changed = s != m_state;
    m_state = s;
    m_publicState.store(s, std::memory_order_release);
    if (s == ClientState::Connected && m_config.keepAliveIntervalMs > 0) {
        // Often enough to keep an idle Session from expiring: at most half its revised timeout.
        uint32_t interval = m_config.keepAliveIntervalMs;
        if (m_session.revisedTimeoutMs > 0) interval = std::min(interval, std::max<uint32_t>(100, uint32_t(m_session.revisedTimeoutMs / 2)));
        m_keepAliveTimer->start(int(interval));
    } else if (s != ClientState::Connected) {
        m_keepAliveTimer->stop();
    }
    publish();
    if (changed) {
        qCDebug(lcClient) << "state" << enumName(s) << QString::fromStdString(reason.name());
        emit stateChanged(s, reason);
    }
}

// ---------------------------------------------------------------------------------------------
// Where a call goes (the pending calls themselves: calls/PendingCalls.h)

bool ClientCore::userRequestsMaySend() const {
    return (m_state == ClientState::ChannelOpen && !m_activating) || m_state == ClientState::Connected;
}

ClientCore::Route ClientCore::routeOf(bool internal) const {
    const bool connected = m_conn && m_conn->isOpen();
    if (connected && (internal || userRequestsMaySend())) return Route::Send;
    if (!internal && (m_state == ClientState::Connecting || m_state == ClientState::Reconnecting || m_activating)) return Route::Queue;
    return Route::Fail;
}

void ClientCore::shutdown() {
    m_userDisconnect = true;
    m_reconnectTimer->stop();
    m_keepAliveTimer->stop();
    auto openDone = std::exchange(m_openDone, nullptr);
    dropConnection(status::BadShutdown, true);
    if (openDone) openDone(status::BadShutdown);
    m_calls.failQueued(status::BadShutdown);
    m_calls.failAll(status::BadShutdown);
    m_session = Session();
    m_state = ClientState::Disconnected;
    m_publicState.store(m_state, std::memory_order_release);
    publish();
}

// ---------------------------------------------------------------------------------------------
// Browse with ContinuationPoints (OPC 10000-4 5.8.2, 5.8.3; browse/BrowseContinuation.h)

void ClientCore::browse(BrowseRequest request, BrowseOptions options, uint32_t timeoutMs, ServiceCallback<BrowseResponse> done) {
    auto browseNext = [this](BrowseNextRequest&& next, uint32_t nextTimeoutMs, ServiceCallback<BrowseNextResponse> nextDone) {
        call<BrowseNextRequest, BrowseNextResponse>(std::move(next), nextTimeoutMs, std::move(nextDone));
    };
    call<BrowseRequest, BrowseResponse>(std::move(request), timeoutMs,
                                        followContinuationPoints(options, timeoutMs, std::move(browseNext), std::move(done)));
}

// ---------------------------------------------------------------------------------------------
// HistoryRead with ContinuationPoints (OPC 10000-4 5.11.3; history/HistoryContinuation.h)

void ClientCore::historyRead(HistoryReadRequest request, HistoryReadOptions options, uint32_t timeoutMs,
                             ServiceCallback<HistoryValues> done) {
    auto next = [this](HistoryReadRequest&& more, uint32_t nextTimeoutMs, ServiceCallback<HistoryReadResponse> nextDone) {
        call<HistoryReadRequest, HistoryReadResponse>(std::move(more), nextTimeoutMs, std::move(nextDone));
    };
    auto follow = followHistoryContinuationPoints(request, options, timeoutMs, std::move(next), std::move(done));
    call<HistoryReadRequest, HistoryReadResponse>(std::move(request), timeoutMs, std::move(follow));
}

} // namespace ua
