// Our client and custom structures (issue 29 item 3, the client side; ua/client/DataTypeCache.h):
//  - against node-opcua's server with tests/interop/data/custom-types.NodeSet2.xml
//    (node_custom_types_server.js): the values node-opcua built are read and decoded field by field
//    from the DataTypeDefinitions node-opcua publishes; a field is changed, the structure written
//    back, and node-opcua's own decoding of what arrived is checked (its CHANGED line);
//  - against node-opcua's server loading a companion specification, PackML (node_packml_server.js):
//    a PackMLProductDataType value with arrays of nested structures and namespace-0 EUInformation
//    fields is decoded, two fields deep inside are changed, and node-opcua decodes the write;
//  - against our server with the same NodeSet imported: read, decode, change, write, read again;
//  - against our server with data/custom-types-dictionary.NodeSet2.xml, DataTypes with no
//    DataTypeDefinition but a DataTypeDictionary (servers before 1.04): the definitions come from the
//    Opc.Binary dictionary; a value is built, written and read back.
#include "ClientTestUtil.h"
#include "ua/client/DataTypeCache.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

const DynamicField* customField(const DynamicValue& v, const char* name) {
    for (const DynamicField& f : v.fields)
        if (f.name == QLatin1String(name)) return &f;
    return nullptr;
}

QString customText(const DynamicValue& v, const char* name) {
    const DynamicField* f = customField(v, name);
    return f && f->present ? QString::fromStdString(f->value.scalar.get<String>() ? f->value.scalar.get<String>()->str() : std::string("?"))
                           : QStringLiteral("(absent)");
}

// Loads what value needs and waits.
bool loadTypes(DataTypeCache& cache, const Variant& value) {
    bool done = false;
    cache.load(value, [&done] { done = true; });
    return QTest::qWaitFor([&done] { return done; }, 20000);
}

ServiceResult<ReadResponse> readNodes(Client& c, QObject* context, const std::vector<NodeId>& nodes) {
    Awaited<ServiceResult<ReadResponse>> r;
    c.readValues(nodes, context, r.callback());
    if (!r.wait()) return {status::BadTimeout, {}};
    return *r;
}

StatusCode writeNode(Client& c, QObject* context, const NodeId& node, const Variant& value) {
    Awaited<ServiceResult<WriteResponse>> w;
    c.writeValue(node, value, context, w.callback());
    if (!w.wait()) return status::BadTimeout;
    if (!w->status.isGood()) return w->status;
    return w->response.results.empty() ? StatusCode(status::BadUnknownResponse) : w->response.results[0];
}

// The index of a namespace URI in the server's NamespaceArray (0 when absent).
uint16_t namespaceOf(Client& c, QObject* context, const char* uri) {
    const auto r = readNodes(c, context, {NodeId(id::Server_NamespaceArray)});
    const auto* uris = r.response.results.empty() ? nullptr : r.response.results[0].value.get<Array<String>>();
    for (std::size_t i = 0; uris && i < uris->size(); ++i)
        if ((*uris)[i].str() == uri) return uint16_t(i);
    return 0;
}

ServerConfig customServerConfig(const QString& nodeSet) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.nodeSetFiles = {QStringLiteral(UA_INTEROP_DIR "/data/") + nodeSet};
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // anonymous writes Values
    return cfg;
}

