// Our Client against our Server in process, and against scripted peers for what a well-behaved
// server never does (silence, ERR, abort chunks, late answers), with a TCP proxy in between to cut
// or freeze the connection without touching the server.
#include "ClientTestUtil.h"
#include "ScriptedServer.h"
#include "TcpProxy.h"

#include "ua/client/Client.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QSignalSpy>
#include <chrono>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

ServerConfig inProcessServerConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 2;
    cfg.demoNamespace = false;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the tests write anonymously
    return cfg;
}

ClientConfig inProcessClientConfig() {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;  // on only where a test wants it
    cfg.reconnect.initialDelayMs = 50;
    cfg.reconnect.maxDelayMs = 500;
    return cfg;
}


int64_t steadyNowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ReadRequest readOf(const std::vector<NodeId>& nodes) {
    ReadRequest r;
    r.timestampsToReturn = TimestampsToReturn::Both;
    for (const auto& n : nodes) {
        ReadValueId v;
        v.nodeId = n;
        v.attributeId = uint32_t(AttributeId::Value);
        r.nodesToRead.push_back(std::move(v));
    }
    return r;
}

ReadRequest bigReadRequest(int nodes) {
    std::vector<NodeId> ids;
    for (int i = 0; i < nodes; ++i) ids.push_back(numericNode(1, uint32_t(1000 + i % 100)));
    return readOf(ids);
}

} // namespace

class TestClient : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void connectCreatesAndClosesASession();
    void callbacksRunInTheirContextThread();
    void endpointHostIsNotFollowed();
    void readWriteBrowseTranslate();
    void browseStopsEarlyAndReleasesContinuationPoints();
    void genericCallsForTheOtherServices();
    void browseReleasesWhatItAbandons();
    void manyRequestsOutstanding();
    void unsupportedServiceIsTheCallsResult();
    void requestsAreChunkedForASmallServerBuffer();
    void largeResponsesAreReassembled();
    void requestOverServerMaxMessageSizeFailsLocally();
    void connectTimesOutOnASilentServer();
    void connectFailsOnRefusedPort();
    void requestTimesOutAndLateResponsesAreDropped();
    void errFailsEveryPendingRequest();
    void abortChunkFailsOnlyItsRequest();
    void busyServerIsRetriedWithBackoff();
    void tokenIsRenewedBeforeItExpires();
    void reconnectsToTheSameSession();
    void requestsWaitWhileReconnecting();
    void keepAliveFindsADeadLink();
    void reconnectCreatesANewSessionWhenTheOldIsGone();
    void disconnectStopsReconnecting();

private:
    // HEL, OPN, GetEndpoints, CreateSession, ActivateSession; Good or the first failure.
    StatusCode connectSession(Client& client, const QString& url);
    std::unique_ptr<Server> startServer(ServerConfig cfg = inProcessServerConfig());
};

void TestClient::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
}

std::unique_ptr<Server> TestClient::startServer(ServerConfig cfg) {
    auto s = std::make_unique<Server>(cfg);
    if (!s->start()) return nullptr;
    return s;
}

StatusCode TestClient::connectSession(Client& client, const QString& url) {
    return ua::test::connectSession(client, url, this);
}

void TestClient::connectCreatesAndClosesASession() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QSignalSpy states(&client, &Client::stateChanged);
    QCOMPARE(client.state(), ClientState::Disconnected);

    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(urlOf(server->port()), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::Good);
    QCOMPARE(c->response.endpoints.size(), std::size_t(1));
    QCOMPARE(c->response.endpoints[0].securityPolicyUri, String(kSecurityPolicyNone));
    QCOMPARE(client.state(), ClientState::ChannelOpen);
    QCOMPARE(client.endpoints().size(), std::size_t(1));
    QCOMPARE(client.snapshot().acknowledge.receiveBufferSize, server->config().transport.receiveBufferSize);

    Awaited<ServiceResult<CreateSessionResponse>> s;
    client.createSession(this, s.callback());
    QVERIFY(s.wait());
    QCOMPARE(s->status, status::Good);
    QCOMPARE(s->response.sessionId.namespaceIndex(), uint16_t(1));
    QCOMPARE(client.state(), ClientState::Connected);
    QCOMPARE(client.sessionId(), s->response.sessionId);
    QCOMPARE(server->sessions().count(), 1);
    QVERIFY(server->sessions().snapshot()[0]->activated);
    // The NamespaceArray was read after the activation: the server's own URI is index 1.
    const NodeIdConverter conv = client.nodeIdConverter();
    QVERIFY(conv.namespaceArray().size() >= 2);
    QCOMPARE(conv.namespaceArray()[1].toQString(), server->config().applicationUri);
    QCOMPARE(QString::fromStdString(*conv.toPersistentString(NodeId(1, 1000))),
             QStringLiteral("nsu=%1;i=1000").arg(server->config().applicationUri));

    // A second session on the same client is refused.
    Awaited<ServiceResult<CreateSessionResponse>> again;
    client.createSession(this, again.callback());
    QVERIFY(again.wait());
    QCOMPARE(again->status, status::BadInvalidState);

    Awaited<ServiceResult<CloseSessionResponse>> closed;
    client.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    QCOMPARE(closed->status, status::Good);
    QCOMPARE(server->sessions().count(), 0);
    QCOMPARE(client.state(), ClientState::ChannelOpen);
    QVERIFY(client.sessionId().isNull());

    Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(*d, status::Good);
    QCOMPARE(client.state(), ClientState::Disconnected);
    QTRY_COMPARE(server->channelCount.load(), 0);  // CLO closed the server's side

    // Connecting, ChannelOpen, Connected, ChannelOpen, Disconnected, in this order.
    QTRY_COMPARE(states.size(), 5);
    QStringList seen;
    for (const auto& args : states) seen << enumName(args.at(0).value<ClientState>());
    QCOMPARE(seen, (QStringList{"Connecting", "ChannelOpen", "Connected", "ChannelOpen", "Disconnected"}));
}

