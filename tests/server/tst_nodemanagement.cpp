// The NodeManagement service set (OPC 10000-4 5.8) on namespace 0 and the test namespace: every
// operation's status codes, the permissions of Part 3 (a ConfigureAdmin may, an Observer may not),
// Mandatory InstanceDeclarations copied for a new instance, one publication per request, and a
// failing operation that leaves the others of its request done.
#include "ServiceTestUtil.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/services/NodeManagementService.h"
#include "ua/server/users/Roles.h"

#include <QtTest>
#include "TestMain.h"

using namespace ua;

namespace {

SharedAddressSpace makeSpace() {
    AddressSpace s;
    Ns0NodeManager ns0;
    test::TestNodeManager testNs;
    if (ns0.install(s).isBad() || testNs.install(s).isBad()) qFatal("cannot build the address space");
    return SharedAddressSpace(std::move(s));
}

AddNodesItem objectItem(const NodeId& parent, const NodeId& requested, const char* name, uint32_t typeDefinition = id::FolderType,
                        uint32_t referenceType = id::Organizes) {
    AddNodesItem item;
    item.parentNodeId = ExpandedNodeId(parent);
    item.referenceTypeId = NodeId(referenceType);
    item.requestedNewNodeId = ExpandedNodeId(requested);
    item.browseName = QualifiedName{1, String(name)};
    item.nodeClass = NodeClass::Object;
    ObjectAttributes a;
    a.specifiedAttributes = 64;  // DisplayName
    a.displayName = LocalizedText{String("en"), String(name)};
    item.nodeAttributes = ExtensionObject::make(a);
    item.typeDefinition = ExpandedNodeId(NodeId(typeDefinition));
    return item;
}

AddNodesItem variableItem(const NodeId& parent, const NodeId& requested, const char* name, Variant value, uint32_t dataType = id::Double) {
    AddNodesItem item;
    item.parentNodeId = ExpandedNodeId(parent);
    item.referenceTypeId = NodeId(id::HasComponent);
    item.requestedNewNodeId = ExpandedNodeId(requested);
    item.browseName = QualifiedName{1, String(name)};
    item.nodeClass = NodeClass::Variable;
    VariableAttributes a;
    a.specifiedAttributes = 16 | 1 | 524288 | 2097152;  // DataType, AccessLevel, ValueRank, Value
    a.dataType = NodeId(dataType);
    a.valueRank = -1;
    a.accessLevel = access::CurrentRead | access::CurrentWrite;
    a.value = std::move(value);
    item.nodeAttributes = ExtensionObject::make(a);
    item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
    return item;
}

// The context of a user with these Roles.
ServiceContext contextFor(SharedAddressSpace& shared, std::shared_ptr<const AddressSpace>& hold, RoleSet roles) {
    hold = shared.snapshot();
    ServiceContext ctx{*hold, &shared, defaultOperationLimits(), nullptr, DateTime::now()};
    ctx.roles = roles;
    ctx.permissions = defaultPermissions(roles);
    return ctx;
}

std::vector<uint32_t> codes(const Array<StatusCode>& r) {
    std::vector<uint32_t> out;
    for (const StatusCode& s : r) out.push_back(s.code);
    return out;
}

} // namespace

class TestNodeManagement : public QObject {
    Q_OBJECT
private slots:
    void addFolderAndVariableInOneRequest();
    void addNodesStatusCodes_data();
    void addNodesStatusCodes();
    void addNodesServiceResults();
    void instanceGetsMandatoryChildren();
    void addAndDeleteReferences();
    void deleteNodes();
    void observerMayNotChangeTheAddressSpace();
};

