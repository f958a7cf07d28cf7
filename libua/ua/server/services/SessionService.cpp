#include "ua/server/services/SessionService.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccSessionKeys.h"
#include "ua/secure/ServerSecureChannel.h"
#include "ua/server/common/OnScopeExit.h"
#include "ua/server/common/SessionManager.h"
#include "ua/server/users/AuditLog.h"
#include "ua/server/services/CertificateSignatures.h"
#include "ua/server/services/IdentityTokens.h"
#include "ua/server/users/UserStore.h"

#include <QLoggingCategory>
#include <algorithm>
#include <cstring>

namespace ua {

namespace {

// Session establishment for the administrator's log (not per request: CreateSession and
// ActivateSession only).
Q_LOGGING_CATEGORY(lcSession, "ua.server.session", QtInfoMsg)

constexpr std::size_t kNonceLength = 32;    // bytes: the serverNonce we send

// The sessionName is the client's free text, and it becomes the BrowseName and DisplayName of the
// Session's SessionDiagnosticsObject (copied with every copy of the node table) and a column of the
// server app: kept to its first kMaxSessionNameBytes bytes, cut on a UTF-8 character boundary.
constexpr std::size_t kMaxSessionNameBytes = 256;
String boundedSessionName(const String& name) {
    const std::string_view v = name.view();
    if (v.size() <= kMaxSessionNameBytes) return name;
    std::size_t n = kMaxSessionNameBytes;
    while (n > 0 && (static_cast<unsigned char>(v[n]) & 0xC0) == 0x80) --n;  // v[n] starts the next character
    return String(v.data(), n);
}
// Who a refused identity token claimed to be, for the audit line: the user name, the X509
// certificate's subject and thumbprint, "anonymous".
std::string loginName(const ExtensionObject& token) {
    if (const auto* u = token.get<UserNameIdentityToken>()) return u->userName.str();
    if (const auto* x = token.get<X509IdentityToken>()) {
        const std::vector<Certificate> chain = Certificate::chainFromDer(
            reinterpret_cast<const uint8_t*>(x->certificateData.data()), x->certificateData.size());
        return chain.empty() ? std::string("(an unreadable X509 certificate)")
                             : chain.front().subjectName() + " (SHA-1 " + chain.front().thumbprintHex() + ")";
    }
    return token.isNull() || token.get<AnonymousIdentityToken>() ? "anonymous" : "(an issued or unknown token)";
}

constexpr std::size_t kMinClientNonce = 32; // bytes (5.7.2.3 Bad_NonceInvalid)
constexpr std::size_t kMaxClientNonce = 128;

ByteString newNonce() {
    const std::vector<uint8_t> n = crypto::randomBytes(kNonceLength);
    return ByteString(reinterpret_cast<const char*>(n.data()), n.size());
}

std::vector<uint8_t> concat(const ByteString& a, const ByteString& b) {
    std::vector<uint8_t> out(a.size() + b.size());
    if (!a.isEmpty()) std::memcpy(out.data(), a.data(), a.size());
    if (!b.isEmpty()) std::memcpy(out.data() + a.size(), b.data(), b.size());
    return out;
}

// The leaf of a certificate (chain) as sent in CreateSession; null when malformed.
Certificate leafOf(const ByteString& der) {
    std::vector<Certificate> chain =
        Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(der.data()), der.size());
    return chain.empty() ? Certificate() : chain.front();
}

// The endpoint of the channel's policy and mode (GetEndpoints lists each pair once).
const EndpointDescription* endpointOf(const std::vector<EndpointDescription>& endpoints, const ServerSecureChannel& ch) {
    for (const EndpointDescription& e : endpoints)
        if (e.securityMode == ch.securityMode() && e.securityPolicyUri.view() == ch.securityPolicy().uri)
            return &e;
    return nullptr;
}

// 5.7.2: the client's certificate and nonce on a signed channel; Good or the status to return.
StatusCode checkClient(const ServerSecureChannel& ch, const CreateSessionRequest& req) {
    const Certificate leaf = leafOf(req.clientCertificate);
    if (leaf.isNull() || !(leaf == ch.clientCertificate())) return status::BadCertificateInvalid;
    if (leaf.applicationUri() != req.clientDescription.applicationUri.view())
        return status::BadCertificateUriInvalid;
    if (req.clientNonce.size() < kMinClientNonce || req.clientNonce.size() > kMaxClientNonce)
        return status::BadNonceInvalid;
    return status::Good;
}

// 6.8.2: the answer to a request's ECDHPolicyUri. A new EphemeralKey of that policy, signed with the
// channel's certificate key, becomes the Session's userTokenKey; Bad_SecurityPolicyRejected in its
// place when the policy is not the ECC policy of the channel (the certificate the client checks the
// key's signature with is the channel's). Under the Session's activationMutex.
ExtensionObject newUserTokenKey(const ServerSecureChannel& ch, const String& policyUri, Session& s) {
    const SecurityPolicy& policy = ch.securityPolicy();
    if (!policy.isEcc() || policyUri.view() != policy.uri || ch.securityMode() == MessageSecurityMode::None)
        return ecdhKeyRefusal(policyUri.view(), status::BadSecurityPolicyRejected);
    auto key = std::make_shared<crypto::EphemeralKey>(crypto::EphemeralKey::generate(policy));
    EphemeralKeyType signedKey;
    if (signEphemeralKey(policy, ch.serverPrivateKey(), *key, signedKey).isBad())
        return ecdhKeyRefusal(policyUri.view(), status::BadSecurityChecksFailed);
    s.userTokenKey = std::move(key);
    return ecdhKeyResponse(policyUri.view(), signedKey);
}

} // namespace

