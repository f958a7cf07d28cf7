// ClientCore: the connection, connect and discovery (OPC 10000-4 5.4), the choice of endpoint and
// the trust of the server's certificate (also again before a reconnect), disconnect.
#include "ua/client/core/ClientCore.h"

#include "ua/client/discovery/EndpointSelection.h"
#include "ua/client/discovery/ServerTrust.h"
#include "ua/client/session/SessionSecurity.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/SecurityPolicy.h"

#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTimer>

Q_DECLARE_LOGGING_CATEGORY(lcClient)

namespace ua {

namespace {

UserTokenType tokenTypeOf(UserIdentity::Kind k) {
    switch (k) {
    case UserIdentity::Kind::Anonymous: return UserTokenType::Anonymous;
    case UserIdentity::Kind::UserName: return UserTokenType::UserName;
    case UserIdentity::Kind::Certificate: return UserTokenType::Certificate;
    }
    return UserTokenType::Anonymous;
}

// What the endpoint choice asks for: the configured token type and what we have and allow, with
// the policy and mode (empty, Invalid: the best available) of a first connect or of a reconnect.
EndpointWanted wantedEndpoint(const ClientConfig& config, bool haveCertificate, std::string securityPolicyUri,
                              MessageSecurityMode mode) {
    EndpointWanted wanted;
    wanted.securityPolicyUri = std::move(securityPolicyUri);
    wanted.mode = mode;
    wanted.tokenType = tokenTypeOf(config.identity.kind);
    wanted.haveCertificate = haveCertificate;
    wanted.allowDeprecated = config.allowDeprecatedPolicies;
    return wanted;
}

} // namespace

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
        if (gen == m_connGeneration) m_calls.onResponse(requestId, local, typeId, body, size, m_conn ? m_conn->receivedAtNs() : 0);
    };
    h.closed = [this, gen](StatusCode reason) {
        if (gen == m_connGeneration) connectionLost(reason, reason);
    };
    m_conn = new ClientConnection(m_config, std::move(h), security, this);
    m_openDone = std::move(done);
    if (m_config.reverseListener) m_conn->openReverse(*m_config.reverseListener, m_urlText, m_config.reverseServerUri);
    else m_conn->open(m_url.host, m_url.port, m_urlText);
}

void ClientCore::dropConnection(StatusCode forPending, bool sendClose) {
    if (!m_conn) return;
    ++m_connGeneration;
    ClientConnection* c = std::exchange(m_conn, nullptr);
    if (sendClose) c->close();
    else c->abort();
    c->deleteLater();
    m_calls.failSent(forPending);
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
            m_calls.failQueued(status::BadServerNotConnected);
        }
    }
}

StatusCode ClientCore::beginWithUrl(const QString& url) {
    if (m_state != ClientState::Disconnected) return status::BadInvalidState;
    const auto parsed = EndpointUrl::parse(url);
    if (!parsed) return status::BadTcpEndpointUrlInvalid;
    m_url = *parsed;
    m_urlText = url.trimmed();
    m_userDisconnect = false;
    m_wantSession = false;
    m_session = Session();
    m_channelSecurity = ClientChannelSecurity();  // GetEndpoints runs on a None channel
    return status::Good;
}

void ClientCore::connectToServer(const QString& url, ServiceCallback<GetEndpointsResponse> done) {
    const StatusCode begun = beginWithUrl(url);
    if (begun.isBad()) {
        if (done) done({begun, {}});
        return;
    }
    m_endpoints = {};
    m_endpoint = EndpointDescription();
    m_tokenPolicy = UserTokenPolicy();
    m_tokenSecurity = nullptr;
    m_serverCertificate = Certificate();
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
    const StatusCode begun = beginWithUrl(url);
    if (begun.isBad()) {
        DiscoveryResult r;
        r.status = begun;
        if (done) done(r);
        return;
    }
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
        // The secure channel's reverse connection must come from the server chosen above too.
        if (opened.isGood() && m_conn && !m_conn->reverseServerUri().isEmpty() &&
            m_conn->reverseServerUri() != m_endpoint.server.applicationUri.toQString()) {
            qCWarning(lcClient) << "the ReverseHello of the secure connection named ServerUri" << m_conn->reverseServerUri()
                                << "instead of" << m_endpoint.server.applicationUri.toQString() << ": refused";
            opened = status::BadCertificateUriInvalid;
        }
        completeConnect(opened, endpoints);
    });
}

