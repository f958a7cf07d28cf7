// The Client's state on its I/O thread (internal; use ua::Client). Everything here runs on that one
// thread: the connection, the pending requests with their deadlines, the Session, the keep-alive
// and the reconnect loop. Requests are encoded and responses decoded on this thread; callbacks are
// invoked here (ua::Client moves them to the caller's context object).
//
// The parts with a state of their own are classes of the folders below: the pending calls
// (calls/PendingCalls.h), the connection (channel/), the Browse and HistoryRead continuations
// (browse/, history/). ClientCore is the state machine that ties them together, implemented in one
// file per concern:
//   ClientCore.cpp         state, snapshot, how a call is routed, shutdown, Browse, HistoryRead
//   ClientCoreConnect.cpp  the connection, connect and discovery, the endpoint and the trust of
//                          the server's certificate, disconnect
//   ClientCoreSession.cpp  the Session (create, activate, close), keep-alive, reconnect
#pragma once

#include "ua/client/browse/BrowseContinuation.h"
#include "ua/client/browse/NodeIdConverter.h"
#include "ua/client/calls/PendingCalls.h"
#include "ua/client/calls/ResponseScratch.h"
#include "ua/client/channel/ClientConnection.h"
#include "ua/client/common/ClientConfig.h"
#include "ua/client/common/ServiceResult.h"
#include "ua/client/discovery/Discovery.h"
#include "ua/client/discovery/EndpointUrl.h"
#include "ua/client/history/HistoryContinuation.h"
#include "ua/client/session/ReconnectBackoff.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/Types.h"
#include "ua/pki/CertificateStore.h"

#include <QMutex>
#include <QObject>
#include <atomic>
#include <memory>

class QTimer;

namespace ua {

// Disconnected -> Connecting -> ChannelOpen (SecureChannel open, endpoints known, no Session)
// -> Connected (Session active); a lost connection from ChannelOpen or Connected -> Reconnecting
// -> back to where it was; disconnectFromServer() or a failed connect -> Disconnected.
enum class ClientState { Disconnected, Connecting, ChannelOpen, Connected, Reconnecting };
// The state's name ("Connected"); static text. Not toString: QtTest would take a toString found
// by argument-dependent lookup for a failed QCOMPARE's text and delete[] it.
const char* enumName(ClientState s);

// What ua::Client's getters read from any thread.
struct ClientSnapshot {
    ClientState state = ClientState::Disconnected;
    QString endpointUrl;                    // as the user typed it
    NodeId sessionId;                       // null without a Session
    double revisedSessionTimeoutMs = 0;
    Array<EndpointDescription> endpoints;   // from GetEndpoints, URLs as the server advertises them
    EndpointDescription endpoint;           // the one chosen: its policy, mode and server certificate
    UserTokenPolicy userTokenPolicy;        // the one of its token policies the Session uses
    NodeIdConverter nodeIdConverter;        // from the last NamespaceArray read
    ServerState serverState = ServerState::Unknown;  // from the last keep-alive
    AcknowledgeMessage acknowledge;         // the server's revised transport limits
    uint32_t reconnectCount = 0;            // successful reconnects so far
};

class ClientCore : public QObject {
    Q_OBJECT
public:
    explicit ClientCore(ClientConfig config);
    ~ClientCore() override;

    ClientSnapshot snapshot() const;
    ClientState state() const { return m_publicState.load(std::memory_order_acquire); }

    void connectToServer(const QString& url, ServiceCallback<GetEndpointsResponse> done);
    // FindServers + GetEndpoints on a None channel opened for them and closed after (Client::discover).
    // State Connecting meanwhile, Disconnected after; Bad_InvalidState when not Disconnected.
    void discover(const QString& url, DiscoveryCallback done);
    void createSession(ServiceCallback<CreateSessionResponse> done);
    void closeSession(ServiceCallback<CloseSessionResponse> done);
    void disconnectFromServer(StatusCallback done);
    void browse(BrowseRequest request, BrowseOptions options, uint32_t timeoutMs, ServiceCallback<BrowseResponse> done);
    // HistoryRead that follows the ContinuationPoints (Client::historyReadRaw, ...).
    void historyRead(HistoryReadRequest request, HistoryReadOptions options, uint32_t timeoutMs, ServiceCallback<HistoryValues> done);
    // Checks the connection now (the keep-alive Read, whatever keepAliveIntervalMs is): no answer
    // within keepAliveTimeoutMs counts as a lost connection (reconnect). For the subscriptions'
    // keep-alive supervision.
    void probeConnection() { onKeepAlive(); }
    // Ends everything at once (the Client is being destroyed): CLO if open, every call fails with
    // Bad_Shutdown.
    void shutdown();