void handleCreateSession(SessionServiceContext& ctx, const CreateSessionRequest& req, CreateSessionResponse& resp) {
    // Server::shutdown(): no new Session while the server counts down (ServerState Shutdown).
    if (ctx.shuttingDown) {
        resp.responseHeader.serviceResult = status::BadShutdown;
        return;
    }
    // Admission control (AdmissionConfig.h): too many Sessions wait for their activation. Answered
    // before the signature below, the RSA work of this establishment.
    if (ctx.sessions.establishmentsFull()) {
        ctx.busySessions.fetch_add(1, std::memory_order_relaxed);
        resp.responseHeader.serviceResult = status::BadServerTooBusy;
        return;
    }
    const ServerSecureChannel& ch = ctx.channel;
    const bool secure = ch.securityMode() != MessageSecurityMode::None;
    if (secure) {
        if (StatusCode s = checkClient(ch, req); s.isBad()) {
            resp.responseHeader.serviceResult = s;
            return;
        }
    }
    // The server's certificate goes out on None channels too: the client encrypts user token
    // secrets with it (7.41.2).
    ByteString serverCertificate;
    if (secure)
        serverCertificate = ByteString(ch.serverCertificateChain());
    else if (const ServerChannelSecurity* sec = ctx.channelSecurity;
             sec && !sec->certificate.isNull())
        serverCertificate = ByteString(sec->certificateChain);
    SignatureData serverSignature;
    if (secure) {
        // 5.7.2.2: over the leaf of the clientCertificate (checkClient: the channel's) + clientNonce,
        // whatever CA certificates the client sent after it.
        const std::vector<uint8_t> data = concat(ByteString(ch.clientCertificate().der()), req.clientNonce);
        std::vector<uint8_t> signature;
        const StatusCode s = crypto::asymmetricSign(ch.securityPolicy(), ch.serverPrivateKey(), data.data(),
                                                    data.size(), signature);
        if (s.isBad()) {
            resp.responseHeader.serviceResult = s;
            return;
        }
        serverSignature.algorithm = String(ch.securityPolicy().asymmetricSignatureUri);
        serverSignature.signature =
            ByteString(reinterpret_cast<const char*>(signature.data()), signature.size());
    }

    const double timeout = reviseSessionTimeout(req.requestedSessionTimeout, ctx.minSessionTimeoutMs, ctx.maxSessionTimeoutMs);
    StatusCode refused = status::BadTooManySessions;
    SessionPtr s = ctx.sessions.create(ctx.channelId, timeout, ctx.nowMs, &refused);
    if (!s) {
        if (refused == StatusCode(status::BadServerTooBusy)) ctx.busySessions.fetch_add(1, std::memory_order_relaxed);
        resp.responseHeader.serviceResult = refused;
        return;
    }
    {
        std::lock_guard lock(s->activationMutex);  // ServerDiagnostics may read it already
        s->sessionName = boundedSessionName(req.sessionName);
        s->client = req.clientDescription;
        s->clientCertificate = ch.clientCertificate().isNull() ? std::string() : ch.clientCertificate().der();
        s->serverCertificate = serverCertificate;
        s->serverNonce = newNonce();
        s->endpointUrl = req.endpointUrl;
        s->maxResponseMessageSize = req.maxResponseMessageSize;
        s->createdAt = resp.responseHeader.timestamp;
        s->securityMode = ch.securityMode();
        s->securityPolicyUri = String(ch.securityPolicy().uri);
        s->peerAddress = ctx.peerAddress;
        if (const String ecdh = requestedEcdhPolicy(req.requestHeader.additionalHeader); !ecdh.isNull())
            resp.responseHeader.additionalHeader = newUserTokenKey(ch, ecdh, *s);
    }
    ctx.channelSessions.remember(s);
    resp.sessionId = s->sessionId;
    resp.authenticationToken = s->authenticationToken;
    resp.revisedSessionTimeout = timeout;
    resp.serverNonce = s->serverNonce;
    resp.serverCertificate = std::move(serverCertificate);
    resp.serverSignature = std::move(serverSignature);
    resp.serverEndpoints = Array<EndpointDescription>(ctx.endpoints);
    resp.serverSoftwareCertificates = Array<SignedSoftwareCertificate>::emptyArray();
    resp.maxRequestMessageSize = ctx.maxRequestMessageSize;
}