void TestClient::callbacksRunInTheirContextThread() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Awaited<ServiceResult<ReadResponse>> inMain, onIo;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, inMain.callback());
    client.readValues({NodeId(id::Server_ServerStatus_State)}, nullptr, onIo.callback());
    QVERIFY(inMain.wait());
    QVERIFY(onIo.wait());
    QCOMPARE(inMain.thread(), QThread::currentThread());
    QCOMPARE(onIo.thread(), client.ioThread());
    QVERIFY(client.ioThread() != QThread::currentThread());
    // A destroyed context gets nothing (and nothing crashes).
    auto* ctx = new QObject;
    Awaited<ServiceResult<ReadResponse>> dropped;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, ctx, dropped.callback());
    delete ctx;
    Awaited<ServiceResult<ReadResponse>> after;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, after.callback());
    QVERIFY(after.wait());
    QTest::qWait(50);
    QVERIFY(!dropped.has());
}

void TestClient::endpointHostIsNotFollowed() {
    // The server advertises a host name nobody can resolve (as a server in a container or behind
    // NAT would): the client stays on 127.0.0.1, which it was given.
    ServerConfig cfg = inProcessServerConfig();
    cfg.hostName = QStringLiteral("ua-server.invalid");
    auto server = startServer(cfg);
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    QVERIFY(client.endpoints()[0].endpointUrl.toQString().startsWith("opc.tcp://ua-server.invalid:"));
    QCOMPARE(client.snapshot().endpointUrl, urlOf(server->port()));
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
}

