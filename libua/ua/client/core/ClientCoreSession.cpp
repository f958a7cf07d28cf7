// ClientCore: the Session (OPC 10000-4 5.6: CreateSession, ActivateSession, CloseSession), the
// keep-alive and the reconnect (a new SecureChannel, the Session moved to it or created again).
#include "ua/client/core/ClientCore.h"

#include "ua/client/discovery/EndpointSelection.h"
#include "ua/client/session/SessionSecurity.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccSessionKeys.h"
#include "ua/secure/SecurityPolicy.h"

#include <QLoggingCategory>
#include <QTimer>
#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcClient)

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
    if (wantsUserTokenKey()) req.requestHeader.additionalHeader = ecdhKeyRequest(m_tokenSecurity->uri);
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
    PendingCalls::Call* added = m_calls.add(0, true, handle);  // nobody waits for the answer
    if (!added) return;
    PendingCalls::Call& p = *added;
    // The token is this Session's, not m_session's (which may be another attempt's by now).
    PendingCalls::fillHeader(close.requestHeader, PendingCalls::headerFields(authenticationToken, handle, p));
    const uint32_t requestId = m_conn->nextRequestId();
    m_calls.sent(handle, p, requestId, m_conn->send(requestId, close));
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
        if (wantsUserTokenKey()) {
            takeUserTokenKey(r.responseHeader);
            // A key the server's certificate did not sign is forged: refuse the Session.
            if (m_session.userTokenKeyStatus == StatusCode(status::BadSecurityChecksFailed)) return status::BadSecurityChecksFailed;
        }
        // Downgrade guard (5.6.2 serverEndpoints): the authenticated list must be the one GetEndpoints
        // gave over the unprotected None channel. On a None channel the response is no more
        // trustworthy than GetEndpoints, so the comparison would prove nothing there.
        return compareEndpoints(m_endpoints, r.serverEndpoints);
    }
    return status::Good;
}

bool ClientCore::wantsUserTokenKey() const {
    return m_tokenSecurity && m_tokenSecurity->isEcc() && m_config.identity.kind == UserIdentity::Kind::UserName;
}

void ClientCore::takeUserTokenKey(const ResponseHeader& header) {
    const Certificate serverCertificate =
        m_serverCertificate.isNull() ? Certificate::fromDer(m_session.serverCertificate) : m_serverCertificate;
    m_session.userTokenKeyStatus = acceptUserTokenKey(*m_tokenSecurity, serverCertificate, header.additionalHeader, m_session.userTokenKey);
    if (m_session.userTokenKeyStatus.isBad())
        qCWarning(lcClient) << "no EphemeralKey for the user token:" << QString::fromStdString(m_session.userTokenKeyStatus.name());
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
    const EccTokenKeys ecc{m_session.userTokenKey, m_session.userTokenKeyStatus, &m_channelSecurity.clientKey};
    const StatusCode made = makeIdentityToken(m_config.identity, tokenPolicy, tokenSecurity, serverCertificate, m_session.serverNonce,
                                              req.userIdentityToken, req.userTokenSignature, ecc);
    if (made.isBad()) {
        if (done) done(made);
        return;
    }
    // A new EphemeralKey for the next activation (a reconnect): each is used once.
    if (wantsUserTokenKey()) req.requestHeader.additionalHeader = ecdhKeyRequest(m_tokenSecurity->uri);
    internalCall<ActivateSessionRequest, ActivateSessionResponse>(std::move(req), 0, [this, done](const ServiceResult<ActivateSessionResponse>& r) {
        if (r.status.isBad()) {
            if (done) done(r.status);
            return;
        }
        // The next ActivateSession (a reconnect) signs this nonce (5.6.3).
        m_session.serverNonce = r.response.serverNonce;
        if (wantsUserTokenKey()) takeUserTokenKey(r.response.responseHeader);
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
        m_calls.failQueued(status::BadServerNotConnected);
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
            m_calls.failQueued(status::BadServerNotConnected);
            return;
        }
        if (s != status::BadDisconnect) scheduleReconnect();
    });
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

} // namespace ua
