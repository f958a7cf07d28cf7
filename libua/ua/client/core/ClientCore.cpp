#include "ua/client/core/ClientCore.h"

#include "ua/client/discovery/EndpointSelection.h"
#include "ua/client/discovery/ServerTrust.h"
#include "ua/client/session/SessionSecurity.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/SecurityPolicy.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTimer>
#include <algorithm>
#include <cstring>
#include <ctime>

Q_LOGGING_CATEGORY(lcClient, "ua.client", QtInfoMsg)

namespace ua {

namespace {

// Statuses of ActivateSession that mean the server no longer has the Session (it expired, or the
// server restarted): the client creates a new one.
bool sessionIsGone(StatusCode s) {
    return s == status::BadSessionIdInvalid || s == status::BadSessionClosed || s == status::BadSessionNotActivated;
}

// The CreateSession clientNonce: 32 random bytes (OPC 10000-4 5.6.2: 32 to 128).
ByteString randomNonce() {
    const auto n = crypto::randomBytes(32);
    return ByteString(reinterpret_cast<const char*>(n.data()), n.size());
}

UserTokenType tokenTypeOf(UserIdentity::Kind k) {
    switch (k) {
    case UserIdentity::Kind::Anonymous: return UserTokenType::Anonymous;
    case UserIdentity::Kind::UserName: return UserTokenType::UserName;
    case UserIdentity::Kind::Certificate: return UserTokenType::Certificate;
    }
    return UserTokenType::Anonymous;
}

ReadRequest readValueRequest(uint32_t ns0Node) {
    ReadRequest r;
    r.maxAge = 0;
    r.timestampsToReturn = TimestampsToReturn::Neither;
    ReadValueId v;
    v.nodeId = NodeId(ns0Node);
    v.attributeId = uint32_t(AttributeId::Value);
    r.nodesToRead = Array<ReadValueId>{v};
    return r;
}

} // namespace

const char* toString(ClientState s) {
    switch (s) {
    case ClientState::Disconnected: return "Disconnected";
    case ClientState::Connecting: return "Connecting";
    case ClientState::ChannelOpen: return "ChannelOpen";
    case ClientState::Connected: return "Connected";
    case ClientState::Reconnecting: return "Reconnecting";
    }
    return "?";
}

namespace {

int64_t preciseNowMs() {
    static const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

// The clocks of a call's deadline and of its RequestHeader's timestamp, read once per call: the
// coarse clocks (a few ms of resolution, no time-stamp counter read; the precise ones were 7 % of
// the load tester's CPU at read-1 10x100 on this machine's virtual clock).
struct CoarseClocks {
    int64_t resolutionMs = 0;
    CoarseClocks() {
        timespec r{};
        clock_getres(CLOCK_MONOTONIC_COARSE, &r);
        resolutionMs = int64_t(r.tv_sec) * 1000 + (r.tv_nsec + 999'999) / 1'000'000;
    }
    static int64_t monotonicMs() {
        timespec t{};
        clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
        return int64_t(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
    }
    static DateTime utcNow() {
        timespec t{};
        clock_gettime(CLOCK_REALTIME_COARSE, &t);
        return DateTime{DateTime::kUnixEpochTicks + int64_t(t.tv_sec) * 10'000'000 + t.tv_nsec / 100};
    }
};
const CoarseClocks& coarseClocks() {
    static const CoarseClocks c;
    return c;
}

// nowMs() (QElapsedTimer's monotonic clock) from the coarse monotonic clock: the offset between
// them, taken once. A deadline from it lies at most the coarse resolution later than a precise
// one would, never earlier.
int64_t coarseNowMs() {
    static const int64_t offset = [] { return preciseNowMs() - CoarseClocks::monotonicMs(); }();
    return CoarseClocks::monotonicMs() + offset + coarseClocks().resolutionMs;
}

} // namespace

int64_t ClientCore::nowMs() {
    return preciseNowMs();
}

ClientCore::ClientCore(ClientConfig config)
    : m_config(std::move(config)), m_backoff(m_config.reconnect), m_deadlineTimer(new QTimer(this)),
      m_keepAliveTimer(new QTimer(this)), m_reconnectTimer(new QTimer(this)) {
    // The Hello must offer at least 8192 bytes each way (7.1.2.3).
    m_config.transport.receiveBufferSize = std::max<uint32_t>(m_config.transport.receiveBufferSize, 8192);
    m_config.transport.sendBufferSize = std::max<uint32_t>(m_config.transport.sendBufferSize, 8192);
    m_deadlineTimer->setSingleShot(true);
    m_deadlineTimer->setTimerType(Qt::PreciseTimer);
    m_reconnectTimer->setSingleShot(true);
    connect(m_deadlineTimer, &QTimer::timeout, this, &ClientCore::onDeadline);
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
        qCDebug(lcClient) << "state" << toString(s) << QString::fromStdString(reason.name());
        emit stateChanged(s, reason);
    }
}

// ---------------------------------------------------------------------------------------------
// Pending requests

bool ClientCore::userRequestsMaySend() const {
    return (m_state == ClientState::ChannelOpen && !m_activating) || m_state == ClientState::Connected;
}

ClientCore::Pending* ClientCore::addPending(uint32_t timeoutMs, bool internal, uint32_t& handle) {
    Pending* p = m_pending.emplace(handle);  // filled in place: no Pending moved in and destroyed
    if (!p) return nullptr;                  // the table is full
    p->timeoutMs = timeoutMs ? timeoutMs : m_config.requestTimeoutMs;
    const int64_t deadlineMs = coarseNowMs() + p->timeoutMs;
    p->issued = m_nextIssued++;
    p->internal = internal;
    m_deadlines.add(p->timeoutMs, handle, deadlineMs, [this](uint32_t h) { return m_pending.contains(h); });
    if (!m_deadlineTimer->isActive() || deadlineMs < m_deadlineArmedAtMs) armDeadlineTimer();
    return p;
}

ClientCore::Route ClientCore::routeOf(bool internal) const {
    const bool connected = m_conn && m_conn->isOpen();
    if (connected && (internal || userRequestsMaySend())) return Route::Send;
    if (!internal && (m_state == ClientState::Connecting || m_state == ClientState::Reconnecting || m_activating)) return Route::Queue;
    return Route::Fail;
}

ClientCore::HeaderFields ClientCore::headerFields(uint32_t handle, const Pending& p) const {
    HeaderFields h;
    h.authenticationToken = &m_session.authenticationToken;
    h.requestHandle = handle;
    h.timeoutHint = p.timeoutMs;
    return h;
}

void ClientCore::fillHeader(RequestHeader& header, const HeaderFields& h) {
    header.authenticationToken = *h.authenticationToken;
    header.timestamp = CoarseClocks::utcNow();  // when it was sent, to the coarse clock's few ms
    header.requestHandle = h.requestHandle;
    header.timeoutHint = h.timeoutHint;
}

void ClientCore::sent(uint32_t handle, Pending& p, uint32_t requestId, StatusCode s) {
    if (s.isBad()) {
        complete(handle, s);  // e.g. Bad_RequestTooLarge: nothing was sent
        return;
    }
    p.requestId = requestId;
}

void ClientCore::sendPending(uint32_t handle) {
    Pending* found = m_pending.find(handle);
    if (!found || !m_conn) return;
    Pending& p = *found;
    const uint32_t requestId = m_conn->nextRequestId();
    const StatusCode s = p.send(*m_conn, requestId, headerFields(handle, p));
    p.send = nullptr;  // the request is on its way: its copy is not needed any more
    sent(handle, p, requestId, s);
}

void ClientCore::complete(uint32_t handle, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size,
                          int64_t receivedAtNs) {
    Pending* p = m_pending.find(handle);
    if (!p) return;
    // Only the completion is moved out (not the whole call with its Sender): the slot is free
    // before it runs, since it may make calls or complete others.
    Completion done = std::move(p->done);
    m_pending.erase(handle);
    // Its deadline and, if queued, its handle in m_queue are dropped when they come to the front.
    if (done) done(local, typeId, body, size, receivedAtNs);
}

// The response under a RequestId must answer the call sent under it: its ResponseHeader
// (Timestamp, then RequestHandle, OPC 10000-4 7.33) names that call's handle. Another call's handle
// is a broken or hostile server: Bad_UnknownResponse, and nothing of the body is taken. A
// ServiceFault may carry 0 (a server that could not decode the RequestHeader).
void ClientCore::onResponse(uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size) {
    if (requestId == 0) return;  // never one of ours (ClientConnection counts from 1)
    const int64_t receivedAtNs = m_conn ? m_conn->receivedAtNs() : 0;
    uint32_t named = 0;
    const bool hasHeader = local.isGood() && size >= 12;
    if (hasHeader) {
        std::memcpy(&named, body + 8, 4);
        const Pending* p = m_pending.find(named);
        if (p && p->requestId == requestId) {  // the usual case
            complete(named, local, typeId, body, size, receivedAtNs);
            return;
        }
    }
    const uint32_t handle = handleOfRequestId(requestId);
    if (!handle) return;  // timed out already, or not ours
    if (hasHeader && !(named == 0 && typeId == ServiceFault::kBinaryEncodingId)) {
        complete(handle, status::BadUnknownResponse);
        return;
    }
    complete(handle, local, typeId, body, size, receivedAtNs);
}

uint32_t ClientCore::handleOfRequestId(uint32_t requestId) const {
    uint32_t found = 0;
    m_pending.forEach([&](uint32_t handle, const Pending& p) {
        if (p.requestId == requestId) found = handle;
    });
    return found;
}

// The timer is re-armed only when a deadline comes before the one it is armed for: with requests
// answered in time (the usual case) it fires about once per timeout period and finds nothing due,
// instead of being stopped and started for every request (a timer registration each time). An
// empty set leaves it armed: firing then costs one look.
void ClientCore::armDeadlineTimer() {
    const int64_t earliest = m_deadlines.earliest([this](uint32_t h) { return m_pending.contains(h); });
    if (earliest == DeadlineQueues::kNone) return;
    if (m_deadlineTimer->isActive() && m_deadlineArmedAtMs <= earliest) return;
    const int64_t wait = std::max<int64_t>(0, earliest - nowMs());
    m_deadlineTimer->start(int(std::min<int64_t>(wait, 0x7FFFFFFF)));
    m_deadlineArmedAtMs = earliest;
}

void ClientCore::onDeadline() {
    std::vector<uint32_t> due;
    m_deadlines.takeDue(nowMs(), [this](uint32_t h) { return m_pending.contains(h); }, due);
    for (uint32_t h : due) complete(h, status::BadTimeout);  // a late response is dropped (unknown requestId)
    armDeadlineTimer();
}

void ClientCore::failSent(StatusCode s) {
    std::vector<std::pair<uint32_t, uint32_t>> sent;  // (issued, handle)
    m_pending.forEach([&](uint32_t handle, const Pending& p) {
        if (p.requestId) sent.emplace_back(p.issued - m_nextIssued, handle);  // oldest first, across a wrap too
    });
    std::sort(sent.begin(), sent.end());  // in the order they were issued
    for (const auto& [issued, h] : sent) complete(h, s);
}

void ClientCore::failQueued(StatusCode s) {
    std::deque<uint32_t> queue;
    queue.swap(m_queue);
    for (uint32_t h : queue) complete(h, s);
}

void ClientCore::flushQueue() {
    std::deque<uint32_t> queue;
    queue.swap(m_queue);
    for (uint32_t h : queue) {
        if (!m_conn || !m_conn->isOpen()) {  // lost again while flushing: keep the rest waiting
            if (m_pending.find(h)) m_queue.push_back(h);
            continue;
        }
        sendPending(h);
    }
}

// ---------------------------------------------------------------------------------------------
// Connection

void ClientCore::openConnection(const ClientChannelSecurity& security, StatusCallback done) {
    dropConnection(status::BadConnectionClosed, false);
    const uint64_t gen = ++m_connGeneration;
    ClientConnection::Handlers h;
    h.opened = [this, gen] {
        if (gen != m_connGeneration) return;
        publish();
        if (auto d = std::exchange(m_openDone, nullptr)) d(status::Good);
    };
    h.response = [this, gen](uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size) {
        if (gen == m_connGeneration) onResponse(requestId, local, typeId, body, size);
    };
    h.closed = [this, gen](StatusCode reason) {
        if (gen == m_connGeneration) connectionLost(reason, reason);
    };
    m_conn = new ClientConnection(m_config, std::move(h), security, this);
    m_openDone = std::move(done);
    m_conn->open(m_url.host, m_url.port, m_urlText);
}

void ClientCore::dropConnection(StatusCode forPending, bool sendClose) {
    if (!m_conn) return;
    ++m_connGeneration;
    ClientConnection* c = std::exchange(m_conn, nullptr);
    if (sendClose) c->close();
    else c->abort();
    c->deleteLater();
    failSent(forPending);
}

void ClientCore::connectionLost(StatusCode reason, StatusCode forPending) {
    qCInfo(lcClient) << "connection lost:" << QString::fromStdString(reason.name());
    m_lostReason = reason;
    auto openDone = std::exchange(m_openDone, nullptr);
    dropConnection(forPending, false);  // the internal steps waiting on it get forPending
    if (openDone) {
        openDone(reason);  // the connect or reconnect in progress decides what follows
        return;
    }
    // From a working state: reconnect. Connecting and Reconnecting are driven by their own steps,
    // which have just received their failure.
    if (m_state == ClientState::ChannelOpen || m_state == ClientState::Connected) {
        if (m_config.autoReconnect && !m_userDisconnect) {
            setState(ClientState::Reconnecting, reason);
            scheduleReconnect();
        } else {
            m_session = Session();
            setState(ClientState::Disconnected, reason);
            failQueued(status::BadServerNotConnected);
        }
    }
}

void ClientCore::connectToServer(const QString& url, ServiceCallback<GetEndpointsResponse> done) {
    if (m_state != ClientState::Disconnected) {
        if (done) done({status::BadInvalidState, {}});
        return;
    }
    const auto parsed = EndpointUrl::parse(url);
    if (!parsed) {
        if (done) done({status::BadTcpEndpointUrlInvalid, {}});
        return;
    }
    m_url = *parsed;
    m_urlText = url.trimmed();
    m_userDisconnect = false;
    m_wantSession = false;
    m_session = Session();
    m_endpoints = {};
    m_endpoint = EndpointDescription();
    m_tokenPolicy = UserTokenPolicy();
    m_tokenSecurity = nullptr;
    m_serverCertificate = Certificate();
    m_channelSecurity = ClientChannelSecurity();  // GetEndpoints runs on a None channel
    m_converter = NodeIdConverter();
    m_backoff.reset();
    m_connectDone = std::move(done);
    m_busyRetries = 0;
    m_busySinceMs = nowMs();
    setState(ClientState::Connecting);
    startConnect();
}

// Discovery (OPC 10000-4 5.4.2 FindServers, 5.4.4 GetEndpoints): both are answered without a
// Session on a SecurityPolicy None channel; nothing is chosen and no certificate is checked (the
// caller shows the endpoints and their certificates).
void ClientCore::discover(const QString& url, DiscoveryCallback done) {
    if (m_state != ClientState::Disconnected) {
        DiscoveryResult r;
        r.status = status::BadInvalidState;
        if (done) done(r);
        return;
    }
    const auto parsed = EndpointUrl::parse(url);
    if (!parsed) {
        DiscoveryResult r;
        r.status = status::BadTcpEndpointUrlInvalid;
        if (done) done(r);
        return;
    }
    m_url = *parsed;
    m_urlText = url.trimmed();
    m_userDisconnect = false;
    m_wantSession = false;
    m_session = Session();
    m_channelSecurity = ClientChannelSecurity();
    setState(ClientState::Connecting);
    auto result = std::make_shared<DiscoveryResult>();
    openConnection([this, result, done](StatusCode opened) {
        if (opened.isBad()) {
            result->findServersStatus = opened;  // not sent
            finishDiscover(result, opened, done);
            return;
        }
        FindServersRequest find;
        find.endpointUrl = String::fromQString(m_urlText);
        find.localeIds = Array<String>::emptyArray();
        find.serverUris = Array<String>::emptyArray();  // every server it knows (5.4.2.2)
        internalCall<FindServersRequest, FindServersResponse>(std::move(find), 0, [this, result, done](const ServiceResult<FindServersResponse>& f) {
            result->findServersStatus = f.status;
            if (f.status.isGood()) result->servers = f.response.servers;
            if (!m_conn || !m_conn->isOpen()) {  // lost (or disconnected) meanwhile: that is the result
                finishDiscover(result, f.status.isBad() ? f.status : StatusCode(status::BadConnectionClosed), done);
                return;
            }
            GetEndpointsRequest get;
            get.endpointUrl = String::fromQString(m_urlText);
            get.localeIds = Array<String>::emptyArray();
            get.profileUris = Array<String>::emptyArray();
            internalCall<GetEndpointsRequest, GetEndpointsResponse>(std::move(get), 0, [this, result, done](const ServiceResult<GetEndpointsResponse>& g) {
                if (g.status.isGood()) result->endpoints = g.response.endpoints;
                finishDiscover(result, g.status, done);
            });
        });
    });
}

void ClientCore::finishDiscover(const std::shared_ptr<DiscoveryResult>& result, StatusCode s, const DiscoveryCallback& done) {
    result->status = s;
    dropConnection(status::BadConnectionClosed, true);  // CloseSecureChannel, then the socket
    setState(ClientState::Disconnected, s);
    if (done) done(*result);
}

void ClientCore::startConnect() {
    openConnection([this](StatusCode s) {
        if (s.isBad()) {
            connectStepFailed({s, {}});
            return;
        }
        GetEndpointsRequest req;
        req.endpointUrl = String::fromQString(m_urlText);
        req.localeIds = Array<String>::emptyArray();
        req.profileUris = Array<String>::emptyArray();
        internalCall<GetEndpointsRequest, GetEndpointsResponse>(std::move(req), 0, [this](const ServiceResult<GetEndpointsResponse>& r) {
            if (r.status.isBad()) connectStepFailed(r);
            else finishConnect(r);
        });
    });
}

void ClientCore::connectStepFailed(const ServiceResult<GetEndpointsResponse>& r) {
    // A server under a connect storm answers ERR Bad_TcpServerTooBusy: back off and try again
    // (docs/Architecture.md, admission control) instead of failing at once.
    if (r.status == status::BadTcpServerTooBusy && mayRetryBusy(m_busyRetries) && !m_userDisconnect) {
        dropConnection(status::BadConnectionClosed, false);
        retryLater(m_busyRetries++, [this] {
            if (m_state == ClientState::Connecting && !m_userDisconnect) startConnect();
        });
        return;
    }
    finishConnect(r);
}

bool ClientCore::mayRetryBusy(int attempts) const {
    if (m_config.busyRetries >= 0 && attempts >= m_config.busyRetries) return false;
    return nowMs() - m_busySinceMs < int64_t(m_config.busyRetryTimeMs);
}

void ClientCore::retryLater(int attempt, std::function<void()> action) {
    const uint32_t delay = ReconnectBackoff::delayMs(m_config.reconnect, attempt, QRandomGenerator::global()->generateDouble());
    qCDebug(lcClient) << "server busy: retry in" << delay << "ms";
    QTimer::singleShot(int(delay), this, std::move(action));
}

void ClientCore::finishConnect(const ServiceResult<GetEndpointsResponse>& r) {
    StatusCode s = r.status;
    if (s.isGood()) {
        m_endpoints = r.response.endpoints;
        s = chooseEndpoint();
    }
    if (s.isGood() && m_channelSecurity.policy != SecurityPolicyId::None) {
        // GetEndpoints ran on a None channel; the Session gets the secure one the endpoint names.
        openSecureChannel(r.response);
        return;
    }
    completeConnect(s, r.response);
}

void ClientCore::openSecureChannel(const GetEndpointsResponse& endpoints) {
    openConnection([this, endpoints](StatusCode opened) {
        // A server under a connect storm refuses the secure channel too (ERR Bad_TcpServerTooBusy):
        // back off and open it again; GetEndpoints need not be asked again.
        if (opened == status::BadTcpServerTooBusy && mayRetryBusy(m_busyRetries) && !m_userDisconnect) {
            dropConnection(status::BadConnectionClosed, false);
            retryLater(m_busyRetries++, [this, endpoints] {
                if (m_state == ClientState::Connecting && !m_userDisconnect) openSecureChannel(endpoints);
            });
            return;
        }
        completeConnect(opened, endpoints);
    });
}

void ClientCore::completeConnect(StatusCode s, const GetEndpointsResponse& response) {
    auto done = std::exchange(m_connectDone, nullptr);
    if (s.isBad()) {
        dropConnection(status::BadConnectionClosed, true);
        setState(ClientState::Disconnected, s);
        failQueued(s);
        if (done) done({s, response});
        return;
    }
    setState(ClientState::ChannelOpen);
    flushQueue();
    if (done) done({status::Good, response});
}

bool ClientCore::openStore() {
    if (m_store) return true;
    if (m_config.pkiDir.isEmpty()) return false;
    auto store = std::make_unique<CertificateStore>(m_config.pkiDir.toStdString());
    CertificateRequest request;
    request.applicationUri = m_config.applicationUri.toStdString();
    request.applicationName = m_config.applicationName.toStdString();
    std::string error;
    if (!store->ensureOwnCertificate(request, &error)) {
        qCWarning(lcClient) << "no application instance certificate in" << m_config.pkiDir << ":" << QString::fromStdString(error);
        return false;
    }
    m_store = std::move(store);
    return true;
}

StatusCode ClientCore::chooseEndpoint() {
    if (!m_config.pkiDir.isEmpty() && !openStore()) return status::BadConfigurationError;
    EndpointWanted wanted;
    wanted.securityPolicyUri = m_config.securityPolicyUri.toStdString();
    wanted.mode = m_config.securityMode;
    wanted.tokenType = tokenTypeOf(m_config.identity.kind);
    wanted.haveCertificate = m_store != nullptr;
    wanted.allowDeprecated = m_config.allowDeprecatedPolicies;
    const EndpointChoice choice = selectEndpoint(m_endpoints, wanted);
    if (choice.status.isBad()) {
        qCInfo(lcClient) << "no endpoint for" << (m_config.securityPolicyUri.isEmpty() ? QStringLiteral("the best policy") : m_config.securityPolicyUri)
                         << "mode" << int(m_config.securityMode) << "token type" << int(wanted.tokenType) << ":"
                         << QString::fromStdString(choice.status.name());
        return choice.status;
    }
    m_endpoint = m_endpoints[choice.endpointIndex];
    m_tokenPolicy = m_endpoint.userIdentityTokens[choice.tokenIndex];
    m_tokenSecurity = choice.tokenPolicy;
    m_serverCertificate = Certificate();
    m_channelSecurity = ClientChannelSecurity();
    publish();

    // The endpoint may name another host (its machine name, "localhost" inside a container, an
    // address behind NAT). We stay on the host and port the user typed.
    const auto advertised = EndpointUrl::parse(m_endpoint.endpointUrl.toQString());
    if (advertised && (advertised->host != m_url.host || advertised->port != m_url.port))
        qCDebug(lcClient) << "the server advertises" << m_endpoint.endpointUrl.toQString() << "; staying on" << m_urlText;

    const bool secureChannel = choice.channelPolicy->id != SecurityPolicyId::None;
    const bool tokenUsesCertificate =
        m_config.identity.kind != UserIdentity::Kind::Anonymous && m_tokenSecurity->id != SecurityPolicyId::None;
    if (!secureChannel && !tokenUsesCertificate) return status::Good;  // 5.4.4: the certificate is ignored then
    // Nothing is held open on the server while the trust callback may wait for a user.
    if (secureChannel) dropConnection(status::BadConnectionClosed, true);
    if (!m_store) {
        qCInfo(lcClient) << "the identity token needs the server certificate validated, but there is no pkiDir";
        return status::BadCertificateUntrusted;
    }
    const StatusCode trusted = validateServerCertificate(m_endpoint, secureChannel ? choice.channelPolicy : m_tokenSecurity);
    if (trusted.isBad()) return trusted;
    m_serverCertificate = Certificate::fromDer(leafCertificateDer(m_endpoint.serverCertificate.view()));
    if (m_serverCertificate.isNull()) return status::BadCertificateInvalid;
    if (secureChannel) {
        m_channelSecurity.policy = choice.channelPolicy->id;
        m_channelSecurity.mode = m_endpoint.securityMode;
        m_channelSecurity.clientCertificateChain = m_store->ownCertificate().der();
        m_channelSecurity.clientKey = m_store->ownPrivateKey();
        m_channelSecurity.serverCertificate = m_serverCertificate;
    }
    return status::Good;
}

StatusCode ClientCore::validateServerCertificate(const EndpointDescription& ep, const SecurityPolicy* policy) {
    if (!m_store) return status::BadCertificateUntrusted;
    ServerCertificateExpectations expected;
    expected.applicationUri = ep.server.applicationUri.str();
    expected.hostName = m_url.host;
    expected.policy = policy;
    const StatusCode trusted = checkServerCertificate(*m_store, ep.serverCertificate.view(), expected, m_config.trustCallback);
    if (trusted.isBad()) qCInfo(lcClient) << "server certificate not accepted:" << QString::fromStdString(trusted.name());
    return trusted;
}

void ClientCore::disconnectFromServer(StatusCallback done) {
    m_userDisconnect = true;
    m_wantSession = false;
    m_reconnectTimer->stop();
    if (m_state == ClientState::Disconnected) {
        if (done) done(status::Good);
        return;
    }
    auto finish = [this, done](StatusCode s) {
        auto openDone = std::exchange(m_openDone, nullptr);
        dropConnection(status::BadConnectionClosed, true);  // CloseSecureChannel, then the socket
        if (openDone) openDone(status::BadDisconnect);         // a connect in progress ends here
        if (m_connectDone) finishConnect({status::BadDisconnect, {}});  // e.g. waiting to retry a busy server
        m_session = Session();
        setState(ClientState::Disconnected, status::Good);
        failQueued(status::BadServerNotConnected);
        if (done) done(s);
    };
    if (m_session.activated && m_conn && m_conn->isOpen() && m_state == ClientState::Connected) {
        CloseSessionRequest req;
        req.deleteSubscriptions = true;
        internalCall<CloseSessionRequest, CloseSessionResponse>(std::move(req), 0, [finish](const ServiceResult<CloseSessionResponse>& r) {
            finish(r.status);
        });
        return;
    }
    finish(status::Good);
}

void ClientCore::shutdown() {
    m_userDisconnect = true;
    m_reconnectTimer->stop();
    m_keepAliveTimer->stop();
    auto openDone = std::exchange(m_openDone, nullptr);
    dropConnection(status::BadShutdown, true);
    if (openDone) openDone(status::BadShutdown);
    failQueued(status::BadShutdown);
    std::vector<std::pair<uint32_t, uint32_t>> rest;  // (issued, handle)
    m_pending.forEach([&](uint32_t h, const Pending& p) { rest.emplace_back(p.issued - m_nextIssued, h); });
    std::sort(rest.begin(), rest.end());
    for (const auto& [issued, h] : rest) complete(h, status::BadShutdown);
    m_session = Session();
    m_state = ClientState::Disconnected;
    m_publicState.store(m_state, std::memory_order_release);
    publish();
}

// ---------------------------------------------------------------------------------------------
// Session (OPC 10000-4 5.6)

void ClientCore::createSession(ServiceCallback<CreateSessionResponse> done) {
    if (m_state != ClientState::ChannelOpen || m_activating || !m_conn) {
        if (done) done({m_state == ClientState::Connected ? status::BadInvalidState : status::BadServerNotConnected, {}});
        return;
    }
    m_activating = true;
    m_busyRetries = 0;
    m_busySinceMs = nowMs();
    tryCreateSession(std::move(done));
}

void ClientCore::tryCreateSession(ServiceCallback<CreateSessionResponse> done) {
    createAndActivate([this, done](const ServiceResult<CreateSessionResponse>& r) {
        // Bad_ServerTooBusy: the server refuses Sessions for now (admission control); back off.
        if (r.status == status::BadServerTooBusy && mayRetryBusy(m_busyRetries) && m_conn && !m_userDisconnect) {
            const uint64_t gen = m_connGeneration;
            retryLater(m_busyRetries++, [this, gen, done] {
                if (gen == m_connGeneration && m_conn) {
                    tryCreateSession(done);
                } else {
                    m_activating = false;
                    if (done) done({status::BadConnectionClosed, {}});
                }
            });
            return;
        }
        m_activating = false;
        if (r.status.isGood()) {
            m_wantSession = true;
            setState(ClientState::Connected);
        }
        if (m_conn) flushQueue();  // else the reconnect keeps them waiting
        if (done) done(r);
    });
}

void ClientCore::createAndActivate(ServiceCallback<CreateSessionResponse> done) {
    CreateSessionRequest req;
    req.clientDescription.applicationUri = String::fromQString(m_config.applicationUri);
    req.clientDescription.productUri = String::fromQString(m_config.productUri);
    req.clientDescription.applicationName = LocalizedText{String("en"), String::fromQString(m_config.applicationName)};
    req.clientDescription.applicationType = ApplicationType::Client;
    req.clientDescription.discoveryUrls = Array<String>::emptyArray();
    req.endpointUrl = String::fromQString(m_urlText);
    req.sessionName = String::fromQString(m_config.sessionName);
    req.clientNonce = randomNonce();
    // 5.6.2: our certificate (chain) on a secure channel only; with None none is sent or checked.
    req.clientCertificate = m_channelSecurity.policy != SecurityPolicyId::None ? ByteString(m_channelSecurity.clientCertificateChain)
                                                                                 : ByteString();
    const ByteString clientNonce = req.clientNonce;
    req.requestedSessionTimeout = m_config.requestedSessionTimeoutMs;
    req.maxResponseMessageSize = m_config.transport.maxMessageSize;
    m_session = Session();
    // The caller hears Bad_Timeout after requestTimeoutMs as for any request, but the request stays
    // pending a while longer (kLateCreateFactor): a Session whose answer comes after we gave up is
    // closed at once instead of waiting on the server for its activation time limit.
    struct Attempt {
        bool gaveUp = false;
        bool answered = false;
    };
    auto attempt = std::make_shared<Attempt>();
    const uint64_t gen = m_connGeneration;
    const uint32_t timeoutMs = m_config.requestTimeoutMs;
    QTimer::singleShot(int(std::min<uint32_t>(timeoutMs, 0x7FFFFFFF)), this, [this, attempt, gen, done] {
        if (attempt->answered || gen != m_connGeneration) return;
        attempt->gaveUp = true;
        if (done) done({status::BadTimeout, {}});
    });
    const uint32_t lateTimeoutMs = uint32_t(std::min<uint64_t>(uint64_t(timeoutMs) * kLateCreateFactor, 0x7FFFFFFF));
    internalCall<CreateSessionRequest, CreateSessionResponse>(std::move(req), lateTimeoutMs, [this, done, clientNonce, attempt](const ServiceResult<CreateSessionResponse>& r) {
        if (attempt->gaveUp) {
            if (r.status.isGood()) {
                qCInfo(lcClient) << "CreateSession answered after" << m_config.requestTimeoutMs << "ms: closing that Session";
                abandonSession(r.response.authenticationToken);
            }
            return;
        }
        attempt->answered = true;
        if (r.status.isBad()) {
            if (done) done(r);
            return;
        }
        m_session.sessionId = r.response.sessionId;
        m_session.authenticationToken = r.response.authenticationToken;
        m_session.revisedTimeoutMs = r.response.revisedSessionTimeout;
        const StatusCode checked = checkCreateSession(clientNonce, r.response);
        if (checked.isBad()) {
            // 5.6.2: the client closes the Session and reports the error.
            qCWarning(lcClient) << "CreateSession response refused:" << QString::fromStdString(checked.name());
            CloseSessionRequest close;
            close.deleteSubscriptions = true;
            internalCall<CloseSessionRequest, CloseSessionResponse>(std::move(close), 0, {});
            m_session = Session();
            ServiceResult<CreateSessionResponse> out = r;
            out.status = checked;
            if (done) done(out);
            return;
        }
        if (m_conn) m_conn->channel().setMaxRequestMessageSize(r.response.maxRequestMessageSize);
        activateCreated(r, 0, done);
    });
}

void ClientCore::activateCreated(const ServiceResult<CreateSessionResponse>& created, int busyAttempts,
                                 ServiceCallback<CreateSessionResponse> done) {
    activate([this, done, created, busyAttempts](StatusCode s) {
        // Bad_ServerTooBusy: the same Session is activated again after a back-off (a new
        // CreateSession would leave this one behind on the server until it expires).
        if (s == status::BadServerTooBusy && mayRetryBusy(busyAttempts) && m_conn && !m_userDisconnect) {
            const uint64_t gen = m_connGeneration;
            retryLater(busyAttempts, [this, gen, created, busyAttempts, done] {
                if (gen == m_connGeneration && m_conn) {
                    activateCreated(created, busyAttempts + 1, done);
                } else {
                    m_session = Session();
                    ServiceResult<CreateSessionResponse> out = created;
                    out.status = status::BadConnectionClosed;
                    if (done) done(out);
                }
            });
            return;
        }
        ServiceResult<CreateSessionResponse> out = created;
        out.status = s;
        if (s.isBad()) {
            // The Session was created and will not be used: an ActivateSession that timed out may
            // still activate it on the server, and a refused one leaves it there until its activation
            // time limit. Close it on its channel (requests are served in order there).
            abandonSession(created.response.authenticationToken);
            m_session = Session();
        }
        if (done) done(out);
    });
}

void ClientCore::abandonSession(const NodeId& authenticationToken) {
    if (!m_conn || !m_conn->isOpen() || authenticationToken.isNull()) return;
    CloseSessionRequest close;
    close.deleteSubscriptions = true;
    uint32_t handle = 0;
    Pending* added = addPending(0, true, handle);  // nobody waits for the answer
    if (!added) return;
    Pending& p = *added;
    HeaderFields h = headerFields(handle, p);
    // The token is this Session's, not m_session's (which may be another attempt's by now).
    h.authenticationToken = &authenticationToken;
    fillHeader(close.requestHeader, h);
    const uint32_t requestId = m_conn->nextRequestId();
    sent(handle, p, requestId, m_conn->send(requestId, close));
}

StatusCode ClientCore::checkCreateSession(const ByteString& clientNonce, const CreateSessionResponse& r) {
    m_session.serverNonce = r.serverNonce;
    m_session.serverCertificate = leafCertificateDer(r.serverCertificate.view());
    if (m_channelSecurity.policy != SecurityPolicyId::None) {
        if (r.serverNonce.size() < 32) return status::BadNonceInvalid;
        // The certificate of the Session must be the one of the endpoint and the SecureChannel.
        if (m_session.serverCertificate != m_serverCertificate.der()) return status::BadSecurityChecksFailed;
        const StatusCode s = verifyServerSignature(securityPolicy(m_channelSecurity.policy), m_serverCertificate,
                                                   m_channelSecurity.clientCertificateChain, clientNonce, r.serverSignature);
        if (s.isBad()) return s;
        // Downgrade guard (5.6.2 serverEndpoints): the authenticated list must be the one GetEndpoints
        // gave over the unprotected None channel. On a None channel the response is no more
        // trustworthy than GetEndpoints, so the comparison would prove nothing there.
        return compareEndpoints(m_endpoints, r.serverEndpoints);
    }
    return status::Good;
}

void ClientCore::activate(StatusCallback done) {
    ActivateSessionRequest req;
    req.clientSoftwareCertificates = Array<SignedSoftwareCertificate>::emptyArray();
    req.localeIds = Array<String>::emptyArray();
    // 5.6.3: clientSignature over the server's certificate and the last serverNonce, on a secure channel.
    if (m_channelSecurity.policy != SecurityPolicyId::None) {
        const StatusCode s = makeSignature(securityPolicy(m_channelSecurity.policy), m_channelSecurity.clientKey,
                                           m_session.serverCertificate, m_session.serverNonce, req.clientSignature);
        if (s.isBad()) {
            if (done) done(s);
            return;
        }
    }
    UserTokenPolicy tokenPolicy = m_tokenPolicy;
    if (tokenPolicy.policyId.isNull()) tokenPolicy.policyId = String("anonymous");
    const SecurityPolicy& tokenSecurity = m_tokenSecurity ? *m_tokenSecurity : securityPolicy(SecurityPolicyId::None);
    const Certificate serverCertificate =
        m_serverCertificate.isNull() ? Certificate::fromDer(m_session.serverCertificate) : m_serverCertificate;
    const StatusCode made = makeIdentityToken(m_config.identity, tokenPolicy, tokenSecurity, serverCertificate, m_session.serverNonce,
                                              req.userIdentityToken, req.userTokenSignature);
    if (made.isBad()) {
        if (done) done(made);
        return;
    }
    internalCall<ActivateSessionRequest, ActivateSessionResponse>(std::move(req), 0, [this, done](const ServiceResult<ActivateSessionResponse>& r) {
        if (r.status.isBad()) {
            if (done) done(r.status);
            return;
        }
        // The next ActivateSession (a reconnect) signs this nonce (5.6.3).
        m_session.serverNonce = r.response.serverNonce;
        m_session.activated = true;
        // NamespaceArray indexes may change whenever the server restarts: read it on every activation.
        readNamespaceArray([done](StatusCode) {
            if (done) done(status::Good);
        });
    });
}

void ClientCore::readNamespaceArray(StatusCallback done) {
    internalCall<ReadRequest, ReadResponse>(readValueRequest(id::Server_NamespaceArray), 0, [this, done](const ServiceResult<ReadResponse>& r) {
        StatusCode s = r.status;
        if (s.isGood()) {
            const Array<String>* uris = nullptr;
            if (r.response.results.size() == 1) uris = r.response.results[0].value.get<Array<String>>();
            if (uris) {
                m_converter = NodeIdConverter(std::vector<String>(uris->begin(), uris->end()));
                publish();
            } else {
                s = status::BadUnknownResponse;
            }
        }
        if (s.isBad()) qCInfo(lcClient) << "NamespaceArray not read:" << QString::fromStdString(s.name());
        if (done) done(s);
    });
}

void ClientCore::closeSession(ServiceCallback<CloseSessionResponse> done) {
    if (m_state != ClientState::Connected || !m_session.activated) {
        if (done) done({status::BadSessionIdInvalid, {}});
        return;
    }
    CloseSessionRequest req;
    req.deleteSubscriptions = true;
    m_wantSession = false;
    internalCall<CloseSessionRequest, CloseSessionResponse>(std::move(req), 0, [this, done](const ServiceResult<CloseSessionResponse>& r) {
        m_session = Session();
        if (m_state == ClientState::Connected) setState(ClientState::ChannelOpen);
        if (done) done(r);
    });
}

// ---------------------------------------------------------------------------------------------
// Keep-alive and reconnect

void ClientCore::onKeepAlive() {
    if (m_keepAliveInFlight || !m_conn || m_state != ClientState::Connected) return;
    m_keepAliveInFlight = true;
    const uint64_t gen = m_connGeneration;
    internalCall<ReadRequest, ReadResponse>(readValueRequest(id::Server_ServerStatus_State), m_config.keepAliveTimeoutMs,
                                            [this, gen](const ServiceResult<ReadResponse>& r) {
        m_keepAliveInFlight = false;
        if (gen != m_connGeneration) return;  // that connection is gone already
        if (r.status == status::BadTimeout) {
            // No answer: the connection is dead even if TCP has not noticed yet.
            connectionLost(status::BadTimeout, status::BadConnectionClosed);
            return;
        }
        // Any answer (even a ServiceFault) shows the connection is alive.
        if (r.status.isGood() && r.response.results.size() == 1) {
            const DataValue& v = r.response.results[0];
            if (const int32_t* st = v.value.get<int32_t>()) {
                const auto state = ServerState(*st);
                if (state != m_serverState) {
                    m_serverState = state;
                    publish();
                    emit serverStateChanged(state);
                }
            }
        }
    });
}

void ClientCore::scheduleReconnect() {
    if (m_userDisconnect || m_state != ClientState::Reconnecting) return;
    if (m_backoff.exhausted()) {
        m_session = Session();
        setState(ClientState::Disconnected, m_lostReason);
        failQueued(status::BadServerNotConnected);
        return;
    }
    const uint32_t delay = m_backoff.nextDelayMs();
    qCDebug(lcClient) << "reconnect attempt" << m_backoff.attempts() << "in" << delay << "ms";
    m_reconnectTimer->start(int(delay));
}

void ClientCore::reconnectFailed() {
    dropConnection(status::BadConnectionClosed, false);
    scheduleReconnect();
}

void ClientCore::attemptReconnect() {
    if (m_state != ClientState::Reconnecting || m_userDisconnect) return;
    if (m_serverCertificate.isNull()) {  // nothing of the server's certificate is used
        reopenAndActivate();
        return;
    }
    // The server may be back with another certificate (reinstalled, renewed): a SecureChannel
    // encrypted for the old one cannot be opened, so the endpoints are fetched first (issue 27
    // item 2). A new certificate is validated like the first one; one the user (or the trust list)
    // does not accept ends the reconnect: Disconnected with that status, never connected silently.
    rediscover([this](StatusCode s, bool refused) {
        if (m_state != ClientState::Reconnecting || m_userDisconnect) return;
        if (s.isGood()) {
            reopenAndActivate();
            return;
        }
        if (refused) {
            qCInfo(lcClient) << "reconnect given up: the server's new certificate was not accepted:" << QString::fromStdString(s.name());
            m_reconnectTimer->stop();
            m_session = Session();
            setState(ClientState::Disconnected, s);
            failQueued(status::BadServerNotConnected);
            return;
        }
        if (s != status::BadDisconnect) scheduleReconnect();
    });
}

void ClientCore::rediscover(std::function<void(StatusCode, bool)> done) {
    openConnection(ClientChannelSecurity(), [this, done](StatusCode opened) {
        if (opened.isBad()) {
            done(opened, false);
            return;
        }
        GetEndpointsRequest req;
        req.endpointUrl = String::fromQString(m_urlText);
        req.localeIds = Array<String>::emptyArray();
        req.profileUris = Array<String>::emptyArray();
        internalCall<GetEndpointsRequest, GetEndpointsResponse>(std::move(req), 0, [this, done](const ServiceResult<GetEndpointsResponse>& r) {
            // Nothing is held open on the server while the trust callback may wait for a user.
            dropConnection(status::BadConnectionClosed, true);
            if (r.status.isBad()) {
                done(r.status, false);
                return;
            }
            if (m_state != ClientState::Reconnecting || m_userDisconnect) {
                done(status::BadDisconnect, false);
                return;
            }
            bool refused = false;
            const StatusCode s = adoptEndpoints(r.response.endpoints, &refused);
            done(s, refused);
        });
    });
}

StatusCode ClientCore::adoptEndpoints(const Array<EndpointDescription>& endpoints, bool* refused) {
    // OPC 10000-4 6.7: a reconnect uses the same security policy (and mode) as before.
    EndpointWanted wanted;
    wanted.securityPolicyUri = m_endpoint.securityPolicyUri.str();
    wanted.mode = m_endpoint.securityMode;
    wanted.tokenType = tokenTypeOf(m_config.identity.kind);
    wanted.haveCertificate = m_store != nullptr;
    wanted.allowDeprecated = m_config.allowDeprecatedPolicies;
    const EndpointChoice choice = selectEndpoint(endpoints, wanted);
    if (choice.status.isBad()) {
        qCInfo(lcClient) << "reconnect: the server no longer offers the endpoint:" << QString::fromStdString(choice.status.name());
        return choice.status;
    }
    const EndpointDescription& ep = endpoints[choice.endpointIndex];
    const std::string leaf = leafCertificateDer(ep.serverCertificate.view());
    const bool secureChannel = choice.channelPolicy->id != SecurityPolicyId::None;
    if (leaf != m_serverCertificate.der()) {
        qCInfo(lcClient) << "reconnect: the server's certificate changed; validating the new one";
        const StatusCode trusted = validateServerCertificate(ep, secureChannel ? choice.channelPolicy : choice.tokenPolicy);
        const Certificate certificate = trusted.isGood() ? Certificate::fromDer(leaf) : Certificate();
        if (trusted.isBad() || certificate.isNull()) {
            *refused = true;
            return trusted.isBad() ? trusted : StatusCode(status::BadCertificateInvalid);
        }
        m_serverCertificate = certificate;
        m_session.serverCertificate = leaf;  // what ActivateSession's clientSignature covers
        if (secureChannel) m_channelSecurity.serverCertificate = certificate;
    }
    m_endpoints = endpoints;
    m_endpoint = ep;
    m_tokenPolicy = ep.userIdentityTokens[choice.tokenIndex];
    m_tokenSecurity = choice.tokenPolicy;
    publish();
    return status::Good;
}

void ClientCore::reopenAndActivate() {
    openConnection([this](StatusCode s) {
        if (s.isBad()) {
            if (s != status::BadDisconnect) scheduleReconnect();
            return;
        }
        if (!m_wantSession) {  // only a SecureChannel was open before
            finishReconnect(false);
            return;
        }
        if (!m_session.activated) {  // an earlier attempt lost the Session: make a new one
            createAndActivate([this](const ServiceResult<CreateSessionResponse>& r) {
                if (r.status.isGood()) finishReconnect(true);
                else reconnectFailed();
            });
            return;
        }
        // OPC 10000-4 5.6.3: the same Session moves to the new SecureChannel with ActivateSession.
        activate([this](StatusCode s) {
            if (s.isGood()) {
                finishReconnect(false);
                return;
            }
            if (!m_conn || !sessionIsGone(s)) {
                reconnectFailed();
                return;
            }
            qCInfo(lcClient) << "the Session is gone (" << QString::fromStdString(s.name()) << "): creating a new one";
            createAndActivate([this](const ServiceResult<CreateSessionResponse>& r) {
                if (r.status.isGood()) finishReconnect(true);
                else reconnectFailed();
            });
        });
    });
}

void ClientCore::finishReconnect(bool recreated) {
    m_backoff.reset();
    ++m_reconnectCount;
    setState(m_session.activated ? ClientState::Connected : ClientState::ChannelOpen, status::Good);
    flushQueue();
    if (recreated) emit sessionRecreated(m_session.sessionId);
}

// ---------------------------------------------------------------------------------------------
// Browse with ContinuationPoints (OPC 10000-4 5.8.2, 5.8.3)

struct ClientCore::BrowseJob {
    BrowseOptions options;
    uint32_t timeoutMs = 0;
    ServiceResult<BrowseResponse> result;
    ServiceCallback<BrowseResponse> done;
};

void ClientCore::browse(BrowseRequest request, BrowseOptions options, uint32_t timeoutMs, ServiceCallback<BrowseResponse> done) {
    auto job = std::make_shared<BrowseJob>();
    job->options = options;
    job->timeoutMs = timeoutMs;
    job->done = std::move(done);
    call<BrowseRequest, BrowseResponse>(std::move(request), timeoutMs, [this, job](const ServiceResult<BrowseResponse>& r) {
        job->result = r;
        if (r.status.isBad()) {
            if (job->done) job->done(job->result);
            return;
        }
        continueBrowse(job);
    });
}

void ClientCore::continueBrowse(const std::shared_ptr<BrowseJob>& job) {
    auto& results = job->result.response.results;
    std::vector<std::size_t> next;
    BrowseNextRequest more, release;
    more.releaseContinuationPoints = false;
    release.releaseContinuationPoints = true;
    more.continuationPoints = Array<ByteString>::emptyArray();
    release.continuationPoints = Array<ByteString>::emptyArray();
    for (std::size_t i = 0; i < results.size(); ++i) {
        BrowseResult& br = results[i];
        if (br.continuationPoint.isEmpty()) continue;
        const bool enough = job->options.maxReferencesPerNode && br.references.size() >= job->options.maxReferencesPerNode;
        if (enough) {
            release.continuationPoints.push_back(br.continuationPoint);
            br.continuationPoint = ByteString();
        } else {
            more.continuationPoints.push_back(br.continuationPoint);
            next.push_back(i);
        }
    }
    if (!release.continuationPoints.empty())  // free the server's resources; the answer is of no interest
        call<BrowseNextRequest, BrowseNextResponse>(std::move(release), job->timeoutMs, {});
    if (next.empty()) {
        if (job->done) job->done(job->result);
        return;
    }
    const Array<ByteString> sent = more.continuationPoints;
    call<BrowseNextRequest, BrowseNextResponse>(std::move(more), job->timeoutMs, [this, job, next, sent](const ServiceResult<BrowseNextResponse>& r) {
        job->result.receivedAtNs = r.receivedAtNs;  // the arrival of the last response the result is made of
        auto& results = job->result.response.results;
        const bool usable = r.status.isGood() && r.response.results.size() == next.size();
        if (!usable) {
            // The nodes still open end with the failure; their ContinuationPoints are released.
            const StatusCode failure = r.status.isBad() ? r.status : status::BadUnknownResponse;
            for (std::size_t i : next) {
                results[i].statusCode = failure;
                results[i].continuationPoint = ByteString();
            }
            if (r.status != status::BadServerNotConnected && r.status != status::BadConnectionClosed) {
                BrowseNextRequest release;
                release.releaseContinuationPoints = true;
                release.continuationPoints = sent;
                call<BrowseNextRequest, BrowseNextResponse>(std::move(release), job->timeoutMs, {});
            }
            if (job->done) job->done(job->result);
            return;
        }
        for (std::size_t k = 0; k < next.size(); ++k) {
            BrowseResult& dst = results[next[k]];
            const BrowseResult& src = r.response.results[k];
            dst.statusCode = src.statusCode;
            for (const auto& ref : src.references) dst.references.push_back(ref);
            dst.continuationPoint = src.statusCode.isBad() ? ByteString() : src.continuationPoint;
        }
        continueBrowse(job);
    });
}

} // namespace ua
