// The node store's copy-on-write rule (NodeTable, NodeIdIndex, ReferenceList, CopyGeneration): a
// copy shares every node with its source, a change to either side never shows on the other, a
// change clones only what it touches, and reference lists longer than a block keep their order
// through appends and erasures; the attributes kept out of line (OutOfLine.h) read as their
// defaults when unset and are shared by copies until one of them changes.
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/addressspace/BlockPool.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <cstring>
#include <limits>
#include <set>
#include <thread>
#include "TestMain.h"

using namespace ua;

namespace {

Node storeFolder(NodeId id, const char* name) {
    Node n;
    n.nodeId = std::move(id);
    n.nodeClass = NodeClass::Object;
    n.browseName = {1, String(name)};
    return n;
}

std::vector<Reference> storeListed(const ReferenceList& list) { return {list.begin(), list.end()}; }

} // namespace

class TestNodeStore : public QObject {
    Q_OBJECT
private slots:
    void referenceListKeepsOrderAcrossBlocks();
    void referenceListCopiesShareSealedBlocks();
    void referenceListSmallFormKeepsOrderAndCopies();
    void nodeTableCopyIsIsolated();
    void nodeTableClonesOnlyTheChangedNode();
    void nodeIdIndexEveryForm();
    void nodeIdIndexCopyIsIsolated();
    void addressSpaceRemoveOnCopy();
    void readersSeeOnlyPublishedSnapshots();
    void outOfLineAttributesAreCopiedOnWrite();
    void displayNameDefaultsToTheBrowseName();
    void sharedAttributesAreInternedAndCopiedOnWrite();
    void blockPoolHandsOutDistinctBlocksAndReusesFreedOnes();
};

void TestNodeStore::referenceListKeepsOrderAcrossBlocks() {
    ReferenceList list;
    std::vector<Reference> expected;
    const std::size_t n = 3 * ReferenceList::kBlock + 17;
    for (std::size_t i = 0; i < n; ++i) {
        const Reference r{NodeIndex(i % 7), NodeIndex(i), i % 2 == 0};
        list.push_back(r);
        expected.push_back(r);
    }
    // The whole list yields the forward references first, then the inverse ones, each in order.
    std::stable_partition(expected.begin(), expected.end(), [](const Reference& r) { return r.isForward; });
    QCOMPARE(list.size(), n);
    QVERIFY(storeListed(list) == expected);
    const std::vector<Reference> forward(list.forward().begin(), list.forward().end());
    const std::vector<Reference> inverse(list.inverse().begin(), list.inverse().end());
    QCOMPARE(forward.size() + inverse.size(), n);
    QVERIFY(std::all_of(forward.begin(), forward.end(), [](const Reference& r) { return r.isForward; }));
    QVERIFY(std::none_of(inverse.begin(), inverse.end(), [](const Reference& r) { return r.isForward; }));
    QVERIFY(std::equal(forward.begin(), forward.end(), expected.begin()));
    QVERIFY(list.contains(expected[5]));
    QVERIFY(list.contains(expected[n - 1]));
    QVERIFY(!list.contains(Reference{1, NodeIndex(n + 5), true}));

    // Erase from a sealed block, from the head, and every odd target across all blocks.
    QVERIFY(list.eraseFirst(expected[10]));
    expected.erase(expected.begin() + 10);
    QVERIFY(list.eraseFirst(expected.back()));
    expected.pop_back();
    QVERIFY(!list.eraseFirst(Reference{1, NodeIndex(n + 5), true}));
    const auto odd = [](const Reference& r) { return r.target % 2 == 1; };
    const std::size_t removed = list.eraseIf(odd);
    QCOMPARE(removed, std::size_t(std::count_if(expected.begin(), expected.end(), odd)));
    std::erase_if(expected, odd);
    QCOMPARE(list.size(), expected.size());
    QVERIFY(storeListed(list) == expected);

    // Emptying whole blocks leaves no empty block behind: iteration still ends.
    QCOMPARE(list.eraseIf([](const Reference&) { return true; }), expected.size());
    QVERIFY(list.empty());
    QVERIFY(list.begin() == list.end());
}

