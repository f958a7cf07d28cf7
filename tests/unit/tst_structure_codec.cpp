// The structure codec (ua/encoding/StructureCodec.h) on bodies built here byte by byte (OPC 10000-6
// 5.2.7): nested structures, optional fields, unions, arrays of structures, enumerations, OptionSets,
// every built-in type; and on bad input: a truncated body, a huge array length, recursion, a bad
// SwitchField, an unknown DataType, bytes left over. Each must give its status and say where.
#include "SampleStructureTypes.h"
#include "ua/encoding/TypeDictionary.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QFile>

#include <QtTest>
#include "TestMain.h"

using namespace ua;
using Types = ua::test::SampleStructureTypes;

namespace {

// Builds a body field by field with the stack's own encoder.
struct BodyWriter {
    Buffer bytes;
    BinaryEncoder e{bytes};
    template <class T>
    BodyWriter& put(const T& v) { encode(e, v); return *this; }
    BodyWriter& str(const char* s) { return put(String(s)); }
    ByteString body() const { return ByteString(reinterpret_cast<const char*>(bytes.data()), bytes.size()); }
};

void writeSetpoint(BodyWriter& w, const char* name, double value, int32_t mode, std::vector<double> limits) {
    w.str(name).put(value).put(mode).put(int32_t(limits.size()));
    for (double l : limits) w.put(l);
}

const DynamicField& fieldOf(const DynamicValue& v, const char* name) {
    for (const DynamicField& f : v.fields)
        if (f.name == QLatin1String(name)) return f;
    static const DynamicField none;
    return none;
}

} // namespace

class TestStructureCodec : public QObject {
    Q_OBJECT
private slots:
    void nestedStructureAndEnumeration();
    void optionalFieldsAndArrayOfStructures();
    void unionChoosesOneField();
    void optionSets();
    void everyBuiltInType();
    void defaultValueEncodes();
    void editedFieldEncodes();
    void truncatedBodyFailsEverywhere();
    void hugeArrayLength();
    void recursionDepth();
    void badSwitchFieldAndUnknownType();
    void leftoverBytes();
    void encoderRefusesWhatDoesNotFit();
    void typeDictionaryBecomesDefinitions();
    void typeDictionaryRefusesWhatItCannotMap();
};

void TestStructureCodec::nestedStructureAndEnumeration() {
    BodyWriter w;
    writeSetpoint(w, "Oven", 180.5, 5, {50, 250});
    Types types;
    StructureCodec codec(types);
    const auto v = codec.decodeBody(w.body(), Types::id(Types::kSetpoint));
    QVERIFY2(v, qPrintable(codec.error()));
    QCOMPARE(v->kind, DynamicValue::Kind::Structure);
    QCOMPARE(v->typeName, QStringLiteral("Setpoint"));
    QCOMPARE(v->fields.size(), std::size_t(4));
    QCOMPARE(fieldOf(*v, "Name").value.scalar, Variant(String("Oven")));
    QCOMPARE(fieldOf(*v, "Value").value.scalar, Variant(180.5));
    QCOMPARE(fieldOf(*v, "Mode").value.scalar, Variant(int32_t(5)));
    QCOMPARE(fieldOf(*v, "Mode").value.valueName, QStringLiteral("Auto"));
    QCOMPARE(fieldOf(*v, "Mode").value.typeName, QStringLiteral("Mode"));
    const DynamicValue& limits = fieldOf(*v, "Limits").value;
    QCOMPARE(limits.kind, DynamicValue::Kind::Array);
    QCOMPARE(limits.elements.size(), std::size_t(2));
    QCOMPARE(limits.elements[1].scalar, Variant(250.0));
    // Encoding gives the same bytes.
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(w.body()));
}

