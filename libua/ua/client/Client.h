// An OPC UA client (OPC 10000-4 over UA-TCP binary, OPC 10000-6 7.1 and 6.7): connect (HEL/ACK,
// OpenSecureChannel, GetEndpoints, then a signed or encrypted SecureChannel to the endpoint chosen by
// ClientConfig's policy, mode and user identity, with the server certificate validated and trusted),
// a Session (CreateSession + ActivateSession, anonymous, user name or X509 user), any service asynchronously with many requests outstanding, each with its own
// timeout, typed helpers for Read, Write, Browse (following ContinuationPoints), TranslateBrowsePaths, Call,
// HistoryRead (raw, modified, processed, at time; following ContinuationPoints) and HistoryUpdate,
// a keep-alive, reconnect to the same Session after a lost connection, and subscriptions (data
// changes and events, with Publish pipelining, acknowledgements, Republish of gaps and transfer to
// a new Session; ClientSubscription.h). See docs/Client.md.
//
// Threads. The network work runs on one I/O thread: a thread of the Client's own, or one given to
// the constructor (so that many Clients, e.g. the load tester's sessions, share a small pool). Every
// public function may be called from any thread; it only posts the work to the I/O thread and
// returns at once. Results arrive through callbacks:
//   - each function takes a `context` QObject: the callback runs in the context's thread (queued,
//     or directly when that is the I/O thread) and is dropped if the context has been destroyed;
//   - with context == nullptr the callback runs on the I/O thread: it must not block there.
// Nothing ever blocks the I/O thread. Signals are emitted in the thread the Client object lives in.
//
// Example:
//   ua::Client client;
//   client.connectToServer("opc.tcp://plc:4840", this, [&](const ua::ServiceResult<ua::GetEndpointsResponse>& r) {
//       if (!r.isGood()) return;
//       client.createSession(this, [&](const ua::ServiceResult<ua::CreateSessionResponse>& s) {
//           client.readValues({ua::NodeId(ua::id::Server_ServerStatus_State)}, this, [](const auto& r) { ... });
//       });
//   });
#pragma once

#include "ua/client/common/ClientConfig.h"
#include "ua/client/core/ClientCore.h"
#include "ua/client/subscriptions/ClientSubscription.h"
#include "ua/client/discovery/Discovery.h"
#include "ua/client/history/HistoryRead.h"
#include "ua/client/history/HistoryUpdate.h"
#include "ua/client/browse/NodeIdConverter.h"
#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"
#include "ua/transport/ContextRef.h"

#include <QObject>
#include <QThread>
#include <vector>

namespace ua {

class SubscriptionManager;

class Client : public QObject {
    Q_OBJECT
public:
    using State = ClientState;

    // A Client with an I/O thread of its own.
    explicit Client(ClientConfig config = {}, QObject* parent = nullptr);
    // A Client whose I/O runs on ioThread (which must be running and outlive the Client).
    Client(ClientConfig config, QThread* ioThread, QObject* parent = nullptr);
    // Ends the connection at once (CloseSecureChannel, no CloseSession: the server's Session times
    // out); outstanding calls complete with Bad_Shutdown.
    ~Client() override;

    // --- Connection and Session (OPC 10000-6 7.1.2, 6.7.4; OPC 10000-4 5.5.4, 5.6) ----------------

