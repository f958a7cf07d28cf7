// View Service Set (OPC 10000-4 5.8): Browse, BrowseNext, TranslateBrowsePathsToNodeIds,
// RegisterNodes and UnregisterNodes against namespace 0 and the test namespace, with every status
// code services/ViewService.h lists.
#include "ServiceTestUtil.h"
#include "ua/server/services/ViewService.h"

#include <limits>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

BrowseDescription bd(NodeId node, BrowseDirection dir = BrowseDirection::Forward,
                     NodeId referenceType = NodeId(id::HierarchicalReferences), bool subtypes = true) {
    BrowseDescription d;
    d.nodeId = std::move(node);
    d.browseDirection = dir;
    d.referenceTypeId = std::move(referenceType);
    d.includeSubtypes = subtypes;
    d.resultMask = uint32_t(BrowseResultMask::All);
    return d;
}

std::vector<std::string> names(const BrowseResult& r) {
    std::vector<std::string> out;
    for (const auto& ref : r.references) out.push_back(ref.browseName.name.str());
    return out;
}

BrowsePath path(NodeId start, std::vector<std::pair<uint16_t, const char*>> steps,
                NodeId referenceType = NodeId(id::HierarchicalReferences)) {
    BrowsePath p;
    p.startingNode = std::move(start);
    p.relativePath.elements = Array<RelativePathElement>::emptyArray();
    for (const auto& [ns, name] : steps) {
        RelativePathElement e;
        e.referenceTypeId = referenceType;
        e.includeSubtypes = true;
        e.targetName = QualifiedName{ns, name ? String(name) : String()};
        p.relativePath.elements.push_back(e);
    }
    return p;
}

} // namespace

class TestViewService : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { f.init(); }
    void browseRequestLevelErrors();
    void browseObjectsFolder();
    void browseDirectionsAndTypes();
    void browseNodeClassMaskAndResultMask();
    void browseOperationErrors();
    void browseContinuationPoints();
    void continuationPointLimitPerSession();
    void browseNextRelease();
    void browseNextErrors();
    void translateBrowsePaths();
    void translateErrors();
    void registerNodes();

private:
    BrowseResponse browse(std::vector<BrowseDescription> nodes, uint32_t max = 0, bool withSession = true) {
        BrowseRequest req;
        req.requestedMaxReferencesPerNode = max;
        req.nodesToBrowse = Array<BrowseDescription>(std::move(nodes));
        return f.call(&handleBrowse, req, withSession);
    }
    BrowseNextResponse next(std::vector<ByteString> points, bool release = false) {
        BrowseNextRequest req;
        req.releaseContinuationPoints = release;
        req.continuationPoints = Array<ByteString>(std::move(points));
        return f.call(&handleBrowseNext, req);
    }
    ServiceFixture f;
};

void TestViewService::browseRequestLevelErrors() {
    QCOMPARE(browse({}).responseHeader.serviceResult, status::BadNothingToDo);
    f.limits.maxNodesPerBrowse = 1;
    QCOMPARE(browse({bd(NodeId(id::RootFolder)), bd(NodeId(id::ObjectsFolder))}).responseHeader.serviceResult,
             status::BadTooManyOperations);
    f.limits = OperationLimits{};
    BrowseRequest req;
    req.view.viewId = NodeId(id::ViewsFolder);
    req.nodesToBrowse = Array<BrowseDescription>{bd(NodeId(id::RootFolder))};
    QCOMPARE(f.call(&handleBrowse, req).responseHeader.serviceResult, status::BadViewIdUnknown);
}

void TestViewService::browseObjectsFolder() {
    const BrowseResponse resp = browse({bd(NodeId(id::RootFolder)), bd(NodeId(id::ObjectsFolder))});
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode());
    QCOMPARE(resp.results.size(), std::size_t(2));
    QCOMPARE(names(resp.results[0]), (std::vector<std::string>{"Objects", "Types", "Views"}));
    const BrowseResult& objects = resp.results[1];
    QCOMPARE(objects.statusCode, StatusCode());
    QVERIFY(objects.continuationPoint.isNull());
    const auto server = std::find_if(objects.references.begin(), objects.references.end(),
                                     [](const auto& r) { return r.browseName.name == String("Server"); });
    QVERIFY(server != objects.references.end());
    QCOMPARE(server->nodeId.nodeId, NodeId(id::Server));
    QCOMPARE(server->referenceTypeId, NodeId(id::Organizes));
    QVERIFY(server->isForward);
    QCOMPARE(server->nodeClass, NodeClass::Object);
    QCOMPARE(server->displayName.text, String("Server"));
    QCOMPARE(server->typeDefinition.nodeId, NodeId(id::ServerType));
    const auto test = std::find_if(objects.references.begin(), objects.references.end(),
                                   [&](const auto& r) { return r.nodeId.nodeId == f.id(Folder); });
    QVERIFY(test != objects.references.end());
    QCOMPARE(test->typeDefinition.nodeId, NodeId(id::FolderType));
}

