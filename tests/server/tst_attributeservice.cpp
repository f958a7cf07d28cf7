// Attribute Service Set (OPC 10000-4 5.10): Read and Write against namespace 0 and the test
// namespace, with every status code services/AttributeService.h lists.
#include "ServiceTestUtil.h"
#include "ua/server/services/AttributeService.h"

#include <cmath>
#include <limits>
#include "MetaTypes.h"
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

ReadValueId rv(NodeId node, AttributeId a = AttributeId::Value, const char* range = nullptr) {
    ReadValueId r;
    r.nodeId = std::move(node);
    r.attributeId = uint32_t(a);
    if (range) r.indexRange = String(range);
    return r;
}

WriteValue wv(NodeId node, Variant v, AttributeId a = AttributeId::Value, const char* range = nullptr) {
    WriteValue w;
    w.nodeId = std::move(node);
    w.attributeId = uint32_t(a);
    if (range) w.indexRange = String(range);
    w.value = DataValue(std::move(v));
    return w;
}

} // namespace

class TestAttributeService : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { f.init(); }
    void readRequestLevelErrors();
    void readEveryAttributeOfServer();
    void readAttributeIdInvalid();
    void readNodeIdUnknown();
    void readTimestamps();
    void readIndexRange_data();
    void readIndexRange();
    void readDataEncoding();
    void readAccessLevels();
    void readLiveValue();
    void readIntoAReusedResponse();
    void writeRequestLevelErrors();
    void writeValueAndReadBack();
    void writeTypeChecks_data();
    void writeTypeChecks();
    void writeAccessLevels();
    void writeIndexRange();
    void writeStatusAndTimestamps();
    void writeLiveValue();
    void writeOtherAttributes();

private:
    DataValue read1(const ReadValueId& r, TimestampsToReturn t = TimestampsToReturn::Neither) {
        ReadRequest req;
        req.timestampsToReturn = t;
        req.nodesToRead = Array<ReadValueId>{r};
        ReadResponse resp = f.call(&handleRead, req);
        if (resp.results.size() != 1) return {};
        return resp.results[0];
    }
    StatusCode write1(const WriteValue& w) {
        WriteRequest req;
        req.nodesToWrite = Array<WriteValue>{w};
        WriteResponse resp = f.call(&handleWrite, req);
        return resp.results.size() == 1 ? resp.results[0] : StatusCode(status::BadUnexpectedError);
    }

    ServiceFixture f;
};

void TestAttributeService::readRequestLevelErrors() {
    ReadRequest req;
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadNothingToDo);
    req.nodesToRead = Array<ReadValueId>{rv(NodeId(id::Server))};
    req.maxAge = -1;
    ReadResponse resp = f.call(&handleRead, req);
    QCOMPARE(resp.responseHeader.serviceResult, status::BadMaxAgeInvalid);
    QVERIFY(resp.results.empty());
    req.maxAge = std::nan("");
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadMaxAgeInvalid);
    req.maxAge = -std::numeric_limits<double>::infinity();
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadMaxAgeInvalid);
    req.maxAge = std::numeric_limits<double>::infinity();  // any age will do: the current value is read
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::Good);
    req.maxAge = 0;
    req.timestampsToReturn = TimestampsToReturn(4);
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadTimestampsToReturnInvalid);
    req.timestampsToReturn = TimestampsToReturn(-1);
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadTimestampsToReturnInvalid);
    req.timestampsToReturn = TimestampsToReturn::Both;
    f.limits.maxNodesPerRead = 2;
    req.nodesToRead = Array<ReadValueId>{rv(NodeId(id::Server)), rv(NodeId(id::Server)), rv(NodeId(id::Server))};
    QCOMPARE(f.call(&handleRead, req).responseHeader.serviceResult, status::BadTooManyOperations);
    req.nodesToRead.pop_back();
    resp = f.call(&handleRead, req);
    QCOMPARE(resp.responseHeader.serviceResult, status::Good);
    QCOMPARE(resp.results.size(), std::size_t(2));
    f.limits = OperationLimits{};
}