    // Opens the connection to url ("opc.tcp://host[:port][/path]"): HEL/ACK, OpenSecureChannel
    // (Issue) with SecurityPolicy None, then GetEndpoints; the callback gets the endpoints. The
    // endpoint is chosen by config.securityPolicyUri, securityMode and identity (see ClientConfig);
    // when it is secure, or its token needs the server's certificate, that certificate is validated
    // with the store in config.pkiDir (OPC 10000-4 6.1.3; ApplicationUri of the endpoint, host of url)
    // and config.trustCallback is asked when it is untrusted; a secure endpoint then gets a new
    // SecureChannel with its policy and mode (the None one is closed). The host and port typed here
    // are used for every (re)connection, whatever host the endpoints advertise. Fails with
    // Bad_TcpEndpointUrlInvalid, Bad_ConnectionRejected, Bad_Timeout (config.connectTimeoutMs), an
    // ERR's code (e.g. Bad_SecurityChecksFailed when the server refuses our certificate),
    // Bad_SecurityPolicyRejected (no endpoint with the wanted policy and mode), Bad_IdentityTokenRejected
    // (none of them takes the identity's token type), Bad_ConfigurationError (no own certificate in
    // pkiDir), a validation status (Bad_CertificateHostNameInvalid, Bad_CertificateUriInvalid,
    // Bad_CertificateTimeInvalid, ...), Bad_CertificateUntrusted (the trust callback rejected it), or
    // Bad_InvalidState when not Disconnected.
    void connectToServer(const QString& url, QObject* context, ServiceCallback<GetEndpointsResponse> done);
    // Discovery (Discovery.h; OPC 10000-4 5.4.2, 5.4.4): opens a connection to url with
    // SecurityPolicy None, calls FindServers (no filter) and GetEndpoints (for url), and closes it
    // again (the Client is Disconnected before and after, Connecting meanwhile; no endpoint is
    // chosen, no certificate checked, no reconnect). Fails with Bad_TcpEndpointUrlInvalid,
    // Bad_ConnectionRejected, Bad_Timeout (config.connectTimeoutMs; config.requestTimeoutMs per
    // service), an ERR's code, GetEndpoints' result, or Bad_InvalidState when not Disconnected.
    void discover(const QString& url, QObject* context, DiscoveryCallback done);
    // CreateSession + ActivateSession with config.identity, then reads the NamespaceArray (i=2255) for
    // nodeIdConverter(). On a secure channel the client sends its certificate and a 32-byte nonce,
    // checks the serverSignature (Bad_ApplicationSignatureInvalid), the server certificate (the
    // endpoint's, else Bad_SecurityChecksFailed) and that serverEndpoints match GetEndpoints'
    // (Bad_SecurityChecksFailed; the Session is closed then), and signs ActivateSession (OPC 10000-4
    // 5.6.2, 5.6.3). The callback gets the CreateSession response (sessionId, revised timeout); status
    // is the first failure, e.g. the server's Bad_UserAccessDenied / Bad_IdentityTokenRejected for a
    // refused user. Needs state ChannelOpen.
    void createSession(QObject* context, ServiceCallback<CreateSessionResponse> done);
    // CloseSession (deleteSubscriptions = true); the SecureChannel stays open (state ChannelOpen).
    void closeSession(QObject* context, ServiceCallback<CloseSessionResponse> done);
    // CloseSession if a Session is active, CloseSecureChannel, socket closed; stops reconnecting.
    void disconnectFromServer(QObject* context, StatusCallback done);

    // --- Services ----------------------------------------------------------------------------------

    // Any service: Req is a generated request type, Resp its response type. The RequestHeader's
    // authenticationToken, timestamp, requestHandle and timeoutHint are filled in at send time.
    // timeoutMs: 0 = config.requestTimeoutMs. Requests made while (re)connecting wait until the
    // Session is back (their timeout runs meanwhile). See ServiceResult for the statuses.
    template <class Req, class Resp>
    void call(Req request, QObject* context, ServiceCallback<Resp> done, uint32_t timeoutMs = 0) {
        if (m_core->thread() == QThread::currentThread()) {  // as post(): no event, and the request not moved again
            m_core->call<Req, Resp>(std::move(request), timeoutMs, inContext(context, std::move(done)));
            return;
        }
        post([core = m_core, request = std::move(request), done = inContext(context, std::move(done)), timeoutMs]() mutable {
            core->call<Req, Resp>(std::move(request), timeoutMs, std::move(done));
        });
    }

    // Read (OPC 10000-4 5.10.2).
    void read(ReadRequest request, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs = 0);
    // Read with a request the caller keeps for its next Read (a load generator's loop): called on
    // ioThread() with the Session ready, it is encoded straight from request, which is left as it
    // was but for its RequestHeader (filled in as for read()); otherwise (another thread, or a
    // call that waits for the reconnect) a copy of it is sent. Saves building, moving and freeing
    // a request per call.
    void readInPlace(ReadRequest& request, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs = 0);
    // Read of the Value attribute of each node (maxAge 0, TimestampsToReturn Both).
    void readValues(const std::vector<NodeId>& nodes, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs = 0);
    // Write (OPC 10000-4 5.10.4).
    void write(WriteRequest request, QObject* context, ServiceCallback<WriteResponse> done, uint32_t timeoutMs = 0);
    // Write of one Value attribute.
    void writeValue(const NodeId& node, const Variant& value, QObject* context, ServiceCallback<WriteResponse> done, uint32_t timeoutMs = 0);
    // Browse (OPC 10000-4 5.8.2) that follows every ContinuationPoint with BrowseNext (5.8.3) and
    // returns each node's references merged into one BrowseResult (its continuationPoint empty); see
    // BrowseOptions to stop early (the ContinuationPoint is then released). Each round trip has the
    // timeout; a failed BrowseNext sets its status on the nodes still open and releases their
    // ContinuationPoints.
    void browse(BrowseRequest request, BrowseOptions options, QObject* context, ServiceCallback<BrowseResponse> done,
                uint32_t timeoutMs = 0);
    // TranslateBrowsePathsToNodeIds (OPC 10000-4 5.8.4); see RelativePath.h for paths from text.
    void translateBrowsePaths(std::vector<BrowsePath> paths, QObject* context,
                              ServiceCallback<TranslateBrowsePathsToNodeIdsResponse> done, uint32_t timeoutMs = 0);
    // Call (OPC 10000-4 5.11.2): invokes each Method; response.results holds one CallMethodResult per
    // CallMethodRequest, in order (statusCode, inputArgumentResults, outputArguments). status is Bad
    // only when the request as a whole failed (e.g. Bad_NothingToDo, Bad_TooManyOperations); a
    // Method's own failure (Bad_MethodInvalid, Bad_ArgumentsMissing, Bad_InvalidArgument, ...) is its
    // result's statusCode. A long-running Method needs a timeoutMs longer than it runs.
    void call(std::vector<CallMethodRequest> methods, QObject* context, ServiceCallback<CallResponse> done,
              uint32_t timeoutMs = 0);
    // Call of one Method of objectId with the inputs; its result is response.results[0].
    void callMethod(const NodeId& objectId, const NodeId& methodId, std::vector<Variant> inputs, QObject* context,
                    ServiceCallback<CallResponse> done, uint32_t timeoutMs = 0);