void TestNodeManagement::addFolderAndVariableInOneRequest() {
    SharedAddressSpace shared = makeSpace();
    const uint64_t version = shared.version();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    AddNodesRequest req;
    req.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{
        objectItem(NodeId(id::ObjectsFolder), NodeId(1, "Plant"), "Plant"),
        variableItem(NodeId(1, "Plant"), NodeId(1, "Plant.Temperature"), "Temperature", 21.5),
        objectItem(NodeId(id::ObjectsFolder), NodeId(), "Assigned")}};
    AddNodesResponse resp;
    handleAddNodes(ctx, req, resp);
    QCOMPARE(resp.results.size(), std::size_t(3));
    for (const auto& r : resp.results) QCOMPARE(r.statusCode, StatusCode(status::Good));
    QCOMPARE(resp.results[1].addedNodeId, NodeId(1, "Plant.Temperature"));
    QVERIFY(!resp.results[2].addedNodeId.isNull());  // the server chose one
    QCOMPARE(shared.version(), version + 1);        // one publication for the request
    const auto s = shared.snapshot();
    const Node* plant = s->find(NodeId(1, "Plant"));
    QVERIFY(plant);
    QCOMPARE(plant->displayName(), (LocalizedText{String("en"), String("Plant")}));
    QCOMPARE(s->node(s->typeDefinition(s->indexOf(NodeId(1, "Plant")))).nodeId, NodeId(id::FolderType));
    const Node* temperature = s->find(NodeId(1, "Plant.Temperature"));
    QVERIFY(temperature && temperature->value);
    QCOMPARE(temperature->value->load()->value, Variant(21.5));
    QCOMPARE(temperature->attrs->dataType, NodeId(id::Double));
    bool linked = false;
    for (const Reference& r : plant->references)
        linked = linked || (r.isForward && r.target == s->indexOf(NodeId(1, "Plant.Temperature")) &&
                            r.referenceType == s->indexOf(NodeId(id::HasComponent)));
    QVERIFY(linked);
    QVERIFY(s->find(resp.results[2].addedNodeId));
}

void TestNodeManagement::addNodesStatusCodes_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<uint32_t>("expected");
    QTest::newRow("unknown parent") << 0 << uint32_t(status::BadParentNodeIdInvalid);
    QTest::newRow("parent on another server") << 1 << uint32_t(status::BadParentNodeIdInvalid);
    QTest::newRow("abstract reference type") << 2 << uint32_t(status::BadReferenceTypeIdInvalid);
    QTest::newRow("not a reference type") << 3 << uint32_t(status::BadReferenceTypeIdInvalid);
    QTest::newRow("non-hierarchical reference") << 4 << uint32_t(status::BadReferenceNotAllowed);
    QTest::newRow("HasSubtype below an object") << 5 << uint32_t(status::BadReferenceNotAllowed);
    QTest::newRow("NodeId in namespace 0") << 6 << uint32_t(status::BadNodeIdRejected);
    QTest::newRow("NodeId of an unknown namespace") << 7 << uint32_t(status::BadNodeIdRejected);
    QTest::newRow("NodeId taken") << 8 << uint32_t(status::BadNodeIdExists);
    QTest::newRow("NodeClass Unspecified") << 9 << uint32_t(status::BadNodeClassInvalid);
    QTest::newRow("empty BrowseName") << 10 << uint32_t(status::BadBrowseNameInvalid);
    QTest::newRow("BrowseName taken below the parent") << 11 << uint32_t(status::BadBrowseNameDuplicated);
    QTest::newRow("attributes of another NodeClass") << 12 << uint32_t(status::BadNodeAttributesInvalid);
    QTest::newRow("no attributes") << 13 << uint32_t(status::BadNodeAttributesInvalid);
    QTest::newRow("Value not of the DataType") << 14 << uint32_t(status::BadNodeAttributesInvalid);
    QTest::newRow("unknown DataType") << 15 << uint32_t(status::BadNodeAttributesInvalid);
    QTest::newRow("no TypeDefinition") << 16 << uint32_t(status::BadTypeDefinitionInvalid);
    QTest::newRow("abstract TypeDefinition") << 17 << uint32_t(status::BadTypeDefinitionInvalid);
    QTest::newRow("a VariableType for an Object") << 18 << uint32_t(status::BadTypeDefinitionInvalid);
    QTest::newRow("a TypeDefinition for a Method") << 19 << uint32_t(status::BadTypeDefinitionInvalid);
    QTest::newRow("NaN MinimumSamplingInterval") << 20 << uint32_t(status::BadNodeAttributesInvalid);
}