void TestAttributeService::readEveryAttributeOfServer() {
    const DataValue name = read1(rv(NodeId(id::Server), AttributeId::BrowseName));
    QCOMPARE(name.value, Variant(QualifiedName{0, String("Server")}));
    QVERIFY(!name.hasStatus);
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::NodeClass)).value, Variant(int32_t(NodeClass::Object)));
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::NodeId)).value, Variant(NodeId(id::Server)));
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::EventNotifier)).value, Variant(uint8_t(1)));
    QCOMPARE(read1(rv(NodeId(id::HasComponent), AttributeId::InverseName)).value,
             Variant(LocalizedText{String(), String("ComponentOf")}));
    QCOMPARE(read1(rv(NodeId(id::HasComponent), AttributeId::Symmetric)).value, Variant(false));
    QCOMPARE(read1(rv(NodeId(id::Server_NamespaceArray), AttributeId::DataType)).value, Variant(NodeId(id::String)));
    QCOMPARE(read1(rv(NodeId(id::Server_NamespaceArray), AttributeId::ValueRank)).value, Variant(int32_t(1)));
    QCOMPARE(read1(rv(NodeId(id::Server_NamespaceArray), AttributeId::MinimumSamplingInterval)).value, Variant(1000.0));
    QCOMPARE(read1(rv(NodeId(id::Server_GetMonitoredItems), AttributeId::Executable)).value, Variant(true));
    const DataValue def = read1(rv(NodeId(id::BuildInfo), AttributeId::DataTypeDefinition));
    const auto* x = def.value.get<ExtensionObject>();
    QVERIFY(x && x->get<StructureDefinition>());
    QCOMPARE(x->get<StructureDefinition>()->fields.size(), std::size_t(6));
    QCOMPARE(x->get<StructureDefinition>()->defaultEncodingId, NodeId(id::BuildInfo_Encoding_DefaultBinary));
    // An Argument list, decoded into the generated struct.
    const DataValue args = read1(rv(NodeId(id::Server_GetMonitoredItems_InputArguments)));
    const auto* list = args.value.get<Array<ExtensionObject>>();
    QVERIFY(list && list->size() == 1 && (*list)[0].get<Argument>());
    QCOMPARE((*list)[0].get<Argument>()->name, String("SubscriptionId"));
}

void TestAttributeService::readAttributeIdInvalid() {
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::Value)).status, status::BadAttributeIdInvalid);
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::IsAbstract)).status, status::BadAttributeIdInvalid);
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId::DataTypeDefinition)).status, status::BadAttributeIdInvalid);
    QCOMPARE(read1(rv(NodeId(id::BaseObjectType), AttributeId::EventNotifier)).status, status::BadAttributeIdInvalid);
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId(0))).status, status::BadAttributeIdInvalid);
    QCOMPARE(read1(rv(NodeId(id::Server), AttributeId(28))).status, status::BadAttributeIdInvalid);
    const DataValue bad = read1(rv(NodeId(id::Server), AttributeId(99)));
    QVERIFY(!bad.hasValue && bad.hasStatus);
}

void TestAttributeService::readNodeIdUnknown() {
    QCOMPARE(read1(rv(NodeId(0, 999999u))).status, status::BadNodeIdUnknown);
    QCOMPARE(read1(rv(NodeId(7, String("nope")))).status, status::BadNodeIdUnknown);
    QCOMPARE(read1(rv(f.id(123456))).status, status::BadNodeIdUnknown);
}

void TestAttributeService::readTimestamps() {
    const ReadValueId item = rv(f.id(Int32Var));
    const DataValue both = read1(item, TimestampsToReturn::Both);
    QVERIFY(both.hasSourceTimestamp && both.hasServerTimestamp);
    const DataValue source = read1(item, TimestampsToReturn::Source);
    QVERIFY(source.hasSourceTimestamp && !source.hasServerTimestamp);
    const DataValue server = read1(item, TimestampsToReturn::Server);
    QVERIFY(!server.hasSourceTimestamp && server.hasServerTimestamp);
    const DataValue neither = read1(item, TimestampsToReturn::Neither);
    QVERIFY(!neither.hasSourceTimestamp && !neither.hasServerTimestamp);
    QCOMPARE(neither.value, Variant(int32_t(42)));
    // Attributes other than Value never carry a SourceTimestamp.
    const DataValue name = read1(rv(f.id(Int32Var), AttributeId::BrowseName), TimestampsToReturn::Both);
    QVERIFY(!name.hasSourceTimestamp && name.hasServerTimestamp);
}

