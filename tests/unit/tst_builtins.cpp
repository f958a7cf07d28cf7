// Built-in types of OPC 10000-6 5.1/5.2: value semantics, string forms, and binary round trips
// with the exact bytes of the specification's encodings.
#include "CodecTestUtil.h"
#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"

#include <QtTest>
#include <cstring>
#include "MetaTypes.h"
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

class TestBuiltins : public QObject {
    Q_OBJECT
private slots:
    void nodeIdEncodingForms_data();
    void nodeIdEncodingForms();
    void nodeIdStringForm_data();
    void nodeIdStringForm();
    void nodeIdRejectsBadText_data();
    void nodeIdRejectsBadText();
    void expandedNodeId();
    void nullAndEmptyStringsDiffer();
    void dateTimeRules();
    void guidTextAndBytes();
    void statusCodeNames();
    void localizedTextAndQualifiedName();
    void variantRoundTrip_data();
    void variantRoundTrip();
    void variantMatrix();
    void variantBoxesLargeScalars();
    void nodeIdCopiesShareTheirIdentifier();
    void dataValueMask();
    void fixedSizeDataValuesMatchTheFieldByFieldForm();
    void variantCopyAssignment();
    void readArraysElementByElement();
    void diagnosticInfoNested();
    void extensionObjectKnownAndUnknown();
    void arraysNullVsEmpty();
};

void TestBuiltins::nodeIdEncodingForms_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("bytes");
    // OPC 10000-6 5.2.2.9: two-byte, four-byte, numeric, string, guid and opaque forms.
    QTest::newRow("two-byte") << "i=72" << hex("0048");
    QTest::newRow("four-byte") << "ns=5;i=1025" << hex("01050104");
    QTest::newRow("numeric") << "ns=300;i=70000" << hex("022c0170110100");
    QTest::newRow("numeric-large-id") << "i=4294967295" << hex("020000ffffffff");
    QTest::newRow("string") << "ns=1;s=Hot水" << hex("0301000600000048" "6f74e6b0b4");
    QTest::newRow("guid") << "ns=4;g=72962B91-FA75-4AE6-8D28-B404DC7DAF63"
                          << hex("040400912b9672" "75fae64a8d28b404dc7daf63");
    QTest::newRow("opaque") << "ns=2;b=AQID" << hex("05020003000000010203");
}

void TestBuiltins::nodeIdEncodingForms() {
    QFETCH(QString, text);
    QFETCH(QByteArray, bytes);
    const auto id = NodeId::parse(text.toStdString());
    QVERIFY(id);
    QCOMPARE(encodeToBytes(*id).toHex(), bytes.toHex());
    NodeId back;
    QCOMPARE(decodeFromBytes(bytes, back), StatusCode());
    QVERIFY(back == *id);
    QCOMPARE(QString::fromStdString(back.toString()), text);
}

void TestBuiltins::nodeIdStringForm_data() {
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("ns0") << "i=2258" << "i=2258";
    QTest::newRow("ns0-explicit") << "ns=0;i=85" << "i=85";
    QTest::newRow("string-with-semicolon") << "ns=2;s=a;b=c" << "ns=2;s=a;b=c";
    QTest::newRow("guid-lowercase") << "g=09087e75-8e5e-499b-954f-f2a9603db28a" << "g=09087E75-8E5E-499B-954F-F2A9603DB28A";
    QTest::newRow("empty-string-id") << "ns=3;s=" << "ns=3;s=";
}

void TestBuiltins::nodeIdStringForm() {
    QFETCH(QString, in);
    QFETCH(QString, out);
    const auto id = NodeId::parse(in.toStdString());
    QVERIFY(id);
    QCOMPARE(QString::fromStdString(id->toString()), out);
    QVERIFY(*NodeId::parse(id->toString()) == *id);
}

void TestBuiltins::nodeIdRejectsBadText_data() {
    QTest::addColumn<QString>("text");
    for (const char* t : {"", "x=1", "i=", "i=abc", "i=4294967296", "ns=70000;i=1", "ns=;i=1", "ns=1",
                          "g=1234", "b=@@@", "i=-1"})
        QTest::newRow(t) << QString(t);
}

void TestBuiltins::nodeIdRejectsBadText() {
    QFETCH(QString, text);
    QVERIFY(!NodeId::parse(text.toStdString()));
}

