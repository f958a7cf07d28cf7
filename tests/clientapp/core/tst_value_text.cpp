// app-common/ValueText.h: every built-in type formatted and parsed back, arrays and matrices, every
// out-of-range and malformed input with its status and message, status names, the built-in type
// of DataTypes, and structures formatted field by field.
#include "ValueText.h"
#include "ValueTextStructures.h"

#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"

#include <QTest>
#include "MetaTypes.h"
#include "TestMain.h"
#include <cmath>
#include <limits>

using namespace ua;
using namespace ua::clientapp;

namespace {

Guid sampleGuid() { return *Guid::parse("C496578A-0DFE-4B8F-870A-745238C6AEAE"); }
DateTime sampleTime() { return DateTime{DateTime::kUnixEpochTicks + 17'644'968'001'234'567LL}; }  // sub-ms digits

} // namespace

class TestValueText : public QObject {
    Q_OBJECT

private slots:
    void scalarRoundTrip_data() {
        QTest::addColumn<Variant>("value");
        QTest::addColumn<QString>("text");  // the exact form formatVariant prints
        QTest::newRow("Boolean true") << Variant(true) << "true";
        QTest::newRow("Boolean false") << Variant(false) << "false";
        QTest::newRow("SByte min") << Variant(int8_t(-128)) << "-128";
        QTest::newRow("SByte max") << Variant(int8_t(127)) << "127";
        QTest::newRow("Byte max") << Variant(uint8_t(255)) << "255";
        QTest::newRow("Int16 min") << Variant(int16_t(-32768)) << "-32768";
        QTest::newRow("UInt16 max") << Variant(uint16_t(65535)) << "65535";
        QTest::newRow("Int32 min") << Variant(int32_t(std::numeric_limits<int32_t>::min())) << "-2147483648";
        QTest::newRow("UInt32 max") << Variant(uint32_t(4294967295u)) << "4294967295";
        QTest::newRow("Int64 min") << Variant(std::numeric_limits<int64_t>::min()) << "-9223372036854775808";
        QTest::newRow("Int64 max") << Variant(std::numeric_limits<int64_t>::max()) << "9223372036854775807";
        QTest::newRow("UInt64 max") << Variant(std::numeric_limits<uint64_t>::max()) << "18446744073709551615";
        QTest::newRow("Float") << Variant(0.1f) << "0.1";
        QTest::newRow("Float max") << Variant(std::numeric_limits<float>::max()) << "3.4028235e+38";
        QTest::newRow("Float denormal") << Variant(std::numeric_limits<float>::denorm_min()) << "1e-45";
        QTest::newRow("Float inf") << Variant(std::numeric_limits<float>::infinity()) << "inf";
        QTest::newRow("Double") << Variant(0.1) << "0.1";
        QTest::newRow("Double exact") << Variant(1.0 / 3.0) << "0.3333333333333333";
        QTest::newRow("Double -inf") << Variant(-std::numeric_limits<double>::infinity()) << "-inf";
        QTest::newRow("Double max") << Variant(std::numeric_limits<double>::max()) << "1.7976931348623157e+308";
        QTest::newRow("String") << Variant(String("h\xC3\xA9llo, \"x\" [1]")) << "h\u00e9llo, \"x\" [1]";
        QTest::newRow("String empty") << Variant(String("")) << "";
        QTest::newRow("DateTime") << Variant(DateTime::fromUnixMs(1'796'032'800'000)) << "2026-11-30T10:00:00.000Z";
        QTest::newRow("DateTime 100 ns") << Variant(sampleTime()) << "2025-11-30T10:00:00.1234567Z";
        QTest::newRow("DateTime min") << Variant(DateTime::minValue()) << "1601-01-01T00:00:00.000Z";
        QTest::newRow("DateTime max") << Variant(DateTime::maxValue()) << "9999-12-31T23:59:59.999Z";
        QTest::newRow("Guid") << Variant(sampleGuid()) << "C496578A-0DFE-4B8F-870A-745238C6AEAE";
        QTest::newRow("ByteString") << Variant(ByteString::fromQByteArray(QByteArray::fromHex("0a1bff00"))) << "0x0a1bff00";
        QTest::newRow("ByteString empty") << Variant(ByteString("")) << "0x";
        QTest::newRow("XmlElement") << Variant(XmlElement("<a b=\"1\">x</a>")) << "<a b=\"1\">x</a>";
        QTest::newRow("NodeId numeric") << Variant(NodeId(id::Server)) << "i=2253";
        QTest::newRow("NodeId string") << Variant(NodeId(2, "Demo.Scalars.Int32")) << "ns=2;s=Demo.Scalars.Int32";
        QTest::newRow("NodeId guid") << Variant(NodeId(1, sampleGuid())) << "ns=1;g=C496578A-0DFE-4B8F-870A-745238C6AEAE";
        QTest::newRow("NodeId opaque") << Variant(NodeId(1, ByteString("ab"))) << "ns=1;b=YWI=";
        QTest::newRow("ExpandedNodeId") << Variant(ExpandedNodeId(NodeId(0, "X"), String("urn:a"), 0)) << "nsu=urn:a;s=X";
        QTest::newRow("ExpandedNodeId svr") << Variant(ExpandedNodeId(NodeId(3, 7u), String(), 2)) << "svr=2;ns=3;i=7";
        QTest::newRow("StatusCode Good") << Variant(StatusCode(status::Good)) << "Good";
        QTest::newRow("StatusCode Bad") << Variant(StatusCode(status::BadNodeIdUnknown)) << "Bad_NodeIdUnknown";
        QTest::newRow("StatusCode info bits") << Variant(StatusCode(status::BadNodeIdUnknown.code | 0x400)) << "Bad_NodeIdUnknown (0x80340400)";
        QTest::newRow("StatusCode unknown") << Variant(StatusCode(0x8FFF0000u)) << "0x8FFF0000";
        QTest::newRow("QualifiedName") << Variant(QualifiedName{2, String("Name")}) << "2:Name";
        QTest::newRow("QualifiedName ns0") << Variant(QualifiedName{0, String("Objects")}) << "Objects";
        QTest::newRow("LocalizedText") << Variant(LocalizedText{String(), String("Temperature")}) << "Temperature";
    }
    void scalarRoundTrip() {
        QFETCH(Variant, value);
        QFETCH(QString, text);
        QCOMPARE(app::formatVariant(value), text);
        const app::ParseResult r = app::parseValue(text, value.type());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.value == value, qPrintable(app::formatVariant(r.value)));
        QCOMPARE(r.status, StatusCode(status::Good));
    }

    void otherInputForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<BuiltInType>("type");
        QTest::addColumn<Variant>("expected");
        QTest::newRow("Boolean 1") << "1" << BuiltInType::Boolean << Variant(true);
        QTest::newRow("Boolean FALSE") << " FALSE " << BuiltInType::Boolean << Variant(false);
        QTest::newRow("Int32 +5") << "+5" << BuiltInType::Int32 << Variant(int32_t(5));
        QTest::newRow("UInt32 -0") << "-0" << BuiltInType::UInt32 << Variant(uint32_t(0));
        QTest::newRow("Double exponent") << "-2.5E-3" << BuiltInType::Double << Variant(-0.0025);
        QTest::newRow("Float Infinity") << "-Infinity" << BuiltInType::Float << Variant(-std::numeric_limits<float>::infinity());
        QTest::newRow("DateTime offset") << "2026-11-30T12:00:00+02:00" << BuiltInType::DateTime
                                         << Variant(DateTime::fromUnixMs(1'796'032'800'000));
        QTest::newRow("DateTime no zone is UTC") << "2026-11-30 10:00:00" << BuiltInType::DateTime
                                                 << Variant(DateTime::fromUnixMs(1'796'032'800'000));
        QTest::newRow("DateTime minutes only") << "2026-11-30T10:00Z" << BuiltInType::DateTime
                                               << Variant(DateTime::fromUnixMs(1'796'032'800'000));
        QTest::newRow("Guid braces") << "{c496578a-0dfe-4b8f-870a-745238c6aeae}" << BuiltInType::Guid << Variant(sampleGuid());
        QTest::newRow("ByteString base64") << "b64:ChsA" << BuiltInType::ByteString
                                           << Variant(ByteString::fromQByteArray(QByteArray::fromHex("0a1b00")));
        QTest::newRow("StatusCode without _") << "BadNodeIdUnknown" << BuiltInType::StatusCode << Variant(StatusCode(status::BadNodeIdUnknown));
        QTest::newRow("StatusCode hex") << "0x80340000" << BuiltInType::StatusCode << Variant(StatusCode(status::BadNodeIdUnknown));
        QTest::newRow("LocalizedText locale|text") << "en-US|Hello" << BuiltInType::LocalizedText
                                                   << Variant(LocalizedText{String("en-US"), String("Hello")});
        QTest::newRow("QualifiedName colon in name") << "1:a:b" << BuiltInType::QualifiedName << Variant(QualifiedName{1, String("a:b")});
        QTest::newRow("Float below the smallest") << "1e-50" << BuiltInType::Float << Variant(0.0f);
        QTest::newRow("String keeps spaces") << " a " << BuiltInType::String << Variant(String(" a "));
        QTest::newRow("String [x] as scalar") << "[x]" << BuiltInType::String << Variant(String("[x]"));
    }
    void otherInputForms() {
        QFETCH(QString, text);
        QFETCH(BuiltInType, type);
        QFETCH(Variant, expected);
        const app::ParseResult r = app::parseValue(text, type);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.value == expected, qPrintable(app::formatVariant(r.value)));
    }

    void specialForms() {
        const app::ParseResult nan = app::parseValue(QStringLiteral("nan"), BuiltInType::Double);
        QVERIFY(nan.ok());
        QVERIFY(std::isnan(*nan.value.get<double>()));
        QCOMPARE(app::formatVariant(nan.value), QStringLiteral("nan"));
        const app::ParseResult now = app::parseValue(QStringLiteral("now"), BuiltInType::DateTime);
        QVERIFY(now.ok());
        QVERIFY(std::llabs(now.value.get<DateTime>()->ticks - DateTime::now().ticks) < 10'000'000);  // within 1 s
        QCOMPARE(app::formatVariant(Variant()), QString());
        QCOMPARE(app::formatVariant(Variant(LocalizedText{String("en-US"), String("Hello")})), QStringLiteral("en-US:Hello"));
        // A Float parses to the float nearest the text, not a rounded double.
        QCOMPARE(*app::parseValue(QStringLiteral("16777217"), BuiltInType::Float).value.get<float>(), 16777216.0f);
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<BuiltInType>("type");
        QTest::addColumn<int>("valueRank");
        QTest::addColumn<StatusCode>("status");
        QTest::addColumn<QString>("message");  // a part of the error text
        const StatusCode range = status::BadOutOfRange, wrong = status::BadTypeMismatch, unsupported = status::BadNotSupported;
        QTest::newRow("Byte 300") << "300" << BuiltInType::Byte << -1 << range << "300 is out of range for Byte (0..255)";
        QTest::newRow("Byte -1") << "-1" << BuiltInType::Byte << -1 << range << "-1 is out of range for Byte (0..255)";
        QTest::newRow("SByte 128") << "128" << BuiltInType::SByte << -1 << range << "128 is out of range for SByte (-128..127)";
        QTest::newRow("SByte -129") << "-129" << BuiltInType::SByte << -1 << range << "out of range for SByte";
        QTest::newRow("Int16 -32769") << "-32769" << BuiltInType::Int16 << -1 << range << "out of range for Int16 (-32768..32767)";
        QTest::newRow("UInt16 65536") << "65536" << BuiltInType::UInt16 << -1 << range << "out of range for UInt16 (0..65535)";
        QTest::newRow("Int32 2^31") << "2147483648" << BuiltInType::Int32 << -1 << range << "out of range for Int32";
        QTest::newRow("Int32 -2^31-1") << "-2147483649" << BuiltInType::Int32 << -1 << range << "out of range for Int32";
        QTest::newRow("UInt32 2^32") << "4294967296" << BuiltInType::UInt32 << -1 << range << "out of range for UInt32";
        QTest::newRow("Int64 2^63") << "9223372036854775808" << BuiltInType::Int64 << -1 << range << "out of range for Int64";
        QTest::newRow("Int64 -2^63-1") << "-9223372036854775809" << BuiltInType::Int64 << -1 << range << "out of range for Int64";
        QTest::newRow("UInt64 2^64") << "18446744073709551616" << BuiltInType::UInt64 << -1 << range << "out of range for UInt64";
        QTest::newRow("UInt64 -1") << "-1" << BuiltInType::UInt64 << -1 << range << "out of range for UInt64";
        QTest::newRow("Float 1e39") << "1e39" << BuiltInType::Float << -1 << range << "1e39 is out of range for Float";
        QTest::newRow("Float 3.5e38") << "3.5e38" << BuiltInType::Float << -1 << range << "out of range for Float";
        QTest::newRow("Float -1e39") << "-1e39" << BuiltInType::Float << -1 << range << "out of range for Float";
        QTest::newRow("Double 1e400") << "1e400" << BuiltInType::Double << -1 << range << "out of range for Double";
        QTest::newRow("Int32 abc") << "abc" << BuiltInType::Int32 << -1 << wrong << "\"abc\" is not a Int32";
        QTest::newRow("Int32 1.5") << "1.5" << BuiltInType::Int32 << -1 << wrong << "is not a Int32";
        QTest::newRow("Int32 empty") << "" << BuiltInType::Int32 << -1 << wrong << "is not a Int32";
        QTest::newRow("Int32 0x10") << "0x10" << BuiltInType::Int32 << -1 << wrong << "is not a Int32";
        QTest::newRow("UInt16 12a") << "12a" << BuiltInType::UInt16 << -1 << wrong << "is not a UInt16";
        QTest::newRow("UInt32 --1") << "--1" << BuiltInType::UInt32 << -1 << wrong << "is not a UInt32";
        QTest::newRow("Double 12x") << "12x" << BuiltInType::Double << -1 << wrong << "is not a Double";
        QTest::newRow("Double empty") << "" << BuiltInType::Double << -1 << wrong << "is not a Double";
        QTest::newRow("Double nanx") << "nanx" << BuiltInType::Double << -1 << wrong << "is not a Double";
        QTest::newRow("Boolean yes") << "yes" << BuiltInType::Boolean << -1 << wrong << "\"yes\" is not a Boolean";
        QTest::newRow("DateTime month 13") << "2026-13-01T00:00:00Z" << BuiltInType::DateTime << -1 << wrong << "is not a DateTime";
        QTest::newRow("DateTime Feb 30") << "2026-02-30T00:00:00Z" << BuiltInType::DateTime << -1 << wrong << "is not a DateTime";
        QTest::newRow("DateTime text") << "yesterday" << BuiltInType::DateTime << -1 << wrong << "is not a DateTime";
        QTest::newRow("DateTime 1500") << "1500-01-01T00:00:00Z" << BuiltInType::DateTime << -1 << range << "before 1601-01-01";
        QTest::newRow("Guid short") << "C496578A-0DFE-4B8F-870A" << BuiltInType::Guid << -1 << wrong << "is not a Guid";
        QTest::newRow("ByteString odd hex") << "0xabc" << BuiltInType::ByteString << -1 << wrong << "is not a ByteString";
        QTest::newRow("ByteString bad hex") << "0xzz" << BuiltInType::ByteString << -1 << wrong << "is not a ByteString";
        QTest::newRow("ByteString no prefix") << "abcd" << BuiltInType::ByteString << -1 << wrong << "is not a ByteString";
        QTest::newRow("ByteString bad base64") << "b64:%%" << BuiltInType::ByteString << -1 << wrong << "is not a ByteString";
        QTest::newRow("NodeId text") << "Demo" << BuiltInType::NodeId << -1 << wrong << "is not a NodeId";
        QTest::newRow("NodeId i=x") << "ns=1;i=x" << BuiltInType::NodeId << -1 << wrong << "is not a NodeId";
        QTest::newRow("NodeId nsu") << "nsu=urn:x;i=1" << BuiltInType::NodeId << -1 << wrong << "needs a namespace index";
        QTest::newRow("ExpandedNodeId") << "svr=x;i=1" << BuiltInType::ExpandedNodeId << -1 << wrong << "is not an ExpandedNodeId";
        QTest::newRow("StatusCode name") << "Bad_NoSuchThing" << BuiltInType::StatusCode << -1 << wrong << "is not a StatusCode";
        QTest::newRow("StatusCode hex") << "0x1FFFFFFFF" << BuiltInType::StatusCode << -1 << wrong << "is not a StatusCode";
        QTest::newRow("QualifiedName ns") << "70000:x" << BuiltInType::QualifiedName << -1 << range << "namespace index 70000 is out of range";
        QTest::newRow("NodeId ns") << "ns=70000;i=1" << BuiltInType::NodeId << -1 << range << "namespace index 70000 is out of range";
        QTest::newRow("ExtensionObject") << "{}" << BuiltInType::ExtensionObject << -1 << unsupported << "ExtensionObject cannot be entered";
        QTest::newRow("DataValue") << "1" << BuiltInType::DataValue << -1 << unsupported << "cannot be entered";
        QTest::newRow("Variant") << "1" << BuiltInType::Variant << -1 << unsupported << "cannot be entered";
        QTest::newRow("DiagnosticInfo") << "1" << BuiltInType::DiagnosticInfo << -1 << unsupported << "cannot be entered";
        QTest::newRow("Null") << "1" << BuiltInType::Null << -1 << unsupported << "cannot be entered";
        QTest::newRow("Variant array") << "[1]" << BuiltInType::Variant << 1 << unsupported << "cannot be entered";
        QTest::newRow("array unclosed") << "[1, 2" << BuiltInType::Int32 << 1 << wrong << "missing ']'";
        QTest::newRow("array missing element") << "[1, , 2]" << BuiltInType::Int32 << 1 << wrong << "missing element";
        QTest::newRow("array trailing text") << "[1] x" << BuiltInType::Int32 << 1 << wrong << "unexpected text";
        QTest::newRow("array no bracket") << "5" << BuiltInType::Int32 << 1 << wrong << "an array starts with '['";
        QTest::newRow("array element range") << "[1, 300]" << BuiltInType::Byte << 1 << range << "element 2: 300 is out of range for Byte";
        QTest::newRow("array element type") << "[true, maybe]" << BuiltInType::Boolean << 1 << wrong << "element 2: \"maybe\"";
        QTest::newRow("array unterminated string") << "[\"a]" << BuiltInType::String << 1 << wrong << "missing '\"'";
        QTest::newRow("array bad escape") << "[\"a\\q\"]" << BuiltInType::String << 1 << wrong << "bad escape";
        QTest::newRow("matrix ragged") << "[[1, 2], [3]]" << BuiltInType::Int32 << 2 << wrong << "same length";
        QTest::newRow("matrix mixed") << "[[1, 2], 3]" << BuiltInType::Int32 << 2 << wrong << "mixes arrays and elements";
        QTest::newRow("rank 1 given a matrix") << "[[1]]" << BuiltInType::Int32 << 1 << wrong << "expected 1 dimension(s), the text has 2";
        QTest::newRow("rank 2 given a vector") << "[1, 2]" << BuiltInType::Int32 << 2 << wrong << "expected 2 dimension(s), the text has 1";
        QTest::newRow("rank -3 given a matrix") << "[[1]]" << BuiltInType::Int32 << -3 << wrong << "scalar or a one-dimensional";
    }
    void errors() {
        QFETCH(QString, text);
        QFETCH(BuiltInType, type);
        QFETCH(int, valueRank);
        QFETCH(StatusCode, status);
        QFETCH(QString, message);
        const app::ParseResult r = app::parseValue(text, type, valueRank);
        QVERIFY(!r.ok());
        QCOMPARE(app::statusName(r.status), app::statusName(status));
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
        QVERIFY(r.value.isNull());
    }

    void arrayRoundTrip_data() {
        QTest::addColumn<Variant>("value");
        QTest::addColumn<int>("valueRank");
        QTest::addColumn<QString>("text");
        QTest::newRow("Boolean") << Variant(Array<bool>({true, false})) << 1 << "[true, false]";
        QTest::newRow("SByte") << Variant(Array<int8_t>({-128, 0, 127})) << 1 << "[-128, 0, 127]";
        QTest::newRow("Byte") << Variant(Array<uint8_t>({0, 255})) << 1 << "[0, 255]";
        QTest::newRow("Int16") << Variant(Array<int16_t>({-32768, 32767})) << 1 << "[-32768, 32767]";
        QTest::newRow("UInt16") << Variant(Array<uint16_t>({65535})) << 1 << "[65535]";
        QTest::newRow("Int32") << Variant(Array<int32_t>({1, -2, 3})) << 1 << "[1, -2, 3]";
        QTest::newRow("UInt32") << Variant(Array<uint32_t>({4294967295u})) << 1 << "[4294967295]";
        QTest::newRow("Int64") << Variant(Array<int64_t>({std::numeric_limits<int64_t>::min()})) << 1 << "[-9223372036854775808]";
        QTest::newRow("UInt64") << Variant(Array<uint64_t>({std::numeric_limits<uint64_t>::max(), 0})) << 1 << "[18446744073709551615, 0]";
        QTest::newRow("Float") << Variant(Array<float>({1.5f, -0.1f})) << 1 << "[1.5, -0.1]";
        QTest::newRow("Double") << Variant(Array<double>({0.1, 1e300, -std::numeric_limits<double>::infinity()})) << 1 << "[0.1, 1e+300, -inf]";
        QTest::newRow("String") << Variant(Array<String>({String("a, b"), String("q\"u\\o\nte"), String("[x]"), String("")})) << 1
                                << "[\"a, b\", \"q\\\"u\\\\o\\nte\", \"[x]\", \"\"]";
        QTest::newRow("DateTime") << Variant(Array<DateTime>({DateTime::fromUnixMs(1'796'032'800'000), sampleTime()})) << 1
                                  << "[\"2026-11-30T10:00:00.000Z\", \"2025-11-30T10:00:00.1234567Z\"]";
        QTest::newRow("Guid") << Variant(Array<Guid>({sampleGuid(), Guid()})) << 1
                              << "[\"C496578A-0DFE-4B8F-870A-745238C6AEAE\", \"00000000-0000-0000-0000-000000000000\"]";
        QTest::newRow("ByteString") << Variant(Array<ByteString>({ByteString("\x01\x02"), ByteString("")})) << 1 << "[\"0x0102\", \"0x\"]";
        QTest::newRow("XmlElement") << Variant(Array<XmlElement>({XmlElement("<a/>")})) << 1 << "[\"<a/>\"]";
        QTest::newRow("NodeId") << Variant(Array<NodeId>({NodeId(2, "a,b;c"), NodeId(85u)})) << 1 << "[\"ns=2;s=a,b;c\", \"i=85\"]";
        QTest::newRow("ExpandedNodeId") << Variant(Array<ExpandedNodeId>({ExpandedNodeId(NodeId(0, 5u), String("urn:x"))})) << 1
                                        << "[\"nsu=urn:x;i=5\"]";
        QTest::newRow("StatusCode") << Variant(Array<StatusCode>({StatusCode(status::Good), StatusCode(status::BadTimeout)})) << 1
                                    << "[Good, Bad_Timeout]";
        QTest::newRow("QualifiedName") << Variant(Array<QualifiedName>({QualifiedName{1, String("A")}})) << 1 << "[\"1:A\"]";
        QTest::newRow("LocalizedText") << Variant(Array<LocalizedText>({LocalizedText{String(), String("x, y")}})) << 1 << "[\"x, y\"]";
        QTest::newRow("empty") << Variant(Array<int32_t>::emptyArray()) << 1 << "[]";
        Variant m(Array<int32_t>({1, 2, 3, 4, 5, 6}));
        m.setArrayDimensions(Array<int32_t>({2, 3}));
        QTest::newRow("matrix 2x3") << m << 2 << "[[1, 2, 3], [4, 5, 6]]";
        Variant cube(Array<String>({String("a"), String("b"), String("c"), String("d"), String("e"), String("f"), String("g"), String("h")}));
        cube.setArrayDimensions(Array<int32_t>({2, 2, 2}));
        QTest::newRow("matrix 2x2x2 String") << cube << 3 << "[[[\"a\", \"b\"], [\"c\", \"d\"]], [[\"e\", \"f\"], [\"g\", \"h\"]]]";
        QTest::newRow("any rank") << Variant(Array<double>({1.0})) << -2 << "[1]";
        QTest::newRow("scalar or one dimension") << Variant(Array<double>({2.0})) << -3 << "[2]";
    }
    void arrayRoundTrip() {
        QFETCH(Variant, value);
        QFETCH(int, valueRank);
        QFETCH(QString, text);
        QCOMPARE(app::formatVariant(value), text);
        const app::ParseResult r = app::parseValue(text, value.type(), valueRank);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.value == value, qPrintable(app::formatVariant(r.value)));
        QCOMPARE(r.value.arrayDimensions(), value.arrayDimensions());
    }

    void arrayInputForms() {
        // Bare elements need no quotes; whitespace around them is dropped.
        app::ParseResult r = app::parseValue(QStringLiteral(" [ i=85 , ns=2;s=x ] "), BuiltInType::NodeId, 1);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.value == Variant(Array<NodeId>({NodeId(85u), NodeId(2, "x")})));
        r = app::parseValue(QStringLiteral("[\"\\u00e9\\t\", plain]"), BuiltInType::String, 1);
        QVERIFY(r.ok());
        QVERIFY(r.value == Variant(Array<String>({String("\xC3\xA9\t"), String("plain")})));
        // rank 0/-2: a scalar unless the text starts with '['
        r = app::parseValue(QStringLiteral("7"), BuiltInType::Int32, -2);
        QVERIFY(r.ok());
        QVERIFY(r.value == Variant(int32_t(7)));
        r = app::parseValue(QStringLiteral("[7]"), BuiltInType::Int32, 0);
        QVERIFY(r.ok());
        QVERIFY(r.value == Variant(Array<int32_t>({7})));
    }

    void maxElements() {
        QCOMPARE(app::formatVariant(Variant(Array<int32_t>({1, 2, 3, 4})), 2), QStringLiteral("[1, 2, ...]"));
        QCOMPARE(app::formatVariant(Variant(Array<int32_t>({1, 2})), 2), QStringLiteral("[1, 2]"));
        Variant m(Array<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}));
        m.setArrayDimensions(Array<int32_t>({3, 3}));
        QCOMPARE(app::formatVariant(m, 2), QStringLiteral("[[1, 2, ...], [4, 5, ...], ...]"));
        // Dimensions that do not match the length: shown flat.
        Variant bad(Array<int32_t>({1, 2, 3}));
        bad.setArrayDimensions(Array<int32_t>({2, 2}));
        QCOMPARE(app::formatVariant(bad), QStringLiteral("[1, 2, 3]"));
    }

    void dataValues() {
        DataValue good(Variant(int32_t(5)));
        QCOMPARE(app::formatDataValue(good), QStringLiteral("5"));
        DataValue bad;
        bad.setStatus(status::BadNodeIdUnknown);
        QCOMPARE(app::formatDataValue(bad), QStringLiteral("Bad_NodeIdUnknown"));
        DataValue uncertain(Variant(1.5));
        uncertain.setStatus(status::UncertainInitialValue);
        QCOMPARE(app::formatDataValue(uncertain), QStringLiteral("Uncertain_InitialValue: 1.5"));
        // A DataValue and Variants inside an array of Variant.
        QCOMPARE(app::formatVariant(Variant(Array<Variant>({Variant(int32_t(1)), Variant(String("x")), Variant(Array<int32_t>({2}))}))),
                 QStringLiteral("[1, \"x\", [2]]"));
        QCOMPARE(app::formatVariant(Variant(good)), QStringLiteral("5"));
    }

    void statusNames() {
        QCOMPARE(app::statusName(status::Good), QStringLiteral("Good"));
        QCOMPARE(app::statusName(status::BadNodeIdUnknown), QStringLiteral("Bad_NodeIdUnknown"));
        QCOMPARE(app::statusName(status::BadUserAccessDenied), QStringLiteral("Bad_UserAccessDenied"));
        QCOMPARE(app::statusName(status::UncertainInitialValue), QStringLiteral("Uncertain_InitialValue"));
        QCOMPARE(app::statusName(status::GoodMoreData), QStringLiteral("Good_MoreData"));
        QCOMPARE(app::statusName(StatusCode(0x8FFF0000u)), QStringLiteral("0x8FFF0000"));
        // Every name of StatusCode.csv reads back to its code.
        for (const StatusCodeInfo& info : allStatusCodes()) {
            const app::ParseResult r = app::parseValue(app::statusName(info.code), BuiltInType::StatusCode);
            QVERIFY2(r.ok(), info.name);
            QCOMPARE(r.value.get<StatusCode>()->code, info.code);
        }
    }

    void builtInTypes_data() {
        QTest::addColumn<NodeId>("dataType");
        QTest::addColumn<int>("expected");  // -1: nullopt
        for (uint32_t i = 1; i <= 25; ++i) QTest::addRow("i=%u", i) << NodeId(i) << int(i);
        QTest::newRow("Number") << NodeId(id::Number) << int(BuiltInType::Double);
        QTest::newRow("Integer") << NodeId(id::Integer) << int(BuiltInType::Int64);
        QTest::newRow("UInteger") << NodeId(id::UInteger) << int(BuiltInType::UInt64);
        QTest::newRow("Enumeration") << NodeId(id::Enumeration) << int(BuiltInType::Int32);
        QTest::newRow("ServerState (an Enumeration)") << NodeId(id::ServerState) << int(BuiltInType::Int32);
        QTest::newRow("UtcTime") << NodeId(id::UtcTime) << int(BuiltInType::DateTime);
        QTest::newRow("Duration") << NodeId(id::Duration) << int(BuiltInType::Double);
        QTest::newRow("LocaleId") << NodeId(id::LocaleId) << int(BuiltInType::String);
        QTest::newRow("IntegerId") << NodeId(id::IntegerId) << int(BuiltInType::UInt32);
        QTest::newRow("Image") << NodeId(id::Image) << int(BuiltInType::ByteString);
        QTest::newRow("ImagePNG") << NodeId(id::ImagePNG) << int(BuiltInType::ByteString);
        QTest::newRow("Argument (a structure)") << NodeId(id::Argument) << -1;
        QTest::newRow("Range (a structure)") << NodeId(id::Range) << -1;
        QTest::newRow("Decimal") << NodeId(id::Decimal) << -1;
        QTest::newRow("ns=2;i=6") << NodeId(2, 6u) << -1;
        QTest::newRow("ns=0;s=Int32") << NodeId(0, "Int32") << -1;
        QTest::newRow("unknown") << NodeId(999999u) << -1;
    }
    void builtInTypes() {
        QFETCH(NodeId, dataType);
        QFETCH(int, expected);
        const auto t = app::builtInTypeOf(dataType);
        if (expected < 0) QVERIFY(!t);
        else QCOMPARE(t ? int(*t) : -1, expected);
    }

    void structures() {
        Argument a;
        a.name = String("Factor");
        a.dataType = NodeId(id::Double);
        a.valueRank = -1;
        a.description = LocalizedText{String("en"), String("the \"factor\"")};
        QCOMPARE(app::formatVariant(Variant(ExtensionObject::make(a))),
                 QStringLiteral("{Name: \"Factor\", DataType: \"i=11\", ValueRank: -1, ArrayDimensions: [], "
                                "Description: \"en:the \\\"factor\\\"\"}"));
        QCOMPARE(app::formatVariant(Variant(ExtensionObject::make(Range{0.0, 100.5}))), QStringLiteral("{Low: 0, High: 100.5}"));
        ServerStatusDataType s;
        s.startTime = DateTime::fromUnixMs(1'796'032'800'000);
        s.state = ServerState::Running;
        s.buildInfo.productName = String("UA Workbench");
        s.secondsTillShutdown = 3;
        const QString text = app::formatVariant(Variant(ExtensionObject::make(s)));
        QVERIFY2(text.startsWith(QStringLiteral("{StartTime: \"2026-11-30T10:00:00.000Z\", CurrentTime: ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("State: Running, BuildInfo: {")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ProductName: \"UA Workbench\"")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("SecondsTillShutdown: 3, ShutdownReason: \"\"}")), qPrintable(text));
        // Arrays of structures, and maxElements inside a structure.
        QCOMPARE(app::formatVariant(Variant(Array<ExtensionObject>({ExtensionObject::make(Range{1, 2}), ExtensionObject()}))),
                 QStringLiteral("[{Low: 1, High: 2}, \"\"]"));
        // An undecoded body: its encoding NodeId and size.
        QCOMPARE(app::formatVariant(Variant(ExtensionObject::opaque(NodeId(2, 5001u), ByteString("abc")))),
                 QStringLiteral("ExtensionObject(ns=2;i=5001, 3 bytes)"));
        // Every structure the codec knows is formatted field by field.
        for (const DataTypeInfo& info : generatedDataTypes()) {
            const QString t = app::formatVariant(Variant(ExtensionObject::fromDecoded(info.makeDefault())));
            QVERIFY2(t.startsWith(QLatin1Char('{')) && t.endsWith(QLatin1Char('}')), info.name);
            if (info.fieldCount > 0) QVERIFY2(t.contains(QStringLiteral(": ")), info.name);
        }
        // The walk itself: fields in order, nested structures, enumerations with their names.
        struct Recorder final : app::StructureVisitor {
            QStringList events;
            void beginStructure(const char* t) override { events << QStringLiteral("begin ") + QLatin1String(t); }
            void field(const char* n) override { events << QLatin1String(n); }
            void endStructure() override { events << QStringLiteral("end"); }
            void beginArray(std::size_t n) override { events << QStringLiteral("array %1").arg(n); }
            bool element(std::size_t) override { return true; }
            void endArray() override { events << QStringLiteral("end array"); }
            void value(const Variant& v) override { events << app::formatVariant(v); }
            void enumeration(int64_t v, const char* n) override { events << QStringLiteral("%1=%2").arg(QLatin1String(n)).arg(v); }
        } recorder;
        QVERIFY(app::visitStructure(*ExtensionObject::make(s).decoded(), recorder));
        QCOMPARE(recorder.events.mid(0, 6), QStringList({"begin ServerStatusDataType", "StartTime", "2026-11-30T10:00:00.000Z",
                                                         "CurrentTime", "1601-01-01T00:00:00.000Z", "State"}));
        QCOMPARE(recorder.events.mid(6, 3), QStringList({"Running=0", "BuildInfo", "begin BuildInfo"}));
        QCOMPARE(recorder.events.last(), QStringLiteral("end"));
        struct Unknown final : ExtensionObjectBody {
            uint32_t typeId() const override { return 999999; }
            uint32_t binaryEncodingId() const override { return 999998; }
            const char* typeName() const override { return "Unknown"; }
            void encodeBody(BinaryEncoder&) const override {}
            bool equals(const ExtensionObjectBody&) const override { return false; }
        };
        Recorder none;
        QVERIFY(!app::visitStructure(Unknown(), none));
        QVERIFY(none.events.isEmpty());
        // Structures are not parsed.
        QCOMPARE(app::parseValue(QStringLiteral("{Low: 1, High: 2}"), BuiltInType::ExtensionObject).status, StatusCode(status::BadNotSupported));
    }
};

UA_TEST_GUILESS_MAIN(TestValueText)
#include "tst_value_text.moc"
