// Our Client against node-opcua's server (a real peer: both sides cannot share one misreading of
// the specification). tests/interop/node_server.js runs the server on a port it picks and prints
// "READY <port>"; the tests connect, read ServerStatus and the variables it adds, write and read
// back, browse the Server object through ContinuationPoints, translate browse paths, and close.
#include "ClientTestUtil.h"

#include "ua/client/Client.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/SecurityPolicy.h"

#include <QProcess>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"
#include <set>

using namespace ua;
using namespace ua::test;

class TestClientVsNodeServer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void connectsAndCreatesASession();
    void readsServerStatusAndVariables();
    void writesAndReadsBack();
    void browsesTheServerObjectThroughContinuationPoints();
    void releasesContinuationPointsWhenStoppingEarly();
    void translatesBrowsePaths();
    void callsAMethod();
    void manyRequestsOutstanding();
    void keepAliveReadsTheServerState();
    void closesSessionAndDisconnects();

private:
    ServiceResult<ReadResponse> readValues(const std::vector<NodeId>& nodes);
    ServiceResult<BrowseResponse> browseServer(uint32_t requestedMax, BrowseOptions options = {});

    QProcess m_node;
    quint16 m_port = 0;
    std::unique_ptr<Client> m_client;
};

void TestClientVsNodeServer::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    qRegisterMetaType<ua::ServerState>();
    m_node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    m_node.setProcessChannelMode(QProcess::SeparateChannels);
    m_node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("node_server.js"), QStringLiteral("0")});
    QVERIFY(m_node.waitForStarted());
    // node-opcua takes several seconds to start: wait for its READY line.
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += m_node.readAllStandardOutput()).contains('\n') || m_node.state() == QProcess::NotRunning, 90000);
    const QList<QByteArray> words = out.trimmed().split(' ');
    QVERIFY2(words.size() == 2 && words[0] == "READY",
             qPrintable(QString::fromUtf8(out) + QString::fromUtf8(m_node.readAllStandardError().right(3000))));
    m_port = quint16(words[1].toUInt());
    QVERIFY(m_port > 0);

    ClientConfig cfg;
    cfg.keepAliveIntervalMs = 300;
    cfg.requestTimeoutMs = 10000;
    m_client = std::make_unique<Client>(cfg);
}

void TestClientVsNodeServer::cleanupTestCase() {
    m_client.reset();
    if (m_node.state() != QProcess::NotRunning) {
        m_node.closeWriteChannel();  // node_server.js stops when its stdin closes
        if (!m_node.waitForFinished(10000)) m_node.kill();
        m_node.waitForFinished(5000);
    }
}

ServiceResult<ReadResponse> TestClientVsNodeServer::readValues(const std::vector<NodeId>& nodes) {
    Awaited<ServiceResult<ReadResponse>> r;
    m_client->readValues(nodes, this, r.callback());
    if (!r.wait()) return {status::BadTimeout, {}};
    return *r;
}

ServiceResult<BrowseResponse> TestClientVsNodeServer::browseServer(uint32_t requestedMax, BrowseOptions options) {
    BrowseRequest req;
    req.requestedMaxReferencesPerNode = requestedMax;
    BrowseDescription d;
    d.nodeId = NodeId(id::Server);
    d.browseDirection = BrowseDirection::Forward;
    d.referenceTypeId = NodeId(id::References);
    d.includeSubtypes = true;
    d.nodeClassMask = 0;
    d.resultMask = uint32_t(BrowseResultMask::All);
    req.nodesToBrowse = Array<BrowseDescription>{d};
    Awaited<ServiceResult<BrowseResponse>> b;
    m_client->browse(req, options, this, b.callback());
    if (!b.wait()) return {status::BadTimeout, {}};
    return *b;
}

