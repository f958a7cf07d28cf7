// Every enumeration and structure of Opc.Ua.Types.bsd is generated (counted against the schema
// file itself), and every structure round-trips with non-default values in every field, both
// on its own and inside an ExtensionObject.
#include "CodecTestUtil.h"
#include "SampleFiller.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"

#include <QFile>
#include <QXmlStreamReader>
#include <QtTest>
#include "TestMain.h"
#include <functional>
#include <map>

using namespace ua;
using namespace ua::test;

namespace {

struct TypeCheck {
    std::size_t fieldCount;
    std::function<QString()> roundTrip;  // empty string: passed; else what failed
};

template <class T>
QString roundTripOf() {
    T value{};
    SampleFiller filler(7);
    filler.fill(value);
    if (T::kFieldCount > 0 && value == T{}) return "the sample value is the default value";
    StatusCode st;
    const QByteArray bytes = encodeToBytes(value, &st);
    if (!st.isGood()) return "encode: " + QString::fromStdString(st.name());
    T back{};
    st = decodeFromBytes(bytes, back);
    if (!st.isGood()) return "decode: " + QString::fromStdString(st.name());
    if (!(back == value)) return "decoded value differs";
    if (encodeToBytes(back) != bytes) return "re-encoded bytes differ";
    if (bytes.size() < qsizetype(T::kMinEncodedSize)) return "shorter than kMinEncodedSize";
    // Inside an ExtensionObject, as a Variant carries it.
    const Variant v(ExtensionObject::make(value));
    Variant vback;
    st = decodeFromBytes(encodeToBytes(v), vback);
    if (!st.isGood()) return "ExtensionObject decode: " + QString::fromStdString(st.name());
    const auto* x = vback.get<ExtensionObject>();
    if (!x || !x->get<T>() || !(*x->get<T>() == value)) return "ExtensionObject round trip differs";
    // A truncated encoding never decodes.
    if (!bytes.isEmpty()) {
        T cut{};
        if (decodeFromBytes(bytes.left(bytes.size() - 1), cut).isGood()) return "truncated input decoded";
    }
    return {};
}

const std::map<QString, TypeCheck>& allChecks() {
    static const std::map<QString, TypeCheck> m = {
#define UA_CHECK_ENTRY(T) {QStringLiteral(#T), TypeCheck{T::kFieldCount, &roundTripOf<T>}},
        UA_FOR_EACH_GENERATED_STRUCT(UA_CHECK_ENTRY)
#undef UA_CHECK_ENTRY
    };
    return m;
}

// The built-in types that Opc.Ua.Types.bsd also declares; they are hand-written in ua/types.
const QSet<QString> kBuiltInInSchema = {"XmlElement", "NodeIdType", "TwoByteNodeId", "FourByteNodeId",
                                        "NumericNodeId", "StringNodeId", "GuidNodeId", "ByteStringNodeId",
                                        "NodeId", "ExpandedNodeId", "DiagnosticInfo", "QualifiedName",
                                        "LocalizedText", "DataValue", "ExtensionObject", "Variant"};

struct SchemaCounts {
    QStringList structs;
    QStringList enums;
};

SchemaCounts readSchema() {
    SchemaCounts c;
    QFile f(QStringLiteral(UA_NODESET_DIR) + "/Opc.Ua.Types.bsd");
    if (!f.open(QIODevice::ReadOnly)) return c;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const QString name = xml.attributes().value("Name").toString();
        if (kBuiltInInSchema.contains(name)) continue;
        if (xml.name() == QLatin1String("StructuredType")) c.structs << name;
        else if (xml.name() == QLatin1String("EnumeratedType")) c.enums << name;
    }
    return c;
}

} // namespace

class TestGenerated : public QObject {
    Q_OBJECT
private slots:
    void coversTheWholeSchema();
    void everyStructureRoundTrips_data();
    void everyStructureRoundTrips();
    void registryFindsEncodings();
    void enumerationsEncodeAsTheirSize();
    void fieldOrderFollowsTheSchema();
    void readRequestDecodesIntoAReusedObject();
    void readValueIdCommonFormIsTheSchemasBytes();
    void readResponseDecodesIntoAReusedObject();
};