    // Any service: Resp is the response type; a ServiceFault completes the call with its
    // serviceResult. timeoutMs 0: config.requestTimeoutMs.
    template <class Req, class Resp>
    void call(Req&& request, uint32_t timeoutMs, ServiceCallback<Resp> done) {
        submit<Req, Resp>(std::move(request), timeoutMs, std::move(done), false);
    }
    // As call(), with request left to the caller (its RequestHeader filled in): encoded from it
    // when it goes now, copied when it has to wait (Client::readInPlace).
    template <class Req, class Resp>
    void callInPlace(Req& request, uint32_t timeoutMs, ServiceCallback<Resp>&& done) {
        submit<Req, Resp>(request, timeoutMs, std::move(done), false);
    }

    // Decodes a response body (after its type id): a Resp or a ServiceFault. Returns the status the
    // call completes with; *whole (if given) tells whether a Resp was decoded into every field of out.
    template <class Resp>
    static StatusCode decodeResponse(uint32_t typeId, const uint8_t* body, std::size_t size, Resp& out, bool* whole = nullptr) {
        BinaryDecoder d(body, size);
        if (typeId == Resp::kBinaryEncodingId) {
            decode(d, out);
            if (whole) *whole = d.ok();
            if (!d.ok()) return d.status();
            return out.responseHeader.serviceResult;
        }
        if (typeId == ServiceFault::kBinaryEncodingId) {
            ServiceFault f;
            decode(d, f);
            if (!d.ok()) return d.status();
            out.responseHeader = f.responseHeader;
            return f.responseHeader.serviceResult.isBad() ? f.responseHeader.serviceResult : status::BadUnknownResponse;
        }
        return status::BadUnknownResponse;
    }

signals:
    void stateChanged(ua::ClientState state, ua::StatusCode reason);
    void serverStateChanged(ua::ServerState state);
    void sessionRecreated(ua::NodeId sessionId);

private:
    struct Session {
        NodeId sessionId;
        NodeId authenticationToken;
        double revisedTimeoutMs = 0;
        bool activated = false;
        ByteString serverNonce;          // of the last CreateSession / ActivateSession response
        std::string serverCertificate;   // DER leaf of the CreateSession response's serverCertificate
        // Under an ECC token policy (OPC 10000-6 6.8.2): the server's latest EphemeralKey for the
        // password's EccEncryptedSecret, or why there is none.
        ByteString userTokenKey;
        StatusCode userTokenKeyStatus = StatusCode(0x80130000u);  // Bad_SecurityChecksFailed
    };
    // Encodes the request straight into the channel's send buffer when it can go now; only a
    // request that waits for the (re)connect is kept (in its Sender) until it is sent.
    // R: Req (moved from when the call has to wait) or Req& (copied then).
    template <class Req, class Resp, class R>
    // done is taken by reference and moved once, into the call's completion.
    void submit(R&& request, uint32_t timeoutMs, ServiceCallback<Resp>&& done, bool internal) {
        auto finish = [done = std::move(done)](StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size,
                                               int64_t receivedAtNs) {
            ResponseScratch<Resp> scratch;  // a ReadResponse is decoded into a reused object
            ServiceResult<Resp>& r = scratch.result();
            bool whole = false;
            r.status = local.isBad() ? local : decodeResponse(typeId, body, size, r.response, &whole);
            r.receivedAtNs = body ? receivedAtNs : 0;
            if (!whole) scratch.clean();
            if (done) done(r);
        };
        static_assert(PendingCalls::Completion::storedInPlace<decltype(finish)>(), "a call's completion must not allocate");
        uint32_t handle = 0;
        PendingCalls::Call* added = m_calls.add(timeoutMs, internal, handle);
        if (!added) return finish(status::BadTooManyOperations, 0, nullptr, 0, 0);
        PendingCalls::Call& p = *added;
        p.done.emplace(std::move(finish));  // built in its slot, not moved there
        switch (routeOf(internal)) {
        case Route::Send: {
            const uint32_t requestId = m_conn->nextRequestId();
            PendingCalls::fillHeader(request.requestHeader, PendingCalls::headerFields(m_session.authenticationToken, handle, p));
            m_calls.sent(handle, p, requestId, m_conn->send(requestId, request));
            return;
        }
        case Route::Queue:
            p.send = [request = Req(std::forward<R>(request))](ClientConnection& c, uint32_t requestId,
                                                              const PendingCalls::HeaderFields& h) mutable {
                PendingCalls::fillHeader(request.requestHeader, h);
                return c.send(requestId, request);
            };
            m_calls.queue(handle);  // sent once the (re)connect is done; its deadline runs already
            return;
        case Route::Fail: m_calls.complete(handle, status::BadServerNotConnected); return;
        }
    }
    template <class Req, class Resp>
    void internalCall(Req request, uint32_t timeoutMs, ServiceCallback<Resp> done) {
        submit<Req, Resp>(std::move(request), timeoutMs, std::move(done), true);
    }