// A node-opcua test server of UA_INTEROP_DIR (node_custom_types_server.js, node_packml_server.js),
// stopped when this goes: start() waits for its "READY <port> <extra>" line, lineWith() for a later
// line of its output.
class NodeTestServer {
public:
    ~NodeTestServer() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) m_process.kill();
    }
    // false, with the reason in failure(), when the script did not get ready.
    bool start(const QString& script) {
        m_process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        m_process.start(QStringLiteral(UA_NODE_EXECUTABLE), {script, QStringLiteral("0")});
        if (!m_process.waitForStarted()) return fail(QStringLiteral("node did not start"));
        if (!QTest::qWaitFor([this] { return (m_out += m_process.readAllStandardOutput()).contains('\n') || m_process.state() == QProcess::NotRunning; }, 90000))
            return fail(QStringLiteral("no READY line within 90 s: ") + QString::fromUtf8(m_process.readAllStandardError().right(3000)));
        const QList<QByteArray> words = m_out.trimmed().split(' ');
        if (words.size() != 3 || words[0] != "READY")
            return fail(QString::fromUtf8(m_out) + QString::fromUtf8(m_process.readAllStandardError().right(3000)));
        m_port = quint16(words[1].toUInt());
        m_extra = words[2];
        m_out.clear();
        return true;
    }
    quint16 port() const { return m_port; }
    const QByteArray& extra() const { return m_extra; }
    const QString& failure() const { return m_failure; }
    // The first line of the output since start() that holds marker, from the marker on; empty
    // when none came within timeoutMs.
    QByteArray lineWith(const char* marker, int timeoutMs = 10000) {
        if (!QTest::qWaitFor([&] { return (m_out += m_process.readAllStandardOutput()).contains(marker); }, timeoutMs)) return {};
        return m_out.mid(m_out.indexOf(marker)).split('\n').front();
    }

private:
    bool fail(QString why) {
        m_failure = std::move(why);
        return false;
    }
    QProcess m_process;
    QByteArray m_out;
    quint16 m_port = 0;
    QByteArray m_extra;
    QString m_failure;
};

} // namespace

class TestClientCustomTypes : public QObject {
    Q_OBJECT
private slots:
    void readsAndWritesNodeOpcuaStructures();
    void readsAndWritesACompanionSpecificationsStructure();
    void readsAndWritesOurServersStructures();
    void fallsBackToTheDataTypeDictionary();
};

void TestClientCustomTypes::readsAndWritesNodeOpcuaStructures() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    NodeTestServer node;
    QVERIFY2(node.start(QStringLiteral("node_custom_types_server.js")), qPrintable(node.failure()));
    const quint16 port = node.port();
    const uint16_t ns = uint16_t(node.extra().toUInt());

    Client client{ClientConfig{}};
    QCOMPARE(connectSession(client, urlOf(port), this), status::Good);
    DataTypeCache cache(&client);
    const NodeId setpointNode = numericNode(ns, 5002), recipeNode = numericNode(ns, 5003), measurementNode = numericNode(ns, 5004);
    const auto r = readNodes(client, this, {setpointNode, recipeNode, measurementNode});
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.results.size(), std::size_t(3));
    Array<Variant> all = Array<Variant>::emptyArray();
    for (const DataValue& dv : r.response.results) all.push_back(dv.value);
    QVERIFY(cache.needsLoad(Variant(all)));
    QVERIFY(loadTypes(cache, Variant(all)));
    QVERIFY(!cache.needsLoad(Variant(all)));

    QString error;
    const auto setpoint = cache.decode(*r.response.results[0].value.get<ExtensionObject>(), &error);
    QVERIFY2(setpoint, qPrintable(error));
    QCOMPARE(setpoint->typeName, QStringLiteral("Setpoint"));
    QCOMPARE(customText(*setpoint, "Name"), QStringLiteral("Furnace"));
    QCOMPARE(customField(*setpoint, "Value")->value.scalar, Variant(451.5));
    QCOMPARE(customField(*setpoint, "Mode")->value.scalar, Variant(int32_t(5)));
    QCOMPARE(customField(*setpoint, "Mode")->value.valueName, QStringLiteral("Auto"));
    QCOMPARE(customField(*setpoint, "Limits")->value.elements.size(), std::size_t(3));
    QCOMPARE(customField(*setpoint, "Limits")->value.elements[2].scalar, Variant(30.0));

    const auto recipe = cache.decode(*r.response.results[1].value.get<ExtensionObject>(), &error);
    QVERIFY2(recipe, qPrintable(error));
    QCOMPARE(customText(*recipe, "Title"), QStringLiteral("Soup"));
    QVERIFY(!customField(*recipe, "Comment")->present);
    QCOMPARE(customField(*recipe, "Batch")->value.scalar, Variant(uint16_t(7)));
    const DynamicValue& steps = customField(*recipe, "Steps")->value;
    QCOMPARE(steps.elements.size(), std::size_t(1));
    QCOMPARE(customText(steps.elements[0], "Name"), QStringLiteral("Stir"));
    QCOMPARE(customField(steps.elements[0], "Mode")->value.valueName, QStringLiteral("Manual"));

    const auto measurement = cache.decode(*r.response.results[2].value.get<ExtensionObject>(), &error);
    QVERIFY2(measurement, qPrintable(error));
    QVERIFY(customField(*measurement, "Label")->present);
    QVERIFY(!customField(*measurement, "Count")->present);
    QCOMPARE(customText(*measurement, "Label"), QStringLiteral("full"));

    // Change a field, write the structure back; node-opcua decodes it with its own definitions.
    DynamicValue changed = *setpoint;
    for (DynamicField& f : changed.fields) {
        if (f.name == u"Value") f.value.scalar = Variant(-7.75);
        if (f.name == u"Mode") f.value.scalar = Variant(int32_t(1));
    }
    auto encoded = cache.encode(changed, &error);
    QVERIFY2(encoded, qPrintable(error));
    QCOMPARE(writeNode(client, this, setpointNode, Variant(*encoded)), status::Good);
    const QByteArray line = node.lineWith("CHANGED SetpointVariable");
    const QJsonObject seen = QJsonDocument::fromJson(line.mid(line.indexOf('{'))).object();
    QVERIFY2(!seen.isEmpty(), line.constData());
    QCOMPARE(seen.value("name").toString(), QStringLiteral("Furnace"));
    QCOMPARE(seen.value("value").toDouble(), -7.75);
    QCOMPARE(seen.value("mode").toInt(), 1);

    // And a union switched to another field.
    DynamicValue count = *measurement;
    for (DynamicField& f : count.fields) f.present = f.name == u"Count";
    customField(count, "Count");
    for (DynamicField& f : count.fields)
        if (f.name == u"Count") f.value = *cache.defaultValue(f.value.dataType);
    for (DynamicField& f : count.fields)
        if (f.name == u"Count") f.value.scalar = Variant(int32_t(99));
    encoded = cache.encode(count, &error);
    QVERIFY2(encoded, qPrintable(error));
    QCOMPARE(writeNode(client, this, measurementNode, Variant(*encoded)), status::Good);
    const QByteArray unionLine = node.lineWith("CHANGED MeasurementVariable");
    QVERIFY2(unionLine.contains("\"switchField\":1") && unionLine.toLower().contains("\"count\":99"), unionLine.constData());
}

