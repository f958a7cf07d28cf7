// Malformed input and limits (issue: "never a crash, a hang or an allocation the input cannot
// justify"): each case names the exact status it must give.
#include "CodecTestUtil.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"

#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {
enum class Kind { String, ByteString, ArrayInt32, ArrayString, Variant, DataValue, ExtensionObject, DiagnosticInfo,
                  NodeId, LocalizedText, ReadRequest };

StatusCode decodeAs(Kind k, const QByteArray& bytes, const EncodingLimits& l) {
    switch (k) {
    case Kind::String: { String v; return decodeFromBytes(bytes, v, l); }
    case Kind::ByteString: { ByteString v; return decodeFromBytes(bytes, v, l); }
    case Kind::ArrayInt32: { Array<int32_t> v; return decodeFromBytes(bytes, v, l); }
    case Kind::ArrayString: { Array<String> v; return decodeFromBytes(bytes, v, l); }
    case Kind::Variant: { Variant v; return decodeFromBytes(bytes, v, l); }
    case Kind::DataValue: { DataValue v; return decodeFromBytes(bytes, v, l); }
    case Kind::ExtensionObject: { ExtensionObject v; return decodeFromBytes(bytes, v, l); }
    case Kind::DiagnosticInfo: { DiagnosticInfo v; return decodeFromBytes(bytes, v, l); }
    case Kind::NodeId: { NodeId v; return decodeFromBytes(bytes, v, l); }
    case Kind::LocalizedText: { LocalizedText v; return decodeFromBytes(bytes, v, l); }
    case Kind::ReadRequest: { ReadRequest v; return decodeFromBytes(bytes, v, l); }
    }
    return {};
}

QByteArray repeat(const QByteArray& unit, int n) {
    QByteArray r;
    for (int i = 0; i < n; ++i) r += unit;
    return r;
}

// n Variants, each an array of one Variant: nesting depth n.
QByteArray nestedVariants(int n) {
    return repeat(hex("9801000000"), n) + hex("0601000000");
}
QByteArray nestedDiagnosticInfos(int n) { return repeat(hex("40"), n - 1) + hex("00"); }
} // namespace

Q_DECLARE_METATYPE(Kind)

class TestLimits : public QObject {
    Q_OBJECT
private slots:
    void malformed_data();
    void malformed();
    void limitsOnEncode();
    void hugeLengthsAllocateNothing();
    void nestingAtTheLimitStillDecodes();
};

void TestLimits::malformed_data() {
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<StatusCode>("expected");
    const StatusCode dec = status::BadDecodingError;
    const StatusCode lim = status::BadEncodingLimitsExceeded;
    QTest::newRow("string length -2") << Kind::String << hex("feffffff") << dec;
    QTest::newRow("string length INT32_MIN") << Kind::String << hex("00000080") << dec;
    QTest::newRow("string longer than input") << Kind::String << hex("0a000000414243") << dec;
    QTest::newRow("string over 16 MiB limit") << Kind::String << hex("01000001") << lim;
    QTest::newRow("bytestring over limit") << Kind::ByteString << hex("ffffff7f") << lim;
    QTest::newRow("truncated length") << Kind::String << hex("0100") << dec;
    QTest::newRow("array length -2") << Kind::ArrayInt32 << hex("feffffff") << dec;
    QTest::newRow("array longer than input") << Kind::ArrayInt32 << hex("0300000001000000") << dec;
    QTest::newRow("array of strings claims 2 with 7 bytes") << Kind::ArrayString << hex("02000000ffffffff000000") << dec;
    QTest::newRow("array over element limit") << Kind::ArrayInt32 << hex("01001000") << lim;
    QTest::newRow("variant type 26") << Kind::Variant << hex("1a00") << dec;
    QTest::newRow("variant type 63") << Kind::Variant << hex("3f") << dec;
    QTest::newRow("variant scalar Variant") << Kind::Variant << hex("1800") << dec;
    QTest::newRow("variant dims without array") << Kind::Variant << hex("4601000000") << dec;
    QTest::newRow("variant null type with array bit") << Kind::Variant << hex("8000000000") << dec;
    QTest::newRow("variant dims product differs") << Kind::Variant << hex("c6020000000100000002000000" "020000000200000002000000") << dec;
    QTest::newRow("variant negative dim") << Kind::Variant << hex("c6000000000200000000000000ffffffff") << dec;
    QTest::newRow("variant dims count 0") << Kind::Variant << hex("c60000000000000000") << dec;
    QTest::newRow("variant array length -2") << Kind::Variant << hex("86feffffff") << dec;
    QTest::newRow("variant array too long") << Kind::Variant << hex("86ffffff0f") << lim;
    QTest::newRow("variant truncated Double") << Kind::Variant << hex("0b000000") << dec;
    QTest::newRow("datavalue reserved bits") << Kind::DataValue << hex("40") << dec;
    QTest::newRow("datavalue missing value") << Kind::DataValue << hex("01") << dec;
    QTest::newRow("extensionobject encoding 3") << Kind::ExtensionObject << hex("000003") << dec;
    QTest::newRow("extensionobject body length -2") << Kind::ExtensionObject << hex("000001feffffff") << dec;
    QTest::newRow("extensionobject body beyond input") << Kind::ExtensionObject << hex("01005401" "01" "10000000" "00") << dec;
    QTest::newRow("extensionobject known type, body too short") << Kind::ExtensionObject << hex("01005401" "01" "02000000" "0000") << dec;
    QTest::newRow("diagnosticinfo reserved bit") << Kind::DiagnosticInfo << hex("80") << dec;
    QTest::newRow("diagnosticinfo 11 levels") << Kind::DiagnosticInfo << nestedDiagnosticInfos(11) << lim;
    QTest::newRow("diagnosticinfo 1000 levels") << Kind::DiagnosticInfo << nestedDiagnosticInfos(1000) << lim;
    QTest::newRow("variant nesting 101") << Kind::Variant << nestedVariants(101) << lim;
    QTest::newRow("variant nesting 100000") << Kind::Variant << nestedVariants(100000) << lim;
    QTest::newRow("nodeid encoding 6") << Kind::NodeId << hex("060000") << dec;
    QTest::newRow("nodeid with expanded flags") << Kind::NodeId << hex("4048") << dec;
    QTest::newRow("nodeid truncated") << Kind::NodeId << hex("02000001") << dec;
    QTest::newRow("localizedtext reserved bits") << Kind::LocalizedText << hex("08") << dec;
    QTest::newRow("readrequest empty") << Kind::ReadRequest << QByteArray() << dec;
    QTest::newRow("readrequest trailing byte") << Kind::ReadRequest
        << hex("0000" "0000000000000000" "00000000" "00000000" "ffffffff" "00000000" "000000"
               "0000000000000000" "00000000" "ffffffff" "00") << dec;
}