void TestClient::readWriteBrowseTranslate() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);

    // Read: ServerStatus.State is Running, the benchmark variables hold their id.
    Awaited<ServiceResult<ReadResponse>> r;
    const int64_t beforeNs = steadyNowNs();
    client.readValues({NodeId(id::Server_ServerStatus_State), NodeId(1, 1000), NodeId(1, 1099)}, this, r.callback());
    QVERIFY(r.wait());
    const int64_t afterNs = steadyNowNs();
    QCOMPARE(r->status, status::Good);
    // When it arrived: the steady clock, between the call and the end of the wait.
    QVERIFY2(r->receivedAtNs >= beforeNs && r->receivedAtNs <= afterNs,
             qPrintable(QStringLiteral("%1 not in [%2, %3]").arg(r->receivedAtNs).arg(beforeNs).arg(afterNs)));
    QCOMPARE(r->response.results.size(), std::size_t(3));
    QCOMPARE(*r->response.results[0].value.get<int32_t>(), int32_t(ServerState::Running));
    QCOMPARE(*r->response.results[1].value.get<int32_t>(), 1000);
    QCOMPARE(*r->response.results[2].value.get<int32_t>(), 1099);

    // Write and read back.
    Awaited<ServiceResult<WriteResponse>> w;
    client.writeValue(NodeId(1, 1005), Variant(int32_t(-77)), this, w.callback());
    QVERIFY(w.wait());
    QCOMPARE(w->status, status::Good);
    QCOMPARE(w->response.results.size(), std::size_t(1));
    QCOMPARE(w->response.results[0], status::Good);
    Awaited<ServiceResult<ReadResponse>> back;
    client.readValues({NodeId(1, 1005)}, this, back.callback());
    QVERIFY(back.wait());
    QCOMPARE(*back->response.results[0].value.get<int32_t>(), -77);

    // Browse the Server object three references at a time: the client follows the
    // ContinuationPoints and returns what one unlimited Browse returns.
    auto browseServer = [&](uint32_t maxRefs) {
        BrowseRequest req;
        req.requestedMaxReferencesPerNode = maxRefs;
        BrowseDescription d;
        d.nodeId = NodeId(id::Server);
        d.browseDirection = BrowseDirection::Forward;
        d.referenceTypeId = NodeId(id::HierarchicalReferences);
        d.includeSubtypes = true;
        d.resultMask = uint32_t(BrowseResultMask::All);
        req.nodesToBrowse = Array<BrowseDescription>{d, d};
        Awaited<ServiceResult<BrowseResponse>> b;
        client.browse(req, BrowseOptions(), this, b.callback());
        b.wait();
        return *b;
    };
    const auto all = browseServer(0);
    const int64_t pagedFromNs = steadyNowNs();
    const auto paged = browseServer(3);
    const int64_t pagedToNs = steadyNowNs();
    QCOMPARE(all.status, status::Good);
    QCOMPARE(paged.status, status::Good);
    QVERIFY(all.receivedAtNs > 0);
    // The arrival of the last response the paged result was made of (its last BrowseNext's).
    QVERIFY(paged.receivedAtNs >= pagedFromNs && paged.receivedAtNs <= pagedToNs);
    QCOMPARE(paged.response.results.size(), std::size_t(2));
    QVERIFY(all.response.results[0].references.size() > 6);
    for (const auto& res : paged.response.results) {
        QCOMPARE(res.statusCode, status::Good);
        QVERIFY(res.continuationPoint.isEmpty());
        QCOMPARE(res.references, all.response.results[0].references);
    }

    // TranslateBrowsePaths from the text form.
    Awaited<ServiceResult<TranslateBrowsePathsToNodeIdsResponse>> t;
    client.translateBrowsePaths({*makeBrowsePath(NodeId(id::RootFolder), "/Objects/Server.ServerStatus"),
                                 *makeBrowsePath(NodeId(id::RootFolder), "/Objects/NoSuchNode")},
                                this, t.callback());
    QVERIFY(t.wait());
    QCOMPARE(t->status, status::Good);
    QCOMPARE(t->response.results.size(), std::size_t(2));
    QCOMPARE(t->response.results[0].statusCode, status::Good);
    QCOMPARE(t->response.results[0].targets.size(), std::size_t(1));
    QCOMPARE(t->response.results[0].targets[0].targetId.nodeId, NodeId(id::Server_ServerStatus));
    QCOMPARE(t->response.results[1].statusCode, status::BadNoMatch);
}

void TestClient::browseStopsEarlyAndReleasesContinuationPoints() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    // The benchmark folder (ns=1;i=999) holds 1100 variables. Stop after 10 references, 30 times:
    // each time the client releases the ContinuationPoint it no longer needs (OPC 10000-4 5.8.3).
    BrowseRequest req;
    req.requestedMaxReferencesPerNode = 4;
    BrowseDescription d;
    d.nodeId = NodeId(1, 999);
    d.browseDirection = BrowseDirection::Forward;
    d.referenceTypeId = NodeId(id::HierarchicalReferences);
    d.includeSubtypes = true;
    d.resultMask = uint32_t(BrowseResultMask::All);
    req.nodesToBrowse = Array<BrowseDescription>{d};
    BrowseOptions early;
    early.maxReferencesPerNode = 10;
    for (int i = 0; i < 30; ++i) {
        Awaited<ServiceResult<BrowseResponse>> b;
        client.browse(req, early, this, b.callback());
        QVERIFY(b.wait());
        QCOMPARE(b->status, status::Good);
        QCOMPARE(b->response.results[0].statusCode, status::Good);
        QCOMPARE(b->response.results[0].references.size(), std::size_t(12));  // 4 + 4 + 4 >= 10
        QVERIFY(b->response.results[0].continuationPoint.isEmpty());
    }
    Awaited<ServiceResult<BrowseResponse>> full;
    client.browse(req, BrowseOptions(), this, full.callback());
    QVERIFY(full.wait());
    QCOMPARE(full->response.results[0].statusCode, status::Good);
    // Unlimited, it follows every ContinuationPoint (the server returns at most 1000 per call).
    QCOMPARE(full->response.results[0].references.size(), std::size_t(1100));
}