void TestClientCustomTypes::readsAndWritesACompanionSpecificationsStructure() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    NodeTestServer node;
    QVERIFY2(node.start(QStringLiteral("node_packml_server.js")), qPrintable(node.failure()));
    const quint16 port = node.port();
    const NodeId productNode(uint16_t(node.extra().toUInt()), String("Product"));

    Client client{ClientConfig{}};
    QCOMPARE(connectSession(client, urlOf(port), this), status::Good);
    DataTypeCache cache(&client);
    const auto r = readNodes(client, this, {productNode});
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.results.size(), std::size_t(1));
    const Variant value = r.response.results[0].value;
    QVERIFY(value.get<ExtensionObject>());
    QVERIFY(loadTypes(cache, value));
    QString error;
    const auto product = cache.decode(*value.get<ExtensionObject>(), &error);
    QVERIFY2(product, qPrintable(error));
    QCOMPARE(product->typeName, QStringLiteral("PackMLProductDataType"));
    QCOMPARE(customField(*product, "ProductID")->value.scalar, Variant(int32_t(17)));
    const DynamicValue& variables = customField(*product, "ProcessVariables")->value;
    QCOMPARE(variables.elements.size(), std::size_t(2));
    QCOMPARE(customText(variables.elements[1], "Name"), QStringLiteral("Temp"));
    QCOMPARE(customField(variables.elements[1], "Value")->value.scalar, Variant(80.0f));
    // A namespace-0 structure inside a companion one: EUInformation, decoded by the stack's own type.
    const DynamicValue& unit = customField(variables.elements[0], "Unit")->value;
    QCOMPARE(unit.typeName, QStringLiteral("EUInformation"));
    const DynamicValue& ingredients = customField(*product, "Ingredients")->value;
    QCOMPARE(ingredients.elements.size(), std::size_t(1));
    QCOMPARE(customField(ingredients.elements[0], "IngredientID")->value.scalar, Variant(int32_t(3)));
    const DynamicValue& parameters = customField(ingredients.elements[0], "Parameter")->value;
    QCOMPARE(parameters.elements.size(), std::size_t(1));
    QCOMPARE(customText(parameters.elements[0], "Name"), QStringLiteral("Flour"));

    // Two fields deep inside change; node-opcua decodes the write with its own definitions.
    DynamicValue changed = *product;
    auto fieldOf = [](DynamicValue& v, const char* name) -> DynamicValue& {
        for (DynamicField& f : v.fields)
            if (f.name == QLatin1String(name)) return f.value;
        return v;
    };
    fieldOf(fieldOf(changed, "ProcessVariables").elements[1], "Value").scalar = Variant(95.5f);
    fieldOf(fieldOf(fieldOf(changed, "Ingredients").elements[0], "Parameter").elements[0], "Name").scalar = Variant(String("Rye"));
    const auto encoded = cache.encode(changed, &error);
    QVERIFY2(encoded, qPrintable(error));
    QCOMPARE(writeNode(client, this, productNode, Variant(*encoded)), status::Good);
    const QByteArray line = node.lineWith("CHANGED Product");
    const QJsonObject seen = QJsonDocument::fromJson(line.mid(line.indexOf('{'))).object();
    QVERIFY2(!seen.isEmpty(), line.constData());
    QCOMPARE(seen.value("productID").toInt(), 17);
    const QJsonArray seenVariables = seen.value("processVariables").toArray();
    QCOMPARE(seenVariables.size(), 2);
    QCOMPARE(seenVariables[1].toObject().value("value").toDouble(), 95.5);
    QCOMPARE(seenVariables[0].toObject().value("unit").toObject().value("unitId").toInt(), 5066068);
    const QJsonArray seenParameters = seen.value("ingredients").toArray()[0].toObject().value("parameter").toArray();
    QCOMPARE(seenParameters[0].toObject().value("name").toString(), QStringLiteral("Rye"));
}