void TestBuiltins::expandedNodeId() {
    ExpandedNodeId x(NodeId(0, String("Pump;1")), String("urn:plant;a%b"), 3);
    const std::string text = x.toString();
    QCOMPARE(QString::fromStdString(text), QString("svr=3;nsu=urn:plant%3Ba%25b;s=Pump;1"));
    auto parsed = ExpandedNodeId::parse(text);
    QVERIFY(parsed);
    QVERIFY(*parsed == x);
    // Binary: string NodeId with both flags (0x80 | 0x40 | 0x03).
    const QByteArray b = encodeToBytes(x);
    QCOMPARE(uint8_t(b[0]), uint8_t(0xC3));
    ExpandedNodeId back;
    QCOMPARE(decodeFromBytes(b, back), StatusCode());
    QVERIFY(back == x);
    // A plain NodeId must not carry the ExpandedNodeId flags.
    NodeId n;
    QCOMPARE(decodeFromBytes(hex("8048"), n), status::BadDecodingError);
}

void TestBuiltins::nullAndEmptyStringsDiffer() {
    QCOMPARE(encodeToBytes(String()).toHex(), QByteArray("ffffffff"));
    QCOMPARE(encodeToBytes(String("")).toHex(), QByteArray("00000000"));
    String s;
    QCOMPARE(decodeFromBytes(hex("ffffffff"), s), StatusCode());
    QVERIFY(s.isNull());
    QCOMPARE(decodeFromBytes(hex("00000000"), s), StatusCode());
    QVERIFY(!s.isNull() && s.isEmpty());
    QVERIFY(String() != String(""));
    QVERIFY(String::fromQString(QString()).isNull());
    QVERIFY(!String::fromQString(QString("")).isNull());
    QCOMPARE(String("Grüße").toQString(), QString("Grüße"));
    QCOMPARE(String("Grüße").size(), std::size_t(7));  // UTF-8 bytes on the wire
}

void TestBuiltins::dateTimeRules() {
    // 5.2.2.5: 0 and before 1601 encode as 0; at or after 9999-12-31 23:59:59 as INT64_MAX.
    QCOMPARE(encodeToBytes(DateTime{-5}).toHex(), QByteArray("0000000000000000"));
    QCOMPARE(encodeToBytes(DateTime{DateTime::kMaxTicks + 1}).toHex(), QByteArray("ffffffffffffff7f"));
    DateTime d;
    QCOMPARE(decodeFromBytes(hex("0100000000000080"), d), StatusCode());  // negative on the wire
    QVERIFY(d.isMin());
    QCOMPARE(decodeFromBytes(hex("ffffffffffffff7f"), d), StatusCode());
    QVERIFY(d.isMax());
    const QDateTime q(QDate(2024, 1, 2), QTime(3, 4, 5, 678), Qt::UTC);
    const DateTime t = DateTime::fromQDateTime(q);
    QCOMPARE(t.ticks, 133486382456780000LL);
    QCOMPARE(t.toQDateTime(), q);
    QVERIFY(!DateTime::minValue().toQDateTime().isValid());
    QVERIFY(DateTime::fromQDateTime(QDateTime(QDate(1500, 1, 1), QTime(0, 0), Qt::UTC)).isMin());
    QVERIFY(DateTime::fromQDateTime(QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59), Qt::UTC)).isMax());
    QCOMPARE(DateTime::fromUnixMs(0).ticks, DateTime::kUnixEpochTicks);
}