void TestStructureCodec::optionalFieldsAndArrayOfStructures() {
    BodyWriter w;
    w.put(uint32_t(0b10));  // EncodingMask: Comment (bit 0) absent, Batch (bit 1) present
    w.str("Bread").put(int32_t(2));
    writeSetpoint(w, "Knead", 10, 1, {});
    writeSetpoint(w, "Bake", 220, 5, {200});
    w.put(uint16_t(42));
    Types types;
    StructureCodec codec(types);
    const auto v = codec.decodeBody(w.body(), Types::id(Types::kRecipe));
    QVERIFY2(v, qPrintable(codec.error()));
    QCOMPARE(v->structureType, StructureType::StructureWithOptionalFields);
    QVERIFY(fieldOf(*v, "Comment").optional);
    QVERIFY(!fieldOf(*v, "Comment").present);
    QVERIFY(fieldOf(*v, "Batch").present);
    QCOMPARE(fieldOf(*v, "Batch").value.scalar, Variant(uint16_t(42)));
    const DynamicValue& steps = fieldOf(*v, "Steps").value;
    QCOMPARE(steps.elements.size(), std::size_t(2));
    QCOMPARE(steps.typeName, QStringLiteral("Setpoint"));
    QCOMPARE(fieldOf(steps.elements[1], "Name").value.scalar, Variant(String("Bake")));
    QCOMPARE(fieldOf(steps.elements[0], "Mode").value.valueName, QStringLiteral("Manual"));
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(w.body()));

    // Both optional fields present: the mask has both bits.
    DynamicValue both = *v;
    for (DynamicField& f : both.fields) {
        if (f.name == u"Comment") {
            f.present = true;
            f.value.scalar = Variant(String("warm"));
        }
    }
    const auto body = codec.encodeBody(both);
    QVERIFY2(body, qPrintable(codec.error()));
    QCOMPARE(uint8_t(body->data()[0]), uint8_t(0b11));
    const auto back = codec.decodeBody(*body, Types::id(Types::kRecipe));
    QVERIFY2(back, qPrintable(codec.error()));
    QCOMPARE(fieldOf(*back, "Comment").value.scalar, Variant(String("warm")));
}

void TestStructureCodec::unionChoosesOneField() {
    BodyWriter w;
    w.put(uint32_t(2)).put(0.75);
    Types types;
    StructureCodec codec(types);
    const auto v = codec.decodeBody(w.body(), Types::id(Types::kMeasurement));
    QVERIFY2(v, qPrintable(codec.error()));
    QVERIFY(!fieldOf(*v, "Count").present);
    QVERIFY(fieldOf(*v, "Level").present);
    QVERIFY(!fieldOf(*v, "Label").present);
    QCOMPARE(fieldOf(*v, "Level").value.scalar, Variant(0.75));
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(w.body()));

    BodyWriter none;
    none.put(uint32_t(0));
    const auto empty = codec.decodeBody(none.body(), Types::id(Types::kMeasurement));
    QVERIFY2(empty, qPrintable(codec.error()));
    for (const DynamicField& f : empty->fields) QVERIFY(!f.present);
}

void TestStructureCodec::optionSets() {
    BodyWriter w;
    writeSetpoint(w, "x", 1, 0, {});
    w.put(uint32_t(2)).put(0.5);                         // Choice: Level
    w.put(uint32_t(0b101));                              // Access: Read | Execute
    w.put(ByteString("\x02", 1)).put(ByteString("\x03", 1));  // Flags: Cold set, Hot and Cold valid
    w.put(ExtensionObject{});                            // Any: a null ExtensionObject
    Types types;
    StructureCodec codec(types);
    const auto v = codec.decodeBody(w.body(), Types::id(Types::kWrapper));
    QVERIFY2(v, qPrintable(codec.error()));
    QCOMPARE(fieldOf(*v, "Access").value.scalar, Variant(uint32_t(5)));
    QCOMPARE(fieldOf(*v, "Access").value.valueName, QStringLiteral("Read | Execute"));
    QCOMPARE(fieldOf(*v, "Flags").value.kind, DynamicValue::Kind::Structure);
    QCOMPARE(fieldOf(*v, "Flags").value.valueName, QStringLiteral("Cold"));
    QCOMPARE(fieldOf(fieldOf(*v, "Inner").value, "Mode").value.valueName, QStringLiteral("Off"));
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(w.body()));
}