void TestAttributeService::readIndexRange_data() {
    QTest::addColumn<uint32_t>("node");
    QTest::addColumn<QString>("range");
    QTest::addColumn<Variant>("expected");
    QTest::addColumn<uint32_t>("status");
    const uint32_t good = status::Good;
    QTest::newRow("one element") << uint32_t(Int32Array) << "3" << Variant(Array<int32_t>{3}) << good;
    QTest::newRow("range") << uint32_t(Int32Array) << "2:4" << Variant(Array<int32_t>{2, 3, 4}) << good;
    QTest::newRow("upper past end") << uint32_t(Int32Array) << "8:20" << Variant(Array<int32_t>{8, 9}) << good;
    QTest::newRow("lower past end") << uint32_t(Int32Array) << "10:12" << Variant() << uint32_t(status::BadIndexRangeNoData);
    QTest::newRow("too many dims") << uint32_t(Int32Array) << "1,1" << Variant() << uint32_t(status::BadIndexRangeNoData);
    QTest::newRow("equal bounds") << uint32_t(Int32Array) << "5:5" << Variant() << uint32_t(status::BadIndexRangeInvalid);
    QTest::newRow("reversed") << uint32_t(Int32Array) << "7:5" << Variant() << uint32_t(status::BadIndexRangeInvalid);
    QTest::newRow("space") << uint32_t(Int32Array) << "1: 2" << Variant() << uint32_t(status::BadIndexRangeInvalid);
    QTest::newRow("negative") << uint32_t(Int32Array) << "-1" << Variant() << uint32_t(status::BadIndexRangeInvalid);
    QTest::newRow("trailing comma") << uint32_t(Int32Array) << "1," << Variant() << uint32_t(status::BadIndexRangeInvalid);
    Variant block(Array<int32_t>{10, 11, 20, 21});
    block.setArrayDimensions(Array<int32_t>{2, 2});
    QTest::newRow("matrix block") << uint32_t(Matrix) << "1:2,0:1" << block << good;
    Variant cell(Array<int32_t>{12});
    cell.setArrayDimensions(Array<int32_t>{1, 1});
    QTest::newRow("matrix element") << uint32_t(Matrix) << "1,2" << cell << good;
    QTest::newRow("matrix one dim") << uint32_t(Matrix) << "1" << Variant() << uint32_t(status::BadIndexRangeNoData);
    QTest::newRow("matrix row past end") << uint32_t(Matrix) << "3,0" << Variant() << uint32_t(status::BadIndexRangeNoData);
    QTest::newRow("substring") << uint32_t(StringVar) << "6:10" << Variant(String("World")) << good;
    QTest::newRow("substring past end") << uint32_t(StringVar) << "6:99" << Variant(String("World")) << good;
    QTest::newRow("substring no data") << uint32_t(StringVar) << "11" << Variant() << uint32_t(status::BadIndexRangeNoData);
    QTest::newRow("bytes") << uint32_t(ByteStringVar) << "1:2" << Variant(ByteString("\x02\x03", 2)) << good;
    QTest::newRow("string elements") << uint32_t(StringArray) << "1:2" << Variant(Array<String>{String("beta"), String("gamma")}) << good;
    QTest::newRow("string element substrings") << uint32_t(StringArray) << "0:1,1:2"
                                               << Variant(Array<String>{String("lp"), String("et")}) << good;
    QTest::newRow("scalar") << uint32_t(Int32Var) << "0" << Variant() << uint32_t(status::BadIndexRangeNoData);
}

void TestAttributeService::readIndexRange() {
    QFETCH(uint32_t, node);
    QFETCH(QString, range);
    QFETCH(Variant, expected);
    QFETCH(uint32_t, status);
    const DataValue dv = read1(rv(f.id(node), AttributeId::Value, range.toUtf8().constData()));
    QCOMPARE(dv.status, StatusCode(status));
    if (StatusCode(status).isGood()) QVERIFY(dv.value == expected);
    else QVERIFY(!dv.hasValue);
}