void TestBuiltins::guidTextAndBytes() {
    const auto g = Guid::parse("{72962B91-FA75-4AE6-8D28-B404DC7DAF63}");
    QVERIFY(g);
    QCOMPARE(QString::fromStdString(g->toString()), QString("72962B91-FA75-4AE6-8D28-B404DC7DAF63"));
    // 5.2.2.6: Data1..Data3 little-endian, Data4 as bytes.
    QCOMPARE(encodeToBytes(*g).toHex(), QByteArray("912b967275fae64a8d28b404dc7daf63"));
    QVERIFY(!Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF6"));
    QVERIFY(!Guid::parse("72962B91XFA75-4AE6-8D28-B404DC7DAF63"));
    QVERIFY(Guid::random() != Guid::random());
}

void TestBuiltins::statusCodeNames() {
    QCOMPARE(QString::fromStdString(StatusCode(0x80340000u).name()), QString("BadNodeIdUnknown"));
    QCOMPARE(QString::fromStdString(status::Good.name()), QString("Good"));
    QCOMPARE(QString::fromStdString(StatusCode(0x80340400u).name()), QString("BadNodeIdUnknown (0x80340400)"));
    QCOMPARE(QString::fromStdString(StatusCode(0x8FFF0000u).name()), QString("0x8FFF0000"));
    QVERIFY(QByteArray(status::BadDecodingError.description()).contains("Decoding"));
    QVERIFY(status::BadTimeout.isBad() && status::UncertainInitialValue.isUncertain() && status::Good.isGood());
    QVERIFY(allStatusCodes().size() > 250);
}

void TestBuiltins::localizedTextAndQualifiedName() {
    QCOMPARE(encodeToBytes(LocalizedText{}).toHex(), QByteArray("00"));
    QCOMPARE(encodeToBytes(LocalizedText{String("en"), String("Hi")}).toHex(), QByteArray("0302000000656e020000004869"));
    QCOMPARE(encodeToBytes(LocalizedText{String(), String("")}).toHex(), QByteArray("0200000000"));
    LocalizedText t;
    QCOMPARE(decodeFromBytes(hex("04"), t), status::BadDecodingError);  // unknown mask bit
    QCOMPARE(encodeToBytes(QualifiedName{2, String("Temp")}).toHex(), QByteArray("02000400000054656d70"));
    QCOMPARE(QString::fromStdString(QualifiedName::parse("2:Temp").toString()), QString("2:Temp"));
    QCOMPARE(QualifiedName::parse("Temp:x").namespaceIndex, uint16_t(0));
}

void TestBuiltins::variantRoundTrip_data() {
    QTest::addColumn<Variant>("value");
    QTest::newRow("null") << Variant();
    QTest::newRow("Boolean") << Variant(true);
    QTest::newRow("SByte") << Variant(int8_t(-7));
    QTest::newRow("Byte") << Variant(uint8_t(200));
    QTest::newRow("Int16") << Variant(int16_t(-30000));
    QTest::newRow("UInt16") << Variant(uint16_t(60000));
    QTest::newRow("Int32") << Variant(int32_t(-2000000000));
    QTest::newRow("UInt32") << Variant(uint32_t(4000000000u));
    QTest::newRow("Int64") << Variant(int64_t(-9000000000000000000LL));
    QTest::newRow("UInt64") << Variant(uint64_t(18000000000000000000ULL));
    QTest::newRow("Float") << Variant(1.5f);
    QTest::newRow("Double") << Variant(-2.25);
    QTest::newRow("String") << Variant(String("text"));
    QTest::newRow("String-null") << Variant(String());
    QTest::newRow("DateTime") << Variant(DateTime{133486382456780000LL});
    QTest::newRow("Guid") << Variant(*Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63"));
    QTest::newRow("ByteString") << Variant(ByteString(std::string("\x00\x01\xff", 3)));
    QTest::newRow("XmlElement") << Variant(XmlElement("<a>1</a>"));
    QTest::newRow("NodeId") << Variant(NodeId(3, String("X")));
    QTest::newRow("ExpandedNodeId") << Variant(ExpandedNodeId(NodeId(0, 5u), String("urn:x"), 2));
    QTest::newRow("StatusCode") << Variant(StatusCode(0x80340000u));
    QTest::newRow("QualifiedName") << Variant(QualifiedName{1, String("Q")});
    QTest::newRow("LocalizedText") << Variant(LocalizedText{String("de"), String("Hallo")});
    Argument arg;
    arg.name = String("Speed");
    arg.dataType = NodeId(id::Double);
    arg.valueRank = -1;
    arg.description = LocalizedText{String("en"), String("m/s")};
    QTest::newRow("ExtensionObject") << Variant(ExtensionObject::make(arg));
    DataValue dv(Variant(int32_t(5)));
    dv.setStatus(StatusCode(0x40000000u));
    QTest::newRow("DataValue") << Variant(dv);
    DiagnosticInfo di;
    di.symbolicId = 3;
    di.additionalInfo = String("more");
    QTest::newRow("DiagnosticInfo") << Variant(di);
    QTest::newRow("Array<Boolean>") << Variant(Array<bool>{true, false, true});
    QTest::newRow("Array<Double>") << Variant(Array<double>{1.5, -2.5});
    QTest::newRow("Array<String>") << Variant(Array<String>{String("a"), String(), String("")});
    QTest::newRow("Array<Variant>") << Variant(Array<Variant>{Variant(int32_t(1)), Variant(String("b"))});
    QTest::newRow("Array<DataValue>") << Variant(Array<DataValue>{DataValue(Variant(1.0)), DataValue()});
    QTest::newRow("Array<empty>") << Variant(Array<int32_t>::emptyArray());
    QTest::newRow("Array<null>") << Variant(Array<int32_t>());
}

void TestBuiltins::variantRoundTrip() {
    QFETCH(Variant, value);
    StatusCode st;
    const QByteArray bytes = encodeToBytes(value, &st);
    QCOMPARE(st, StatusCode());
    Variant back;
    QCOMPARE(decodeFromBytes(bytes, back), StatusCode());
    QVERIFY(back == value);
    QCOMPARE(back.type(), value.type());
    QCOMPARE(back.isArray(), value.isArray());
    if (!value.isNull()) QCOMPARE(uint8_t(bytes[0]) & 0x3F, int(value.type()));
}

void TestBuiltins::variantMatrix() {
    Variant m(Array<int32_t>{1, 2, 3, 4, 5, 6});
    m.setArrayDimensions(Array<int32_t>{2, 3});
    QVERIFY(m.dimensionsMatch());
    const QByteArray b = encodeToBytes(m);
    // mask 0xC6: Int32 | array | dimensions; 6 elements; then 2 dimensions 2 and 3.
    QCOMPARE(b.toHex(), QByteArray("c606000000" "010000000200000003000000040000000500000006000000" "020000000200000003000000"));
    Variant back;
    QCOMPARE(decodeFromBytes(b, back), StatusCode());
    QVERIFY(back == m);
    QCOMPARE(back.arrayDimensions().size(), std::size_t(2));
    // Dimensions whose product differs from the length do not encode.
    Variant bad(Array<int32_t>{1, 2, 3});
    bad.setArrayDimensions(Array<int32_t>{2, 2});
    StatusCode st;
    encodeToBytes(bad, &st);
    QCOMPARE(st, status::BadEncodingError);
}

namespace {
struct ConvertsToText {  // like the node store's OutOfLine<LocalizedText>: converts, is not one
    operator LocalizedText() const { return LocalizedText{String("en"), String("converted")}; }
};
} // namespace

void TestBuiltins::nodeIdCopiesShareTheirIdentifier() {
    // 16 bytes: a numeric NodeId holds nothing else; the others hold a counted block.
    QCOMPARE(sizeof(NodeId), std::size_t(16));

    // Copies compare, hash and order like the original, for every IdType, and stay equal to a
    // NodeId built separately (another block).
    const Guid g = *Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63");
    const NodeId ids[] = {NodeId(3, 17u), NodeId(2, String("a string identifier longer than fifteen bytes")),
                          NodeId(2, String("short")), NodeId(1, g), NodeId(4, ByteString("\x01\x02", 2))};
    for (const NodeId& id : ids) {
        const NodeId copy = id;
        const NodeId rebuilt = *NodeId::parse(id.toString());
        QCOMPARE(copy, id);
        QCOMPARE(rebuilt, id);
        QCOMPARE(rebuilt.hash(), id.hash());
        QVERIFY(!(copy < id) && !(id < copy) && !(rebuilt < id));
        QCOMPARE(copy.idType(), id.idType());
        QCOMPARE(copy.toString(), id.toString());
    }
    QVERIFY(!(ids[1] == ids[2]));
    QVERIFY(ids[2] < ids[1] || ids[1] < ids[2]);
    QVERIFY(!(NodeId(2, String("5")) == NodeId(2, 5u)));  // same text, other IdType

    // A decoder fills in a NodeId it holds alone in place (no new block); one whose identifier is
    // shared gets a block of its own first, so the copy keeps its value.
    NodeId reused(1, String("first"));
    const String* storage = &reused.string();
    String& filled = reused.emplaceString(5);
    QCOMPARE(&filled, storage);
    filled.assign("second", 6);
    QCOMPARE(reused, NodeId(5, String("second")));

    const NodeId kept = reused;
    String& other = reused.emplaceString(5);
    QVERIFY(&other != &kept.string());
    other.assign("third", 5);
    QCOMPARE(kept, NodeId(5, String("second")));
    QCOMPARE(reused, NodeId(5, String("third")));

    NodeId token(0, g);
    const Guid* guidStorage = &token.guid();
    QCOMPARE(&token.emplaceGuid(0), guidStorage);
    const NodeId tokenCopy = token;
    token.emplaceGuid(0).data1 = 1;
    QCOMPARE(tokenCopy.guid(), g);
    QVERIFY(!(token == tokenCopy));

    // Moves leave the null NodeId behind; self-assignment keeps the value.
    NodeId moved = std::move(reused);
    QVERIFY(reused.isNull());
    QCOMPARE(moved, NodeId(5, String("third")));
    NodeId& alias = moved;
    moved = alias;
    QCOMPARE(moved, NodeId(5, String("third")));
    moved = NodeId(7, 9u);  // from a block back to numeric
    QVERIFY(moved.isNumeric());
    QCOMPARE(moved.numeric(), 9u);
}

void TestBuiltins::variantBoxesLargeScalars() {
    // The large scalars are held behind a pointer: a Variant and a DataValue stay small.
    QVERIFY2(sizeof(Variant) <= 64, QByteArray::number(qulonglong(sizeof(Variant))).constData());
    QVERIFY2(sizeof(DataValue) <= 104, QByteArray::number(qulonglong(sizeof(DataValue))).constData());

    // A boxed scalar reads as its own type through get/holds/visit, and a copy is deep.
    const LocalizedText hello{String("de"), String("Hallo")};
    Variant a(hello);
    QCOMPARE(a.type(), BuiltInType::LocalizedText);
    QVERIFY(a.holds<LocalizedText>());
    QVERIFY(!a.holds<QualifiedName>());
    QVERIFY(a.get<LocalizedText>() && *a.get<LocalizedText>() == hello);
    QVERIFY(!a.get<NodeId>());
    QCOMPARE(a.storage().index(), Variant::indexOf<LocalizedText>());
    const bool sawText = a.visit([](const auto& x) { return std::is_same_v<std::decay_t<decltype(x)>, LocalizedText>; });
    QVERIFY(sawText);
    Variant b = a;
    b.get<LocalizedText>()->text = String("Tschüss");
    QCOMPARE(a.get<LocalizedText>()->text, String("Hallo"));  // the copy owns its own box
    QVERIFY(!(a == b));
    b.get<LocalizedText>()->text = String("Hallo");
    QVERIFY(a == b);

    // A value that converts to a boxed type is stored as that type.
    const Variant converted{ConvertsToText()};
    QVERIFY(converted.get<LocalizedText>());
    QCOMPARE(converted.get<LocalizedText>()->text, String("converted"));

    // Each boxed type round-trips through the binary encoding into a fresh box.
    const Variant values[] = {Variant(NodeId(2, String("a long string identifier"))), Variant(ExpandedNodeId(NodeId(1, 7u), String("urn:x"), 3)),
                              Variant(QualifiedName{4, String("Name")}), Variant(hello), Variant(DiagnosticInfo())};
    for (const Variant& v : values) {
        StatusCode st;
        const QByteArray bytes = encodeToBytes(v, &st);
        QCOMPARE(st, StatusCode());
        Variant back(QualifiedName{9, String("held before")});  // a reused Variant holding another box
        QCOMPARE(decodeFromBytes(bytes, back), StatusCode());
        QVERIFY2(back == v, builtInTypeName(v.type()));
        QCOMPARE(back.type(), v.type());
    }

    // ArrayDimensions are boxed too: absent (null) and empty stay apart.
    Variant matrix(Array<int32_t>{1, 2, 3, 4});
    QVERIFY(matrix.arrayDimensions().isNull());
    QVERIFY(matrix.dimensionsMatch());
    matrix.setArrayDimensions(Array<int32_t>::emptyArray());
    QVERIFY(!matrix.arrayDimensions().isNull());
    QVERIFY(!matrix.dimensionsMatch());
    matrix.setArrayDimensions(Array<int32_t>{2, 2});
    QVERIFY(matrix.dimensionsMatch());
    Variant flat(Array<int32_t>{1, 2, 3, 4});
    QVERIFY(!(matrix == flat));
    flat.setArrayDimensions(Array<int32_t>{2, 2});
    QVERIFY(matrix == flat);
}

void TestBuiltins::dataValueMask() {
    DataValue dv(Variant(3.25));
    dv.setStatus(StatusCode(0x40000000u));
    dv.setSourceTimestamp(DateTime{1});
    dv.setSourcePicoseconds(5);
    dv.setServerTimestamp(DateTime{2});
    dv.setServerPicoseconds(6);
    const QByteArray b = encodeToBytes(dv);
    QCOMPARE(uint8_t(b[0]), uint8_t(0x3F));
    // Order: value, status, source timestamp, source picoseconds, server timestamp, server picoseconds.
    QCOMPARE(b.mid(1).toHex(), QByteArray("0b0000000000000a40" "00000040" "0100000000000000" "0500" "0200000000000000" "0600"));
    DataValue back;
    QCOMPARE(decodeFromBytes(b, back), StatusCode());
    QVERIFY(back == dv);
    QCOMPARE(encodeToBytes(DataValue()).toHex(), QByteArray("00"));
}

// The fixed-size DataValues (the Value absent, Null, a number, a DateTime or a StatusCode) are
// written and read in one step (BuiltinCodec.cpp, FixedWire.h). Their bytes must be those of the
// field-by-field form, written here with the encoder's primitives, and they must decode into a
// DataValue that held anything before exactly as into a fresh one.
void TestBuiltins::fixedSizeDataValuesMatchTheFieldByFieldForm() {
    const std::vector<Variant> values = {
        Variant(),  Variant(true), Variant(int8_t(-3)), Variant(uint8_t(200)), Variant(int16_t(-300)),
        Variant(uint16_t(60000)), Variant(int32_t(-70000)), Variant(uint32_t(4000000000u)),
        Variant(int64_t(-5)), Variant(uint64_t(1) << 63), Variant(1.5f), Variant(-2.25),
        Variant(DateTime{DateTime::kMaxTicks + 5}), Variant(DateTime{-7}), Variant(StatusCode(0x80340000u)),
    };
    DataValue dirty(Variant(Array<double>(std::vector<double>{1, 2, 3, 4})));
    dirty.value.setArrayDimensions(Array<int32_t>(std::vector<int32_t>{2, 2}));
    dirty.setStatus(StatusCode(0x80000000u));
    dirty.setSourceTimestamp(DateTime{99});
    dirty.setServerPicoseconds(3);
    DataValue reused = dirty;  // decoded into again and again: each value over the one before
    int round = 0;
    for (const Variant& value : values) {
        for (int mask = 0; mask < 64; mask += (mask < 8 ? 1 : 7)) {
            DataValue dv;
            if (mask & 0x01) dv.setValue(value);
            if (mask & 0x02) dv.setStatus(StatusCode(0x40920000u));
            if (mask & 0x04) dv.setSourceTimestamp(DateTime{1234567});
            if (mask & 0x08) dv.setServerTimestamp(DateTime{7654321});
            if (mask & 0x10) dv.setSourcePicoseconds(11);
            if (mask & 0x20) dv.setServerPicoseconds(22);
            Buffer expected;
            BinaryEncoder e(expected);
            e.writePod(uint8_t(mask & 0x3F));
            if (mask & 0x01) {
                e.writePod(uint8_t(value.type()));
                if (!value.isNull()) encodeScalarBody(e, value);
            }
            if (mask & 0x02) e.writePod(dv.status.code);
            if (mask & 0x04) e.writePod(dv.sourceTimestamp.wireTicks());
            if (mask & 0x10) e.writePod(dv.sourcePicoseconds);
            if (mask & 0x08) e.writePod(dv.serverTimestamp.wireTicks());
            if (mask & 0x20) e.writePod(dv.serverPicoseconds);
            const QByteArray bytes = encodeToBytes(dv);
            QCOMPARE(bytes.toHex(), QByteArray(reinterpret_cast<const char*>(expected.data()), qsizetype(expected.size())).toHex());
            DataValue fresh;
            QCOMPARE(decodeFromBytes(bytes, fresh), StatusCode());
            QCOMPARE(decodeFromBytes(bytes, reused), StatusCode());
            QVERIFY2(reused == fresh, qPrintable(QString("value %1, mask %2").arg(round).arg(mask)));
            DataValue over = dirty;  // a multi-dimensional array, a Bad status, timestamps
            QCOMPARE(decodeFromBytes(bytes, over), StatusCode());
            QVERIFY2(over == fresh, qPrintable(QString("value %1, mask %2").arg(round).arg(mask)));
            QVERIFY(!over.value.hasArrayDimensions());
            // A DateTime comes back clamped as the decoder always did; everything else unchanged.
            if (!value.holds<DateTime>()) QVERIFY2(fresh == dv, qPrintable(QString("value %1, mask %2").arg(round).arg(mask)));
            // One byte short is a decoding error, not a read past the end.
            DataValue cut;
            QCOMPARE(decodeFromBytes(bytes.left(bytes.size() - 1), cut), StatusCode(0x80070000u));
        }
        ++round;
    }
    // The limits hold on this path too: nesting (a DataValue and its Variant are two levels) and size.
    EncodingLimits shallow;
    shallow.maxNestingDepth = 1;
    StatusCode status;
    encodeToBytes(DataValue(Variant(int32_t(1))), &status, shallow);
    QCOMPARE(status, StatusCode(0x80080000u));
    DataValue back;
    QCOMPARE(decodeFromBytes(encodeToBytes(DataValue(Variant(int32_t(1)))), back, shallow), StatusCode(0x80080000u));
    EncodingLimits small;
    small.maxEncodedSize = 5;  // 1 + 1 + 4 = 6 bytes needed
    encodeToBytes(DataValue(Variant(int32_t(1))), &status, small);
    QCOMPARE(status, StatusCode(0x80080000u));
    // An array is not fixed: it takes the general path, ArrayLength and all.
    QCOMPARE(encodeToBytes(DataValue(Variant(Array<int32_t>(std::vector<int32_t>{7})))).toHex(), QByteArray("01" "86" "01000000" "07000000"));
}

// The arrays of a Read (DataValue, ReadValueId) are written and read in one loop
// (encodeElements, decodeElements): the bytes are the length and then each element as encode()
// writes it alone, whichever form each element takes, and decoding gives every element back, into
// a fresh array or over one that held other elements.
void TestBuiltins::readArraysElementByElement() {
    std::vector<DataValue> values;
    DataValue number(Variant(-2.25));
    number.setSourceTimestamp(DateTime{1234567});
    number.setServerTimestamp(DateTime{7654321});
    values.push_back(number);
    values.push_back(DataValue(Variant(String("not fixed"))));
    DataValue bad;
    bad.setStatus(StatusCode(0x80340000u));
    values.push_back(bad);
    values.push_back(DataValue(Variant(Array<int32_t>(std::vector<int32_t>{1, 2, 3}))));
    values.push_back(DataValue());
    DataValue flag(Variant(true));
    flag.setServerPicoseconds(7);
    values.push_back(flag);
    const Array<DataValue> dvs(values);

    ReadValueId common;
    common.nodeId = NodeId(2, 1000u);
    common.attributeId = 13;
    ReadValueId named = common;
    named.nodeId = NodeId(2, String("Boiler"));
    ReadValueId ranged = common;
    ranged.indexRange = String("1:2");
    ReadValueId encoded = common;
    encoded.dataEncoding = QualifiedName{0, String("Default Binary")};
    const Array<ReadValueId> ids(std::vector<ReadValueId>{common, named, ranged, encoded, common});

    const auto elementByElement = [](const auto& array) {
        QByteArray expected = hex("00000000");
        const int32_t n = int32_t(array.size());
        std::memcpy(expected.data(), &n, 4);
        for (const auto& x : array) expected += encodeToBytes(x);
        return expected;
    };
    const QByteArray dvBytes = encodeToBytes(dvs);
    QCOMPARE(dvBytes.toHex(), elementByElement(dvs).toHex());
    const QByteArray idBytes = encodeToBytes(ids);
    QCOMPARE(idBytes.toHex(), elementByElement(ids).toHex());

    Array<DataValue> freshValues;
    QCOMPARE(decodeFromBytes(dvBytes, freshValues), StatusCode());
    QVERIFY(freshValues == dvs);
    Array<ReadValueId> freshIds;
    QCOMPARE(decodeFromBytes(idBytes, freshIds), StatusCode());
    QVERIFY(freshIds == ids);

    // Over arrays that held other elements, longer and shorter.
    Array<DataValue> longer(std::vector<DataValue>(9, bad));
    QCOMPARE(decodeFromBytes(dvBytes, longer), StatusCode());
    QVERIFY(longer == dvs);
    Array<DataValue> reversed(std::vector<DataValue>(values.rbegin(), values.rend() - 2));
    QCOMPARE(decodeFromBytes(dvBytes, reversed), StatusCode());
    QVERIFY(reversed == dvs);
    Array<ReadValueId> otherIds(std::vector<ReadValueId>{ranged, encoded, named});
    QCOMPARE(decodeFromBytes(idBytes, otherIds), StatusCode());
    QVERIFY(otherIds == ids);

    // Cut anywhere after the length: a decoding error and an empty array, not a part of it.
    for (qsizetype n = 4; n < dvBytes.size(); ++n) {
        Array<DataValue> cut(values);
        QCOMPARE(decodeFromBytes(dvBytes.left(n), cut), StatusCode(0x80070000u));
        QVERIFY2(cut.empty(), qPrintable(QString("DataValues cut at %1").arg(n)));
    }
    for (qsizetype n = 4; n < idBytes.size(); ++n) {
        Array<ReadValueId> cut(std::vector<ReadValueId>{named});
        QCOMPARE(decodeFromBytes(idBytes.left(n), cut), StatusCode(0x80070000u));
        QVERIFY2(cut.empty(), qPrintable(QString("ReadValueIds cut at %1").arg(n)));
    }

    // The encoder's size limit stops the loop where it is reached, on either path.
    for (std::size_t limit : {std::size_t(10), std::size_t(40), std::size_t(dvBytes.size() - 1)}) {
        EncodingLimits small;
        small.maxEncodedSize = limit;
        StatusCode status;
        encodeToBytes(dvs, &status, small);
        QCOMPARE(status, StatusCode(0x80080000u));
        encodeToBytes(ids, &status, small);
        if (std::size_t(idBytes.size()) > limit) QCOMPARE(status, StatusCode(0x80080000u));
    }
}

// Variant's copy assignment takes a shortcut for a number, DateTime or StatusCode over one of the
// same type; every other pair goes through std::variant. Either way the result equals the source.
void TestBuiltins::variantCopyAssignment() {
    Variant withDims(Array<int32_t>(std::vector<int32_t>{1, 2, 3, 4}));
    withDims.setArrayDimensions(Array<int32_t>(std::vector<int32_t>{2, 2}));
    const std::vector<Variant> values = {
        Variant(), Variant(int32_t(7)), Variant(int32_t(-8)), Variant(2.5), Variant(-1.0), Variant(true),
        Variant(DateTime{123}), Variant(StatusCode(0x80340000u)), Variant(String("text")), withDims,
        Variant(Array<int32_t>(std::vector<int32_t>{1, 2, 3, 4})), Variant(NodeId(1, 5u)),
    };
    for (const Variant& from : values) {
        for (const Variant& over : values) {
            Variant to = over;
            to = from;
            QVERIFY(to == from);
            QCOMPARE(to.hasArrayDimensions(), from.hasArrayDimensions());
            QCOMPARE(to.storage().index(), from.storage().index());
        }
    }
    Variant self(int32_t(3));
    const Variant& alias = self;
    self = alias;
    QCOMPARE(*self.get<int32_t>(), 3);
}

void TestBuiltins::diagnosticInfoNested() {
    DiagnosticInfo d;
    d.symbolicId = 1;
    d.namespaceUri = 2;
    d.localizedText = 3;
    d.locale = 4;
    d.additionalInfo = String("x");
    d.innerStatusCode = StatusCode(0x80010000u);
    d.innerDiagnosticInfo = DiagnosticInfo{};
    d.innerDiagnosticInfo->symbolicId = 9;
    const QByteArray b = encodeToBytes(d);
    // Field order of Opc.Ua.Types.bsd: symbolicId, namespaceUri, locale, localizedText, ...
    QCOMPARE(b.left(17).toHex(), QByteArray("7f" "01000000" "02000000" "04000000" "03000000"));
    DiagnosticInfo back;
    QCOMPARE(decodeFromBytes(b, back), StatusCode());
    QVERIFY(back == d);
}

void TestBuiltins::extensionObjectKnownAndUnknown() {
    BuildInfo bi;
    bi.productUri = String("urn:ua-workbench");
    bi.softwareVersion = String("0.1");
    bi.buildDate = DateTime{133486382456780000LL};
    const ExtensionObject x = ExtensionObject::make(bi);
    QCOMPARE(x.encodingId(), NodeId(id::BuildInfo_Encoding_DefaultBinary));
    const QByteArray b = encodeToBytes(x);
    ExtensionObject back;
    QCOMPARE(decodeFromBytes(b, back), StatusCode());
    QVERIFY(back.isDecoded());
    QVERIFY(back.get<BuildInfo>());
    QVERIFY(*back.get<BuildInfo>() == bi);
    QVERIFY(!back.get<Argument>());
    QVERIFY(back == x);
    // An unknown encoding id keeps the body as bytes and re-encodes it unchanged.
    const QByteArray unknown = hex("0102e803" "01" "03000000" "aabbcc");
    ExtensionObject u;
    QCOMPARE(decodeFromBytes(unknown, u), StatusCode());
    QVERIFY(!u.isDecoded());
    QCOMPARE(u.body().toQByteArray().toHex(), QByteArray("aabbcc"));
    QCOMPARE(encodeToBytes(u).toHex(), unknown.toHex());
    // A known type whose body is shorter than its length says is malformed.
    ExtensionObject y;
    QByteArray longer = b;
    longer.append(char(0));
    // Bump the body length by one so the declared body holds a byte the type does not read.
    const int bodyLenOffset = 4 + 1;  // four-byte NodeId (i=340) + the encoding byte
    int32_t len;
    std::memcpy(&len, longer.constData() + bodyLenOffset, 4);
    ++len;
    std::memcpy(longer.data() + bodyLenOffset, &len, 4);
    QCOMPARE(decodeFromBytes(longer, y), status::BadDecodingError);
    // Null ExtensionObject.
    QCOMPARE(encodeToBytes(ExtensionObject()).toHex(), QByteArray("000000"));
}

void TestBuiltins::arraysNullVsEmpty() {
    QCOMPARE(encodeToBytes(Array<int32_t>()).toHex(), QByteArray("ffffffff"));
    QCOMPARE(encodeToBytes(Array<int32_t>::emptyArray()).toHex(), QByteArray("00000000"));
    Array<String> a;
    QCOMPARE(decodeFromBytes(hex("00000000"), a), StatusCode());
    QVERIFY(!a.isNull());
    QCOMPARE(decodeFromBytes(hex("ffffffff"), a), StatusCode());
    QVERIFY(a.isNull());
    ReadRequest r;
    QVERIFY(r.nodesToRead.isNull());
}

UA_TEST_GUILESS_MAIN(TestBuiltins)
#include "tst_builtins.moc"