void TestLimits::malformed() {
    QFETCH(Kind, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(StatusCode, expected);
    const StatusCode got = decodeAs(kind, bytes, EncodingLimits::defaults());
    QCOMPARE(QString::fromStdString(got.name()), QString::fromStdString(expected.name()));
}

void TestLimits::limitsOnEncode() {
    EncodingLimits l;
    l.maxStringLength = 4;
    l.maxArrayLength = 2;
    l.maxEncodedSize = 16;
    StatusCode st;
    encodeToBytes(String("12345"), &st, l);
    QCOMPARE(st, status::BadEncodingLimitsExceeded);
    encodeToBytes(String("1234"), &st, l);
    QCOMPARE(st, StatusCode());
    encodeToBytes(Array<int32_t>{1, 2, 3}, &st, l);
    QCOMPARE(st, status::BadEncodingLimitsExceeded);
    encodeToBytes(Variant(Array<double>{1, 2}), &st, l);
    QCOMPARE(st, status::BadEncodingLimitsExceeded);  // 1 + 4 + 16 bytes > 16
    encodeToBytes(Variant(Array<int32_t>{1, 2, 3}), &st, l);
    QCOMPARE(st, status::BadEncodingLimitsExceeded);
    // The decoder applies the same limits.
    String s;
    QCOMPARE(decodeFromBytes(hex("050000003132333435"), s, l), status::BadEncodingLimitsExceeded);
    // DiagnosticInfo deeper than the limit does not encode.
    DiagnosticInfo d;
    DiagnosticInfo* cur = &d;
    for (int i = 0; i < 12; ++i) { cur->innerDiagnosticInfo = DiagnosticInfo{}; cur = cur->innerDiagnosticInfo.get(); }
    encodeToBytes(d, &st);
    QCOMPARE(st, status::BadEncodingLimitsExceeded);
}

void TestLimits::hugeLengthsAllocateNothing() {
    // An array of 1,000,000 ExtensionObjects claimed by 8 bytes must fail before allocating them.
    EncodingLimits big;
    big.maxArrayLength = INT32_MAX;
    Array<ExtensionObject> a;
    QCOMPARE(decodeFromBytes(hex("40420f00000000"), a, big), status::BadDecodingError);
    QVERIFY(a.capacity() == 0);
    Variant v;
    QCOMPARE(decodeFromBytes(hex("96ffffff7f00"), v, big), status::BadDecodingError);
}

void TestLimits::nestingAtTheLimitStillDecodes() {
    Variant v;
    QCOMPARE(decodeFromBytes(nestedVariants(99), v), StatusCode());
    DiagnosticInfo d;
    QCOMPARE(decodeFromBytes(nestedDiagnosticInfos(10), d), StatusCode());
    EncodingLimits l;
    l.maxNestingDepth = 5;
    QCOMPARE(decodeFromBytes(nestedVariants(5), v, l), status::BadEncodingLimitsExceeded);
    QCOMPARE(decodeFromBytes(nestedVariants(4), v, l), StatusCode());
}

UA_TEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