void TestClient::genericCallsForTheOtherServices() {
    // Services without a typed helper go through call<Req, Resp>.
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);

    RegisterNodesRequest reg;
    reg.nodesToRegister = Array<NodeId>{NodeId(1, 1002)};
    Awaited<ServiceResult<RegisterNodesResponse>> r;
    client.call<RegisterNodesRequest, RegisterNodesResponse>(reg, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.registeredNodeIds.size(), std::size_t(1));
    Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({r->response.registeredNodeIds[0]}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(*read->response.results[0].value.get<int32_t>(), 1002);
    UnregisterNodesRequest unreg;
    unreg.nodesToUnregister = r->response.registeredNodeIds;
    Awaited<ServiceResult<UnregisterNodesResponse>> u;
    client.call<UnregisterNodesRequest, UnregisterNodesResponse>(unreg, this, u.callback());
    QVERIFY(u.wait());
    QCOMPARE(u->status, status::Good);

    CancelRequest cancel;
    cancel.requestHandle = 0xFFFF0000u;  // nothing outstanding with that handle
    Awaited<ServiceResult<CancelResponse>> c;
    client.call<CancelRequest, CancelResponse>(cancel, this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::Good);
    QCOMPARE(c->response.cancelCount, 0u);

    GetEndpointsRequest ge;
    ge.endpointUrl = String::fromQString(urlOf(server->port()));
    Awaited<ServiceResult<GetEndpointsResponse>> e;
    client.call<GetEndpointsRequest, GetEndpointsResponse>(ge, this, e.callback());
    QVERIFY(e.wait());
    QCOMPARE(e->status, status::Good);
    QCOMPARE(e->response.endpoints.size(), std::size_t(1));
    // A request the server refuses as a whole (a ServiceFault) fails that call only.
    BrowseRequest tooMany;
    tooMany.nodesToBrowse = Array<BrowseDescription>(std::vector<BrowseDescription>(3000));
    Awaited<ServiceResult<BrowseResponse>> b;
    client.browse(tooMany, BrowseOptions(), this, b.callback());
    QVERIFY(b.wait());
    QCOMPARE(b->status, status::BadTooManyOperations);  // over OperationLimits.MaxNodesPerBrowse
    QCOMPARE(client.state(), ClientState::Connected);
}

void TestClient::browseReleasesWhatItAbandons() {
    // A scripted server shows the BrowseNext traffic: 3 references per call, ContinuationPoints
    // "cp1", "cp2", ...; a BrowseNext of "bad" fails as a whole.
    ScriptedServer peer;
    QVERIFY(peer.listen());
    std::vector<std::pair<bool, std::vector<std::string>>> browseNexts;  // release?, points
    int64_t pageSentNs = 0;  // when the last BrowseNext that returns references was answered
    int next = 0;
    auto page = [&](BrowseResult& r) {
        for (int i = 0; i < 3; ++i) {
            ReferenceDescription ref;
            ref.referenceTypeId = NodeId(id::HasComponent);
            ref.isForward = true;
            ref.nodeId = ExpandedNodeId(numericNode(1, uint32_t(100 + next * 3 + i)));
            r.references.push_back(ref);
        }
        r.continuationPoint = ByteString("cp" + std::to_string(++next));
    };
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId == BrowseRequest::kBinaryEncodingId) {
            const auto req = r.decodeAs<BrowseRequest>();
            BrowseResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            for (std::size_t i = 0; i < req.nodesToBrowse.size(); ++i) {
                BrowseResult res;
                if (req.nodesToBrowse[i].nodeId == NodeId(1, "fails")) {
                    res.continuationPoint = ByteString("bad");
                    res.references = Array<ReferenceDescription>::emptyArray();
                } else {
                    page(res);
                }
                resp.results.push_back(res);
            }
            c.respond(r.requestId, resp);
            return true;
        }
        if (r.typeId == BrowseNextRequest::kBinaryEncodingId) {
            const auto req = r.decodeAs<BrowseNextRequest>();
            std::vector<std::string> points;
            for (const auto& p : req.continuationPoints) points.push_back(p.str());
            browseNexts.emplace_back(req.releaseContinuationPoints, points);
            if (!req.releaseContinuationPoints && points == std::vector<std::string>{"bad"}) {
                c.fault(r.requestId, status::BadContinuationPointInvalid);
                return true;
            }
            BrowseNextResponse resp;
            resp.responseHeader.requestHandle = r.header.requestHandle;
            for (std::size_t i = 0; i < points.size(); ++i) {
                BrowseResult res;
                if (!req.releaseContinuationPoints) page(res);
                resp.results.push_back(res);
            }
            if (!req.releaseContinuationPoints) pageSentNs = steadyNowNs();
            c.respond(r.requestId, resp);
            return true;
        }
        return false;
    };
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, peer.url()), status::Good);
    BrowseRequest req;
    BrowseDescription d;
    d.nodeId = NodeId(id::Server);
    req.nodesToBrowse = Array<BrowseDescription>{d};
    BrowseOptions early;
    early.maxReferencesPerNode = 5;
    Awaited<ServiceResult<BrowseResponse>> b;
    client.browse(req, early, this, b.callback());
    QVERIFY(b.wait());
    QCOMPARE(b->status, status::Good);
    QCOMPARE(b->response.results[0].references.size(), std::size_t(6));  // 3 + 3 >= 5
    QVERIFY(b->response.results[0].continuationPoint.isEmpty());
    // Its arrival is the BrowseNext response's, the last it was made of (not the Browse's).
    QVERIFY2(b->receivedAtNs >= pageSentNs, qPrintable(QStringLiteral("%1 < %2").arg(b->receivedAtNs).arg(pageSentNs)));
    QTRY_COMPARE(browseNexts.size(), std::size_t(2));
    QCOMPARE(browseNexts[0], (std::pair<bool, std::vector<std::string>>{false, {"cp1"}}));
    QCOMPARE(browseNexts[1], (std::pair<bool, std::vector<std::string>>{true, {"cp2"}}));  // released

    // A BrowseNext that fails as a whole: the node gets its status, its point is released.
    browseNexts.clear();
    BrowseDescription failing;
    failing.nodeId = NodeId(1, "fails");
    req.nodesToBrowse = Array<BrowseDescription>{d, failing};
    early.maxReferencesPerNode = 3;
    Awaited<ServiceResult<BrowseResponse>> f;
    client.browse(req, early, this, f.callback());
    QVERIFY(f.wait());
    QCOMPARE(f->status, status::Good);
    QCOMPARE(f->response.results[0].statusCode, status::Good);
    QCOMPARE(f->response.results[0].references.size(), std::size_t(3));
    QCOMPARE(f->response.results[1].statusCode, status::BadContinuationPointInvalid);
    QTRY_COMPARE(browseNexts.size(), std::size_t(3));
    QCOMPARE(browseNexts[0], (std::pair<bool, std::vector<std::string>>{true, {"cp3"}}));   // node 0 has enough
    QCOMPARE(browseNexts[1], (std::pair<bool, std::vector<std::string>>{false, {"bad"}}));
    QCOMPARE(browseNexts[2], (std::pair<bool, std::vector<std::string>>{true, {"bad"}}));
}