double reviseSessionTimeout(double requestedMs, double minMs, double maxMs) {
    if (!(requestedMs > minMs)) return minMs;  // also NaN, which compares false
    return requestedMs < maxMs ? requestedMs : maxMs;
}

void handleActivateSession(SessionServiceContext& ctx, const ActivateSessionRequest& req,
                           ActivateSessionResponse& resp) {
    SessionPtr s = ctx.sessions.find(req.requestHeader.authenticationToken);
    if (!s || s->closed) {
        resp.responseHeader.serviceResult = status::BadSessionIdInvalid;
        return;
    }
    // A Session activated again (another channel, another user) is a new establishment: it waits
    // while too many first activations are pending (AdmissionConfig.h). A first activation is
    // always served: it completes an establishment already counted.
    if (s->activated && ctx.sessions.establishmentsFull()) {
        ctx.busySessions.fetch_add(1, std::memory_order_relaxed);
        resp.responseHeader.serviceResult = status::BadServerTooBusy;
        return;
    }
    const ServerSecureChannel& ch = ctx.channel;
    // Marked activated (no longer pending) once activationMutex is released: the SessionManager's
    // lock is never taken under it (diagnostics take them in the other order).
    bool firstActivation = false;
    const OnScopeExit markActivated([&] {
        if (firstActivation) ctx.sessions.markActivated(s);
    });
    std::lock_guard lock(s->activationMutex);
    const auto fail = [&](StatusCode code) {
        resp.responseHeader.serviceResult = code;
        qCWarning(lcSession, "ActivateSession of session '%s' from %s refused: %s", s->sessionName.toQString().toUtf8().constData(),
                  qPrintable(ctx.peerAddress), code.name().c_str());
    };
    const bool newChannel = s->channelId != ctx.channelId;
    if (!s->activated && newChannel)
        return fail(status::BadSessionIdInvalid); // 5.7.3: first activation on its channel
    const std::string channelCertificate =
        ch.clientCertificate().isNull() ? std::string() : ch.clientCertificate().der();
    // 5.7.3: a new channel must come from the same client application (its certificate).
    if (newChannel && channelCertificate != s->clientCertificate)
        return fail(status::BadSecurityChecksFailed);
    if (ch.securityMode() != MessageSecurityMode::None) {
        // The client proves it holds the key of its certificate: a signature of the serverCertificate
        // (its leaf; the whole chain is accepted too, 5.7.3.2) and the last serverNonce (7.36).
        const SecurityPolicy& policy = ch.securityPolicy();
        const SignatureData& sig = req.clientSignature;
        // 7.36: for the ECC policies the algorithm is null or empty, and ignored when set.
        if (!policy.isEcc() && sig.algorithm.view() != policy.asymmetricSignatureUri)
            return fail(status::BadApplicationSignatureInvalid);
        if (!verifyCertificateAndNonce(policy, ch.clientCertificate().publicKey(), s->serverCertificate, s->serverNonce,
                                       sig.signature)) {
            // The server's certificate changed since CreateSession (push management's ApplyChanges):
            // a client that reconnected may sign over the certificate of its new channel. It is the
            // server's own, so the Session takes it from now on (and for the user token checks).
            const ByteString current(ch.serverCertificateChain());
            if (!newChannel || current == s->serverCertificate ||
                !verifyCertificateAndNonce(policy, ch.clientCertificate().publicKey(), current, s->serverNonce, sig.signature))
                return fail(status::BadApplicationSignatureInvalid);
            s->serverCertificate = current;
        }
    }
    const EndpointDescription* endpoint = endpointOf(ctx.endpoints, ch);
    if (!endpoint) return fail(status::BadSecurityPolicyRejected);
    const ServerChannelSecurity* sec = ctx.channelSecurity;
    const IdentityCheck check{*endpoint,
                              ch.securityPolicy(),
                              ch.securityMode(),
                              // The key of the certificate the client was given: its channel's
                              // (push management may have put another one into use since).
                              ch.securityMode() != MessageSecurityMode::None ? ch.serverPrivateKey()
                                                                             : (sec ? sec->privateKey.get() : nullptr),
                              s->serverCertificate,
                              s->serverNonce,
                              ctx.users,
                              ctx.userCertificates,
                              ctx.nowMs,
                              s->userTokenKey.get(),
                              channelCertificate,
                              ch.clientCertificate().isNull() ? nullptr : ch.clientCertificate().publicKey()};
    SessionIdentity user;
    if (StatusCode st = checkIdentityToken(check, req.userIdentityToken, req.userTokenSignature, user);
        st.isBad()) {
        // A refused login is an audit line (users/AuditLog.h): who tried, from where; never the password.
        resp.responseHeader.serviceResult = st;
        const std::string who = loginName(req.userIdentityToken);
        const bool lockedOut = req.userIdentityToken.get<UserNameIdentityToken>() && ctx.users.isLockedOut(who, ctx.nowMs);
        qCWarning(lcAudit, "login of user '%s' from %s refused: %s (Session '%s')%s", who.c_str(), qPrintable(ctx.peerAddress),
                  st.name().c_str(), s->sessionName.toQString().toUtf8().constData(), lockedOut ? "; the user is locked out" : "");
        return;
    }
    // 5.7.3: on a new channel the user must stay the same.
    if (newChannel && !(user.tokenType == s->userTokenType && user.clientUserId == s->clientUserId))
        return fail(status::BadIdentityChangeNotSupported);

    s->userTokenType = user.tokenType;
    s->clientUserId = std::move(user.clientUserId);
    // Sequentially consistent, as the installation of Session::subscriptions and the loads after
    // it: either that side sees these values or sessionAccessChanged() sees its object.
    s->roles.store(user.roles);
    s->permissions.store(defaultPermissions(user.roles));
    s->serverNonce = newNonce();  // a serverNonce is used once, and so is an EphemeralKey
    s->userTokenKey.reset();
    if (const String ecdh = requestedEcdhPolicy(req.requestHeader.additionalHeader); !ecdh.isNull())
        resp.responseHeader.additionalHeader = newUserTokenKey(ch, ecdh, *s);
    s->channelId = ctx.channelId; // a later activation moves the Session to this channel
    s->localeIds = req.localeIds;
    s->securityMode = ch.securityMode();
    s->securityPolicyUri = String(ch.securityPolicy().uri);
    if (ctx.accessChanged) ctx.accessChanged(*s);  // with the user and the channel's mode set
    s->peerAddress = ctx.peerAddress;
    if (s->clientUserIdHistory.empty() || s->clientUserIdHistory.back() != s->clientUserId)
        s->clientUserIdHistory.push_back(s->clientUserId);
    if (!s->activated || newChannel)
        qCInfo(lcSession, "session '%s' of %s activated from %s as %s (%s, %s)", s->sessionName.toQString().toUtf8().constData(),
               s->client.applicationUri.toQString().toUtf8().constData(), qPrintable(s->peerAddress),
               s->clientUserId.empty() ? "anonymous" : s->clientUserId.c_str(), enumName(s->securityMode),
               s->securityPolicyUri.toQString().section(QLatin1Char('#'), 1).toUtf8().constData());
    firstActivation = !s->activated;
    s->touch(ctx.nowMs);
    ctx.channelSessions.remember(s);  // the dispatcher then frees the channel's handshake slot (AdmissionConfig.h)
    resp.serverNonce = s->serverNonce;
    resp.results = Array<StatusCode>::emptyArray();
    resp.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
}

void handleCloseSession(SessionServiceContext& ctx, const CloseSessionRequest&, CloseSessionResponse&) {
    ctx.sessions.remove(ctx.session);
    ctx.channelSessions.forget(ctx.session);
}

} // namespace ua
