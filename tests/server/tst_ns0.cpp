// Namespace 0 complete (issue 3, item 4): the AddressSpace that Ns0NodeManager loads from the
// generated tables holds every node, attribute and reference of Opc.Ua.NodeSet2.xml, compared
// with the XML read here at test time (QXmlStreamReader). Also prints the load time.
#include "NodeSetXml.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/addressspace/SharedAddressSpace.h"

#include <QElapsedTimer>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

bool isTrue(const XmlNode& e, const char* a, bool def) {
    return e.has(a) ? e.attr(a).trimmed().toLower() == "true" : def;
}

const char* attributeName(uint32_t a) {
    static const char* const names[] = {"?", "NodeId", "NodeClass", "BrowseName", "DisplayName", "Description",
        "WriteMask", "UserWriteMask", "IsAbstract", "Symmetric", "InverseName", "ContainsNoLoops",
        "EventNotifier", "Value", "DataType", "ValueRank", "ArrayDimensions", "AccessLevel", "UserAccessLevel",
        "MinimumSamplingInterval", "Historizing", "Executable", "UserExecutable", "DataTypeDefinition",
        "RolePermissions", "UserRolePermissions", "AccessRestrictions", "AccessLevelEx"};
    return a < std::size(names) ? names[a] : "?";
}

} // namespace

class TestNs0 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void nodeCountAndClasses();
    void everyAttribute();
    void everyReference();
    void typeHierarchy();
    void loadTime();

private:
    // The attributes the XML gives node e, as the Attribute service should return them.
    std::map<uint32_t, Variant> expectedAttributes(const XmlNode& e) const;

    NodeSetXml m_xml;
    AddressSpace m_space;
};

void TestNs0::initTestCase() {
    QVERIFY(m_xml.load(QStringLiteral(UA_NODESET_DIR "/Opc.Ua.NodeSet2.xml")));
    Ns0NodeManager ns0;
    QCOMPARE(ns0.install(m_space), StatusCode());
    QCOMPARE(ns0.namespaceIndex(), uint16_t(0));
}

void TestNs0::nodeCountAndClasses() {
    QCOMPARE(m_space.size(), m_xml.nodes.size());
    QVERIFY(m_xml.nodes.size() > 4000);
    std::map<NodeClass, int> expected, actual;
    static const std::map<QString, NodeClass> classes = {
        {"UAObject", NodeClass::Object}, {"UAVariable", NodeClass::Variable}, {"UAMethod", NodeClass::Method},
        {"UAObjectType", NodeClass::ObjectType}, {"UAVariableType", NodeClass::VariableType},
        {"UAReferenceType", NodeClass::ReferenceType}, {"UADataType", NodeClass::DataType}, {"UAView", NodeClass::View}};
    for (const auto& e : m_xml.nodes) ++expected[classes.at(e.name)];
    for (const Node& n : m_space.nodes()) ++actual[n.nodeClass];
    QCOMPARE(actual, expected);
}

std::map<uint32_t, Variant> TestNs0::expectedAttributes(const XmlNode& e) const {
    std::map<uint32_t, Variant> a;
    const QString kind = e.name;
    const uint32_t id = m_xml.ns0(e.attr("NodeId"));
    a[1] = NodeId(id);
    static const std::map<QString, int32_t> classes = {{"UAObject", 1}, {"UAVariable", 2}, {"UAMethod", 4},
        {"UAObjectType", 8}, {"UAVariableType", 16}, {"UAReferenceType", 32}, {"UADataType", 64}, {"UAView", 128}};
    a[2] = classes.at(kind);
    QString bn = e.attr("BrowseName");
    uint16_t bnNs = 0;
    if (const int colon = bn.indexOf(':'); colon > 0 && bn.left(colon).toUInt() == 0 && bn[0].isDigit()) bn = bn.mid(colon + 1);
    a[3] = QualifiedName{bnNs, String::fromQString(bn)};
    a[4] = NodeSetXml::localizedAttribute(*e.child("DisplayName"));
    a[5] = e.child("Description") ? NodeSetXml::localizedAttribute(*e.child("Description")) : LocalizedText{};
    a[6] = uint32_t(e.attr("WriteMask", "0").toUInt());
    a[7] = uint32_t(e.attr("UserWriteMask", "0").toUInt());
    if (kind == "UAObjectType" || kind == "UAVariableType" || kind == "UAReferenceType" || kind == "UADataType")
        a[8] = isTrue(e, "IsAbstract", false);
    if (kind == "UAReferenceType") {
        a[9] = isTrue(e, "Symmetric", false);
        if (e.child("InverseName")) a[10] = NodeSetXml::localizedAttribute(*e.child("InverseName"));
    }
    if (kind == "UAView") a[11] = isTrue(e, "ContainsNoLoops", false);
    if (kind == "UAObject" || kind == "UAView") a[12] = uint8_t(e.attr("EventNotifier", "0").toUInt());
    if (kind == "UAVariable" || kind == "UAVariableType") {
        const XmlNode* v = e.child("Value");
        a[13] = v && !v->children.empty() ? m_xml.value(v->children.front()) : Variant();
        a[14] = m_xml.resolve(e.attr("DataType", "i=24"));
        a[15] = int32_t(e.attr("ValueRank", "-1").toInt());
        if (e.attr("ArrayDimensions").isEmpty()) {
            a[16] = Variant();
        } else {
            Array<uint32_t> dims = Array<uint32_t>::emptyArray();
            for (const auto& d : e.attr("ArrayDimensions").split(',')) dims.push_back(d.toUInt());
            a[16] = dims;
        }
    }
    if (kind == "UAVariable") {
        const uint8_t access = uint8_t(e.attr("AccessLevel", "1").toUInt());
        a[17] = access;
        a[18] = uint8_t(e.attr("UserAccessLevel", "1").toUInt());
        a[19] = e.attr("MinimumSamplingInterval", "0").toDouble();
        a[20] = isTrue(e, "Historizing", false);
        a[27] = uint32_t(access);
    }
    if (kind == "UAMethod") {
        a[21] = isTrue(e, "Executable", true);
        a[22] = isTrue(e, "UserExecutable", true);
    }
    if (kind == "UADataType" && e.child("Definition")) a[23] = m_xml.definition(id);
    if (const XmlNode* rp = e.child("RolePermissions")) a[24] = a[25] = m_xml.rolePermissions(*rp);
    if (e.has("AccessRestrictions")) a[26] = uint16_t(e.attr("AccessRestrictions").toUInt());
    return a;
}