// The server reads every Read into one ReadResponse per I/O thread, over the previous Read's
// DataValues (readValueInto, ServiceDispatcher.cpp): whatever they held, the results must equal a
// Read into a fresh response, and a request failed whole leaves no results behind.
void TestAttributeService::readIntoAReusedResponse() {
    const auto request = [](std::vector<ReadValueId> items, TimestampsToReturn t) {
        ReadRequest r;
        r.timestampsToReturn = t;
        r.nodesToRead = Array<ReadValueId>(std::move(items));
        return r;
    };
    const std::vector<ReadRequest> sequence = {
        request({rv(f.id(StringVar)), rv(f.id(Int32Array)), rv(f.id(Timestamped)), rv(f.id(BuildInfoVar)),
                 rv(f.id(LiveReadOnly)), rv(NodeId(id::Server), AttributeId::BrowseName)},
                TimestampsToReturn::Both),
        request({rv(f.id(Int32Var)), rv(NodeId(2, 999999)), rv(f.id(UserNoRead))}, TimestampsToReturn::Neither),  // fewer; Bad ones
        request({rv(f.id(Int32Array), AttributeId::Value, "1"), rv(f.id(StringArray)), rv(f.id(ByteStringVar)),
                 rv(f.id(Int32Var), AttributeId::DataType), rv(f.id(Timestamped)), rv(f.id(StringVar)),
                 rv(f.id(Int32Var))},
                TimestampsToReturn::Source),  // more, kinds swapped
        request({}, TimestampsToReturn::Both),  // failed whole: Bad_NothingToDo
        request({rv(f.id(Timestamped)), rv(f.id(Int32Var))}, TimestampsToReturn::Server),
    };
    const auto snapshot = f.shared->snapshot();
    ReadResponse reused;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        const DateTime now = DateTime::now();
        ServiceContext ctx{*snapshot, f.shared.get(), f.limits, &f.session, now};
        ReadResponse fresh;
        handleRead(ctx, sequence[i], fresh);
        reused.responseHeader = ResponseHeader();  // as ServiceDispatcher does; results kept
        handleRead(ctx, sequence[i], reused);
        QCOMPARE(reused.responseHeader.serviceResult, fresh.responseHeader.serviceResult);
        QCOMPARE(reused.results.size(), fresh.results.size());
        for (std::size_t k = 0; k < fresh.results.size(); ++k)
            QVERIFY2(reused.results[k] == fresh.results[k], qPrintable(QString("request %1, result %2").arg(i).arg(k)));
        if (fresh.responseHeader.serviceResult.isBad()) QVERIFY(reused.results.empty());
    }
}

void TestAttributeService::readDataEncoding() {
    ReadValueId item = rv(f.id(BuildInfoVar));
    item.dataEncoding = QualifiedName{0, String("Default Binary")};
    QCOMPARE(read1(item).status, StatusCode());
    QVERIFY(read1(item).value.get<ExtensionObject>());
    item.dataEncoding = QualifiedName{0, String("Default XML")};
    QCOMPARE(read1(item).status, status::BadDataEncodingUnsupported);
    item.dataEncoding = QualifiedName{0, String("Nonsense")};
    QCOMPARE(read1(item).status, status::BadDataEncodingUnsupported);
    item.attributeId = uint32_t(AttributeId::DisplayName);
    item.dataEncoding = QualifiedName{0, String("Default Binary")};
    QCOMPARE(read1(item).status, status::BadDataEncodingInvalid);
    ReadValueId scalar = rv(f.id(Int32Var));
    scalar.dataEncoding = QualifiedName{0, String("Default Binary")};
    QCOMPARE(read1(scalar).status, status::BadDataEncodingInvalid);
}

void TestAttributeService::readAccessLevels() {
    QCOMPARE(read1(rv(f.id(WriteOnly))).status, status::BadNotReadable);
    QCOMPARE(read1(rv(f.id(UserNoRead))).status, status::BadUserAccessDenied);
    QCOMPARE(read1(rv(f.id(UserNoRead), AttributeId::UserAccessLevel)).value, Variant(uint8_t(access::CurrentWrite)));
    QCOMPARE(read1(rv(f.id(ReadOnly))).value, Variant(int32_t(1)));
}

void TestAttributeService::readLiveValue() {
    const int before = f.manager.liveReads;
    QCOMPARE(read1(rv(f.id(Live))).value, Variant(int32_t(before + 1)));
    QCOMPARE(read1(rv(f.id(Live))).value, Variant(int32_t(before + 2)));
}