void TestViewService::browseDirectionsAndTypes() {
    // Inverse from Server: Organizes from Objects.
    BrowseResponse resp = browse({bd(NodeId(id::Server), BrowseDirection::Inverse)});
    QCOMPARE(resp.results[0].references.size(), std::size_t(1));
    QCOMPARE(resp.results[0].references[0].nodeId.nodeId, NodeId(id::ObjectsFolder));
    QVERIFY(!resp.results[0].references[0].isForward);
    // HasProperty only, no subtypes: Server's properties.
    resp = browse({bd(NodeId(id::Server), BrowseDirection::Forward, NodeId(id::HasProperty), false)});
    for (const auto& r : resp.results[0].references) QCOMPARE(r.referenceTypeId, NodeId(id::HasProperty));
    const auto props = names(resp.results[0]);
    QVERIFY(std::find(props.begin(), props.end(), "NamespaceArray") != props.end());
    // HierarchicalReferences without subtypes matches nothing (no reference has that exact type).
    resp = browse({bd(NodeId(id::Server), BrowseDirection::Forward, NodeId(id::HierarchicalReferences), false)});
    QCOMPARE(resp.results[0].references.size(), std::size_t(0));
    // Null referenceTypeId: every reference, both directions (HasTypeDefinition included).
    resp = browse({bd(NodeId(id::Server), BrowseDirection::Both, NodeId())});
    const auto& all = resp.results[0].references;
    QVERIFY(std::any_of(all.begin(), all.end(), [](const auto& r) { return r.referenceTypeId == NodeId(id::HasTypeDefinition); }));
    QVERIFY(std::any_of(all.begin(), all.end(), [](const auto& r) { return !r.isForward; }));
    QCOMPARE(all.size(), f.shared->snapshot()->find(NodeId(id::Server))->references.size());
}

void TestViewService::browseNodeClassMaskAndResultMask() {
    BrowseDescription d = bd(NodeId(id::Server));
    d.nodeClassMask = uint32_t(NodeClass::Method);
    BrowseResponse resp = browse({d});
    QVERIFY(!resp.results[0].references.empty());
    for (const auto& r : resp.results[0].references) QCOMPARE(r.nodeClass, NodeClass::Method);
    d.nodeClassMask = 0;
    d.resultMask = uint32_t(BrowseResultMask::BrowseName);
    resp = browse({d});
    const ReferenceDescription& r = resp.results[0].references[0];
    QVERIFY(!r.browseName.name.isEmpty());
    QVERIFY(r.referenceTypeId.isNull());
    QVERIFY(r.displayName.text.isNull());
    QCOMPARE(r.nodeClass, NodeClass::Unspecified);
    QVERIFY(r.typeDefinition.nodeId.isNull());
    QVERIFY(!r.nodeId.nodeId.isNull());  // always returned
}

void TestViewService::browseOperationErrors() {
    BrowseDescription badDir = bd(NodeId(id::Server));
    badDir.browseDirection = BrowseDirection(3);
    BrowseDescription notAType = bd(NodeId(id::Server), BrowseDirection::Forward, NodeId(id::Server));
    const BrowseResponse resp = browse({bd(NodeId(0, 999999u)), badDir, notAType,
                                        bd(NodeId(id::Server), BrowseDirection::Forward, NodeId(0, 999999u))});
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode());
    QCOMPARE(resp.results[0].statusCode, status::BadNodeIdUnknown);
    QCOMPARE(resp.results[1].statusCode, status::BadBrowseDirectionInvalid);
    QCOMPARE(resp.results[2].statusCode, status::BadReferenceTypeIdInvalid);
    QCOMPARE(resp.results[3].statusCode, status::BadReferenceTypeIdInvalid);
}