void ClientCore::completeConnect(StatusCode s, const GetEndpointsResponse& response) {
    auto done = std::exchange(m_connectDone, nullptr);
    if (s.isBad()) {
        dropConnection(status::BadConnectionClosed, true);
        setState(ClientState::Disconnected, s);
        m_calls.failQueued(s);
        if (done) done({s, response});
        return;
    }
    setState(ClientState::ChannelOpen);
    flushQueue();
    if (done) done({status::Good, response});
}

namespace {
// Our application instance certificate of a key type, as the configuration names the application.
CertificateRequest ownCertificateRequest(const ClientConfig& config, KeyType type) {
    CertificateRequest request;
    request.applicationUri = config.applicationUri.toStdString();
    request.applicationName = config.applicationName.toStdString();
    request.keyType = type;
    return request;
}
} // namespace

bool ClientCore::openStore() {
    if (m_store) return true;
    if (m_config.pkiDir.isEmpty()) return false;
    auto store = std::make_unique<CertificateStore>(m_config.pkiDir.toStdString());
    std::string error;
    if (!store->ensureOwnCertificate(ownCertificateRequest(m_config, KeyType::Rsa), &error)) {
        qCWarning(lcClient) << "no application instance certificate in" << m_config.pkiDir << ":" << QString::fromStdString(error);
        return false;
    }
    m_store = std::move(store);
    return true;
}

StatusCode ClientCore::chooseEndpoint() {
    if (!m_config.pkiDir.isEmpty() && !openStore()) return status::BadConfigurationError;
    const EndpointWanted wanted =
        wantedEndpoint(m_config, m_store != nullptr, m_config.securityPolicyUri.toStdString(), m_config.securityMode);
    const EndpointChoice choice = selectEndpoint(m_endpoints, wanted);
    if (choice.status.isBad()) {
        qCInfo(lcClient) << "no endpoint for" << (m_config.securityPolicyUri.isEmpty() ? QStringLiteral("the best policy") : m_config.securityPolicyUri)
                         << "mode" << int(m_config.securityMode) << "token type" << int(wanted.tokenType) << ":"
                         << QString::fromStdString(choice.status.name());
        return choice.status;
    }
    // OPC 10000-6 7.1.3: the ServerUri a ReverseHello named is only a routing hint until the server
    // proves who it is; the endpoint's ApplicationUri (which the certificate check below ties to the
    // certificate) must be it, or a relay in between announced a server it is not.
    const QString reverseServerUri = m_conn ? m_conn->reverseServerUri() : QString();
    const String applicationUri = m_endpoints[choice.endpointIndex].server.applicationUri;
    if (!reverseServerUri.isEmpty() && applicationUri.toQString() != reverseServerUri) {
        qCWarning(lcClient) << "the ReverseHello named ServerUri" << reverseServerUri << "but the server's ApplicationUri is"
                            << applicationUri.toQString() << ": refused";
        return status::BadCertificateUriInvalid;
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
        // An ECC policy needs our ECC certificate of its curve (OPC 10000-6 6.8.1), made on first use
        // beside the RSA one.
        const KeyType keyType = crypto::certificateKeyType(*choice.channelPolicy);
        if (m_store->ownCertificate(keyType).isNull()) {
            std::string error;
            if (!m_store->ensureOwnCertificate(ownCertificateRequest(m_config, keyType), &error)) {
                qCWarning(lcClient) << "no application instance certificate for" << QString::fromLatin1(choice.channelPolicy->uri.data())
                                    << ":" << QString::fromStdString(error);
                return status::BadConfigurationError;
            }
        }
        m_channelSecurity.policy = choice.channelPolicy->id;
        m_channelSecurity.mode = m_endpoint.securityMode;
        m_channelSecurity.clientCertificateChain = m_store->ownCertificate(keyType).der();
        m_channelSecurity.clientKey = m_store->ownPrivateKey(keyType);
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
        m_calls.failQueued(status::BadServerNotConnected);
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
    const EndpointChoice choice =
        selectEndpoint(endpoints, wantedEndpoint(m_config, m_store != nullptr, m_endpoint.securityPolicyUri.str(), m_endpoint.securityMode));
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

} // namespace ua