void TestAttributeService::writeRequestLevelErrors() {
    WriteRequest req;
    QCOMPARE(f.call(&handleWrite, req).responseHeader.serviceResult, status::BadNothingToDo);
    f.limits.maxNodesPerWrite = 1;
    req.nodesToWrite = Array<WriteValue>{wv(f.id(Int32Var), int32_t(1)), wv(f.id(Int32Var), int32_t(2))};
    const WriteResponse resp = f.call(&handleWrite, req);
    QCOMPARE(resp.responseHeader.serviceResult, status::BadTooManyOperations);
    QVERIFY(resp.results.empty());
    f.limits = OperationLimits{};
    QCOMPARE(read1(rv(f.id(Int32Var))).value, Variant(int32_t(42)));  // nothing written
}

void TestAttributeService::writeValueAndReadBack() {
    QCOMPARE(write1(wv(f.id(Int32Var), int32_t(-7))), StatusCode());
    const DataValue dv = read1(rv(f.id(Int32Var)), TimestampsToReturn::Both);
    QCOMPARE(dv.value, Variant(int32_t(-7)));
    QVERIFY(dv.hasSourceTimestamp);
    QCOMPARE(write1(wv(NodeId(0, 999999u), int32_t(1))), status::BadNodeIdUnknown);
    QCOMPARE(write1(wv(f.id(Int32Var), int32_t(1), AttributeId(0))), status::BadAttributeIdInvalid);
    QCOMPARE(write1(wv(NodeId(id::Server), int32_t(1))), status::BadAttributeIdInvalid);
    WriteValue noValue = wv(f.id(Int32Var), int32_t(1));
    noValue.value = DataValue();
    QCOMPARE(write1(noValue), status::BadWriteNotSupported);
}

void TestAttributeService::writeTypeChecks_data() {
    QTest::addColumn<uint32_t>("node");
    QTest::addColumn<Variant>("value");
    QTest::addColumn<uint32_t>("status");
    const uint32_t good = status::Good, mismatch = status::BadTypeMismatch;
    QTest::newRow("Int32 ok") << uint32_t(Int32Var) << Variant(int32_t(5)) << good;
    QTest::newRow("Double into Int32") << uint32_t(Int32Var) << Variant(5.0) << mismatch;
    QTest::newRow("UInt32 into Int32") << uint32_t(Int32Var) << Variant(uint32_t(5)) << mismatch;
    QTest::newRow("array into scalar") << uint32_t(Int32Var) << Variant(Array<int32_t>{1}) << mismatch;
    QTest::newRow("null into Int32") << uint32_t(Int32Var) << Variant() << mismatch;
    QTest::newRow("Double into Duration") << uint32_t(DurationVar) << Variant(2.5) << good;
    QTest::newRow("Float into Duration") << uint32_t(DurationVar) << Variant(2.5f) << mismatch;
    QTest::newRow("scalar into array") << uint32_t(Int32Array) << Variant(int32_t(1)) << mismatch;
    QTest::newRow("array ok") << uint32_t(Int32Array) << Variant(Array<int32_t>{9, 8, 7}) << good;
    Variant matrix(Array<int32_t>{1, 2, 3, 4});
    matrix.setArrayDimensions(Array<int32_t>{2, 2});
    QTest::newRow("matrix into array") << uint32_t(Int32Array) << matrix << mismatch;
    QTest::newRow("matrix ok") << uint32_t(Matrix) << matrix << good;
    QTest::newRow("1-D into matrix") << uint32_t(Matrix) << Variant(Array<int32_t>{1, 2}) << mismatch;
    QTest::newRow("ByteString into Byte[]") << uint32_t(ByteArray) << Variant(ByteString("\x05\x06", 2)) << good;
    QTest::newRow("Int32 into Number") << uint32_t(AnyNumber) << Variant(int32_t(3)) << good;
    QTest::newRow("String into Number") << uint32_t(AnyNumber) << Variant(String("3")) << mismatch;
    QTest::newRow("anything into BaseDataType") << uint32_t(AnyValue) << Variant(String("x")) << good;
    QTest::newRow("null into BaseDataType") << uint32_t(AnyValue) << Variant() << good;
    BuildInfo info;
    QTest::newRow("BuildInfo ok") << uint32_t(BuildInfoVar) << Variant(ExtensionObject::make(info)) << good;
    QTest::newRow("other structure") << uint32_t(BuildInfoVar) << Variant(ExtensionObject::make(Range{})) << mismatch;
}