void TestClientVsNodeServer::connectsAndCreatesASession() {
    // 127.0.0.1 typed; node-opcua advertises its machine name: the client stays on what it was given.
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_port);
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    m_client->connectToServer(url, this, c.callback());
    QVERIFY(c.wait(30000));
    QCOMPARE(c->status, status::Good);
    QVERIFY(!c->response.endpoints.empty());
    bool none = false;
    for (const auto& e : c->response.endpoints)
        none = none || (e.securityMode == MessageSecurityMode::None && e.securityPolicyUri == String(kSecurityPolicyNone));
    QVERIFY(none);
    QCOMPARE(m_client->state(), ClientState::ChannelOpen);

    Awaited<ServiceResult<CreateSessionResponse>> s;
    m_client->createSession(this, s.callback());
    QVERIFY(s.wait(30000));
    QCOMPARE(s->status, status::Good);
    QVERIFY(!s->response.sessionId.isNull());
    QCOMPARE(m_client->state(), ClientState::Connected);

    // The NamespaceArray was read: its own namespace is index 1, and stored NodeIds name it by URI.
    const NodeIdConverter conv = m_client->nodeIdConverter();
    QVERIFY(conv.namespaceArray().size() >= 2);
    QCOMPARE(conv.namespaceArray()[0], String(kOpcUaNamespaceUri));
    const std::string stored = *conv.toPersistentString(NodeId(1, 1000));
    QCOMPARE(QString::fromStdString(stored), QStringLiteral("nsu=%1;i=1000").arg(conv.namespaceArray()[1].toQString()));
    QCOMPARE(*conv.fromPersistentString(stored), NodeId(1, 1000));
}

void TestClientVsNodeServer::readsServerStatusAndVariables() {
    const auto status = readValues({NodeId(id::Server_ServerStatus), NodeId(id::Server_ServerStatus_State)});
    QCOMPARE(status.status, status::Good);
    QCOMPARE(status.response.results.size(), std::size_t(2));
    const ExtensionObject* xo = status.response.results[0].value.get<ExtensionObject>();
    QVERIFY(xo);
    const ServerStatusDataType* st = xo->get<ServerStatusDataType>();
    QVERIFY2(st, "ServerStatus decodes as ServerStatusDataType");
    QCOMPARE(st->state, ServerState::Running);
    QVERIFY(!st->buildInfo.productName.isEmpty());
    QCOMPARE(*status.response.results[1].value.get<int32_t>(), int32_t(ServerState::Running));

    std::vector<NodeId> ints;
    for (uint32_t i = 1000; i < 1020; ++i) ints.push_back(numericNode(1, i));
    const auto r = readValues(ints);
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.results.size(), ints.size());
    for (std::size_t i = 0; i < ints.size(); ++i) {
        QVERIFY(r.response.results[i].status.isGood());
        QCOMPARE(*r.response.results[i].value.get<int32_t>(), int32_t(1000 + i));
    }
    const auto other = readValues({NodeId(1, "Double"), NodeId(1, "String"), NodeId(1, "Int32Array")});
    QCOMPARE(other.status, status::Good);
    QCOMPARE(*other.response.results[0].value.get<double>(), 3.25);
    QCOMPARE(*other.response.results[1].value.get<String>(), String("hello"));
    QCOMPARE(*other.response.results[2].value.get<Array<int32_t>>(), (Array<int32_t>{1, 2, 3, 4, 5}));
    // An unknown node is an operation-level status, not a failed call.
    const auto unknown = readValues({NodeId(1, "NoSuchNode")});
    QCOMPARE(unknown.status, status::Good);
    QCOMPARE(unknown.response.results[0].status, status::BadNodeIdUnknown);
}

void TestClientVsNodeServer::writesAndReadsBack() {
    WriteRequest req;
    auto value = [](NodeId n, Variant v) {
        WriteValue w;
        w.nodeId = std::move(n);
        w.attributeId = uint32_t(AttributeId::Value);
        w.value.setValue(std::move(v));
        return w;
    };
    req.nodesToWrite = Array<WriteValue>{value(NodeId(1, 1005), Variant(int32_t(4242))), value(NodeId(1, "Double"), Variant(6.5)),
                                         value(NodeId(1, "String"), Variant(String("world"))),
                                         value(NodeId(1, "Int32Array"), Variant(Array<int32_t>{9, 8, 7}))};
    Awaited<ServiceResult<WriteResponse>> w;
    m_client->write(req, this, w.callback());
    QVERIFY(w.wait());
    QCOMPARE(w->status, status::Good);
    QCOMPARE(w->response.results.size(), std::size_t(4));
    for (const auto& s : w->response.results) QCOMPARE(s, status::Good);
    const auto r = readValues({NodeId(1, 1005), NodeId(1, "Double"), NodeId(1, "String"), NodeId(1, "Int32Array")});
    QCOMPARE(*r.response.results[0].value.get<int32_t>(), 4242);
    QCOMPARE(*r.response.results[1].value.get<double>(), 6.5);
    QCOMPARE(*r.response.results[2].value.get<String>(), String("world"));
    QCOMPARE(*r.response.results[3].value.get<Array<int32_t>>(), (Array<int32_t>{9, 8, 7}));
    // A wrong type is refused per operation.
    Awaited<ServiceResult<WriteResponse>> bad;
    m_client->writeValue(NodeId(1, "Double"), Variant(String("not a double")), this, bad.callback());
    QVERIFY(bad.wait());
    QCOMPARE(bad->status, status::Good);
    QCOMPARE(bad->response.results[0], status::BadTypeMismatch);
}