    // --- Historical Access (OPC 10000-4 5.11.3, 5.11.5; OPC 10000-11; docs/Client.md "History") ------
    // The reads follow every ContinuationPoint (HistoryContinuation.h) until each node's values are
    // in or options.maxValues stops it (its ContinuationPoint released, status Good_MoreData), and
    // complete with one HistoryNodeValues per node (HistoryRead.h). status is Bad only when the first
    // request failed as a whole (Bad_NothingToDo, Bad_TooManyOperations, Bad_HistoryOperationInvalid,
    // Bad_HistoryOperationUnsupported, Bad_TimestampsToReturnInvalid, Bad_AggregateListMismatch, a
    // ServiceFault, a local error); a node's own failure is its status. Each request has the timeout.
    // DateTime is 100-ns ticks since 1601 (a MinValue DateTime is "not given"), intervals are ms.

    // Read Raw (isReadModified false) or Read Modified (true) (OPC 10000-11 6.5.3): the values from
    // startTime (included) to endTime (excluded; with returnBounds both included, plus the bounding
    // values), at most numValuesPerNode per request (0: as many as the server gives); at least two of
    // startTime, endTime and numValuesPerNode given; endTime before startTime reads backwards.
    void historyReadRaw(const std::vector<NodeId>& nodes, const ReadRawModifiedDetails& details, HistoryReadOptions options,
                        QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs = 0);
    // Read Processed (OPC 10000-11 6.5.4; OPC 10000-13): one value per processing interval and node,
    // of the node's aggregate (AggregateNames.h for the NodeIds).
    void historyReadProcessed(const std::vector<NodeId>& nodes, const HistoryProcessedRead& read, HistoryReadOptions options,
                              QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs = 0);
    // Read At Time (OPC 10000-11 6.5.5): one value per time of details.reqTimes and node, the raw one at
    // that time or one interpolated (useSimpleBounds: from the simple bounding values).
    void historyReadAtTime(const std::vector<NodeId>& nodes, const ReadAtTimeDetails& details, HistoryReadOptions options,
                           QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs = 0);
    // Any HistoryRead of data (IndexRange, dataEncoding of the nodes as the caller sets them), with the
    // ContinuationPoints followed as above; the nodes' continuationPoints are sent as given, and
    // request.timestampsToReturn is replaced by options.timestampsToReturn.
    void historyRead(HistoryReadRequest request, HistoryReadOptions options, QObject* context, ServiceCallback<HistoryValues> done,
                     uint32_t timeoutMs = 0);
    // HistoryUpdate (OPC 10000-4 5.11.5) of raw values: insert, replace, update, delete (HistoryUpdate.h);
    // response.results has one HistoryUpdateResult per operation. Servers allow it only to users with
    // the history rights (ours: the Engineer and ConfigureAdmin roles; others get Bad_UserAccessDenied).
    void historyUpdate(std::vector<HistoryUpdateOperation> operations, QObject* context, ServiceCallback<HistoryUpdateResponse> done,
                       uint32_t timeoutMs = 0);