void TestAttributeService::writeTypeChecks() {
    QFETCH(uint32_t, node);
    QFETCH(Variant, value);
    QFETCH(uint32_t, status);
    QCOMPARE(write1(wv(f.id(node), value)), StatusCode(status));
    if (node == ByteArray && StatusCode(status).isGood())
        QCOMPARE(read1(rv(f.id(ByteArray))).value, Variant(Array<uint8_t>{5, 6}));
}

void TestAttributeService::writeAccessLevels() {
    QCOMPARE(write1(wv(f.id(ReadOnly), int32_t(9))), status::BadNotWritable);
    QCOMPARE(write1(wv(f.id(UserReadOnly), int32_t(9))), status::BadUserAccessDenied);
    QCOMPARE(write1(wv(NodeId(id::Server_ServerStatus_State), int32_t(0))), status::BadNotWritable);
    QCOMPARE(write1(wv(f.id(LiveReadOnly), int32_t(9))), status::BadNotWritable);
    QCOMPARE(read1(rv(f.id(ReadOnly))).value, Variant(int32_t(1)));
    // The Value of a VariableType: its WriteMask bit ValueForVariableType.
    QCOMPARE(write1(wv(f.id(WritableType), int32_t(3))), StatusCode());
    QCOMPARE(read1(rv(f.id(WritableType))).value, Variant(int32_t(3)));
    QCOMPARE(write1(wv(NodeId(id::BaseDataVariableType), int32_t(3))), status::BadNotWritable);
}

void TestAttributeService::writeIndexRange() {
    QCOMPARE(write1(wv(f.id(Int32Array), Array<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})), StatusCode());
    QCOMPARE(write1(wv(f.id(Int32Array), Array<int32_t>{-2, -3}, AttributeId::Value, "2:3")), StatusCode());
    QCOMPARE(read1(rv(f.id(Int32Array))).value, Variant(Array<int32_t>{0, 1, -2, -3, 4, 5, 6, 7, 8, 9}));
    QCOMPARE(write1(wv(f.id(Int32Array), Array<int32_t>{1, 2, 3}, AttributeId::Value, "2:3")),
             status::BadIndexRangeDataMismatch);
    QCOMPARE(write1(wv(f.id(Int32Array), Array<int32_t>{1, 2}, AttributeId::Value, "9:10")), status::BadIndexRangeNoData);
    QCOMPARE(write1(wv(f.id(Int32Array), Array<int32_t>{1}, AttributeId::Value, "x")), status::BadIndexRangeInvalid);
    QCOMPARE(write1(wv(f.id(Int32Array), Array<double>{1}, AttributeId::Value, "1")), status::BadTypeMismatch);
    QCOMPARE(write1(wv(f.id(Int32Var), Array<int32_t>{1}, AttributeId::Value, "0")), status::BadIndexRangeNoData);
    // A block of a matrix.
    Variant block(Array<int32_t>{-1, -2, -3, -4});
    block.setArrayDimensions(Array<int32_t>{2, 2});
    // The Matrix holds a 2x2 value now (writeTypeChecks): columns 2:3 are outside it.
    QCOMPARE(write1(wv(f.id(Matrix), block, AttributeId::Value, "0:1,2:3")), status::BadIndexRangeNoData);
    Variant expected(Array<int32_t>{1, 2, -1, -2, 3, 4, -3, -4, 20, 21, 22, 23});
    expected.setArrayDimensions(Array<int32_t>{3, 4});
    Variant start(Array<int32_t>{1, 2, 0, 0, 3, 4, 0, 0, 20, 21, 22, 23});
    start.setArrayDimensions(Array<int32_t>{3, 4});
    QCOMPARE(write1(wv(f.id(Matrix), start)), StatusCode());
    QCOMPARE(write1(wv(f.id(Matrix), block, AttributeId::Value, "0:1,2:3")), StatusCode());
    QVERIFY(read1(rv(f.id(Matrix))).value == expected);
    // Substrings.
    QCOMPARE(write1(wv(f.id(StringVar), String("Hello World"))), StatusCode());
    QCOMPARE(write1(wv(f.id(StringVar), String("Earth"), AttributeId::Value, "6:10")), StatusCode());
    QCOMPARE(read1(rv(f.id(StringVar))).value, Variant(String("Hello Earth")));
    QCOMPARE(write1(wv(f.id(StringVar), String("Mars"), AttributeId::Value, "6:10")), status::BadIndexRangeDataMismatch);
    QCOMPARE(write1(wv(f.id(ByteStringVar), ByteString("\x09", 1), AttributeId::Value, "0")), StatusCode());
    QCOMPARE(read1(rv(f.id(ByteStringVar))).value, Variant(ByteString("\x09\x02\x03\x04", 4)));
    QCOMPARE(write1(wv(f.id(StringArray), Array<String>{String("x")}, AttributeId::Value, "0,0")),
             status::BadWriteNotSupported);
}