    // Where a call goes (ClientCore.cpp).
    enum class Route { Send, Queue, Fail };
    // Whether a new call goes out now, waits for the (re)connect or fails (Bad_ServerNotConnected).
    Route routeOf(bool internal) const;
    bool userRequestsMaySend() const;
    // The queued calls go out on the connection just opened (or wait again if it is lost meanwhile).
    void flushQueue() { m_calls.flushQueue(m_conn, m_session.authenticationToken); }

    // Connection, connect and discovery (ClientCoreConnect.cpp).
    void openConnection(StatusCallback done) { openConnection(m_channelSecurity, std::move(done)); }
    void openConnection(const ClientChannelSecurity& security, StatusCallback done);
    void dropConnection(StatusCode forPending, bool sendClose);
    void connectionLost(StatusCode reason, StatusCode forPending);
    // A connect or a discovery begins: Good with url taken and what was known of an earlier Session
    // and channel dropped; Bad_InvalidState when not Disconnected, Bad_TcpEndpointUrlInvalid.
    StatusCode beginWithUrl(const QString& url);
    void startConnect();
    void connectStepFailed(const ServiceResult<GetEndpointsResponse>& r);
    // The SecureChannel of the chosen secure endpoint, retried after ERR Bad_TcpServerTooBusy.
    void openSecureChannel(const GetEndpointsResponse& endpoints);
    void finishConnect(const ServiceResult<GetEndpointsResponse>& r);
    void completeConnect(StatusCode s, const GetEndpointsResponse& response);
    StatusCode chooseEndpoint();
    // The server certificate of ep validated for policy, the trust callback asked when untrusted
    // (ServerTrust.h). Good or the failure.
    StatusCode validateServerCertificate(const EndpointDescription& ep, const SecurityPolicy* policy);
    bool openStore();
    void finishDiscover(const std::shared_ptr<DiscoveryResult>& result, StatusCode s, const DiscoveryCallback& done);
    // Before a reconnect that uses the server's certificate: GetEndpoints again on a None channel
    // (closed after). done(Good) with the endpoint of the same policy and mode taken over, its
    // certificate validated again when it changed (*refused: the new certificate was not accepted).
    void rediscover(std::function<void(StatusCode, bool refused)> done);
    StatusCode adoptEndpoints(const Array<EndpointDescription>& endpoints, bool* refused);
    // A busy server (Bad_TcpServerTooBusy, Bad_ServerTooBusy): action again after a back-off, while
    // mayRetryBusy allows.
    void retryLater(int attempt, std::function<void()> action);
    // Another retry after a busy answer: within ClientConfig::busyRetryTimeMs / busyRetries.
    bool mayRetryBusy(int attempts) const;