void TestClient::manyRequestsOutstanding() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    // 500 requests issued at once, from the test thread, before any answer is in.
    constexpr int kRequests = 500;
    int done = 0, good = 0, matched = 0;
    for (int i = 0; i < kRequests; ++i) {
        const NodeId node = numericNode(1, uint32_t(1000 + i % 100));
        client.readValues({node}, this, [&, i](const ServiceResult<ReadResponse>& r) {
            ++done;
            if (r.status.isGood()) ++good;
            if (r.response.results.size() == 1 && r.response.results[0].value.get<int32_t>() &&
                *r.response.results[0].value.get<int32_t>() == 1000 + i % 100)
                ++matched;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done, kRequests, 20000);
    QCOMPARE(good, kRequests);
    QCOMPARE(matched, kRequests);  // each answer went to its own request
}

void TestClient::unsupportedServiceIsTheCallsResult() {
    auto server = startServer();
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Awaited<ServiceResult<QueryFirstResponse>> q;
    client.call<QueryFirstRequest, QueryFirstResponse>(QueryFirstRequest(), this, q.callback());
    QVERIFY(q.wait());
    QCOMPARE(q->status, status::BadServiceUnsupported);
    QCOMPARE(q->response.responseHeader.serviceResult, status::BadServiceUnsupported);
    // The Session and the channel are fine.
    Awaited<ServiceResult<FindServersResponse>> f;
    client.call<FindServersRequest, FindServersResponse>(FindServersRequest(), this, f.callback());
    QVERIFY(f.wait());
    QCOMPARE(f->status, status::Good);
    QCOMPARE(f->response.servers.size(), std::size_t(1));
    QCOMPARE(client.state(), ClientState::Connected);
}

void TestClient::requestsAreChunkedForASmallServerBuffer() {
    ServerConfig cfg = inProcessServerConfig();
    cfg.transport.receiveBufferSize = 8192;
    cfg.operationLimits.maxNodesPerRead = 0;  // no operation limit in the way of 2000 nodes
    auto server = startServer(cfg);
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    QCOMPARE(client.snapshot().acknowledge.receiveBufferSize, 8192u);
    // ~36 KB of request: five chunks of at most 8 KiB (a larger one would get ERR
    // Bad_TcpMessageTooLarge and a closed connection).
    Awaited<ServiceResult<ReadResponse>> r;
    client.read(bigReadRequest(2000), this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.results.size(), std::size_t(2000));
    QCOMPARE(*r->response.results[1999].value.get<int32_t>(), 1000 + 1999 % 100);
    QCOMPARE(client.state(), ClientState::Connected);
    QCOMPARE(server->channelCount.load(), 1);
}

void TestClient::largeResponsesAreReassembled() {
    auto server = startServer();
    QVERIFY(server);
    ClientConfig cfg = inProcessClientConfig();
    cfg.transport.receiveBufferSize = 8192;  // the server must split its answers for us
    Client client(cfg);
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    QCOMPARE(client.snapshot().acknowledge.sendBufferSize, 8192u);
    Awaited<ServiceResult<ReadResponse>> r;
    client.read(bigReadRequest(1000), this, r.callback());  // ~ 1000 x 18 bytes of DataValues
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.results.size(), std::size_t(1000));
    for (std::size_t i = 0; i < 1000; ++i) QCOMPARE(*r->response.results[i].value.get<int32_t>(), int32_t(1000 + i % 100));
}

