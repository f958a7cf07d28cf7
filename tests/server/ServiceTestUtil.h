// Test helper: namespace 0 plus a test namespace added through a NodeManager, and a
// ServiceContext over them, for the View and Attribute service tests.
#pragma once

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/common/ServiceContext.h"
#include "ua/server/addressspace/Ns0NodeManager.h"

#include <QtTest>

#include <atomic>
#include <memory>

namespace ua::test {

// Numeric ids of the test nodes (namespace "urn:ua-workbench:test").
enum TestId : uint32_t {
    Folder = 1000, Int32Var, DurationVar, Int32Array, Matrix, StringVar, ByteStringVar, StringArray, ByteArray,
    ReadOnly, WriteOnly, UserReadOnly, UserNoRead, Live, Timestamped, AnyNumber, AnyValue, BuildInfoVar,
    WritableObject, Many, LiveReadOnly, WritableType, ManyFirst = 2000,
};
inline constexpr int kManyChildren = 25;

class TestNodeManager final : public NodeManager {
public:
    TestNodeManager() : NodeManager("urn:ua-workbench:test") {}
    std::atomic<int> liveReads{0};
    std::shared_ptr<DataValue> liveWritten = std::make_shared<DataValue>();

protected:
    StatusCode populate(AddressSpace& s) override {
        const NodeId objects(id::ObjectsFolder);
        const NodeId folder = makeId(Folder);
        StatusCode st = addFolder(s, folder, "Test", objects);
        const auto var = [&](uint32_t id, const char* name, uint32_t dataType, Variant v, VariableOptions o = {}) {
            if (st.isGood()) st = addVariable(s, makeId(id), name, folder, NodeId(dataType), std::move(v), std::move(o));
        };
        VariableOptions array;
        array.valueRank = 1;
        VariableOptions matrix;
        matrix.valueRank = 2;
        matrix.arrayDimensions = Array<uint32_t>{3, 4};
        var(Int32Var, "Int32", id::Int32, int32_t(42));
        var(DurationVar, "Duration", id::Duration, 1.5);
        var(Int32Array, "Int32Array", id::Int32, Array<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, array);
        Variant m(Array<int32_t>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
        m.setArrayDimensions(Array<int32_t>{3, 4});
        var(Matrix, "Matrix", id::Int32, m, matrix);
        var(StringVar, "String", id::String, String("Hello World"));
        var(ByteStringVar, "ByteString", id::ByteString, ByteString("\x01\x02\x03\x04", 4));
        var(StringArray, "StringArray", id::String, Array<String>{String("alpha"), String("beta"), String("gamma")}, array);
        var(ByteArray, "ByteArray", id::Byte, Array<uint8_t>{1, 2, 3}, array);
        VariableOptions ro;
        ro.accessLevel = access::CurrentRead;
        var(ReadOnly, "ReadOnly", id::Int32, int32_t(1), ro);
        VariableOptions wo;
        wo.accessLevel = access::CurrentWrite;
        var(WriteOnly, "WriteOnly", id::Int32, int32_t(2), wo);
        var(UserReadOnly, "UserReadOnly", id::Int32, int32_t(3));
        var(UserNoRead, "UserNoRead", id::Int32, int32_t(4));
        var(Live, "Live", id::Int32, int32_t(0));
        var(LiveReadOnly, "LiveReadOnly", id::Int32, int32_t(0));
        VariableOptions ts;
        ts.accessLevel = access::CurrentRead | access::CurrentWrite | access::StatusWrite | access::TimestampWrite;
        var(Timestamped, "Timestamped", id::Double, 0.0, ts);
        var(AnyNumber, "AnyNumber", id::Number, 1.0);
        var(AnyValue, "AnyValue", id::BaseDataType, int32_t(5));
        BuildInfo info;
        info.productName = String("UA Workbench");
        var(BuildInfoVar, "BuildInfo", id::BuildInfo, ExtensionObject::make(info));
        if (st.isGood()) st = addObject(s, makeId(WritableObject), "WritableObject", folder);
        if (st.isGood()) st = addFolder(s, makeId(Many), "Many", folder);
        for (int i = 0; i < kManyChildren && st.isGood(); ++i)
            st = addVariable(s, makeId(ManyFirst + i), "Child" + std::to_string(i), makeId(Many), NodeId(id::Int32),
                             int32_t(i));
        if (st.isBad()) return st;

        s.findMutable(makeId(UserReadOnly))->attrs.edit().userAccessLevel = access::CurrentRead;
        s.findMutable(makeId(UserNoRead))->attrs.edit().userAccessLevel = access::CurrentWrite;
        Node* object = s.findMutable(makeId(WritableObject));
        object->attrs.edit().writeMask = uint32_t(AttributeWriteMask::DisplayName) | uint32_t(AttributeWriteMask::Description);
        object->attrs.edit().userWriteMask = uint32_t(AttributeWriteMask::DisplayName);
        // A VariableType whose default Value may be written.
        Node type;
        type.nodeId = makeId(WritableType);
        type.nodeClass = NodeClass::VariableType;
        type.browseName = {namespaceIndex(), String("WritableType")};
        type.setDisplayName(LocalizedText{String(), String("WritableType")});
        type.attrs.edit().dataType = NodeId(id::Int32);
        type.attrs.edit().writeMask = type.attrs.edit().userWriteMask = uint32_t(AttributeWriteMask::ValueForVariableType);
        if (st = s.addNode(std::move(type)); st.isBad()) return st;
        if (st = s.addReference(NodeId(id::BaseDataVariableType), NodeId(id::HasSubtype), makeId(WritableType)); st.isBad())
            return st;

        auto written = liveWritten;
        ValueSource live;
        live.read = [this] { return DataValue(Variant(int32_t(++liveReads))); };
        live.write = [written](const DataValue& v) { *written = v; return StatusCode(status::Good); };
        if (st = setValueSource(s, makeId(Live), live); st.isBad()) return st;
        ValueSource liveRo;
        liveRo.read = [] { return DataValue(Variant(int32_t(7))); };
        return setValueSource(s, makeId(LiveReadOnly), liveRo);
    }
};

// Namespace 0 + the test namespace, published in a SharedAddressSpace, with a Session's state.
struct ServiceFixture {
    TestNodeManager manager;
    std::unique_ptr<SharedAddressSpace> shared;
    OperationLimits limits;
    SessionViewState session;
    uint16_t ns = 0;