void TestAttributeService::writeStatusAndTimestamps() {
    WriteValue w = wv(f.id(Int32Var), int32_t(11));
    w.value.setStatus(status::UncertainInitialValue);
    QCOMPARE(write1(w), status::BadWriteNotSupported);  // no StatusWrite
    w = wv(f.id(Int32Var), int32_t(11));
    w.value.setSourceTimestamp(DateTime::fromUnixMs(1000));
    QCOMPARE(write1(w), status::BadWriteNotSupported);  // no TimestampWrite

    w = wv(f.id(Timestamped), 3.0);
    w.value.setStatus(status::UncertainInitialValue);
    w.value.setSourceTimestamp(DateTime::fromUnixMs(1000));
    QCOMPARE(write1(w), StatusCode());
    const DataValue back = read1(rv(f.id(Timestamped)), TimestampsToReturn::Both);
    QCOMPARE(back.status, status::UncertainInitialValue);
    QCOMPARE(back.sourceTimestamp, DateTime::fromUnixMs(1000));
    QCOMPARE(back.value, Variant(3.0));
    // A Bad status carries no value.
    w.value.setStatus(status::BadOutOfService);
    QCOMPARE(write1(w), StatusCode());
    const DataValue bad = read1(rv(f.id(Timestamped)));
    QCOMPARE(bad.status, status::BadOutOfService);
    QVERIFY(!bad.hasValue);
}

void TestAttributeService::writeLiveValue() {
    QCOMPARE(write1(wv(f.id(Live), int32_t(77))), StatusCode());
    QCOMPARE(f.manager.liveWritten->value, Variant(int32_t(77)));
    QCOMPARE(write1(wv(f.id(Live), 77.0)), status::BadTypeMismatch);
}

void TestAttributeService::writeOtherAttributes() {
    const LocalizedText name{String("en"), String("Renamed")};
    QCOMPARE(write1(wv(f.id(WritableObject), name, AttributeId::DisplayName)), StatusCode());
    QCOMPARE(read1(rv(f.id(WritableObject), AttributeId::DisplayName)).value, Variant(name));
    QCOMPARE(write1(wv(f.id(WritableObject), String("x"), AttributeId::DisplayName)), status::BadTypeMismatch);
    QCOMPARE(write1(wv(f.id(WritableObject), name, AttributeId::Description)), status::BadUserAccessDenied);
    QCOMPARE(write1(wv(f.id(WritableObject), QualifiedName{1, String("x")}, AttributeId::BrowseName)),
             status::BadNotWritable);
    QCOMPARE(write1(wv(f.id(WritableObject), NodeId(1, 5u), AttributeId::NodeId)), status::BadNotWritable);
    QCOMPARE(write1(wv(NodeId(id::Server), name, AttributeId::DisplayName)), status::BadNotWritable);
    QCOMPARE(write1(wv(f.id(WritableObject), name, AttributeId::DisplayName, "0")), status::BadWriteNotSupported);
    // Without a SharedAddressSpace to publish to, attribute writes are refused.
    const auto snapshot = f.shared->snapshot();
    ServiceContext ctx{*snapshot, nullptr, f.limits, &f.session, DateTime::now()};
    WriteRequest req;
    req.nodesToWrite = Array<WriteValue>{wv(f.id(WritableObject), name, AttributeId::DisplayName)};
    WriteResponse resp;
    handleWrite(ctx, req, resp);
    QCOMPARE(resp.results[0], status::BadWriteNotSupported);
}

UA_TEST_GUILESS_MAIN(TestAttributeService)
#include "tst_attributeservice.moc"