void TestStructureCodec::everyBuiltInType() {
    BodyWriter w;
    w.put(true).put(int8_t(-2)).put(uint8_t(3)).put(int16_t(-4)).put(uint16_t(5)).put(int32_t(-6)).put(uint32_t(7))
        .put(int64_t(-8)).put(uint64_t(9)).put(10.5f).put(11.25).str("twelve").put(DateTime::fromQDateTime(QDateTime::fromString(QStringLiteral("2026-01-02T03:04:05Z"), Qt::ISODate)))
        .put(*Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63")).put(ByteString("\x00\x01", 2)).put(XmlElement("<a/>"))
        .put(NodeId(2, "n")).put(ExpandedNodeId(NodeId(3, 4u), String("urn:x"))).put(StatusCode(0x80340000u))
        .put(QualifiedName{1, String("q")}).put(LocalizedText{String("en"), String("text")})
        .put(ExtensionObject{}).put(DataValue(Variant(int32_t(23)))).put(Variant(String("24"))).put(DiagnosticInfo{});
    Types types;
    StructureCodec codec(types);
    const auto v = codec.decodeBody(w.body(), Types::id(Types::kAllBuiltins));
    QVERIFY2(v, qPrintable(codec.error()));
    QCOMPARE(v->fields.size(), std::size_t(25));
    for (std::size_t i = 0; i < 25; ++i) {
        const BuiltInType t = BuiltInType(i + 1);
        const DynamicValue& f = v->fields[i].value;
        QCOMPARE(v->fields[i].name, QLatin1String(builtInTypeName(t)));
        if (t == BuiltInType::Variant) {
            QCOMPARE(f.scalar, Variant(String("24")));  // a Variant field holds the Variant's content
        } else {
            QCOMPARE(f.scalar.type(), t);
        }
    }
    QCOMPARE(v->fields[11].value.scalar, Variant(String("twelve")));
    QCOMPARE(v->fields[16].value.scalar, Variant(NodeId(2, "n")));
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(w.body()));
}

void TestStructureCodec::defaultValueEncodes() {
    Types types;
    StructureCodec codec(types);
    for (std::size_t i = 0; i < Types::kCount; ++i) {
        const NodeId type = Types::id(Types::all()[i]);
        const auto v = codec.defaultValue(type);
        QVERIFY2(v, qPrintable(codec.error()));
        if (v->kind != DynamicValue::Kind::Structure) continue;
        const auto body = codec.encodeBody(*v);
        QVERIFY2(body, qPrintable(QStringLiteral("%1: %2").arg(v->typeName, codec.error())));
        const auto back = codec.decodeBody(*body, type);
        QVERIFY2(back, qPrintable(codec.error()));
        QCOMPARE(codec.encodeBody(*back), body);
    }
}

void TestStructureCodec::editedFieldEncodes() {
    BodyWriter w;
    writeSetpoint(w, "Oven", 180.5, 5, {50, 250});
    Types types;
    StructureCodec codec(types);
    auto v = codec.decodeBody(w.body(), Types::id(Types::kSetpoint));
    QVERIFY(v);
    v->fields[1].value.scalar = Variant(-12.25);
    v->fields[3].value.elements.pop_back();
    BodyWriter expected;
    writeSetpoint(expected, "Oven", -12.25, 5, {50});
    QCOMPARE(codec.encodeBody(*v), std::optional<ByteString>(expected.body()));
}

void TestStructureCodec::truncatedBodyFailsEverywhere() {
    BodyWriter w;
    w.put(uint32_t(0b11)).str("Bread").str("c").put(int32_t(1));
    writeSetpoint(w, "Bake", 220, 5, {200, 300});
    w.put(uint16_t(42));
    const ByteString full = w.body();
    Types types;
    StructureCodec codec(types);
    QVERIFY(codec.decodeBody(full, Types::id(Types::kRecipe)));
    for (std::size_t n = 0; n < full.size(); ++n) {
        const ByteString part(full.data(), n);
        QVERIFY2(!codec.decodeBody(part, Types::id(Types::kRecipe)), qPrintable(QString::number(n)));
        QCOMPARE(codec.status(), status::BadDecodingError);
        QVERIFY(!codec.error().isEmpty());
    }
    // Cut in the middle of the second limit: the error names the field.
    const ByteString cut(full.data(), full.size() - 2 - 4);
    QVERIFY(!codec.decodeBody(cut, Types::id(Types::kRecipe)));
    QVERIFY2(codec.error().startsWith(u"Steps[0].Limits[1]"), qPrintable(codec.error()));
}