void TestGenerated::coversTheWholeSchema() {
    const SchemaCounts s = readSchema();
    QVERIFY2(s.structs.size() > 300, "Opc.Ua.Types.bsd not found or unreadable");
    QCOMPARE(s.structs.size(), kGeneratedStructCount);
    QCOMPARE(s.enums.size(), kGeneratedEnumCount);
    for (const QString& n : s.structs) QVERIFY2(allChecks().count(n), qPrintable("not generated: " + n));
    // Each structure has a DefaultBinary encoding in the registry.
    QCOMPARE(qsizetype(generatedDataTypes().size()), s.structs.size());
    QCOMPARE(kNamespaceZeroNodeIdCount, 12626);
}

void TestGenerated::everyStructureRoundTrips_data() {
    QTest::addColumn<QString>("type");
    for (const auto& [name, check] : allChecks()) QTest::newRow(qPrintable(name)) << name;
}

void TestGenerated::everyStructureRoundTrips() {
    QFETCH(QString, type);
    const QString failure = allChecks().at(type).roundTrip();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestGenerated::registryFindsEncodings() {
    const DataTypeInfo* r = findDataTypeByBinaryEncodingId(id::ReadRequest_Encoding_DefaultBinary);
    QVERIFY(r);
    QCOMPARE(QString(r->name), QString("ReadRequest"));
    QCOMPARE(r->typeId, uint32_t(id::ReadRequest));
    QCOMPARE(findDataTypeByName("BrowseResponse")->binaryEncodingId, uint32_t(id::BrowseResponse_Encoding_DefaultBinary));
    QCOMPARE(findDataTypeByTypeId(id::ServerStatusDataType)->fieldCount, std::size_t(6));
    QVERIFY(!findDataTypeByBinaryEncodingId(id::Server));
    for (const auto& t : generatedDataTypes()) {
        auto body = t.makeDefault();
        QCOMPARE(body->typeId(), t.typeId);
        QCOMPARE(body->binaryEncodingId(), t.binaryEncodingId);
    }
}

void TestGenerated::enumerationsEncodeAsTheirSize() {
    QCOMPARE(encodeToBytes(TimestampsToReturn::Both).toHex(), QByteArray("02000000"));
    QCOMPARE(encodeToBytes(AccessLevelType::CurrentRead | AccessLevelType::CurrentWrite).toHex(), QByteArray("03"));
    QCOMPARE(encodeToBytes(AccessRestrictionType::SigningRequired).size(), 2);
    QCOMPARE(QString(enumName(NodeClass::Variable)), QString("Variable"));
    QCOMPARE(QString(enumName(ServerState::Running)), QString("Running"));
}

void TestGenerated::fieldOrderFollowsTheSchema() {
    // ReadValueId: NodeId, AttributeId (UInt32), IndexRange (String), DataEncoding (QualifiedName).
    ReadValueId r;
    r.nodeId = NodeId(1, 1000u);
    r.attributeId = uint32_t(AttributeId::Value);
    r.indexRange = String("1:2");
    r.dataEncoding = QualifiedName{0, String("Default Binary")};
    QCOMPARE(encodeToBytes(r).toHex(),
             QByteArray("0101e803" "0d000000" "03000000313a32" "00000e00000044656661756c742042696e617279"));
    QStringList names;
    forEachField(r, [&](const char* n, const auto&) { names << n; });
    QCOMPARE(names, QStringList({"NodeId", "AttributeId", "IndexRange", "DataEncoding"}));
}

// ReadValueId's codec is written by hand (ReadValueIdCodec.cpp): its common form, a numeric NodeId
// without IndexRange or DataEncoding, in one step. Its bytes are the schema's field order, in each
// of the three numeric NodeId forms; every other form goes field by field (fieldOrderFollowsTheSchema).
void TestGenerated::readValueIdCommonFormIsTheSchemasBytes() {
    struct Case { NodeId id; const char* nodeIdHex; };
    const std::vector<Case> cases = {
        {NodeId(2258), "0100d208"},
        {NodeId(0, 13u), "000d"},
        {NodeId(1, 1000u), "0101e803"},
        {NodeId(300, 70000u), "022c0170110100"},
    };
    ReadValueId reused;
    reused.nodeId = NodeId(4, String("held before"));
    reused.indexRange = String("0:1");
    reused.dataEncoding = QualifiedName{2, String("Default Binary")};
    for (const Case& c : cases) {
        ReadValueId r;
        r.nodeId = c.id;
        r.attributeId = 13;
        const QByteArray bytes = encodeToBytes(r);
        QCOMPARE(bytes.toHex(), QByteArray(c.nodeIdHex) + "0d000000" "ffffffff" "0000" "ffffffff");
        ReadValueId fresh;
        QCOMPARE(decodeFromBytes(bytes, fresh), StatusCode());
        QVERIFY(fresh == r);
        QCOMPARE(decodeFromBytes(bytes, reused), StatusCode());
        QVERIFY(reused == r);
        QVERIFY(reused.indexRange.isNull());
        QVERIFY(reused.dataEncoding.name.isNull());
        // Cut anywhere, it is a decoding error.
        for (qsizetype n = 0; n < bytes.size(); ++n) {
            ReadValueId cut;
            QCOMPARE(decodeFromBytes(bytes.left(n), cut), StatusCode(0x80070000u));
        }
    }
    // An empty (not null) IndexRange or a DataEncoding namespace alone is not the common form, and
    // keeps what it says.
    ReadValueId empty;
    empty.nodeId = NodeId(1, 5u);
    empty.attributeId = 13;
    empty.indexRange = String("");
    ReadValueId back;
    QCOMPARE(decodeFromBytes(encodeToBytes(empty), back), StatusCode());
    QVERIFY(!back.indexRange.isNull());
    QVERIFY(back == empty);
    ReadValueId nsOnly = empty;
    nsOnly.indexRange = String();
    nsOnly.dataEncoding.namespaceIndex = 3;
    QCOMPARE(encodeToBytes(nsOnly).toHex(), QByteArray("010105000d000000" "ffffffff" "0300" "ffffffff"));
    QCOMPARE(decodeFromBytes(encodeToBytes(nsOnly), back), StatusCode());
    QVERIFY(back == nsOnly);
}

UA_TEST_GUILESS_MAIN(TestGenerated)
// The server decodes every Read into one ReadRequest per I/O thread, whose ReadValueIds are decoded
// over the previous request's (kDecodeOverwritesAll, BinaryDecoder.h): whatever was held before,
// the result must equal a decode into a fresh object.
void TestGenerated::readRequestDecodesIntoAReusedObject() {
    ReadValueId longString;
    longString.nodeId = NodeId(1, String("A_benchmark_variable_name_longer_than_any_small_string_buffer"));
    longString.attributeId = 13;
    longString.indexRange = String("1:2");
    longString.dataEncoding = QualifiedName{0, String("Default Binary")};
    ReadValueId guid;
    guid.nodeId = NodeId(3, Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63").value());
    guid.attributeId = 1;
    ReadValueId opaque;
    opaque.nodeId = NodeId(2, ByteString("\x01\x02\x03"));
    opaque.attributeId = 4;
    opaque.indexRange = String("");
    ReadValueId numeric;
    numeric.nodeId = NodeId(2258);
    numeric.attributeId = 13;

    const auto request = [](std::vector<ReadValueId> items, bool null = false) {
        ReadRequest r;
        r.requestHeader.requestHandle = uint32_t(items.size()) + 7;
        r.maxAge = double(items.size());
        r.timestampsToReturn = TimestampsToReturn::Both;
        if (!null) r.nodesToRead = Array<ReadValueId>(std::move(items));
        return r;
    };
    const std::vector<ReadRequest> sequence = {
        request({longString, guid, opaque, numeric}),
        request({numeric, numeric}),                 // fewer, and strings replaced by numbers
        request({opaque, longString, guid, numeric, longString}),  // more, kinds swapped
        request({}, true),                           // a null array
        request({}),                                 // an empty one
        request({guid}),
    };
    ReadRequest reused;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        const QByteArray bytes = encodeToBytes(sequence[i]);
        ReadRequest fresh;
        QVERIFY(decodeFromBytes(bytes, fresh).isGood());
        QVERIFY(decodeFromBytes(bytes, reused).isGood());
        QVERIFY2(reused == fresh, qPrintable(QString("request %1").arg(i)));
        QCOMPARE(reused.nodesToRead.isNull(), fresh.nodesToRead.isNull());
        QCOMPARE(reused.nodesToRead.size(), sequence[i].nodesToRead.size());
    }
}

// The client decodes every ReadResponse into one object per thread, over the previous response
// (client/calls/ResponseScratch.h: its DataValues and DiagnosticInfos in place, kDecodeOverwritesAll):
// whatever was held before, the result must equal a decode into a fresh object.
void TestGenerated::readResponseDecodesIntoAReusedObject() {
    DataValue full(Variant(int32_t(42)));
    full.setStatus(StatusCode(0x40000000u));  // Uncertain
    full.setSourceTimestamp(DateTime::fromUnixMs(1'700'000'000'000));
    full.setServerTimestamp(DateTime::fromUnixMs(1'700'000'000'500));
    full.setSourcePicoseconds(17);
    full.setServerPicoseconds(9);
    DataValue text(Variant(String("a value longer than any small string buffer would hold, to be sure")));
    DataValue array(Variant(Array<double>(std::vector<double>{1.5, 2.5, 3.5})));
    array.setSourceTimestamp(DateTime::fromUnixMs(1'600'000'000'000));
    DataValue bad;
    bad.setStatus(StatusCode(0x80340000u));  // Bad_NodeIdUnknown, no value
    const DataValue empty;
    DiagnosticInfo diag;
    diag.symbolicId = 3;
    diag.additionalInfo = String("why");
    diag.innerStatusCode = StatusCode(0x80000000u);

    const auto response = [](std::vector<DataValue> values, std::vector<DiagnosticInfo> diags = {}, bool null = false) {
        ReadResponse r;
        r.responseHeader.requestHandle = uint32_t(values.size()) + 3;
        r.responseHeader.timestamp = DateTime::fromUnixMs(1'650'000'000'000);
        if (!null) r.results = Array<DataValue>(std::move(values));
        if (!diags.empty()) r.diagnosticInfos = Array<DiagnosticInfo>(std::move(diags));
        return r;
    };
    ReadResponse withHeader = response({full});
    withHeader.responseHeader.stringTable = Array<String>(std::vector<String>{String("s0"), String("s1")});
    withHeader.responseHeader.serviceDiagnostics.symbolicId = 0;
    const std::vector<ReadResponse> sequence = {
        response({full, text, array, bad}, {diag, DiagnosticInfo(), diag, DiagnosticInfo()}),
        response({empty, empty}),                   // fewer, every field gone
        response({bad, full, array, text, text}),   // more, kinds swapped
        withHeader,
        response({}, {}, true),                     // a null array
        response({}),                               // an empty one
        response({text}, {diag}),
    };
    ReadResponse reused;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        const QByteArray bytes = encodeToBytes(sequence[i]);
        ReadResponse fresh;
        QVERIFY(decodeFromBytes(bytes, fresh).isGood());
        QVERIFY(decodeFromBytes(bytes, reused).isGood());
        QVERIFY2(reused == fresh, qPrintable(QString("response %1").arg(i)));
        QCOMPARE(reused.results.isNull(), fresh.results.isNull());
        QCOMPARE(reused.results.size(), sequence[i].results.size());
        QCOMPARE(reused.diagnosticInfos.size(), sequence[i].diagnosticInfos.size());
    }
}

#include "tst_generated.moc"