void TestNs0::everyAttribute() {
    int compared = 0, values = 0, extensionObjects = 0;
    for (const auto& e : m_xml.nodes) {
        const uint32_t id = m_xml.ns0(e.attr("NodeId"));
        const Node* n = m_space.find(NodeId(id));
        QVERIFY2(n, qPrintable(QString("i=%1 missing").arg(id)));
        const auto expected = expectedAttributes(e);
        for (uint32_t attr = 1; attr <= 27; ++attr) {
            const auto it = expected.find(attr);
            const QString where = QString("i=%1 %2").arg(id).arg(attributeName(attr));
            QCOMPARE_EQ(hasAttribute(*n, AttributeId(attr)), it != expected.end());
            if (it == expected.end()) continue;
            Variant actual;
            QCOMPARE(readAttribute(*n, AttributeId(attr), actual), StatusCode());
            QVERIFY2(actual == it->second, qPrintable(where + " differs from the XML"));
            ++compared;
            if (attr == 13 && !actual.isNull()) {
                ++values;
                if (actual.type() == BuiltInType::ExtensionObject) ++extensionObjects;
            }
        }
    }
    qInfo("compared %d attributes of %zu nodes; %d non-null Values, %d of them ExtensionObjects",
          compared, m_xml.nodes.size(), values, extensionObjects);
    QVERIFY(values > 1000);
}

void TestNs0::everyReference() {
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> forward, inverse;
    std::size_t stored = 0;
    for (const Node& n : m_space.nodes()) {
        for (const Reference& r : n.references) {
            ++stored;
            const uint32_t me = n.nodeId.numeric();
            const uint32_t type = m_space.node(r.referenceType).nodeId.numeric();
            const uint32_t other = m_space.node(r.target).nodeId.numeric();
            const bool isNew = r.isForward ? forward.emplace(me, type, other).second
                                           : inverse.emplace(other, type, me).second;
            QVERIFY2(isNew, qPrintable(QString("duplicate reference on i=%1").arg(me)));
        }
    }
    QCOMPARE(forward.size(), m_xml.references.size());
    QCOMPARE(stored, 2 * m_xml.references.size());
    QVERIFY(forward == m_xml.references);
    QVERIFY(inverse == m_xml.references);
    qInfo("%zu references, each stored on both of its nodes", m_xml.references.size());
}

void TestNs0::typeHierarchy() {
    QVERIFY(m_space.isSubtypeOf(NodeId(id::HasComponent), NodeId(id::HierarchicalReferences)));
    QVERIFY(m_space.isSubtypeOf(NodeId(id::HasProperty), NodeId(id::References)));
    QVERIFY(!m_space.isSubtypeOf(NodeId(id::HasTypeDefinition), NodeId(id::HierarchicalReferences)));
    QVERIFY(m_space.isSubtypeOf(NodeId(id::Duration), NodeId(id::Double)));
    QVERIFY(m_space.isSubtypeOf(NodeId(id::FolderType), NodeId(id::BaseObjectType)));
    QCOMPARE(m_space.builtInTypeOf(m_space.indexOf(NodeId(id::UtcTime))), BuiltInType::DateTime);
    QCOMPARE(m_space.builtInTypeOf(m_space.indexOf(NodeId(id::ServerState))), BuiltInType::Int32);
    QCOMPARE(m_space.builtInTypeOf(m_space.indexOf(NodeId(id::BuildInfo))), BuiltInType::ExtensionObject);
    QCOMPARE(m_space.builtInTypeOf(m_space.indexOf(NodeId(id::Number))), BuiltInType::Null);
    QCOMPARE(m_space.builtInTypeOf(m_space.indexOf(NodeId(id::ImagePNG))), BuiltInType::ByteString);
    QCOMPARE(m_space.typeDefinition(m_space.indexOf(NodeId(id::Server))), m_space.indexOf(NodeId(id::ServerType)));
}

void TestNs0::loadTime() {
    constexpr int kRuns = 10;
    double best = 1e9, total = 0;
    for (int i = 0; i < kRuns; ++i) {
        QElapsedTimer t;
        t.start();
        AddressSpace space;
        Ns0NodeManager ns0;
        QCOMPARE(ns0.install(space), StatusCode());
        const double ms = double(t.nsecsElapsed()) / 1e6;
        best = std::min(best, ms);
        total += ms;
    }
    SharedAddressSpace shared(m_space);
    QElapsedTimer t;
    t.start();
    QCOMPARE(shared.update([](AddressSpace&) { return StatusCode(); }), StatusCode());
    const double copyMs = double(t.nsecsElapsed()) / 1e6;
    qInfo("namespace-0 load: best %.2f ms, mean %.2f ms over %d runs; one SharedAddressSpace::update (a copy): %.2f ms",
          best, total / kRuns, kRuns, copyMs);
}

UA_TEST_GUILESS_MAIN(TestNs0)
#include "tst_ns0.moc"