void TestClientVsNodeServer::browsesTheServerObjectThroughContinuationPoints() {
    const auto all = browseServer(0);
    const auto paged = browseServer(3);  // node-opcua hands out 3 at a time with ContinuationPoints
    QCOMPARE(all.status, status::Good);
    QCOMPARE(paged.status, status::Good);
    QCOMPARE(paged.response.results[0].statusCode, status::Good);
    QVERIFY(paged.response.results[0].continuationPoint.isEmpty());
    const auto& allRefs = all.response.results[0].references;
    const auto& pagedRefs = paged.response.results[0].references;
    QVERIFY2(allRefs.size() > 10, "the Server object has ServerStatus, NamespaceArray, ServerCapabilities, ...");
    QCOMPARE(pagedRefs.size(), allRefs.size());
    std::set<std::string> a, p;
    for (const auto& r : allRefs) a.insert(r.referenceTypeId.toString() + ">" + r.nodeId.toString());
    for (const auto& r : pagedRefs) p.insert(r.referenceTypeId.toString() + ">" + r.nodeId.toString());
    QCOMPARE(p, a);
    QVERIFY(a.count("i=47>i=2256"));  // HasComponent ServerStatus
    QVERIFY(a.count("i=46>i=2255"));  // HasProperty NamespaceArray
}

void TestClientVsNodeServer::releasesContinuationPointsWhenStoppingEarly() {
    // Stop after 3 references, 25 times over. Unreleased ContinuationPoints would exhaust the
    // Session's (node-opcua answers Bad_NoContinuationPoints then).
    BrowseOptions early;
    early.maxReferencesPerNode = 3;
    for (int i = 0; i < 25; ++i) {
        const auto r = browseServer(3, early);
        QCOMPARE(r.status, status::Good);
        QCOMPARE(r.response.results[0].statusCode, status::Good);
        QCOMPARE(r.response.results[0].references.size(), std::size_t(3));
        QVERIFY(r.response.results[0].continuationPoint.isEmpty());
    }
    const auto full = browseServer(3);
    QCOMPARE(full.response.results[0].statusCode, status::Good);
    QVERIFY(full.response.results[0].references.size() > 10);
}

void TestClientVsNodeServer::translatesBrowsePaths() {
    Awaited<ServiceResult<TranslateBrowsePathsToNodeIdsResponse>> t;
    m_client->translateBrowsePaths({*makeBrowsePath(NodeId(id::RootFolder), "/Objects/Server/ServerStatus"),
                                    *makeBrowsePath(NodeId(id::RootFolder), "/Objects/1:Bench.1:Double"),
                                    *makeBrowsePath(NodeId(id::ObjectsFolder), "/Server.ServerStatus.State"),
                                    *makeBrowsePath(NodeId(id::RootFolder), "/Objects/NoSuchThing")},
                                   this, t.callback());
    QVERIFY(t.wait());
    QCOMPARE(t->status, status::Good);
    const auto& results = t->response.results;
    QCOMPARE(results.size(), std::size_t(4));
    QCOMPARE(results[0].statusCode, status::Good);
    QCOMPARE(results[0].targets[0].targetId.nodeId, NodeId(id::Server_ServerStatus));
    QCOMPARE(results[1].statusCode, status::Good);
    QCOMPARE(results[1].targets[0].targetId.nodeId, NodeId(1, "Double"));
    QCOMPARE(results[2].targets[0].targetId.nodeId, NodeId(id::Server_ServerStatus_State));
    QCOMPARE(results[3].statusCode, status::BadNoMatch);
}