void TestNodeManagement::addNodesStatusCodes() {
    QFETCH(int, which);
    QFETCH(uint32_t, expected);
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    const NodeId objects(id::ObjectsFolder);
    AddNodesItem item = objectItem(objects, NodeId(1, "New"), "New");
    switch (which) {
    case 0: item.parentNodeId = ExpandedNodeId(NodeId(1, "Nowhere")); break;
    case 1: item.parentNodeId = ExpandedNodeId(objects, String(), 3); break;
    case 2: item.referenceTypeId = NodeId(id::HierarchicalReferences); break;
    case 3: item.referenceTypeId = NodeId(id::ObjectsFolder); break;
    case 4: item.referenceTypeId = NodeId(id::HasTypeDefinition); break;
    case 5: item.referenceTypeId = NodeId(id::HasSubtype); break;
    case 6: item.requestedNewNodeId = ExpandedNodeId(NodeId(0, 999999u)); break;
    case 7: item.requestedNewNodeId = ExpandedNodeId(NodeId(77, "X")); break;
    case 8: item.requestedNewNodeId = ExpandedNodeId(NodeId(uint16_t(hold->namespaceIndex("urn:ua-workbench:test")), uint32_t(test::Folder))); break;
    case 9: item.nodeClass = NodeClass::Unspecified; break;
    case 10: item.browseName = QualifiedName{1, String("")}; break;
    case 11: item.browseName = hold->find(NodeId(id::Server))->browseName; break;
    case 12: item.nodeAttributes = ExtensionObject::make(VariableAttributes{}); break;
    case 13: item.nodeAttributes = ExtensionObject(); break;
    case 14: item = variableItem(objects, NodeId(1, "New"), "New", String("not a number")); item.referenceTypeId = NodeId(id::Organizes); break;
    case 15: item = variableItem(objects, NodeId(1, "New"), "New", 1.0, 999999); item.referenceTypeId = NodeId(id::Organizes); break;
    case 16: item.typeDefinition = ExpandedNodeId(); break;
    case 17: item.typeDefinition = ExpandedNodeId(NodeId(id::BaseInterfaceType)); break;
    case 18: item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType)); break;
    case 19: {
        item.nodeClass = NodeClass::Method;
        item.referenceTypeId = NodeId(id::HasComponent);
        item.nodeAttributes = ExtensionObject::make(MethodAttributes{});
        break;
    }
    case 20: {
        item = variableItem(objects, NodeId(1, "New"), "New", 1.0);
        item.referenceTypeId = NodeId(id::Organizes);
        VariableAttributes a = *item.nodeAttributes.get<VariableAttributes>();
        a.specifiedAttributes |= 4096;
        a.minimumSamplingInterval = std::nan("");
        item.nodeAttributes = ExtensionObject::make(a);
        break;
    }
    }
    AddNodesRequest req;
    req.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{item, objectItem(objects, NodeId(1, "Other"), "Other")}};
    AddNodesResponse resp;
    handleAddNodes(ctx, req, resp);
    QCOMPARE(resp.results[0].statusCode, StatusCode(expected));
    QVERIFY(resp.results[0].addedNodeId.isNull());
    // The other operation of the request is done all the same.
    QCOMPARE(resp.results[1].statusCode, StatusCode(status::Good));
    QVERIFY(shared.snapshot()->find(NodeId(1, "Other")));
    if (which != 8) QVERIFY(!shared.snapshot()->find(NodeId(1, "New")));
}

void TestNodeManagement::addNodesServiceResults() {
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    AddNodesRequest empty;
    AddNodesResponse resp;
    handleAddNodes(ctx, empty, resp);
    QCOMPARE(resp.responseHeader.serviceResult, StatusCode(status::BadNothingToDo));
    OperationLimits limits;
    limits.maxNodesPerNodeManagement = 2;
    ServiceContext limited{*hold, &shared, limits, nullptr, DateTime::now()};
    DeleteNodesRequest many;
    many.nodesToDelete = Array<DeleteNodesItem>{std::vector<DeleteNodesItem>(3)};
    DeleteNodesResponse deleted;
    handleDeleteNodes(limited, many, deleted);
    QCOMPARE(deleted.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(deleted.results.empty());
    // Without a SharedAddressSpace nothing can change.
    ServiceContext readOnly{*hold, nullptr, defaultOperationLimits(), nullptr, DateTime::now()};
    AddNodesRequest one;
    one.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{objectItem(NodeId(id::ObjectsFolder), NodeId(1, "X"), "X")}};
    AddNodesResponse notSupported;
    handleAddNodes(readOnly, one, notSupported);
    QCOMPARE(notSupported.results[0].statusCode, StatusCode(status::BadNotSupported));
}

