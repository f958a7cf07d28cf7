// AddressSpace, NodeManager and SharedAddressSpace: the checks of addNode/addReference, lookups
// of every NodeId form, and the snapshot rule (a published change never alters a snapshot a
// reader holds, while Variable values are shared and written atomically).
#include "ServiceTestUtil.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/addressspace/SharedAddressSpace.h"

#include <thread>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

class TestAddressSpace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { f.init(); }
    void addNodeChecks();
    void addReferenceChecks();
    void lookupEveryIdForm();
    void snapshotsAreIsolated();
    void valueCellIsAtomic();

private:
    static Node object(NodeId id) {
        Node n;
        n.nodeId = std::move(id);
        n.nodeClass = NodeClass::Object;
        n.browseName = {0, String("X")};
        return n;
    }
    ServiceFixture f;
};

void TestAddressSpace::addNodeChecks() {
    AddressSpace s = *f.shared->snapshot();
    QCOMPARE(s.addNode(object(NodeId(id::Server))), status::BadNodeIdExists);
    QCOMPARE(s.addNode(object(NodeId())), status::BadNodeIdInvalid);
    QCOMPARE(s.addNode(object(NodeId(99, 1u))), status::BadNodeIdInvalid);  // no namespace 99
    Node unspecified = object(NodeId(f.ns, 50000u));
    unspecified.nodeClass = NodeClass::Unspecified;
    QCOMPARE(s.addNode(unspecified), status::BadNodeClassInvalid);
    Node variable = object(NodeId(f.ns, 50001u));
    variable.nodeClass = NodeClass::Variable;
    NodeIndex added = kNoNode;
    QCOMPARE(s.addNode(variable, &added), StatusCode());
    QVERIFY(s.node(added).value);  // a Variable always gets a ValueCell
    QCOMPARE(s.addNamespace("urn:ua-workbench:test"), f.ns);  // known URI: same index
    QCOMPARE(s.namespaceIndex("urn:nope"), -1);
}

void TestAddressSpace::addReferenceChecks() {
    AddressSpace s = *f.shared->snapshot();
    const NodeId a(f.ns, uint32_t(Folder)), b(f.ns, uint32_t(Int32Var));
    QCOMPARE(s.addReference(NodeId(0, 999999u), NodeId(id::Organizes), a), status::BadSourceNodeIdInvalid);
    QCOMPARE(s.addReference(a, NodeId(id::Organizes), NodeId(0, 999999u)), status::BadTargetNodeIdInvalid);
    QCOMPARE(s.addReference(a, NodeId(id::Server), b), status::BadReferenceTypeIdInvalid);
    QCOMPARE(s.addReference(a, NodeId(id::HasComponent), b), status::BadDuplicateReferenceNotAllowed);
    const std::size_t before = s.find(b)->references.size();
    QCOMPARE(s.addReference(a, NodeId(id::Organizes), b), StatusCode());
    QCOMPARE(s.find(b)->references.size(), before + 1);
    QVERIFY(s.find(b)->references.contains(Reference{s.indexOf(NodeId(id::Organizes)), s.indexOf(a), false}));
}

void TestAddressSpace::lookupEveryIdForm() {
    AddressSpace s = *f.shared->snapshot();
    const std::vector<NodeId> ids = {NodeId(f.ns, String("text")), NodeId(f.ns, *Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63")),
                                     NodeId(f.ns, ByteString("\x01\x02", 2)), NodeId(f.ns, 4000000000u), NodeId(f.ns, 3u)};
    for (const NodeId& id : ids) QCOMPARE(s.addNode(object(id)), StatusCode());
    for (const NodeId& id : ids) {
        const Node* n = s.find(id);
        QVERIFY2(n && n->nodeId == id, id.toString().c_str());
    }
    QVERIFY(!s.find(NodeId(f.ns, String("other"))));
    QVERIFY(!s.find(NodeId(f.ns, 4u)));
}

void TestAddressSpace::snapshotsAreIsolated() {
    const auto before = f.shared->snapshot();
    const NodeId node(f.ns, uint32_t(WritableObject));
    QCOMPARE(f.shared->update([&](AddressSpace& s) {
        return setAttribute(*s.findMutable(node), AttributeId::DisplayName, LocalizedText{String(), String("New")});
    }), StatusCode());
    const auto after = f.shared->snapshot();
    QCOMPARE(before->find(node)->displayName().text, String("WritableObject"));
    QCOMPARE(after->find(node)->displayName().text, String("New"));
    // A failed change publishes nothing.
    QCOMPARE(f.shared->update([](AddressSpace&) { return StatusCode(status::BadInternalError); }),
             status::BadInternalError);
    QCOMPARE(f.shared->snapshot(), after);
    // Values are shared by both snapshots.
    const NodeId var(f.ns, uint32_t(Int32Var));
    after->find(var)->value->store(DataValue(Variant(int32_t(123))));
    QCOMPARE(before->find(var)->value->load()->value, Variant(int32_t(123)));
}

void TestAddressSpace::valueCellIsAtomic() {
    ValueCell cell(DataValue(Variant(int64_t(0))));
    constexpr int kThreads = 4, kIncrements = 2000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < kIncrements; ++i)
                cell.update([](const DataValue* cur, DataValue& next) {
                    next = DataValue(Variant(*cur->value.get<int64_t>() + 1));
                    return StatusCode();
                });
        });
    for (auto& t : threads) t.join();
    QCOMPARE(cell.load()->value, Variant(int64_t(kThreads * kIncrements)));
}

UA_TEST_GUILESS_MAIN(TestAddressSpace)
#include "tst_addressspace.moc"