void TestClient::requestOverServerMaxMessageSizeFailsLocally() {
    ServerConfig cfg = inProcessServerConfig();
    cfg.transport.maxMessageSize = 16384;
    auto server = startServer(cfg);
    QVERIFY(server);
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    Awaited<ServiceResult<ReadResponse>> big, small;
    client.read(bigReadRequest(2000), this, big.callback());
    client.read(bigReadRequest(10), this, small.callback());
    QVERIFY(big.wait());
    QCOMPARE(big->status, status::BadRequestTooLarge);  // refused before sending (7.1.2.4)
    QVERIFY(small.wait());
    QCOMPARE(small->status, status::Good);
    QCOMPARE(client.state(), ClientState::Connected);
}

void TestClient::connectTimesOutOnASilentServer() {
    ScriptedServer silent(ScriptedServer::Mode::Silent);
    QVERIFY(silent.listen());
    ClientConfig cfg = inProcessClientConfig();
    cfg.connectTimeoutMs = 400;
    Client client(cfg);
    QElapsedTimer t;
    t.start();
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(silent.url(), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::BadTimeout);
    QVERIFY(t.elapsed() >= 350);
    QCOMPARE(client.state(), ClientState::Disconnected);
    QCOMPARE(silent.connections(), 1);
    // Calls without a connection fail at once.
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::BadServerNotConnected);
}

void TestClient::connectFailsOnRefusedPort() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();  // nothing listens there now
    Client client(inProcessClientConfig());
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(urlOf(port), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::BadConnectionRejected);
    Awaited<ServiceResult<GetEndpointsResponse>> bad;
    client.connectToServer(QStringLiteral("http://127.0.0.1:1"), this, bad.callback());
    QVERIFY(bad.wait());
    QCOMPARE(bad->status, status::BadTcpEndpointUrlInvalid);
}

void TestClient::requestTimesOutAndLateResponsesAreDropped() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    // Reads of ns=1;i=7 are held and answered a second later; everything else normally.
    std::vector<std::pair<ScriptedServer::Connection*, ScriptedServer::Request>> held;
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId != ReadRequest::kBinaryEncodingId) return false;
        const auto req = r.decodeAs<ReadRequest>();
        if (req.nodesToRead.size() != 1 || !(req.nodesToRead[0].nodeId == NodeId(1, 7))) return false;
        held.emplace_back(&c, r);
        return true;
    };
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, peer.url()), status::Good);
    QElapsedTimer t;
    t.start();
    Awaited<ServiceResult<ReadResponse>> slow, fast;
    client.readValues({NodeId(1, 7)}, this, slow.callback(), 300);
    client.readValues({NodeId(1, 8)}, this, fast.callback());
    QVERIFY(fast.wait());
    QCOMPARE(fast->status, status::Good);
    QVERIFY(fast->receivedAtNs > 0);
    QVERIFY(!slow.has());
    QVERIFY(slow.wait());
    QCOMPARE(slow->status, status::BadTimeout);
    QCOMPARE(slow->receivedAtNs, int64_t(0));  // no response: no arrival (not the last Read's)
    QVERIFY(t.elapsed() >= 280);
    // The server was told the timeout (OPC 10000-4 7.32 timeoutHint).
    QCOMPARE(held.size(), std::size_t(1));
    QCOMPARE(held[0].second.header.timeoutHint, 300u);
    // The late answer arrives: it is dropped, the call is not completed twice, the channel stays.
    ReadResponse late;
    late.responseHeader.requestHandle = held[0].second.header.requestHandle;
    late.results = Array<DataValue>{DataValue(Variant(int32_t(7)))};
    held[0].first->respond(held[0].second.requestId, late);
    Awaited<ServiceResult<ReadResponse>> next;
    client.readValues({NodeId(1, 9)}, this, next.callback());
    QVERIFY(next.wait());
    QCOMPARE(next->status, status::Good);
    QCOMPARE(slow.calls(), 1);
    QCOMPARE(client.state(), ClientState::Connected);
}

