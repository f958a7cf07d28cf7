// Golden bytes against a real peer (node-opcua 2.186.4, tests/interop/golden.js): node-opcua's
// encodings decode in ours to the values of GOLDEN_VALUES.md, ours re-encode them byte for byte,
// and node-opcua decodes our bytes back to the same values (`golden.js check --strict`).
#include "../unit/CodecTestUtil.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include "TestMain.h"
#include <functional>
#include <map>

using namespace ua;
using namespace ua::test;

namespace {

constexpr DateTime T1{133486382456780000LL};  // 2024-01-02T03:04:05.678Z
constexpr DateTime T2{133486382460000000LL};  // 2024-01-02T03:04:06.000Z
constexpr DateTime T3{133537247999990000LL};  // 2024-02-29T23:59:59.999Z

ByteString bytes(const char* hexText) { return ByteString::fromQByteArray(QByteArray::fromHex(hexText)); }
LocalizedText text(const char* locale, const char* t) { return LocalizedText{locale ? String(locale) : String(), String(t)}; }

RequestHeader requestHeader(uint32_t handle) {
    RequestHeader h;
    h.authenticationToken = NodeId(0, bytes("0102030405060708"));
    h.timestamp = T1;
    h.requestHandle = handle;
    h.returnDiagnostics = 0x3FF;
    h.auditEntryId = String("audit-1");
    h.timeoutHint = 5000;
    return h;
}

ResponseHeader responseHeader(uint32_t handle, Array<String> stringTable) {
    ResponseHeader h;
    h.timestamp = T1;
    h.requestHandle = handle;
    h.stringTable = std::move(stringTable);
    return h;
}

ReadRequest readRequest() {
    ReadRequest r;
    r.requestHeader = requestHeader(42);
    r.maxAge = 100.5;
    r.timestampsToReturn = TimestampsToReturn::Both;
    ReadValueId a;
    a.nodeId = NodeId(1, 1000u);
    a.attributeId = uint32_t(AttributeId::Value);
    ReadValueId b;
    b.nodeId = NodeId(2, String("Demo.String"));
    b.attributeId = uint32_t(AttributeId::Value);
    b.indexRange = String("1:2");
    b.dataEncoding = QualifiedName{0, String("Default Binary")};
    r.nodesToRead = Array<ReadValueId>{a, b};
    return r;
}

ReadResponse readResponse() {
    ReadResponse r;
    r.responseHeader = responseHeader(42, Array<String>{String("a"), String("b")});
    DataValue v0(Variant(int32_t(1000)));
    v0.setSourceTimestamp(T1);
    v0.setServerTimestamp(T2);
    DataValue v1(Variant(Array<double>{1.5, -2.25}));
    DataValue v2;
    v2.setStatus(status::BadNodeIdUnknown);
    r.results = Array<DataValue>{v0, v1, v2};
    r.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    return r;
}

BrowseResponse browseResponse() {
    BrowseResponse r;
    r.responseHeader = responseHeader(43, Array<String>::emptyArray());
    BrowseResult res;
    res.continuationPoint = bytes("c0ffee0102");
    ReferenceDescription a;
    a.referenceTypeId = NodeId(id::Organizes);
    a.isForward = true;
    a.nodeId = ExpandedNodeId(NodeId(1, 1000u));
    a.browseName = QualifiedName{1, String("Var1000")};
    a.displayName = text("en", "Var 1000");
    a.nodeClass = NodeClass::Variable;
    a.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
    ReferenceDescription b;
    b.referenceTypeId = NodeId(id::HasComponent);
    b.isForward = false;
    b.nodeId = ExpandedNodeId(NodeId(2, String("Demo.Folder")));
    b.browseName = QualifiedName{2, String("Folder")};
    b.displayName = text(nullptr, "Demo Folder");
    b.nodeClass = NodeClass::Object;
    b.typeDefinition = ExpandedNodeId(NodeId(id::FolderType));
    res.references = Array<ReferenceDescription>{a, b};
    r.results = Array<BrowseResult>{res};
    r.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    return r;
}

CreateSessionRequest createSessionRequest() {
    CreateSessionRequest r;
    r.requestHeader = requestHeader(1);
    r.clientDescription.applicationUri = String("urn:localhost:UAWorkbench:TestClient");
    r.clientDescription.productUri = String("urn:uaworkbench:test");
    r.clientDescription.applicationName = text("en", "Test Client");
    r.clientDescription.applicationType = ApplicationType::Client;
    r.clientDescription.discoveryProfileUri = String("");
    r.clientDescription.discoveryUrls = Array<String>{String("opc.tcp://localhost:4840")};
    r.serverUri = String("urn:localhost:UAWorkbench:Server");
    r.endpointUrl = String("opc.tcp://localhost:4840/ua");
    r.sessionName = String("Session1");
    std::string nonce;
    for (int i = 0; i < 32; ++i) nonce += char(i);
    r.clientNonce = ByteString(nonce);
    r.clientCertificate = bytes("3082010203");
    r.requestedSessionTimeout = 60000.0;
    r.maxResponseMessageSize = 0;
    return r;
}

PublishResponse publishResponse() {
    PublishResponse r;
    r.responseHeader = responseHeader(44, Array<String>::emptyArray());
    r.subscriptionId = 7;
    r.availableSequenceNumbers = Array<uint32_t>{1, 2};
    r.moreNotifications = false;
    r.notificationMessage.sequenceNumber = 2;
    r.notificationMessage.publishTime = T3;
    DataChangeNotification dc;
    MonitoredItemNotification m0;
    m0.clientHandle = 1;
    m0.value = DataValue(Variant(int32_t(5)));
    MonitoredItemNotification m1;
    m1.clientHandle = 2;
    m1.value = DataValue(Variant(String("x")));
    m1.value.setStatus(status::UncertainLastUsableValue);
    m1.value.setSourceTimestamp(T1);
    dc.monitoredItems = Array<MonitoredItemNotification>{m0, m1};
    dc.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    r.notificationMessage.notificationData = Array<ExtensionObject>{ExtensionObject::make(dc)};
    r.results = Array<StatusCode>{status::Good};
    r.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    return r;
}

ExtensionObject argumentObject() {
    Argument a;
    a.name = String("Speed");
    a.dataType = NodeId(id::Double);
    a.valueRank = -1;
    a.arrayDimensions = Array<uint32_t>::emptyArray();
    a.description = text("en", "Speed in m/s");
    return ExtensionObject::make(a);
}

DataValue dataValue() {
    DataValue d(Variant(3.25));
    d.setStatus(StatusCode(0x40000000u));
    d.setSourceTimestamp(T1);
    d.setSourcePicoseconds(5);
    d.setServerTimestamp(T2);
    d.setServerPicoseconds(6);
    return d;
}

Variant matrix() {
    Variant m(Array<int32_t>{1, 2, 3, 4, 5, 6});
    m.setArrayDimensions(Array<int32_t>{2, 3});
    return m;
}

std::map<QString, Variant> variants() {
    return {
        {"Variant_Boolean", Variant(true)},
        {"Variant_SByte", Variant(int8_t(-5))},
        {"Variant_Byte", Variant(uint8_t(200))},
        {"Variant_Int16", Variant(int16_t(-1234))},
        {"Variant_UInt16", Variant(uint16_t(54321))},
        {"Variant_Int32", Variant(int32_t(-123456789))},
        {"Variant_UInt32", Variant(uint32_t(3000000000u))},
        {"Variant_Int64", Variant(int64_t(-1234567890123456789LL))},
        {"Variant_UInt64", Variant(uint64_t(0x0123456789ABCDEFULL))},
        {"Variant_Float", Variant(1.25f)},
        {"Variant_Double", Variant(-1234.5678)},
        {"Variant_String", Variant(String("Hello, 世界"))},
        {"Variant_DateTime", Variant(T1)},
        {"Variant_Guid", Variant(*Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63"))},
        {"Variant_ByteString", Variant(bytes("deadbeef00"))},
        {"Variant_XmlElement", Variant(XmlElement("<a>b</a>"))},
        {"Variant_NodeId", Variant(*NodeId::parse("ns=3;g=72962B91-FA75-4AE6-8D28-B404DC7DAF63"))},
        {"Variant_ExpandedNodeId", Variant(*ExpandedNodeId::parse("svr=2;nsu=urn:test:ns;i=70000"))},
        {"Variant_StatusCode", Variant(status::BadTimeout)},
        {"Variant_QualifiedName", Variant(QualifiedName{2, String("Temperature")})},
        {"Variant_LocalizedText", Variant(text("de-DE", "Temperatur"))},
        {"Variant_ExtensionObject", Variant(argumentObject())},
        {"VariantArray_Double", Variant(Array<double>{1.5, -2.25, 0.0})},
        {"VariantArray_String", Variant(Array<String>{String("alpha"), String(""), String("βeta")})},
        {"VariantArray_Boolean", Variant(Array<bool>{true, false, true})},
        {"VariantArray_ByteString", Variant(Array<ByteString>{bytes("0102"), bytes("ff")})},
        {"VariantMatrix", matrix()},
    };
}

// One golden entry: our encoding of the expected value, and a check that node-opcua's bytes
// decode in ours to that value.
struct Entry {
    QByteArray ours;
    std::function<QString(const QByteArray& theirs)> decodeTheirs;
};

template <class T>
Entry entryOf(T expected) {
    Entry e;
    StatusCode st;
    e.ours = encodeToBytes(expected, &st);
    if (!st.isGood()) e.ours.clear();
    e.decodeTheirs = [expected](const QByteArray& theirs) -> QString {
        T got{};
        const StatusCode s = decodeFromBytes(theirs, got);
        if (!s.isGood()) return "decode failed: " + QString::fromStdString(s.name());
        if (!(got == expected)) return "decoded value differs from GOLDEN_VALUES.md";
        return {};
    };
    return e;
}

std::map<QString, Entry> allEntries() {
    std::map<QString, Entry> m;
    m["ReadRequest"] = entryOf(readRequest());
    m["ReadResponse"] = entryOf(readResponse());
    m["BrowseResponse"] = entryOf(browseResponse());
    m["CreateSessionRequest"] = entryOf(createSessionRequest());
    m["PublishResponse"] = entryOf(publishResponse());
    m["ExtensionObject"] = entryOf(argumentObject());
    m["DataValue"] = entryOf(dataValue());
    for (auto& [name, v] : variants()) m[name] = entryOf(v);
    return m;
}

QString nodeExecutable() { return QStringLiteral(UA_NODE_EXECUTABLE); }

// Runs golden.js with node; returns stdout, or a null array with the reason in error.
QByteArray runGolden(const QStringList& args, const QByteArray& input, int* exitCode, QString* error) {
    QProcess p;
    p.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    p.start(nodeExecutable(), QStringList{"golden.js"} + args);
    if (!p.waitForStarted(10000)) { *error = "cannot start " + nodeExecutable(); return {}; }
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) { *error = "node golden.js timed out"; p.kill(); return {}; }
    *exitCode = p.exitCode();
    const QByteArray err = p.readAllStandardError();
    if (p.exitStatus() != QProcess::NormalExit) { *error = "node crashed: " + QString::fromUtf8(err); return {}; }
    return p.readAllStandardOutput();
}

} // namespace

class TestGolden : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theirBytesDecodeInOurs_data();
    void theirBytesDecodeInOurs();
    void ourBytesAreTheirs_data();
    void ourBytesAreTheirs();
    void oursDecodeInNodeOpcua();

private:
    QJsonObject m_theirs;
};