void TestViewService::browseContinuationPoints() {
    f.session = SessionViewState{};
    const BrowseDescription many = bd(f.id(Many), BrowseDirection::Forward, NodeId(id::HasComponent));
    BrowseResponse resp = browse({many}, 10);
    QCOMPARE(resp.results[0].references.size(), std::size_t(10));
    QVERIFY(!resp.results[0].continuationPoint.isNull());
    std::vector<std::string> seen = names(resp.results[0]);
    ByteString cp = resp.results[0].continuationPoint;
    int calls = 0;
    while (!cp.isNull()) {
        const BrowseNextResponse more = next({cp});
        QCOMPARE(more.responseHeader.serviceResult, StatusCode());
        QCOMPARE(more.results.size(), std::size_t(1));
        QCOMPARE(more.results[0].statusCode, StatusCode());
        QVERIFY(more.results[0].references.size() <= 10);
        for (const auto& n : names(more.results[0])) seen.push_back(n);
        // A used ContinuationPoint is not valid again.
        QCOMPARE(next({cp}).results[0].statusCode, status::BadContinuationPointInvalid);
        cp = more.results[0].continuationPoint;
        ++calls;
    }
    QCOMPARE(calls, 2);
    QCOMPARE(seen.size(), std::size_t(kManyChildren));
    for (int i = 0; i < kManyChildren; ++i) QCOMPARE(seen[std::size_t(i)], "Child" + std::to_string(i));
    QVERIFY(f.session.continuationPoints.empty());
    // The server's own cap applies when the client asks for no limit.
    f.limits.maxReferencesPerNode = 7;
    resp = browse({many}, 0);
    QCOMPARE(resp.results[0].references.size(), std::size_t(7));
    QVERIFY(!resp.results[0].continuationPoint.isNull());
    f.limits = OperationLimits{};
    f.session = SessionViewState{};
}

void TestViewService::continuationPointLimitPerSession() {
    f.session = SessionViewState{};
    f.limits.maxBrowseContinuationPoints = 2;
    const BrowseDescription many = bd(f.id(Many), BrowseDirection::Forward, NodeId(id::HasComponent));
    // Three in one request: the third finds no free ContinuationPoint.
    BrowseResponse resp = browse({many, many, many}, 5);
    QCOMPARE(resp.results[0].statusCode, StatusCode());
    QCOMPARE(resp.results[1].statusCode, StatusCode());
    QCOMPARE(resp.results[2].statusCode, status::BadNoContinuationPoints);
    QVERIFY(resp.results[2].references.empty());
    QVERIFY(resp.results[2].continuationPoint.isNull());
    const ByteString first = resp.results[0].continuationPoint;
    const ByteString second = resp.results[1].continuationPoint;
    // A new request frees the oldest ContinuationPoint of a prior request (OPC 10000-4 7.9).
    resp = browse({many}, 5);
    QCOMPARE(resp.results[0].statusCode, StatusCode());
    QCOMPARE(next({first}).results[0].statusCode, status::BadContinuationPointInvalid);
    QCOMPARE(next({second}).results[0].statusCode, StatusCode());
    // Without a Session there is no ContinuationPoint to give.
    resp = browse({many}, 5, false);
    QCOMPARE(resp.results[0].statusCode, status::BadNoContinuationPoints);
    // Everything fits: no ContinuationPoint needed, none taken.
    resp = browse({many}, 0, false);
    QCOMPARE(resp.results[0].statusCode, StatusCode());
    QCOMPARE(resp.results[0].references.size(), std::size_t(kManyChildren));
    f.limits = OperationLimits{};
    f.session = SessionViewState{};
}

void TestViewService::browseNextRelease() {
    f.session = SessionViewState{};
    const BrowseDescription many = bd(f.id(Many), BrowseDirection::Forward, NodeId(id::HasComponent));
    const BrowseResponse resp = browse({many, many}, 3);
    const ByteString a = resp.results[0].continuationPoint, b = resp.results[1].continuationPoint;
    QCOMPARE(f.session.continuationPoints.size(), std::size_t(2));
    const BrowseNextResponse released = next({a, b}, true);
    QCOMPARE(released.responseHeader.serviceResult, StatusCode());
    QVERIFY(released.results.empty());  // 5.8.3.2: results are empty when releasing
    QVERIFY(f.session.continuationPoints.empty());
    QCOMPARE(next({a}).results[0].statusCode, status::BadContinuationPointInvalid);
}

void TestViewService::browseNextErrors() {
    QCOMPARE(next({}).responseHeader.serviceResult, status::BadNothingToDo);
    f.limits.maxNodesPerBrowse = 1;
    QCOMPARE(next({ByteString("a"), ByteString("b")}).responseHeader.serviceResult, status::BadTooManyOperations);
    f.limits = OperationLimits{};
    const BrowseNextResponse resp = next({ByteString("garbage"), ByteString()});
    QCOMPARE(resp.results.size(), std::size_t(2));
    QCOMPARE(resp.results[0].statusCode, status::BadContinuationPointInvalid);
    QCOMPARE(resp.results[1].statusCode, status::BadContinuationPointInvalid);
}