// An Object of NamespaceMetadataType gets the type's Mandatory Properties (NamespaceUri, ...).
void TestNodeManagement::instanceGetsMandatoryChildren() {
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    AddNodesRequest req;
    req.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{
        objectItem(NodeId(id::ObjectsFolder), NodeId(1, 4242u), "Meta", id::NamespaceMetadataType)}};
    AddNodesResponse resp;
    handleAddNodes(ctx, req, resp);
    QCOMPARE(resp.results[0].statusCode, StatusCode(status::Good));
    const auto s = shared.snapshot();
    const Node* meta = s->find(NodeId(1, 4242u));
    QVERIFY(meta);
    QStringList children;
    for (const Reference& r : meta->references)
        if (r.isForward && r.referenceType == s->indexOf(NodeId(id::HasProperty))) children << s->node(r.target).browseName.name.toQString();
    children.sort();
    QCOMPARE(children, (QStringList{"IsNamespaceSubset", "NamespacePublicationDate", "NamespaceUri", "NamespaceVersion",
                                    "StaticNodeIdTypes", "StaticNumericNodeIdRange", "StaticStringNodeIdPattern"}));
    const Node* uri = s->find(NodeId(1, "ns=1;i=4242/NamespaceUri"));
    QVERIFY(uri);
    QCOMPARE(uri->attrs->dataType, NodeId(id::String));
    QCOMPARE(s->node(s->typeDefinition(s->indexOf(uri->nodeId))).nodeId, NodeId(id::PropertyType));
}

void TestNodeManagement::addAndDeleteReferences() {
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    const uint16_t ns = uint16_t(hold->namespaceIndex("urn:ua-workbench:test"));
    const NodeId folder(ns, test::Folder), int32(ns, test::Int32Var);
    auto item = [&](NodeId source, uint32_t type, NodeId target, bool forward = true) {
        AddReferencesItem r;
        r.sourceNodeId = std::move(source);
        r.referenceTypeId = NodeId(type);
        r.isForward = forward;
        r.targetNodeId = ExpandedNodeId(std::move(target));
        return r;
    };
    AddReferencesItem wrongClass = item(NodeId(id::ObjectsFolder), id::Organizes, int32);
    wrongClass.targetNodeClass = NodeClass::Object;
    AddReferencesItem remote = item(NodeId(id::ObjectsFolder), id::Organizes, int32);
    remote.targetServerUri = String("urn:elsewhere");
    AddReferencesItem remoteIndex = item(NodeId(id::ObjectsFolder), id::Organizes, int32);
    remoteIndex.targetNodeId.serverIndex = 2;
    AddReferencesRequest req;
    req.referencesToAdd = Array<AddReferencesItem>{std::vector<AddReferencesItem>{
        item(NodeId(id::ObjectsFolder), id::Organizes, int32),      // Good
        item(NodeId(id::ObjectsFolder), id::Organizes, int32),      // the same again
        item(int32, id::Organizes, NodeId(id::ObjectsFolder), false),  // the same, named from its target
        item(NodeId(1, "Nowhere"), id::Organizes, int32),
        item(folder, id::HierarchicalReferences, int32),
        item(folder, id::Organizes, NodeId(1, "Nowhere")),
        wrongClass, remote, remoteIndex,
        item(folder, id::HasSubtype, int32),
        item(int32, id::HasTypeDefinition, folder),
        item(folder, id::Organizes, folder)}};
    AddReferencesResponse resp;
    handleAddReferences(ctx, req, resp);
    QCOMPARE(codes(resp.results),
             (std::vector<uint32_t>{status::Good, status::BadDuplicateReferenceNotAllowed, status::BadDuplicateReferenceNotAllowed,
                                    status::BadSourceNodeIdInvalid, status::BadReferenceTypeIdInvalid, status::BadTargetNodeIdInvalid,
                                    status::BadNodeClassInvalid, status::BadServerUriInvalid, status::BadReferenceLocalOnly,
                                    status::BadReferenceNotAllowed, status::BadReferenceNotAllowed, status::BadInvalidSelfReference}));
    auto linked = [&] {
        const auto s = shared.snapshot();
        for (const Reference& r : s->find(NodeId(id::ObjectsFolder))->references)
            if (r.isForward && r.target == s->indexOf(int32)) return true;
        return false;
    };
    QVERIFY(linked());

    DeleteReferencesItem del;
    del.sourceNodeId = int32;  // named from the target side: the inverse reference
    del.referenceTypeId = NodeId(id::Organizes);
    del.isForward = false;
    del.targetNodeId = ExpandedNodeId(NodeId(id::ObjectsFolder));
    del.deleteBidirectional = true;
    DeleteReferencesItem ns0Ref;
    ns0Ref.sourceNodeId = NodeId(id::RootFolder);
    ns0Ref.referenceTypeId = NodeId(id::Organizes);
    ns0Ref.isForward = true;
    ns0Ref.targetNodeId = ExpandedNodeId(NodeId(id::ObjectsFolder));
    DeleteReferencesItem remoteDel = del;
    remoteDel.targetNodeId.serverIndex = 1;
    DeleteReferencesItem noSource = del;
    noSource.sourceNodeId = NodeId(1, "Nowhere");
    DeleteReferencesRequest dreq;
    dreq.referencesToDelete = Array<DeleteReferencesItem>{std::vector<DeleteReferencesItem>{del, del, ns0Ref, remoteDel, noSource}};
    DeleteReferencesResponse dresp;
    handleDeleteReferences(ctx, dreq, dresp);
    QCOMPARE(codes(dresp.results), (std::vector<uint32_t>{status::Good, status::BadNotFound, status::BadNoDeleteRights,
                                                          status::BadServerIndexInvalid, status::BadSourceNodeIdInvalid}));
    QVERIFY(!linked());
    const auto s = shared.snapshot();
    for (const Reference& r : s->find(int32)->references)  // no inverse half left behind
        QVERIFY(r.target != s->indexOf(NodeId(id::ObjectsFolder)));
}