void TestClient::errFailsEveryPendingRequest() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    // Reads are held; a QueryFirst makes the server send ERR.
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId == QueryFirstRequest::kBinaryEncodingId) {
            c.sendErr(status::BadTcpInternalError);
            return true;
        }
        if (r.typeId == ReadRequest::kBinaryEncodingId && r.decodeAs<ReadRequest>().nodesToRead.size() == 3) return true;
        return false;
    };
    ClientConfig cfg = inProcessClientConfig();
    cfg.autoReconnect = false;
    Client client(cfg);
    QCOMPARE(connectSession(client, peer.url()), status::Good);
    QSignalSpy states(&client, &Client::stateChanged);
    std::vector<Awaited<ServiceResult<ReadResponse>>> held(4);
    for (auto& h : held) client.readValues({NodeId(1, 1), NodeId(1, 2), NodeId(1, 3)}, this, h.callback());
    QTRY_COMPARE(int(peer.received().size()), 4 + 4);  // GetEndpoints, Create, Activate, NamespaceArray + 4
    Awaited<ServiceResult<QueryFirstResponse>> trigger;
    client.call<QueryFirstRequest, QueryFirstResponse>(QueryFirstRequest(), this, trigger.callback());
    QVERIFY(trigger.wait());
    QCOMPARE(trigger->status, status::BadTcpInternalError);
    for (auto& h : held) {
        QVERIFY(h.wait());
        QCOMPARE(h->status, status::BadTcpInternalError);
    }
    QTRY_COMPARE(client.state(), ClientState::Disconnected);
    // state() changes on the I/O thread before the queued stateChanged reaches this thread.
    QTRY_VERIFY(!states.isEmpty() && states.last().at(0).value<ClientState>() == ClientState::Disconnected);
    QCOMPARE(states.last().at(1).value<StatusCode>(), status::BadTcpInternalError);
}

void TestClient::abortChunkFailsOnlyItsRequest() {
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId == QueryFirstRequest::kBinaryEncodingId) {
            c.abortResponse(r.requestId, status::BadEncodingLimitsExceeded);
            return true;
        }
        return false;
    };
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, peer.url()), status::Good);
    Awaited<ServiceResult<QueryFirstResponse>> aborted;
    Awaited<ServiceResult<ReadResponse>> fine;
    client.call<QueryFirstRequest, QueryFirstResponse>(QueryFirstRequest(), this, aborted.callback());
    client.readValues({NodeId(1, 1)}, this, fine.callback());
    QVERIFY(aborted.wait());
    QCOMPARE(aborted->status, status::BadEncodingLimitsExceeded);
    QVERIFY(fine.wait());
    QCOMPARE(fine->status, status::Good);
    QCOMPARE(client.state(), ClientState::Connected);
    QCOMPARE(peer.connections(), 1);
}

void TestClient::busyServerIsRetriedWithBackoff() {
    // ERR Bad_TcpServerTooBusy on the first two Hellos, Bad_ServerTooBusy on the first two
    // CreateSessions: the client backs off and gets through.
    ScriptedServer peer;
    QVERIFY(peer.listen());
    peer.busyHellos = 2;
    int createFaults = 0;
    peer.handler = [&](ScriptedServer::Connection& c, const ScriptedServer::Request& r) {
        if (r.typeId == CreateSessionRequest::kBinaryEncodingId && createFaults < 2) {
            ++createFaults;
            c.fault(r.requestId, status::BadServerTooBusy);
            return true;
        }
        return false;
    };
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, peer.url()), status::Good);
    QCOMPARE(peer.connections(), 3);
    QCOMPARE(createFaults, 2);
    QCOMPARE(client.state(), ClientState::Connected);

    // Out of retries, the code reaches the caller.
    ScriptedServer busy;
    QVERIFY(busy.listen());
    busy.busyHellos = 100;
    ClientConfig cfg = inProcessClientConfig();
    cfg.busyRetries = 1;
    Client limited(cfg);
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    limited.connectToServer(busy.url(), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::BadTcpServerTooBusy);
    QCOMPARE(busy.connections(), 2);
    QCOMPARE(limited.state(), ClientState::Disconnected);
}

void TestClient::tokenIsRenewedBeforeItExpires() {
    // A 1.2 s token: the server closes a channel whose token is 25 % past its lifetime, so the
    // client keeps working for 4 s only if it renews (at 75 %, 0.9 s).
    ServerConfig scfg = inProcessServerConfig();
    scfg.secureChannel.minTokenLifetimeMs = 1000;
    auto server = startServer(scfg);
    QVERIFY(server);
    ClientConfig cfg = inProcessClientConfig();
    cfg.requestedTokenLifetimeMs = 1200;
    cfg.autoReconnect = false;
    Client client(cfg);
    QCOMPARE(connectSession(client, urlOf(server->port())), status::Good);
    QSignalSpy states(&client, &Client::stateChanged);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 4000) {
        Awaited<ServiceResult<ReadResponse>> r;
        client.readValues({NodeId(id::Server_ServerStatus_State)}, this, r.callback());
        QVERIFY(r.wait());
        QCOMPARE(r->status, status::Good);
        QTest::qWait(200);
    }
    QCOMPARE(states.size(), 0);
    QCOMPARE(client.state(), ClientState::Connected);
}