void TestClientVsNodeServer::callsAMethod() {
    // node_server.js's Calculator.Multiply(Values Int32[], Factor Int32) -> (Products Int32[]).
    const NodeId object(1, "Calculator"), method(1, "Calculator.Multiply");
    Awaited<ServiceResult<CallResponse>> c;
    m_client->callMethod(object, method, {Variant(Array<int32_t>{1, -2, 30}), Variant(int32_t(3))}, this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::Good);
    QCOMPARE(c->response.results.size(), std::size_t(1));
    const CallMethodResult& r = c->response.results[0];
    QCOMPARE(r.statusCode, status::Good);
    QCOMPARE(r.outputArguments.size(), std::size_t(1));
    QCOMPARE(r.outputArguments[0], Variant(Array<int32_t>{3, -6, 90}));

    // Several Methods in one request, each with its own result: node-opcua checks the arguments too.
    CallMethodRequest missing;
    missing.objectId = object;
    missing.methodId = method;
    missing.inputArguments = Array<Variant>{Variant(Array<int32_t>{1})};
    CallMethodRequest wrongType = missing;
    wrongType.inputArguments.push_back(Variant(String("3")));
    CallMethodRequest wrongObject = missing;
    wrongObject.objectId = NodeId(id::Server);
    wrongObject.inputArguments.push_back(Variant(int32_t(2)));
    Awaited<ServiceResult<CallResponse>> many;
    m_client->call({missing, wrongType, wrongObject}, this, many.callback());
    QVERIFY(many.wait());
    QCOMPARE(many->status, status::Good);
    QCOMPARE(many->response.results.size(), std::size_t(3));
    QCOMPARE(many->response.results[0].statusCode, status::BadArgumentsMissing);
    QCOMPARE(many->response.results[1].statusCode, status::BadInvalidArgument);
    QCOMPARE(many->response.results[1].inputArgumentResults.size(), std::size_t(2));
    QCOMPARE(many->response.results[1].inputArgumentResults[1], status::BadTypeMismatch);
    QCOMPARE(many->response.results[2].statusCode, status::BadMethodInvalid);

    // An empty request fails as a whole.
    Awaited<ServiceResult<CallResponse>> none;
    m_client->call({}, this, none.callback());
    QVERIFY(none.wait());
    QCOMPARE(none->status, status::BadNothingToDo);
}

void TestClientVsNodeServer::manyRequestsOutstanding() {
    constexpr int kRequests = 300;
    int done = 0, matched = 0;
    for (int i = 0; i < kRequests; ++i) {
        const uint32_t id = 1000 + uint32_t(i % 20);
        m_client->readValues({numericNode(1, id)}, this, [&, id](const ServiceResult<ReadResponse>& r) {
            ++done;
            if (r.status.isGood() && r.response.results.size() == 1 && r.response.results[0].value.get<int32_t>() &&
                *r.response.results[0].value.get<int32_t>() == int32_t(id == 1005 ? 4242 : id))
                ++matched;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done, kRequests, 30000);
    QCOMPARE(matched, kRequests);
}

void TestClientVsNodeServer::keepAliveReadsTheServerState() {
    // The keep-alive (every 300 ms here) read ServerStatus.State from node-opcua.
    QTRY_COMPARE_WITH_TIMEOUT(m_client->snapshot().serverState, ServerState::Running, 5000);
    QCOMPARE(m_client->state(), ClientState::Connected);
    QCOMPARE(m_client->snapshot().reconnectCount, 0u);
}

void TestClientVsNodeServer::closesSessionAndDisconnects() {
    Awaited<ServiceResult<CloseSessionResponse>> c;
    m_client->closeSession(this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::Good);
    QCOMPARE(m_client->state(), ClientState::ChannelOpen);
    // Without a Session, node-opcua refuses session services.
    const auto r = readValues({NodeId(id::Server_ServerStatus_State)});
    QVERIFY(r.status.isBad());
    Awaited<StatusCode> d;
    m_client->disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(*d, status::Good);
    QCOMPARE(m_client->state(), ClientState::Disconnected);
}

UA_TEST_GUILESS_MAIN(TestClientVsNodeServer)
#include "tst_client_vs_node_server.moc"