void TestClientCustomTypes::readsAndWritesOurServersStructures() {
    Server server(customServerConfig(QStringLiteral("custom-types.NodeSet2.xml")));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Client client{ClientConfig{}};
    QCOMPARE(connectSession(client, server.endpointUrl(), this), status::Good);
    const uint16_t ns = namespaceOf(client, this, "urn:ua-workbench:test:custom-types");
    QVERIFY(ns > 0);

    DataTypeCache cache(&client);
    const NodeId recipeNode = numericNode(ns, 5003);
    auto r = readNodes(client, this, {recipeNode});
    QCOMPARE(r.status, status::Good);
    QVERIFY(loadTypes(cache, r.response.results[0].value));
    QString error;
    auto recipe = cache.decode(*r.response.results[0].value.get<ExtensionObject>(), &error);
    QVERIFY2(recipe, qPrintable(error));
    QCOMPARE(customText(*recipe, "Title"), QStringLiteral("Bread"));
    QCOMPARE(customField(*recipe, "Batch")->value.scalar, Variant(uint16_t(42)));
    QCOMPARE(customField(*recipe, "Steps")->value.elements.size(), std::size_t(2));
    QCOMPARE(customText(customField(*recipe, "Steps")->value.elements[1], "Name"), QStringLiteral("Bake"));

    // The optional Comment made present, the second step's name changed.
    for (DynamicField& f : recipe->fields) {
        if (f.name == u"Comment") {
            f.present = true;
            f.value = *cache.defaultValue(f.value.dataType);
            f.value.scalar = Variant(String("crusty"));
        }
        if (f.name == u"Steps") f.value.elements[1].fields[0].value.scalar = Variant(String("Roast"));
    }
    auto encoded = cache.encode(*recipe, &error);
    QVERIFY2(encoded, qPrintable(error));
    QCOMPARE(writeNode(client, this, recipeNode, Variant(*encoded)), status::Good);
    r = readNodes(client, this, {recipeNode});
    auto back = cache.decode(*r.response.results[0].value.get<ExtensionObject>(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(customText(*back, "Comment"), QStringLiteral("crusty"));
    QCOMPARE(customText(customField(*back, "Steps")->value.elements[1], "Name"), QStringLiteral("Roast"));

    // A body that does not match the definition is refused by the server.
    QCOMPARE(writeNode(client, this, recipeNode, Variant(ExtensionObject::opaque(encoded->encodingId(), ByteString("\x01", 1)))),
             status::BadTypeMismatch);
}

void TestClientCustomTypes::fallsBackToTheDataTypeDictionary() {
    Server server(customServerConfig(QStringLiteral("custom-types-dictionary.NodeSet2.xml")));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    Client client{ClientConfig{}};
    QCOMPARE(connectSession(client, server.endpointUrl(), this), status::Good);
    const uint16_t ns = namespaceOf(client, this, "urn:ua-workbench:test:dictionary-types");
    QVERIFY(ns > 0);
    const NodeId shapeType = numericNode(ns, 4020), readingType = numericNode(ns, 4030);

    // No DataTypeDefinition on this server: Read says so.
    Awaited<ServiceResult<ReadResponse>> def;
    ReadRequest req;
    ReadValueId rv;
    rv.nodeId = shapeType;
    rv.attributeId = 23;
    req.nodesToRead = Array<ReadValueId>{rv};
    client.read(req, this, def.callback());
    QVERIFY(def.wait());
    QCOMPARE(def->response.results[0].status, status::BadAttributeIdInvalid);

    DataTypeCache cache(&client);
    bool done = false;
    cache.loadDataTypes({shapeType, readingType}, [&done] { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QVERIFY2(cache.resolve(shapeType), qPrintable(cache.failure(shapeType)));
    QCOMPARE(cache.resolve(shapeType)->structure->structureType, StructureType::StructureWithOptionalFields);
    QCOMPARE(cache.resolve(readingType)->structure->structureType, StructureType::Union);

    QString error;
    auto shape = cache.defaultValue(shapeType, &error);
    QVERIFY2(shape, qPrintable(error));
    QCOMPARE(shape->fields.size(), std::size_t(6));  // Name, Color, Center, Corners, Label, Note
    for (DynamicField& f : shape->fields) {
        if (f.name == u"Name") f.value.scalar = Variant(String("triangle"));
        if (f.name == u"Color") f.value.scalar = Variant(int32_t(2));
        if (f.name == u"Center") f.value.fields[1].value.scalar = Variant(4.5);
        if (f.name == u"Corners") {
            for (double x : {0.0, 1.0, 2.0}) {
                DynamicValue p = *cache.defaultValue(f.value.dataType);
                p.fields[0].value.scalar = Variant(x);
                f.value.elements.push_back(p);
            }
        }
        if (f.name == u"Note") {
            f.present = true;
            f.value = *cache.defaultValue(f.value.dataType);
            f.value.scalar = Variant(String("sharp"));
        }
    }
    auto encoded = cache.encode(*shape, &error);
    QVERIFY2(encoded, qPrintable(error));
    QCOMPARE(encoded->encodingId(), numericNode(ns, 4021));
    const NodeId shapeNode = numericNode(ns, 6020);
    QCOMPARE(writeNode(client, this, shapeNode, Variant(*encoded)), status::Good);

    // Read back by a fresh cache, as another client would: encoding -> DataType -> dictionary.
    DataTypeCache fresh(&client);
    const auto r = readNodes(client, this, {shapeNode});
    QVERIFY(loadTypes(fresh, r.response.results[0].value));
    auto back = fresh.decode(*r.response.results[0].value.get<ExtensionObject>(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(customText(*back, "Name"), QStringLiteral("triangle"));
    QCOMPARE(customField(*back, "Color")->value.valueName, QStringLiteral("Blue"));
    QCOMPARE(customField(*back, "Center")->value.fields[1].value.scalar, Variant(4.5));
    QCOMPARE(customField(*back, "Corners")->value.elements.size(), std::size_t(3));
    QCOMPARE(customField(*back, "Corners")->value.elements[2].fields[0].value.scalar, Variant(2.0));
    QCOMPARE(customText(*back, "Note"), QStringLiteral("sharp"));
}

UA_TEST_GUILESS_MAIN(TestClientCustomTypes)
#include "tst_client_custom_types.moc"