void TestClient::reconnectsToTheSameSession() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId sessionId = client.sessionId();
    QSignalSpy states(&client, &Client::stateChanged);
    QSignalSpy recreated(&client, &Client::sessionRecreated);

    proxy.cutAll();  // the TCP connection breaks; the server and its Session stay
    QTRY_COMPARE(client.state(), ClientState::Reconnecting);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 10000);
    QCOMPARE(client.sessionId(), sessionId);
    QCOMPARE(recreated.size(), 0);
    QCOMPARE(proxy.accepted(), 2);
    QCOMPARE(server->sessions().count(), 1);
    QCOMPARE(server->sessions().snapshot()[0]->sessionId, sessionId);
    QCOMPARE(client.snapshot().reconnectCount, 1u);
    QTRY_COMPARE(states.size(), 2);  // Reconnecting, Connected
    QCOMPARE(states.first().at(1).value<StatusCode>(), status::BadConnectionClosed);
    // The Session works on the new channel.
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(1, 1000)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(*r->response.results[0].value.get<int32_t>(), 1000);
}

void TestClient::requestsWaitWhileReconnecting() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    proxy.refuse(true);
    proxy.cutAll();
    QTRY_COMPARE(client.state(), ClientState::Reconnecting);
    // Issued while the server cannot be reached: they wait for the Session to come back.
    Awaited<ServiceResult<ReadResponse>> r, tooShort;
    client.readValues({NodeId(1, 1001)}, this, r.callback(), 8000);
    client.readValues({NodeId(1, 1001)}, this, tooShort.callback(), 200);
    QTest::qWait(600);  // a few refused attempts with backoff
    QVERIFY(tooShort.has());
    QCOMPARE(tooShort->status, status::BadTimeout);
    QVERIFY(!r.has());
    proxy.refuse(false);
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(*r->response.results[0].value.get<int32_t>(), 1001);
    QCOMPARE(client.state(), ClientState::Connected);
    QVERIFY(proxy.accepted() >= 2);
}

void TestClient::keepAliveFindsADeadLink() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    ClientConfig cfg = inProcessClientConfig();
    cfg.keepAliveIntervalMs = 200;
    cfg.keepAliveTimeoutMs = 400;
    Client client(cfg);
    QSignalSpy serverStates(&client, &Client::serverStateChanged);
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId sessionId = client.sessionId();
    QTRY_COMPARE(serverStates.size(), 1);  // the keep-alive read ServerStatus.State: Running
    QCOMPARE(serverStates[0].at(0).value<ServerState>(), ServerState::Running);
    QSignalSpy states(&client, &Client::stateChanged);
    proxy.freeze();  // the socket stays open but nothing passes any more
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Reconnecting, 5000);
    QTRY_VERIFY(!states.isEmpty());  // signals arrive queued, after state() changed
    QCOMPARE(states.first().at(0).value<ClientState>(), ClientState::Reconnecting);
    QCOMPARE(states.first().at(1).value<StatusCode>(), status::BadTimeout);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Connected, 10000);
    QCOMPARE(client.sessionId(), sessionId);
    QCOMPARE(server->sessions().count(), 1);
}

void TestClient::reconnectCreatesANewSessionWhenTheOldIsGone() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    const NodeId oldId = client.sessionId();
    QSignalSpy recreated(&client, &Client::sessionRecreated);
    // The server forgets the Session (as after its timeout), then the connection breaks.
    server->sessions().remove(server->sessions().snapshot()[0]);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(recreated.size(), 1, 10000);
    QTRY_COMPARE(client.state(), ClientState::Connected);
    const NodeId newId = recreated[0].at(0).value<NodeId>();
    QVERIFY(!(newId == oldId));
    QCOMPARE(client.sessionId(), newId);
    QCOMPARE(server->sessions().count(), 1);
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(1, 1000)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
}

void TestClient::disconnectStopsReconnecting() {
    auto server = startServer();
    QVERIFY(server);
    TcpProxy proxy(server->port());
    QVERIFY(proxy.listen());
    Client client(inProcessClientConfig());
    QCOMPARE(connectSession(client, proxy.url()), status::Good);
    proxy.refuse(true);
    proxy.cutAll();
    QTRY_COMPARE(client.state(), ClientState::Reconnecting);
    Awaited<ServiceResult<ReadResponse>> waiting;
    client.readValues({NodeId(1, 1000)}, this, waiting.callback());
    Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(client.state(), ClientState::Disconnected);
    QVERIFY(waiting.wait());
    QCOMPARE(waiting->status, status::BadServerNotConnected);
    const int attempts = proxy.accepted();
    proxy.refuse(false);
    QTest::qWait(700);
    QCOMPARE(proxy.accepted(), attempts);  // no more attempts
    QCOMPARE(client.state(), ClientState::Disconnected);
}

UA_TEST_GUILESS_MAIN(TestClient)
#include "tst_client.moc"