void TestNodeManagement::deleteNodes() {
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::ConfigureAdmin));
    const uint16_t ns = uint16_t(hold->namespaceIndex("urn:ua-workbench:test"));
    const NodeId int32(ns, test::Int32Var), folder(ns, test::Folder);
    DeleteNodesRequest req;
    req.nodesToDelete = Array<DeleteNodesItem>{std::vector<DeleteNodesItem>{
        {int32, true}, {int32, true}, {NodeId(id::Server), true}, {NodeId(), true}}};
    DeleteNodesResponse resp;
    handleDeleteNodes(ctx, req, resp);
    QCOMPARE(codes(resp.results), (std::vector<uint32_t>{status::Good, status::BadNodeIdUnknown, status::BadNoDeleteRights,
                                                         status::BadNodeIdInvalid}));
    const auto s = shared.snapshot();
    QVERIFY(!s->find(int32));
    for (const Reference& r : s->find(folder)->references) QVERIFY(s->node(r.target).nodeId != int32);
    // The snapshot taken before still has it: readers are not disturbed.
    QVERIFY(hold->find(int32));
}

void TestNodeManagement::observerMayNotChangeTheAddressSpace() {
    SharedAddressSpace shared = makeSpace();
    std::shared_ptr<const AddressSpace> hold;
    ServiceContext ctx = contextFor(shared, hold, roleBit(Role::Observer) | roleBit(Role::Operator));
    const uint16_t ns = uint16_t(hold->namespaceIndex("urn:ua-workbench:test"));
    AddNodesRequest add;
    add.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{objectItem(NodeId(id::ObjectsFolder), NodeId(1, "X"), "X")}};
    AddNodesResponse added;
    handleAddNodes(ctx, add, added);
    QCOMPARE(added.results[0].statusCode, StatusCode(status::BadUserAccessDenied));
    DeleteNodesRequest del;
    del.nodesToDelete = Array<DeleteNodesItem>{std::vector<DeleteNodesItem>{{NodeId(ns, test::Int32Var), true}}};
    DeleteNodesResponse deleted;
    handleDeleteNodes(ctx, del, deleted);
    QCOMPARE(deleted.results[0], StatusCode(status::BadUserAccessDenied));
    AddReferencesRequest ref;
    AddReferencesItem item;
    item.sourceNodeId = NodeId(id::ObjectsFolder);
    item.referenceTypeId = NodeId(id::Organizes);
    item.isForward = true;
    item.targetNodeId = ExpandedNodeId(NodeId(ns, test::Int32Var));
    ref.referencesToAdd = Array<AddReferencesItem>{std::vector<AddReferencesItem>{item}};
    AddReferencesResponse refs;
    handleAddReferences(ctx, ref, refs);
    QCOMPARE(refs.results[0], StatusCode(status::BadUserAccessDenied));
    QVERIFY(shared.snapshot()->find(NodeId(ns, test::Int32Var)));
}

UA_TEST_GUILESS_MAIN(TestNodeManagement)
#include "tst_nodemanagement.moc"