void TestViewService::translateBrowsePaths() {
    TranslateBrowsePathsToNodeIdsRequest req;
    req.browsePaths = Array<BrowsePath>{
        path(NodeId(id::RootFolder), {{0, "Objects"}, {0, "Server"}, {0, "ServerStatus"}, {0, "State"}}),
        path(NodeId(id::ObjectsFolder), {{f.ns, "Test"}, {f.ns, "Many"}, {f.ns, "Child3"}}),
        path(NodeId(id::RootFolder), {{0, "Objects"}, {0, nullptr}}),  // last name empty: every target
    };
    const TranslateBrowsePathsToNodeIdsResponse resp = f.call(&handleTranslateBrowsePathsToNodeIds, req);
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode());
    QCOMPARE(resp.results.size(), std::size_t(3));
    QCOMPARE(resp.results[0].statusCode, StatusCode());
    QCOMPARE(resp.results[0].targets.size(), std::size_t(1));
    QCOMPARE(resp.results[0].targets[0].targetId.nodeId, NodeId(id::Server_ServerStatus_State));
    QCOMPARE(resp.results[0].targets[0].remainingPathIndex, std::numeric_limits<uint32_t>::max());
    QCOMPARE(resp.results[1].targets[0].targetId.nodeId, f.id(ManyFirst + 3));
    QVERIFY(resp.results[2].targets.size() >= 2);  // Server, Test, ...
    // Inverse: from ServerStatus back up to Server.
    BrowsePath up = path(NodeId(id::Server_ServerStatus), {{0, "Server"}}, NodeId(id::HasComponent));
    up.relativePath.elements[0].isInverse = true;
    req.browsePaths = Array<BrowsePath>{up};
    QCOMPARE(f.call(&handleTranslateBrowsePathsToNodeIds, req).results[0].targets[0].targetId.nodeId, NodeId(id::Server));
}

void TestViewService::translateErrors() {
    TranslateBrowsePathsToNodeIdsRequest req;
    QCOMPARE(f.call(&handleTranslateBrowsePathsToNodeIds, req).responseHeader.serviceResult, status::BadNothingToDo);
    f.limits.maxNodesPerTranslateBrowsePathsToNodeIds = 1;
    req.browsePaths = Array<BrowsePath>{path(NodeId(id::RootFolder), {{0, "Objects"}}),
                                        path(NodeId(id::RootFolder), {{0, "Objects"}})};
    QCOMPARE(f.call(&handleTranslateBrowsePathsToNodeIds, req).responseHeader.serviceResult,
             status::BadTooManyOperations);
    f.limits = OperationLimits{};
    req.browsePaths = Array<BrowsePath>{
        path(NodeId(0, 999999u), {{0, "Objects"}}),
        path(NodeId(id::RootFolder), {}),
        path(NodeId(id::RootFolder), {{0, nullptr}, {0, "Server"}}),
        path(NodeId(id::RootFolder), {{0, "Objects"}, {0, "NoSuchChild"}}),
        path(NodeId(id::RootFolder), {{1, "Objects"}}),  // wrong namespace in the name
        path(NodeId(id::RootFolder), {{0, "Objects"}}, NodeId(id::Server)),  // not a ReferenceType
    };
    const auto resp = f.call(&handleTranslateBrowsePathsToNodeIds, req);
    QCOMPARE(resp.results[0].statusCode, status::BadNodeIdUnknown);
    QCOMPARE(resp.results[1].statusCode, status::BadNothingToDo);
    QCOMPARE(resp.results[2].statusCode, status::BadBrowseNameInvalid);
    QCOMPARE(resp.results[3].statusCode, status::BadNoMatch);
    QCOMPARE(resp.results[4].statusCode, status::BadNoMatch);
    QCOMPARE(resp.results[5].statusCode, status::BadNoMatch);
    QVERIFY(resp.results[3].targets.empty());
}

void TestViewService::registerNodes() {
    RegisterNodesRequest req;
    QCOMPARE(f.call(&handleRegisterNodes, req).responseHeader.serviceResult, status::BadNothingToDo);
    req.nodesToRegister = Array<NodeId>{f.id(Int32Var), NodeId(id::Server), NodeId(0, 999999u)};
    const RegisterNodesResponse resp = f.call(&handleRegisterNodes, req);
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode());
    QCOMPARE(resp.registeredNodeIds, req.nodesToRegister);
    QCOMPARE(f.session.registeredNodes.size(), std::size_t(2));  // the unknown one is not kept
    f.limits.maxNodesPerRegisterNodes = 2;
    QCOMPARE(f.call(&handleRegisterNodes, req).responseHeader.serviceResult, status::BadTooManyOperations);
    UnregisterNodesRequest un;
    QCOMPARE(f.call(&handleUnregisterNodes, un).responseHeader.serviceResult, status::BadNothingToDo);
    un.nodesToUnregister = req.nodesToRegister;
    QCOMPARE(f.call(&handleUnregisterNodes, un).responseHeader.serviceResult, status::BadTooManyOperations);
    f.limits = OperationLimits{};
    QCOMPARE(f.call(&handleUnregisterNodes, un).responseHeader.serviceResult, StatusCode());
    QVERIFY(f.session.registeredNodes.empty());
}

UA_TEST_GUILESS_MAIN(TestViewService)
#include "tst_viewservice.moc"