void TestGolden::initTestCase() {
    QVERIFY2(!nodeExecutable().isEmpty() && QFileInfo(nodeExecutable()).isExecutable(),
             "no Node.js: run ./test.sh, which installs it (UA_NODE_EXECUTABLE)");
    QVERIFY2(QDir(QStringLiteral(UA_INTEROP_DIR) + "/node_modules/node-opcua-types").exists(),
             "node-opcua is not installed: run ./test.sh (npm ci in tests/interop)");
    int rc = -1;
    QString error;
    const QByteArray out = runGolden({"encode"}, {}, &rc, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(rc, 0);
    m_theirs = QJsonDocument::fromJson(out).object();
    QVERIFY(m_theirs.size() >= 30);
    // Every entry node-opcua knows is one we build, and the other way round.
    const auto ours = allEntries();
    for (const QString& k : m_theirs.keys()) QVERIFY2(ours.count(k), qPrintable("no C++ value for " + k));
    for (const auto& [k, e] : ours) QVERIFY2(m_theirs.contains(k), qPrintable("node-opcua has no " + k));
}

void TestGolden::theirBytesDecodeInOurs_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [k, e] : allEntries()) QTest::newRow(qPrintable(k)) << k;
}

void TestGolden::theirBytesDecodeInOurs() {
    QFETCH(QString, name);
    const QByteArray theirs = QByteArray::fromHex(m_theirs.value(name).toString().toLatin1());
    QVERIFY(!theirs.isEmpty());
    const QString failure = allEntries().at(name).decodeTheirs(theirs);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestGolden::ourBytesAreTheirs_data() { theirBytesDecodeInOurs_data(); }

void TestGolden::ourBytesAreTheirs() {
    QFETCH(QString, name);
    QCOMPARE(allEntries().at(name).ours.toHex(), m_theirs.value(name).toString().toLatin1());
}

void TestGolden::oursDecodeInNodeOpcua() {
    QJsonObject ours;
    for (const auto& [k, e] : allEntries()) ours[k] = QString::fromLatin1(e.ours.toHex());
    int rc = -1;
    QString error;
    const QByteArray out = runGolden({"check", "--strict"}, QJsonDocument(ours).toJson(QJsonDocument::Compact), &rc, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QJsonObject result = QJsonDocument::fromJson(out).object();
    QCOMPARE(result.size(), ours.size());
    for (const QString& k : result.keys()) {
        const QJsonObject r = result.value(k).toObject();
        QVERIFY2(r.value("ok").toBool(), qPrintable(k + ": " + r.value("detail").toString()));
    }
    QCOMPARE(rc, 0);
    // The check can fail: one changed byte is refused.
    QByteArray tampered = allEntries().at("ReadRequest").ours;
    tampered[tampered.size() - 1] = char(tampered.at(tampered.size() - 1) ^ 0x01);
    QJsonObject bad;
    bad["ReadRequest"] = QString::fromLatin1(tampered.toHex());
    runGolden({"check", "--strict"}, QJsonDocument(bad).toJson(QJsonDocument::Compact), &rc, &error);
    QCOMPARE(rc, 1);
}

UA_TEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