void TestStructureCodec::hugeArrayLength() {
    Types types;
    StructureCodec codec(types);
    BodyWriter w;
    w.str("x").put(1.0).put(int32_t(0)).put(int32_t(0x7fffffff));
    QVERIFY(!codec.decodeBody(w.body(), Types::id(Types::kSetpoint)));
    QCOMPARE(codec.status(), status::BadEncodingLimitsExceeded);
    QVERIFY2(codec.error().contains(u"Limits"), qPrintable(codec.error()));

    BodyWriter within;  // under the limit, but more than the bytes left
    within.str("x").put(1.0).put(int32_t(0)).put(int32_t(1000));
    QVERIFY(!codec.decodeBody(within.body(), Types::id(Types::kSetpoint)));
    QCOMPARE(codec.status(), status::BadDecodingError);

    BodyWriter negative;
    negative.str("x").put(1.0).put(int32_t(0)).put(int32_t(-7));
    QVERIFY(!codec.decodeBody(negative.body(), Types::id(Types::kSetpoint)));
    QCOMPARE(codec.status(), status::BadDecodingError);
}

void TestStructureCodec::recursionDepth() {
    Types types;
    StructureCodec codec(types);
    // A Tree 10 deep decodes; 100 deep fails with a message, not a stack overflow.
    const auto nested = [](int depth) {
        BodyWriter w;
        for (int i = 0; i < depth; ++i) w.str("n").put(int32_t(1));
        w.str("leaf").put(int32_t(0));
        return w.body();
    };
    QVERIFY2(codec.decodeBody(nested(10), Types::id(Types::kTree)), qPrintable(codec.error()));
    QVERIFY(!codec.decodeBody(nested(100), Types::id(Types::kTree)));
    QCOMPARE(codec.status(), status::BadDecodingError);
    QVERIFY2(codec.error().contains(u"nested deeper than 32"), qPrintable(codec.error()));
    // 100000 levels in a body of 900 KB: still the same answer, and quickly.
    QVERIFY(!codec.decodeBody(nested(100000), Types::id(Types::kTree)));
    QVERIFY2(codec.error().contains(u"nested deeper"), qPrintable(codec.error()));
}

void TestStructureCodec::badSwitchFieldAndUnknownType() {
    Types types;
    StructureCodec codec(types);
    BodyWriter w;
    w.put(uint32_t(9)).put(1.0);
    QVERIFY(!codec.decodeBody(w.body(), Types::id(Types::kMeasurement)));
    QCOMPARE(codec.status(), status::BadDecodingError);
    QVERIFY2(codec.error().contains(u"SwitchField 9"), qPrintable(codec.error()));

    QVERIFY(!codec.decodeBody(w.body(), NodeId(1, 999u)));
    QCOMPARE(codec.status(), status::BadDataTypeIdUnknown);
}

void TestStructureCodec::leftoverBytes() {
    Types types;
    StructureCodec codec(types);
    BodyWriter w;
    w.put(uint32_t(1)).put(int32_t(3)).put(uint8_t(0));
    QVERIFY(!codec.decodeBody(w.body(), Types::id(Types::kMeasurement)));
    QVERIFY2(codec.error().contains(u"1 bytes left over"), qPrintable(codec.error()));
}

void TestStructureCodec::encoderRefusesWhatDoesNotFit() {
    Types types;
    StructureCodec codec(types);
    auto v = codec.defaultValue(Types::id(Types::kSetpoint));
    QVERIFY(v);
    v->fields[1].value.scalar = Variant(String("not a Double"));
    QVERIFY(!codec.encodeBody(*v));
    QCOMPARE(codec.status(), status::BadEncodingError);
    QVERIFY2(codec.error().startsWith(u"Value"), qPrintable(codec.error()));

    auto u = codec.defaultValue(Types::id(Types::kMeasurement));
    QVERIFY(u);
    for (DynamicField& f : u->fields) {
        f.present = true;
        f.value = *codec.defaultValue(f.value.dataType);
    }
    QVERIFY(!codec.encodeBody(*u));
    QVERIFY2(codec.error().contains(u"more than one field"), qPrintable(codec.error()));

    auto missing = codec.defaultValue(Types::id(Types::kSetpoint));
    missing->fields.pop_back();
    QVERIFY(!codec.encodeBody(*missing));
}

