// The Client's state on its I/O thread (internal; use ua::Client). Everything here runs on that one
// thread: the connection, the pending requests with their deadlines, the Session, the keep-alive
// and the reconnect loop. Requests are encoded and responses decoded on this thread; callbacks are
// invoked here (ua::Client moves them to the caller's context object).
#pragma once

#include "ua/client/common/ClientConfig.h"
#include "ua/client/channel/ClientConnection.h"
#include "ua/client/calls/DeadlineQueues.h"
#include "ua/client/discovery/Discovery.h"
#include "ua/client/discovery/EndpointUrl.h"
#include "ua/client/calls/InplaceFunction.h"
#include "ua/client/calls/PendingTable.h"
#include "ua/client/browse/NodeIdConverter.h"
#include "ua/client/session/ReconnectBackoff.h"
#include "ua/client/calls/ResponseScratch.h"
#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/Types.h"
#include "ua/pki/CertificateStore.h"

#include <QMutex>
#include <QObject>
#include <atomic>
#include <deque>
#include <memory>
#include <set>
#include <unordered_map>

class QTimer;

namespace ua {

// Disconnected -> Connecting -> ChannelOpen (SecureChannel open, endpoints known, no Session)
// -> Connected (Session active); a lost connection from ChannelOpen or Connected -> Reconnecting
// -> back to where it was; disconnectFromServer() or a failed connect -> Disconnected.
enum class ClientState { Disconnected, Connecting, ChannelOpen, Connected, Reconnecting };
const char* toString(ClientState s);

struct BrowseOptions {
    // 0: follow every ContinuationPoint with BrowseNext until the server has returned all
    // references. N > 0: stop once a node has N references and release its ContinuationPoint
    // (BrowseNext with releaseContinuationPoints = true, OPC 10000-4 5.8.3).
    uint32_t maxReferencesPerNode = 0;
};

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
    struct HeaderFields {
        const NodeId* authenticationToken = nullptr;  // the Session's (not copied per request)
        uint32_t requestHandle = 0;
        uint32_t timeoutHint = 0;
    };
    using Sender = std::function<StatusCode(ClientConnection&, uint32_t requestId, const HeaderFields&)>;
    // Kept in place (no allocation per request): a call's completion holds its ServiceCallback.
    // receivedAtNs: ServiceResult::receivedAtNs (0 without a response).
    using Completion = InplaceFunction<void(StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size, int64_t receivedAtNs),
                                       sizeof(std::function<void()>)>;
    struct Pending {
        Sender send;
        Completion done;
        uint32_t requestId = 0;  // 0 until sent on the current connection
        uint32_t timeoutMs = 0;
        uint32_t issued = 0;     // the order the calls were made in
        bool internal = false;   // the client's own (connect, activation, keep-alive): never queued
    };
    struct Session {
        NodeId sessionId;
        NodeId authenticationToken;
        double revisedTimeoutMs = 0;
        bool activated = false;
        ByteString serverNonce;          // of the last CreateSession / ActivateSession response
        std::string serverCertificate;   // DER leaf of the CreateSession response's serverCertificate
    };
    struct BrowseJob;

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
        static_assert(Completion::storedInPlace<decltype(finish)>(), "a call's completion must not allocate");
        uint32_t handle = 0;
        Pending* added = addPending(timeoutMs, internal, handle);
        if (!added) return finish(status::BadTooManyOperations, 0, nullptr, 0, 0);
        Pending& p = *added;
        p.done.emplace(std::move(finish));  // built in its slot, not moved there
        switch (routeOf(internal)) {
        case Route::Send: {
            const uint32_t requestId = m_conn->nextRequestId();
            fillHeader(request.requestHeader, headerFields(handle, p));
            sent(handle, p, requestId, m_conn->send(requestId, request));
            return;
        }
        case Route::Queue:
            p.send = [request = Req(std::forward<R>(request))](ClientConnection& c, uint32_t requestId, const HeaderFields& h) mutable {
                fillHeader(request.requestHeader, h);
                return c.send(requestId, request);
            };
            m_queue.push_back(handle);  // sent once the (re)connect is done; its deadline runs already
            return;
        case Route::Fail: complete(handle, status::BadServerNotConnected); return;
        }
    }
    template <class Req, class Resp>
    void internalCall(Req request, uint32_t timeoutMs, ServiceCallback<Resp> done) {
        submit<Req, Resp>(std::move(request), timeoutMs, std::move(done), true);
    }

    // Pending requests: m_pending by RequestHandle, the RequestId they were sent under in each; a
    // response finds its call by the RequestHandle of its ResponseHeader (checked against the
    // RequestId), the rare rest by a search for the RequestId (handleOfRequestId).
    enum class Route { Send, Queue, Fail };
    // Registers a call with its deadline; returns it (valid until it is completed; its completion
    // empty, for the caller to set) and sets handle (the RequestHandle). nullptr (handle 0) when
    // PendingTable::kMaxPending calls are pending already: the caller completes the call with
    // Bad_TooManyOperations.
    Pending* addPending(uint32_t timeoutMs, bool internal, uint32_t& handle);
    // Whether a new call goes out now, waits for the (re)connect or fails (Bad_ServerNotConnected).
    Route routeOf(bool internal) const;
    HeaderFields headerFields(uint32_t handle, const Pending& p) const;
    static void fillHeader(RequestHeader& header, const HeaderFields& h);
    // After the send of a pending call under requestId: Bad s completes it (nothing was sent).
    void sent(uint32_t handle, Pending& p, uint32_t requestId, StatusCode s);
    void sendPending(uint32_t handle);  // a queued call
    void complete(uint32_t handle, StatusCode local, uint32_t typeId = 0, const uint8_t* body = nullptr, std::size_t size = 0,
                  int64_t receivedAtNs = 0);
    void onResponse(uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size);
    uint32_t handleOfRequestId(uint32_t requestId) const;  // 0: no call was sent under it
    void onDeadline();
    void armDeadlineTimer();
    void failSent(StatusCode status);
    void failQueued(StatusCode status);
    void flushQueue();
    bool userRequestsMaySend() const;

    // Connection.
    void openConnection(StatusCallback done) { openConnection(m_channelSecurity, std::move(done)); }
    void openConnection(const ClientChannelSecurity& security, StatusCallback done);
    void dropConnection(StatusCode forPending, bool sendClose);
    void connectionLost(StatusCode reason, StatusCode forPending);
    void startConnect();
    void connectStepFailed(const ServiceResult<GetEndpointsResponse>& r);
    // The SecureChannel of the chosen secure endpoint, retried after ERR Bad_TcpServerTooBusy.
    void openSecureChannel(const GetEndpointsResponse& endpoints);
    // ActivateSession of the Session just created, retried on Bad_ServerTooBusy (the same Session).
    void activateCreated(const ServiceResult<CreateSessionResponse>& created, int busyAttempts,
                         ServiceCallback<CreateSessionResponse> done);
    void finishConnect(const ServiceResult<GetEndpointsResponse>& r);
    void completeConnect(StatusCode s, const GetEndpointsResponse& response);
    StatusCode chooseEndpoint();
    // The server certificate of ep validated for policy, the trust callback asked when untrusted
    // (ServerTrust.h). Good or the failure.
    StatusCode validateServerCertificate(const EndpointDescription& ep, const SecurityPolicy* policy);
    bool openStore();
    void finishDiscover(const std::shared_ptr<DiscoveryResult>& result, StatusCode s, const DiscoveryCallback& done);
    void retryLater(int attempt, std::function<void()> action);

    // Session.
    void tryCreateSession(ServiceCallback<CreateSessionResponse> done);
    void createAndActivate(ServiceCallback<CreateSessionResponse> done);
    void activate(StatusCallback done);
    // CloseSession (deleteSubscriptions) of a Session created on the current channel that will not
    // be used: its activation failed or timed out, or its CreateSession answer came after the
    // caller was told Bad_Timeout (OPC 10000-4 5.7.4.1: allowed before activation on that channel).
    // Nothing waits for the answer.
    void abandonSession(const NodeId& authenticationToken);
    // A CreateSession stays pending this many request timeouts, for a late answer to be closed.
    static constexpr uint32_t kLateCreateFactor = 6;
    // Another retry after a busy answer: within ClientConfig::busyRetryTimeMs / busyRetries.
    bool mayRetryBusy(int attempts) const;
    StatusCode checkCreateSession(const ByteString& clientNonce, const CreateSessionResponse& response);
    void readNamespaceArray(StatusCallback done);

    // Keep-alive and reconnect.
    void onKeepAlive();
    void scheduleReconnect();
    void attemptReconnect();
    void reopenAndActivate();  // a reconnect's SecureChannel, then the Session moved or created
    // Before a reconnect that uses the server's certificate: GetEndpoints again on a None channel
    // (closed after). done(Good) with the endpoint of the same policy and mode taken over, its
    // certificate validated again when it changed (*refused: the new certificate was not accepted).
    void rediscover(std::function<void(StatusCode, bool refused)> done);
    StatusCode adoptEndpoints(const Array<EndpointDescription>& endpoints, bool* refused);
    void reconnectFailed();
    void finishReconnect(bool sessionRecreated);

    void continueBrowse(const std::shared_ptr<BrowseJob>& job);
    void setState(ClientState s, StatusCode reason = status::Good);
    void publish();  // copies the state into m_snapshot for the getters
    static int64_t nowMs();

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

    PendingTable<Pending> m_pending;                   // by RequestHandle; slots reused: no allocation per call
    std::deque<uint32_t> m_queue;                      // handles waiting for the (re)connect
    DeadlineQueues m_deadlines;                        // the pending calls' deadlines
    uint32_t m_nextIssued = 0;                         // Pending::issued of the next call

    QTimer* m_deadlineTimer;
    int64_t m_deadlineArmedAtMs = 0;  // the deadline m_deadlineTimer fires for, while it is active
    QTimer* m_keepAliveTimer;
    QTimer* m_reconnectTimer;

    std::atomic<ClientState> m_publicState{ClientState::Disconnected};
    mutable QMutex m_snapshotMutex;
    ClientSnapshot m_snapshot;
};

} // namespace ua