void TestNodeStore::referenceListSmallFormKeepsOrderAndCopies() {
    // A node's list costs one pointer in the Node; its few references live in one array.
    QCOMPARE(sizeof(ReferenceList), sizeof(void*));
    // A reference is 8 bytes: the target's 31 bits and the direction share a word; the largest
    // target an AddressSpace can hold survives both directions.
    QCOMPARE(sizeof(Reference), std::size_t(8));
    const NodeIndex last = kMaxReferenceTarget - 1;
    const Reference far{7, last, false};
    QCOMPARE(NodeIndex(far.target), last);
    QVERIFY(!far.isForward);
    QVERIFY(!(far == Reference{7, last, true}));
    // A Node of 120 bytes (64-bit): a million variables are a million Nodes (docs/Benchmarks.md).
    if constexpr (sizeof(void*) == 8) QCOMPARE(sizeof(Node), std::size_t(120));
    ReferenceList list;
    QVERIFY(list.empty());
    QVERIFY(list.begin() == list.end());
    QVERIFY(list.forward().begin() == list.forward().end());
    QVERIFY(!list.contains(Reference{1, 1, true}));
    QVERIFY(!list.eraseFirst(Reference{1, 1, true}));
    QCOMPARE(list.eraseIf([](const Reference&) { return true; }), std::size_t(0));

    // Directions interleaved: each keeps its order, forward ones first.
    std::vector<Reference> expected;
    const auto add = [&](NodeIndex target, bool forward) {
        const Reference r{NodeIndex(7), target, forward};
        list.push_back(r);
        expected.push_back(r);
    };
    add(1, false);
    add(2, true);
    add(3, false);
    add(4, true);
    add(5, true);
    std::stable_partition(expected.begin(), expected.end(), [](const Reference& r) { return r.isForward; });
    QVERIFY(storeListed(list) == expected);
    QCOMPARE(list.forward().size(), std::size_t(3));
    QCOMPARE(list.inverse().size(), std::size_t(2));
    QVERIFY(list.contains(Reference{7, 3, false}));
    QVERIFY(!list.contains(Reference{7, 3, true}));  // the direction is part of the reference

    // A copy is independent of its source, both ways.
    ReferenceList copy = list;
    QVERIFY(copy.eraseFirst(Reference{7, 2, true}));
    copy.push_back(Reference{8, 9, false});
    QVERIFY(storeListed(list) == expected);
    QCOMPARE(copy.size(), std::size_t(5));
    QVERIFY(!copy.contains(Reference{7, 2, true}));
    list.push_back(Reference{9, 10, true});
    QVERIFY(!copy.contains(Reference{9, 10, true}));
    QVERIFY(list.eraseFirst(Reference{9, 10, true}));

    // eraseIf across both directions keeps the order of what stays.
    QCOMPARE(copy.eraseIf([](const Reference& r) { return r.target % 2 == 1; }), std::size_t(4));
    QVERIFY(storeListed(copy) == (std::vector<Reference>{{7, 4, true}}));
    copy = ReferenceList();  // assignment frees the old array (ASan would report a leak)
    QVERIFY(copy.empty());

    // Past kSmall the list moves to sealed blocks, keeping the order; copies still share nothing
    // that one of them changes.
    ReferenceList moved = std::move(list);
    QVERIFY(list.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
    for (NodeIndex i = 100; i < NodeIndex(100 + ReferenceList::kSmall); ++i) {
        const Reference r{NodeIndex(7), i, i % 3 != 0};
        moved.push_back(r);
        expected.push_back(r);
    }
    std::stable_partition(expected.begin(), expected.end(), [](const Reference& r) { return r.isForward; });
    QVERIFY(moved.size() > ReferenceList::kSmall);
    QVERIFY(storeListed(moved) == expected);
    const ReferenceList before = moved;
    QVERIFY(moved.eraseFirst(expected.front()));
    QVERIFY(moved.eraseFirst(expected.back()));
    QCOMPARE(moved.size(), expected.size() - 2);
    QVERIFY(storeListed(before) == expected);

    // reserve() leaves the references as they are.
    ReferenceList reserved;
    reserved.reserve(3);
    reserved.push_back(Reference{1, 2, false});
    reserved.reserve(100);
    reserved.push_back(Reference{1, 3, true});
    QVERIFY(storeListed(reserved) == (std::vector<Reference>{{1, 3, true}, {1, 2, false}}));
}

void TestNodeStore::referenceListCopiesShareSealedBlocks() {
    // More than one page of sealed blocks (64 blocks of 256 inverse references per page).
    const NodeIndex count = NodeIndex(70 * ReferenceList::kBlock + 9);
    ReferenceList a;
    for (NodeIndex i = 0; i < count; ++i) a.push_back({1, i, false});
    ReferenceList b = a;
    b.push_back({2, 99999, true});
    QVERIFY(b.eraseFirst(Reference{1, 3, false}));                      // first page
    QVERIFY(b.eraseFirst(Reference{1, NodeIndex(66 * ReferenceList::kBlock + 1), false}));  // second page
    QCOMPARE(b.eraseIf([](const Reference& r) { return r.target >= 200 && r.target < 300; }), std::size_t(100));
    QCOMPARE(a.size(), std::size_t(count));                             // the source is untouched
    QVERIFY(a.contains(Reference{1, 3, false}));
    QVERIFY(a.contains(Reference{1, NodeIndex(66 * ReferenceList::kBlock + 1), false}));
    QVERIFY(a.contains(Reference{1, 250, false}));
    QVERIFY(!a.contains(Reference{2, 99999, true}));
    QCOMPARE(b.size(), std::size_t(count) + 1 - 2 - 100);
    QVERIFY(!b.contains(Reference{1, 3, false}));
    QVERIFY(!b.contains(Reference{1, 250, false}));
    QCOMPARE(b.forward().size(), std::size_t(1));
    std::size_t walked = 0;
    NodeIndex last = 0;
    bool ordered = true;
    for (const Reference& r : b.inverse()) {
        ordered = ordered && (walked == 0 || r.target > last);
        last = r.target;
        ++walked;
    }
    QVERIFY(ordered);
    QCOMPARE(walked, b.inverse().size());
}

void TestNodeStore::nodeTableCopyIsIsolated() {
    NodeTable t;
    const std::size_t n = NodeTable::kPage * NodeTable::kChunk + 3 * NodeTable::kChunk + 5;  // two pages
    for (std::size_t i = 0; i < n; ++i) t.append(storeFolder(NodeId(1, uint32_t(i + 1)), "F"));
    NodeTable copy = t;
    copy.mutate(7).browseName = {1, String("Changed")};
    copy.mutate(NodeIndex(n - 3)).browseName = {1, String("Second page")};
    copy.append(storeFolder(NodeId(1, 50000u), "New"));
    copy.replace(NodeIndex(n - 1), Node{});
    QCOMPARE(t.size(), n);
    QCOMPARE(copy.size(), n + 1);
    QCOMPARE(t[7].browseName.name.view(), std::string_view("F"));
    QCOMPARE(copy[7].browseName.name.view(), std::string_view("Changed"));
    QCOMPARE(copy[NodeIndex(n - 3)].browseName.name.view(), std::string_view("Second page"));
    QCOMPARE(t[NodeIndex(n - 3)].browseName.name.view(), std::string_view("F"));
    QCOMPARE(t[NodeIndex(n - 1)].nodeId, NodeId(1, uint32_t(n)));
    QVERIFY(copy[NodeIndex(n - 1)].nodeId.isNull());
    // And the other way round: a change to the source after the copy stays out of the copy.
    t.mutate(8).browseName = {1, String("Source")};
    QCOMPARE(copy[8].browseName.name.view(), std::string_view("F"));
    std::size_t visited = 0;
    for (const Node& node : copy) visited += node.nodeId.isNull() ? 0 : 1;
    QCOMPARE(visited, n);  // n + 1 slots, one removed

    // A move leaves the source empty and usable.
    NodeTable moved = std::move(copy);
    QCOMPARE(moved.size(), n + 1);
    QCOMPARE(copy.size(), std::size_t(0));  // NOLINT(bugprone-use-after-move): what is tested
    QVERIFY(copy.begin() == copy.end());
    QCOMPARE(copy.append(storeFolder(NodeId(1, 1u), "Again")), NodeIndex(0));
    QCOMPARE(copy[0].browseName.name.view(), std::string_view("Again"));
    QCOMPARE(moved[7].browseName.name.view(), std::string_view("Changed"));
}

void TestNodeStore::nodeTableClonesOnlyTheChangedNode() {
    NodeTable t;
    for (uint32_t i = 1; i <= 2 * NodeTable::kChunk; ++i) t.append(storeFolder(NodeId(1, i), "F"));
    NodeTable copy = t;
    const Node* before5 = &copy[5];
    const Node* before6 = &copy[6];
    const Node* beforeOtherChunk = &copy[NodeIndex(NodeTable::kChunk + 1)];
    Node& changed = copy.mutate(5);
    QVERIFY(&changed != before5);                                        // cloned: the source still has it
    QCOMPARE(&t[5], before5);
    QCOMPARE(&copy[6], before6);                                         // its neighbours stay shared
    QCOMPARE(&copy[NodeIndex(NodeTable::kChunk + 1)], beforeOtherChunk);  // so does every other chunk
    QCOMPARE(&copy.mutate(5), &changed);                                 // cloned once per copy
}

void TestNodeStore::nodeIdIndexEveryForm() {
    NodeIdIndex ids;
    const NodeId small(0, 85u), large(2, NodeIdIndex::kMaxDenseId + 10), text(3, String("Line1.Speed"));
    Guid g;
    g.data1 = 0x12345678;
    const NodeId guid(1, g), opaque(1, ByteString(QByteArray("\x01\x02", 2)));
    ids.insert(small, 1);
    ids.insert(large, 2);
    ids.insert(text, 3);
    ids.insert(guid, 4);
    ids.insert(opaque, 5);
    QCOMPARE(ids.find(small), NodeIndex(1));
    QCOMPARE(ids.find(large), NodeIndex(2));
    QCOMPARE(ids.find(text), NodeIndex(3));
    QCOMPARE(ids.find(guid), NodeIndex(4));
    QCOMPARE(ids.find(opaque), NodeIndex(5));
    QCOMPARE(ids.find(NodeId(0, 86u)), kNoNode);              // same chunk, unused entry
    QCOMPARE(ids.find(NodeId(0, 1u << 20)), kNoNode);         // no chunk there
    QCOMPARE(ids.find(NodeId(9, 85u)), kNoNode);              // no such namespace
    QCOMPARE(ids.find(NodeId(3, String("Line1.speed"))), kNoNode);
    ids.erase(text);
    ids.erase(small);
    ids.erase(NodeId(7, String("never there")));
    QCOMPARE(ids.find(text), kNoNode);
    QCOMPARE(ids.find(small), kNoNode);
    QCOMPARE(ids.find(guid), NodeIndex(4));
}

void TestNodeStore::nodeIdIndexCopyIsIsolated() {
    NodeIdIndex a;
    for (uint32_t i = 1; i <= 10000; ++i) a.insert(NodeId(1, i), i);
    for (uint32_t i = 1; i <= 1000; ++i) a.insert(NodeId(1, String("s" + std::to_string(i))), 20000 + i);
    NodeIdIndex b = a;
    b.insert(NodeId(1, 5u), 77);
    b.erase(NodeId(1, String("s5")));
    b.insert(NodeId(1, String("new")), 88);
    QCOMPARE(a.find(NodeId(1, 5u)), NodeIndex(5));
    QCOMPARE(a.find(NodeId(1, String("s5"))), NodeIndex(20005));
    QCOMPARE(a.find(NodeId(1, String("new"))), kNoNode);
    QCOMPARE(b.find(NodeId(1, 5u)), NodeIndex(77));
    QCOMPARE(b.find(NodeId(1, String("s5"))), kNoNode);
    QCOMPARE(b.find(NodeId(1, String("new"))), NodeIndex(88));
    QCOMPARE(b.find(NodeId(1, 6u)), NodeIndex(6));
    a.insert(NodeId(1, 6u), 66);  // the source changes after the copy: not seen by b
    QCOMPARE(b.find(NodeId(1, 6u)), NodeIndex(6));
}

void TestNodeStore::addressSpaceRemoveOnCopy() {
    AddressSpace s;
    s.addNamespace("urn:test");
    Node organizes;
    organizes.nodeId = NodeId(id::Organizes);
    organizes.nodeClass = NodeClass::ReferenceType;
    QCOMPARE(s.addNode(organizes), StatusCode());
    QCOMPARE(s.addNode(storeFolder(NodeId(1, 1u), "Parent")), StatusCode());
    for (uint32_t i = 2; i < 2 + 3 * ReferenceList::kBlock; ++i) {
        QCOMPARE(s.addNode(storeFolder(NodeId(1, i), "Child")), StatusCode());
        QCOMPARE(s.addReference(NodeId(1, 1u), NodeId(id::Organizes), NodeId(1, i)), StatusCode());
    }
    const std::size_t children = s.find(NodeId(1, 1u))->references.size();
    AddressSpace copy = s;
    QCOMPARE(copy.removeNode(NodeId(1, 100u)), StatusCode());
    QCOMPARE(copy.find(NodeId(1, 1u))->references.size(), children - 1);
    QCOMPARE(s.find(NodeId(1, 1u))->references.size(), children);
    QVERIFY(!copy.find(NodeId(1, 100u)));
    QVERIFY(s.find(NodeId(1, 100u)));
    // The freed slot is taken again by the copy only.
    NodeIndex reused = kNoNode;
    QCOMPARE(copy.addNode(storeFolder(NodeId(1, String("again")), "Again"), &reused), StatusCode());
    QCOMPARE(reused, s.indexOf(NodeId(1, 100u)));
    QCOMPARE(s.node(reused).nodeId, NodeId(1, 100u));
}

// Readers on other threads keep reading snapshots while a writer publishes one change at a time:
// a reader sees a whole snapshot, never half of a change. Run under
// ThreadSanitizer by ./test.sh --tsan.
void TestNodeStore::readersSeeOnlyPublishedSnapshots() {
    AddressSpace initial;
    initial.addNamespace("urn:test");
    for (uint32_t i = 1; i <= 2000; ++i) QCOMPARE(initial.addNode(storeFolder(NodeId(1, i), "N")), StatusCode());
    SharedAddressSpace shared(std::move(initial));
    std::atomic<bool> stop{false};
    std::atomic<int> torn{0};
    auto reader = [&] {
        while (!stop.load()) {
            const auto snap = shared.snapshot();
            const std::size_t size = snap->size();
            // Each update renames one node to M and adds one: in a whole snapshot the two agree.
            std::size_t renamed = 0;
            for (const Node& n : snap->nodes()) renamed += n.browseName.name.view() == "M" ? 1 : 0;
            if (renamed != size - 2000) torn.fetch_add(1);
            for (uint32_t i = 1; i <= 2000; i += 97)
                if (!snap->find(NodeId(1, i))) torn.fetch_add(1);
        }
    };
    std::thread r1(reader), r2(reader);
    for (uint32_t i = 0; i < 300; ++i) {
        const StatusCode s = shared.update([i](AddressSpace& a) {
            a.nodeMutable(a.indexOf(NodeId(1, 1 + i % 2000))).browseName = {1, String("M")};
            return a.addNode(storeFolder(NodeId(1, 10000 + i), "Added"));
        });
        QCOMPARE(s, StatusCode());
    }
    stop = true;
    r1.join();
    r2.join();
    QCOMPARE(torn.load(), 0);
    const auto last = shared.snapshot();
    QCOMPARE(last->size(), std::size_t(2300));
    QCOMPARE(last->find(NodeId(1, 1u))->browseName.name.view(), std::string_view("M"));
    QCOMPARE(last->find(NodeId(1, 1000u))->browseName.name.view(), std::string_view("N"));
}

void TestNodeStore::outOfLineAttributesAreCopiedOnWrite() {
    Node a = storeFolder(NodeId(1, 1u), "A");
    QVERIFY(!a.rare.isSet());  // a node without any of them holds one null pointer for all
    QVERIFY(!a.rare->description.isSet());
    QVERIFY(a.rare->description->text.isNull());
    QVERIFY(a.rare->rolePermissions->isNull());
    QVERIFY(!a.rare->source->read);
    a.rare.edit().description = LocalizedText{String("en"), String("first")};
    Node b = a;  // the node store's copy before a change
    QVERIFY(b.rare->description.isSet());
    QVERIFY(&*b.rare->description == &*a.rare->description);  // shared, not copied
    b.rare.edit().description.edit().text = String("second");
    QCOMPARE(a.rare->description->text, String("first"));
    QCOMPARE(b.rare->description->text, String("second"));
    QVERIFY(&a.rare.get() != &b.rare.get());  // b's change gave it a block of its own
    QVERIFY(!(a.rare->description == b.rare->description));
    b.rare.edit().description = LocalizedText{String("en"), String("first")};
    QVERIFY(a.rare->description == b.rare->description);  // compares values, not pointers
    // A live Variable's callbacks set through edit() on one copy only.
    Node c = b;
    c.rare.edit().source.edit().read = [] { return DataValue(Variant(int32_t(7))); };
    QVERIFY(c.rare->source->read);
    QVERIFY(!b.rare->source->read);
    QCOMPARE(*c.rare->source->read().value.get<int32_t>(), 7);
    // What a node costs without them: one pointer each, not the value.
    static_assert(sizeof(OutOfLine<Variant>) == sizeof(void*));
    // The last copy frees the value (ASan reports a leak otherwise); a moved-from one reads as unset.
    OutOfLine<LocalizedText> one(LocalizedText{String("en"), String("kept")});
    OutOfLine<LocalizedText> two = one;
    OutOfLine<LocalizedText> three = std::move(one);
    QVERIFY(!one.isSet());  // NOLINT(bugprone-use-after-move)
    QCOMPARE(one->text, String());
    QCOMPARE(&two.get(), &three.get());
    two = LocalizedText{String("en"), String("other")};
    QCOMPARE(three->text, String("kept"));
    three = two;
    QCOMPARE(three->text, String("other"));
}

// A DisplayName equal to the BrowseName's name without a locale costs the node nothing; any other
// is kept; a new BrowseName leaves the DisplayName as it was.
void TestNodeStore::displayNameDefaultsToTheBrowseName() {
    Node a = storeFolder(NodeId(1, 1u), "A");
    QCOMPARE(a.displayName(), (LocalizedText{String(), String("A")}));
    a.setDisplayName(LocalizedText{String(), String("A")});
    QVERIFY(!a.ownDisplayName.isSet());
    a.setDisplayName(LocalizedText{String("en"), String("A")});  // a locale: kept
    QVERIFY(a.ownDisplayName.isSet());
    QCOMPARE(a.displayName(), (LocalizedText{String("en"), String("A")}));
    a.setDisplayName(LocalizedText{String(), String("Other")});
    QCOMPARE(a.displayName(), (LocalizedText{String(), String("Other")}));
    a.setDisplayName(LocalizedText{String(), String("")});  // empty is a value of its own
    QVERIFY(a.ownDisplayName.isSet());
    QCOMPARE(a.displayName(), (LocalizedText{String(), String("")}));

    // Written through the attribute interface (the Write service's path).
    Node b = storeFolder(NodeId(1, 2u), "B");
    QCOMPARE(setAttribute(b, AttributeId::BrowseName, Variant(QualifiedName{1, String("C")})), StatusCode(status::Good));
    QCOMPARE(b.browseName.name, String("C"));
    QCOMPARE(b.displayName(), (LocalizedText{String(), String("B")}));  // unchanged
    QCOMPARE(setAttribute(b, AttributeId::DisplayName, Variant(LocalizedText{String(), String("C")})), StatusCode(status::Good));
    QVERIFY(!b.ownDisplayName.isSet());
    QCOMPARE(setAttribute(b, AttributeId::DisplayName, Variant(int32_t(1))), StatusCode(status::BadTypeMismatch));
    Variant out;
    QCOMPARE(readAttribute(b, AttributeId::DisplayName, out), StatusCode(status::Good));
    QCOMPARE(*out.get<LocalizedText>(), (LocalizedText{String(), String("C")}));
}

// Equal attributes intern to one block; a change through edit() or setAttribute() gives the
// changed node a block of its own, and a refused change shares on.
void TestNodeStore::sharedAttributesAreInternedAndCopiedOnWrite() {
    SharedAttributesPool pool;
    SharedAttributes plain;
    plain.dataType = NodeId(id::Int32);
    SharedAttributes writable = plain;
    writable.accessLevel = access::CurrentRead | access::CurrentWrite;
    Node a = storeFolder(NodeId(1, 1u), "A");
    Node b = storeFolder(NodeId(1, 2u), "B");
    Node c = storeFolder(NodeId(1, 3u), "C");
    a.nodeClass = b.nodeClass = c.nodeClass = NodeClass::Variable;
    a.attrs = pool.intern(plain);
    b.attrs = pool.intern(plain);
    c.attrs = pool.intern(writable);
    QCOMPARE(pool.size(), std::size_t(2));
    QCOMPARE(&a.attrs.get(), &b.attrs.get());
    QVERIFY(&a.attrs.get() != &c.attrs.get());
    QCOMPARE(c.attrs->accessLevel, uint8_t(3));

    QCOMPARE(setAttribute(a, AttributeId::ValueRank, Variant(uint32_t(1))), StatusCode(status::BadTypeMismatch));
    QCOMPARE(&a.attrs.get(), &b.attrs.get());  // refused: still shared
    QCOMPARE(setAttribute(a, AttributeId::ValueRank, Variant(int32_t(1))), StatusCode(status::Good));
    QVERIFY(&a.attrs.get() != &b.attrs.get());
    QCOMPARE(a.attrs->valueRank, 1);
    QCOMPARE(b.attrs->valueRank, -1);
    QCOMPARE(a.attrs->dataType, NodeId(id::Int32));  // the rest copied
    b.attrs.edit().writeMask = 4;
    QCOMPARE(pool.intern(plain)->writeMask, 0u);  // the pool's block is unchanged
    Variant out;
    QCOMPARE(readAttribute(b, AttributeId::WriteMask, out), StatusCode(status::Good));
    QCOMPARE(*out.get<uint32_t>(), 4u);
    // A NaN MinimumSamplingInterval (a file may give one) equals itself: one block, not one each.
    SharedAttributes nan = plain;
    nan.minimumSamplingInterval = std::numeric_limits<double>::quiet_NaN();
    QCOMPARE(&pool.intern(nan).get(), &pool.intern(nan).get());
    QCOMPARE(pool.size(), std::size_t(3));
    // A node that never had them reads the defaults.
    const Node d = storeFolder(NodeId(1, 4u), "D");
    QVERIFY(!d.attrs.isSet());
    QCOMPARE(d.attrs->accessLevel, access::CurrentRead);
    QCOMPARE(d.attrs->valueRank, -1);
}

UA_TEST_GUILESS_MAIN(TestNodeStore)
void TestNodeStore::blockPoolHandsOutDistinctBlocksAndReusesFreedOnes() {
    using Pool = BlockPool<40>;  // a size of its own: no other user shares these blocks
    // Two threads allocate, fill, check and free blocks at once: no block is handed out twice
    // while it is in use (each thread finds its own bytes again), across slab boundaries.
    const std::size_t perThread = 3 * Pool::kSlab / 40;
    auto work = [&](unsigned char mark, bool* ok) {
        std::vector<void*> mine;
        for (std::size_t i = 0; i < perThread; ++i) {
            void* p = Pool::allocate();
            std::memset(p, mark, 40);
            mine.push_back(p);
            if (i % 3 == 2) {  // free every third one again at once: the free list is used too
                Pool::deallocate(mine.back());
                mine.pop_back();
            }
        }
        for (void* p : mine) {
            const auto* bytes = static_cast<const unsigned char*>(p);
            for (int b = 0; b < 40; ++b)
                if (bytes[b] != mark) *ok = false;
        }
        for (void* p : mine) Pool::deallocate(p);
    };
    bool firstOk = true;
    bool secondOk = true;
    std::thread other(work, 0xA5, &secondOk);
    work(0x5A, &firstOk);
    other.join();
    QVERIFY(firstOk);
    QVERIFY(secondOk);

    std::set<void*> distinct;
    std::vector<void*> held;
    for (int i = 0; i < 100; ++i) {
        held.push_back(Pool::allocate());
        QVERIFY(distinct.insert(held.back()).second);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(held.back()) % alignof(void*), std::uintptr_t(0));
    }
#if !defined(UA_BLOCK_POOL_BYPASS)
    // The last block freed is the next one handed out (under ASan each block is its own new).
    void* last = held.back();
    held.pop_back();
    Pool::deallocate(last);
    QCOMPARE(Pool::allocate(), last);
    held.push_back(last);
#endif
    for (void* p : held) Pool::deallocate(p);
    Pool::deallocate(nullptr);  // a no-op, as delete of nullptr
}

#include "tst_nodestore.moc"