    void init() {
        AddressSpace space;
        Ns0NodeManager ns0;
        QCOMPARE(ns0.install(space), StatusCode());
        QCOMPARE(manager.install(space), StatusCode());
        ns = manager.namespaceIndex();
        shared = std::make_unique<SharedAddressSpace>(std::move(space));
    }
    NodeId id(uint32_t n) const { return NodeId(ns, n); }

    // Runs a handler on the current snapshot, as the server does for one request.
    template <class Req, class Resp>
    Resp call(void (*handler)(ServiceContext&, const Req&, Resp&), const Req& req, bool withSession = true) {
        const auto snapshot = shared->snapshot();
        ServiceContext ctx{*snapshot, shared.get(), limits, withSession ? &session : nullptr, DateTime::now()};
        Resp resp;
        handler(ctx, req, resp);
        return resp;
    }
};

} // namespace ua::test

// QCOMPARE prints StatusCodes by name. (Defined once: ServiceTestUtil.h and ClientTestUtil.h may meet in one unity batch.)
#ifndef UA_TEST_STATUSCODE_TO_STRING
#define UA_TEST_STATUSCODE_TO_STRING
namespace QTest {
template <>
inline char* toString(const ua::StatusCode& s) {
    return qstrdup(s.name().c_str());
}
} // namespace QTest
#endif