    // --- Subscriptions (OPC 10000-4 5.13, 5.12; ClientSubscription.h, docs/Client.md "Subscriptions") ---
    // The client keeps Publish requests outstanding while a subscription exists, acknowledges
    // every message, Republishes gaps, supervises keep-alives, and after a lost Session transfers
    // the subscriptions to the new one (or creates them again with the same client handles).
    // handlers.notification / handlers.status and the items' callbacks run in context's thread
    // (nullptr: the I/O thread), like every callback here; `done` too. A subscription stays in the
    // Client until deleteSubscription() (also across disconnectFromServer() and a new Session).

    // CreateSubscription; done gets the handle, the server's subscriptionId and the revised values.
    void createSubscription(const SubscriptionSettings& settings, QObject* context, SubscriptionHandlers handlers,
                            SubscriptionCallback done);
    // ModifySubscription (publishingEnabled is not changed by it); Bad_SubscriptionIdInvalid for an unknown handle.
    void modifySubscription(SubscriptionHandle subscription, const SubscriptionSettings& settings, QObject* context,
                            SubscriptionCallback done);
    // DeleteSubscriptions of one; its notifications stop at once.
    void deleteSubscription(SubscriptionHandle subscription, QObject* context, StatusCallback done);
    // CreateMonitoredItems (TimestampsToReturn Both). Items the server refuses are not kept;
    // a clientHandle already used in the subscription: Bad_InvalidArgument, not sent.
    void createMonitoredItems(SubscriptionHandle subscription, std::vector<MonitoredItemSpec> items, QObject* context,
                              MonitoredItemsCallback done);
    // ModifyMonitoredItems, DeleteMonitoredItems, SetMonitoringMode by clientHandle
    // (Bad_MonitoredItemIdInvalid for a handle the subscription does not have).
    void modifyMonitoredItems(SubscriptionHandle subscription, std::vector<MonitoredItemChange> changes, QObject* context,
                              MonitoredItemsCallback done);
    void deleteMonitoredItems(SubscriptionHandle subscription, std::vector<uint32_t> clientHandles, QObject* context,
                              MonitoredItemsCallback done);
    void setMonitoringMode(SubscriptionHandle subscription, std::vector<uint32_t> clientHandles, MonitoringMode mode,
                           QObject* context, MonitoredItemsCallback done);
    // Counters of the Publish pipeline, acknowledgements and Republish (any thread).
    ClientSubscriptionCounters subscriptionCounters() const;

    // --- State (any thread) ------------------------------------------------------------------------
    State state() const { return m_core->state(); }
    NodeId sessionId() const { return m_core->snapshot().sessionId; }
    Array<EndpointDescription> endpoints() const { return m_core->snapshot().endpoints; }
    // Conversion to and from "nsu=" strings with the server's current NamespaceArray.
    NodeIdConverter nodeIdConverter() const { return m_core->snapshot().nodeIdConverter; }
    ClientSnapshot snapshot() const { return m_core->snapshot(); }
    const ClientConfig& config() const { return m_config; }
    QThread* ioThread() const { return m_core->thread(); }

signals:
    // Every change of state(); reason says why (e.g. the ERR's code or Bad_ConnectionClosed when
    // the connection was lost, Bad_Timeout when the keep-alive got no answer).
    void stateChanged(ua::ClientState state, ua::StatusCode reason);
    // Server.ServerStatus.State as the keep-alive read it, when it changes.
    void serverStateChanged(ua::ServerState state);
    // A reconnect found the server no longer knew the Session and created a new one.
    void sessionRecreated(ua::NodeId sessionId);

private:
    void init(QThread* ioThread);
    template <class F>
    void post(F&& f) {
        // On the I/O thread already (a callback without context, e.g. the load tester issuing the
        // next request from a response): run now, without an event and its allocation.
        if (m_core->thread() == QThread::currentThread()) {
            std::forward<F>(f)();
            return;
        }
        QMetaObject::invokeMethod(m_core, std::forward<F>(f), Qt::QueuedConnection);
    }
    // Wraps a callback so that it runs in context's thread (see the header comment).
    template <class Arg>
    static std::function<void(Arg)> inContext(QObject* context, std::function<void(Arg)> fn) {
        if (!fn || !context) return fn;
        return [ref = ContextRef(context), fn = std::move(fn)](Arg a) {
            if (ref.isHome()) ref.run([&] { fn(a); });  // at once, without copying the argument
            else ref.post([fn, v = std::decay_t<Arg>(a)] { fn(v); });
        };
    }

    ClientConfig m_config;
    ClientCore* m_core = nullptr;
    SubscriptionManager* m_subs = nullptr;  // a child of m_core, on the I/O thread
    QThread* m_ownThread = nullptr;
};

} // namespace ua