    // Session (ClientCoreSession.cpp).
    void tryCreateSession(ServiceCallback<CreateSessionResponse> done);
    void createAndActivate(ServiceCallback<CreateSessionResponse> done);
    // ActivateSession of the Session just created, retried on Bad_ServerTooBusy (the same Session).
    void activateCreated(const ServiceResult<CreateSessionResponse>& created, int busyAttempts,
                         ServiceCallback<CreateSessionResponse> done);
    void activate(StatusCallback done);
    // CloseSession (deleteSubscriptions) of a Session created on the current channel that will not
    // be used: its activation failed or timed out, or its CreateSession answer came after the
    // caller was told Bad_Timeout (OPC 10000-4 5.7.4.1: allowed before activation on that channel).
    // Nothing waits for the answer.
    void abandonSession(const NodeId& authenticationToken);
    // A CreateSession stays pending this many request timeouts, for a late answer to be closed.
    static constexpr uint32_t kLateCreateFactor = 6;
    StatusCode checkCreateSession(const ByteString& clientNonce, const CreateSessionResponse& response);
    // A password under an ECC token policy needs the server's EphemeralKey (6.8.2): asked for in
    // CreateSession and in every ActivateSession, the latest kept in m_session.
    bool wantsUserTokenKey() const;
    void takeUserTokenKey(const ResponseHeader& header);
    void readNamespaceArray(StatusCallback done);

    // Keep-alive and reconnect (ClientCoreSession.cpp).
    void onKeepAlive();
    void scheduleReconnect();
    void attemptReconnect();
    void reopenAndActivate();  // a reconnect's SecureChannel, then the Session moved or created
    void reconnectFailed();
    void finishReconnect(bool sessionRecreated);

    void setState(ClientState s, StatusCode reason = status::Good);
    void publish();  // copies the state into m_snapshot for the getters
    static int64_t nowMs() { return PendingCalls::nowMs(); }

    ClientConfig m_config;
    ClientState m_state = ClientState::Disconnected;
    QString m_urlText;
    EndpointUrl m_url;
    ClientConnection* m_conn = nullptr;
    uint64_t m_connGeneration = 0;  // handlers of a dropped connection see another generation
    StatusCallback m_openDone;      // the open in progress reports here
    ServiceCallback<GetEndpointsResponse> m_connectDone;  // connectToServer() in progress
    int m_busyRetries = 0;          // retries after Bad_TcpServerTooBusy / Bad_ServerTooBusy so far
    int64_t m_busySinceMs = 0;      // when the connectToServer() / createSession() being retried began
    Session m_session;
    bool m_activating = false;      // createSession in progress: user requests wait
    bool m_wantSession = false;     // a Session was created by the user and not closed: reconnects restore one
    bool m_userDisconnect = false;
    bool m_keepAliveInFlight = false;
    Array<EndpointDescription> m_endpoints;
    // Security (docs/Client.md "Security"): the store with our certificate, the endpoint chosen from
    // m_endpoints, its token policy and the policy that protects the token, the server's certificate
    // (leaf, validated or accepted), and what every SecureChannel after the GetEndpoints one uses.
    std::unique_ptr<CertificateStore> m_store;
    EndpointDescription m_endpoint;
    UserTokenPolicy m_tokenPolicy;
    const SecurityPolicy* m_tokenSecurity = nullptr;
    Certificate m_serverCertificate;
    ClientChannelSecurity m_channelSecurity;
    NodeIdConverter m_converter;
    ServerState m_serverState = ServerState::Unknown;
    ReconnectBackoff m_backoff;
    uint32_t m_reconnectCount = 0;
    StatusCode m_lostReason;

    // The pending calls: by RequestHandle, queued for the (re)connect, their deadlines.
    PendingCalls m_calls;

    QTimer* m_keepAliveTimer;
    QTimer* m_reconnectTimer;

    std::atomic<ClientState> m_publicState{ClientState::Disconnected};
    mutable QMutex m_snapshotMutex;
    ClientSnapshot m_snapshot;
};

} // namespace ua