// The Opc.Binary dictionary of tests/interop/data/custom-types-dictionary.NodeSet2.xml (OPC 10000-5
// 1.04 Annex D): optional fields from opc:Bit fields, a union from SwitchValues, an array from a
// LengthField, this dictionary's types by dictionaryTypeId.
void TestStructureCodec::typeDictionaryBecomesDefinitions() {
    QFile f(QStringLiteral(UA_INTEROP_DIR "/data/dictionary-types.bsd"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString error;
    const auto dict = parseTypeDictionary(f.readAll(), &error);
    QVERIFY2(dict, qPrintable(error));
    const QString tns = QStringLiteral("urn:ua-workbench:test:dictionary-types");
    QCOMPARE(dict->targetNamespace, tns);
    QVERIFY2(dict->unsupported.empty(), qPrintable(dict->unsupported.empty() ? QString() : dict->unsupported.begin()->second));
    QCOMPARE(dict->enumerations.at(QStringLiteral("ColorMode")).fields.size(), std::size_t(3));
    const StructureDefinition& shape = dict->structures.at(QStringLiteral("Shape"));
    QCOMPARE(shape.structureType, StructureType::StructureWithOptionalFields);
    QStringList names;
    for (const StructureField& field : shape.fields) names << field.name.toQString();
    QCOMPARE(names, QStringList({"Name", "Color", "Center", "Corners", "Label", "Note"}));
    QCOMPARE(shape.fields[1].dataType, dictionaryTypeId(tns, QStringLiteral("ColorMode")));
    QCOMPARE(shape.fields[3].valueRank, 1);
    QCOMPARE(shape.fields[4].dataType, NodeId(21u));  // ua:LocalizedText
    QVERIFY(shape.fields[5].isOptional);
    QVERIFY(!shape.fields[0].isOptional);
    const StructureDefinition& reading = dict->structures.at(QStringLiteral("Reading"));
    QCOMPARE(reading.structureType, StructureType::Union);
    QCOMPARE(reading.fields.size(), std::size_t(2));
    QString ns, name;
    QVERIFY(splitDictionaryTypeId(shape.fields[2].dataType, &ns, &name));
    QCOMPARE(name, QStringLiteral("Point"));
    QVERIFY(!splitDictionaryTypeId(NodeId(1, "dictionary:x#y"), &ns, &name));
}

void TestStructureCodec::typeDictionaryRefusesWhatItCannotMap() {
    QString error;
    QVERIFY(!parseTypeDictionary("<notXml", &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!parseTypeDictionary("<Other xmlns='urn:x'/>", &error));
    const QByteArray eightBits =
        "<opc:TypeDictionary xmlns:opc='http://opcfoundation.org/BinarySchema/' xmlns:x='urn:other' TargetNamespace='urn:t'>"
        "<opc:StructuredType Name='Few'><opc:Field Name='ASpecified' TypeName='opc:Bit'/><opc:Field Name='R' TypeName='opc:Bit' Length='7'/>"
        "<opc:Field Name='A' TypeName='opc:Int32' SwitchField='ASpecified'/></opc:StructuredType>"
        "<opc:StructuredType Name='Foreign'><opc:Field Name='B' TypeName='x:Thing'/></opc:StructuredType>"
        "</opc:TypeDictionary>";
    const auto dict = parseTypeDictionary(eightBits, &error);
    QVERIFY2(dict, qPrintable(error));
    QVERIFY(dict->structures.empty());
    QVERIFY(dict->unsupported.at(QStringLiteral("Few")).contains(u"not the 32"));
    QVERIFY(dict->unsupported.at(QStringLiteral("Foreign")).contains(u"Thing"));
}

UA_TEST_GUILESS_MAIN(TestStructureCodec)
#include "tst_structure_codec.moc"
