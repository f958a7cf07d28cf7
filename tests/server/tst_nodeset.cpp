// NodeSet2 import at run time (OPC 10000-6 Annex F; issue 29 items 1 and 2): every companion
// specification of node-opcua-nodesets loads with its RequiredModels, and the address space then
// holds as many nodes and references as the file describes (counted here with a reading of the
// XML of its own); dependency order, missing and older models, all-or-nothing on errors, and
// Values of every built-in type, arrays, matrices and ExtensionObjects of standard and imported
// structures.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/nodeset/NodeSetExporter.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/common/ValueCheck.h"
#include "ua/server/runtime/Server.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <set>
#include "TestMain.h"

using namespace ua;

namespace {

const QString kDir = QStringLiteral(UA_NODESET_DIR);

AddressSpace ns0Space() {
    AddressSpace s;
    Ns0NodeManager ns0;
    if (ns0.install(s).isBad()) qFatal("namespace 0 does not install");
    return s;
}

// The result's errors, one per line, for failure messages.
QString errorsOf(const NodeSetImportResult& r) {
    QString out;
    for (const auto& e : r.errors) out += e.toString() + QLatin1Char('\n');
    return out.left(4000);
}

std::size_t forwardReferences(const AddressSpace& s) {
    std::size_t n = 0;
    for (const Node& node : s.nodes())
        for (const Reference& r : node.references) n += r.isForward;
    return n;
}

// What a file says, read independently of the importer: its models, its node count, and its
// distinct references written with namespace URIs (aliases resolved).
struct FileFacts {
    QString path;
    QStringList models;
    QStringList required;
    int nodes = 0;
    std::set<std::tuple<QString, QString, QString>> references;
};

FileFacts readFacts(const QString& path) {
    FileFacts f;
    f.path = path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return f;
    QXmlStreamReader r(&file);
    QStringList uris{QStringLiteral("http://opcfoundation.org/UA/")};
    QHash<QString, QString> aliases;
    QString alias, node, refType;
    bool forward = true;
    auto uriForm = [&](QString id) {
        id = aliases.value(id.trimmed(), id.trimmed());
        int ns = 0;
        if (id.startsWith(QStringLiteral("ns="))) {
            const int semi = id.indexOf(u';');
            ns = id.mid(3, semi - 3).toInt();
            id = id.mid(semi + 1);
        }
        return uris.value(ns) + QLatin1Char('|') + id;
    };
    int depth = 0;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isEndElement()) { --depth; continue; }
        if (!r.isStartElement()) continue;
        ++depth;
        const auto name = r.name();
        if (name == u"Uri" && depth == 3) uris << r.readElementText().trimmed(), --depth;
        else if (name == u"Model") f.models << r.attributes().value(QLatin1String("ModelUri")).toString();
        else if (name == u"RequiredModel") f.required << r.attributes().value(QLatin1String("ModelUri")).toString();
        else if (name == u"Alias") { alias = r.attributes().value(QLatin1String("Alias")).toString(); aliases[alias] = r.readElementText().trimmed(); --depth; }
        else if (depth == 2 && name.startsWith(u"UA")) { ++f.nodes; node = uriForm(r.attributes().value(QLatin1String("NodeId")).toString()); }
        else if (name == u"Reference") {
            refType = uriForm(r.attributes().value(QLatin1String("ReferenceType")).toString());
            forward = r.attributes().value(QLatin1String("IsForward")).toString().trimmed() != u"false";
            const QString target = uriForm(r.readElementText());
            --depth;
            f.references.insert(forward ? std::tuple(node, refType, target) : std::tuple(target, refType, node));
        }
    }
    return f;
}

NodeSetDocument readDoc(const QByteArray& xml, const QString& name = QStringLiteral("test.xml")) {
    QByteArray copy = xml;
    QBuffer b(&copy);
    b.open(QIODevice::ReadOnly);
    QString error;
    auto d = NodeSetDocument::read(b, name, &error);
    if (!d) qFatal("%s", qPrintable(error));
    return std::move(*d);
}

QByteArray smallNodeSet(const QByteArray& models, const QByteArray& body, const QByteArray& uris = "<Uri>urn:test:a</Uri>") {
    return "<?xml version=\"1.0\"?>\n<UANodeSet xmlns=\"http://opcfoundation.org/UA/2011/03/UANodeSet.xsd\">"
           "<NamespaceUris>" + uris + "</NamespaceUris><Models>" + models + "</Models>"
           "<Aliases><Alias Alias=\"HasComponent\">i=47</Alias><Alias Alias=\"Organizes\">i=35</Alias>"
           "<Alias Alias=\"HasTypeDefinition\">i=40</Alias><Alias Alias=\"HasSubtype\">i=45</Alias>"
           "<Alias Alias=\"HasEncoding\">i=38</Alias><Alias Alias=\"Boolean\">i=1</Alias><Alias Alias=\"SByte\">i=2</Alias>"
           "<Alias Alias=\"UInt16\">i=5</Alias><Alias Alias=\"Int32\">i=6</Alias><Alias Alias=\"UInt64\">i=9</Alias>"
           "<Alias Alias=\"Float\">i=10</Alias><Alias Alias=\"Double\">i=11</Alias><Alias Alias=\"String\">i=12</Alias>"
           "<Alias Alias=\"DateTime\">i=13</Alias><Alias Alias=\"Guid\">i=14</Alias><Alias Alias=\"ByteString\">i=15</Alias>"
           "<Alias Alias=\"NodeId\">i=17</Alias><Alias Alias=\"StatusCode\">i=19</Alias><Alias Alias=\"QualifiedName\">i=20</Alias>"
           "<Alias Alias=\"LocalizedText\">i=21</Alias><Alias Alias=\"BaseDataType\">i=24</Alias></Aliases>" + body + "</UANodeSet>";
}

const QByteArray kModelA = "<Model ModelUri=\"urn:test:a\" Version=\"1.0.0\" PublicationDate=\"2024-01-01T00:00:00Z\">"
                           "<RequiredModel ModelUri=\"http://opcfoundation.org/UA/\" Version=\"1.05.00\" PublicationDate=\"2021-01-01T00:00:00Z\"/></Model>";

QByteArray variable(const QByteArray& id, const QByteArray& dataType, const QByteArray& value, const QByteArray& extra = {}) {
    return "<UAVariable NodeId=\"ns=1;s=" + id + "\" BrowseName=\"1:" + id + "\" DataType=\"" + dataType + "\" " + extra + ">"
           "<DisplayName>" + id + "</DisplayName><References><Reference ReferenceType=\"HasComponent\" IsForward=\"false\">i=85</Reference>"
           "<Reference ReferenceType=\"HasTypeDefinition\">i=63</Reference></References><Value>" + value + "</Value></UAVariable>";
}

// Imports body (one file of model A) through SharedAddressSpace::update, as the server does:
// a failed import publishes nothing. The import's result goes to r.
StatusCode importPublished(SharedAddressSpace& shared, const QByteArray& body, NodeSetImportResult& r) {
    return shared.update([&](AddressSpace& space) {
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, body)));
        r = importNodeSets(space, docs);
        return r.status;
    });
}

// Every node of the namespaces in a is in b with the same attributes, Value and references
// (NodeIds compared as they are: b's namespaces must have a's indexes).
void compareNamespaces(const AddressSpace& a, const AddressSpace& b, const std::vector<uint16_t>& namespaces, int* compared) {
    auto refs = [](const AddressSpace& s, const Node& n) {
        std::set<std::tuple<NodeId, NodeId, bool>> out;
        for (const Reference& r : n.references) out.emplace(s.node(r.referenceType).nodeId, s.node(r.target).nodeId, r.isForward);
        return out;
    };
    auto value = [](const Node& n) {
        const auto dv = n.value ? n.value->load() : nullptr;
        return dv ? dv->value : Variant();
    };
    std::size_t inA = 0, inB = 0;
    for (const Node& n : b.nodes())
        inB += !n.nodeId.isNull() && std::find(namespaces.begin(), namespaces.end(), n.nodeId.namespaceIndex()) != namespaces.end();
    for (const Node& n : a.nodes()) {
        if (n.nodeId.isNull() || std::find(namespaces.begin(), namespaces.end(), n.nodeId.namespaceIndex()) == namespaces.end()) continue;
        ++inA;
        const Node* m = b.find(n.nodeId);
        QVERIFY2(m, n.nodeId.toString().c_str());
        const QByteArray id = QByteArray::fromStdString(n.nodeId.toString());
        QVERIFY2(m->nodeClass == n.nodeClass && m->browseName == n.browseName && m->displayName() == n.displayName() &&
                     m->rare->description == n.rare->description && m->attrs->writeMask == n.attrs->writeMask && m->isAbstract == n.isAbstract &&
                     m->symmetric == n.symmetric && m->rare->inverseName == n.rare->inverseName && m->eventNotifier == n.eventNotifier &&
                     m->containsNoLoops == n.containsNoLoops && m->executable == n.executable,
                 id.constData());
        QVERIFY2(m->attrs->dataType == n.attrs->dataType && m->attrs->valueRank == n.attrs->valueRank && m->attrs->arrayDimensions == n.attrs->arrayDimensions &&
                     m->attrs->accessLevel == n.attrs->accessLevel && m->attrs->userAccessLevel == n.attrs->userAccessLevel &&
                     m->attrs->minimumSamplingInterval == n.attrs->minimumSamplingInterval && m->attrs->historizing == n.attrs->historizing,
                 id.constData());
        QVERIFY2(m->rare->dataTypeDefinition == n.rare->dataTypeDefinition, id.constData());
        QVERIFY2(m->rare->rolePermissions == n.rare->rolePermissions && m->attrs->accessRestrictions == n.attrs->accessRestrictions, id.constData());
        QVERIFY2(value(*m) == value(n), id.constData());
        QVERIFY2(refs(b, *m) == refs(a, n), id.constData());
        ++*compared;
    }
    QCOMPARE(inB, inA);
}

// A structure, one with optional fields (a subtype), a union and an enumeration, their encodings,
// and a Variable holding a value of each.
QByteArray customTypesBody() {
    auto dataType = [](const QByteArray& id, const QByteArray& name, const QByteArray& base, const QByteArray& definition,
                       const QByteArray& encodings = {}) {
        return "<UADataType NodeId=\"ns=1;i=" + id + "\" BrowseName=\"1:" + name + "\"><DisplayName>" + name + "</DisplayName>"
               "<References><Reference ReferenceType=\"HasSubtype\" IsForward=\"false\">" + base + "</Reference>" + encodings +
               "</References>" + definition + "</UADataType>";
    };
    auto encoding = [](const QByteArray& id, const QByteArray& name, const QByteArray& type) {
        return "<UAObject NodeId=\"ns=1;i=" + id + "\" BrowseName=\"" + name + "\" SymbolicName=\"DefaultBinary\"><DisplayName>" + name +
               "</DisplayName><References><Reference ReferenceType=\"HasEncoding\" IsForward=\"false\">ns=1;i=" + type + "</Reference>"
               "<Reference ReferenceType=\"HasTypeDefinition\">i=76</Reference></References></UAObject>";
    };
    const QByteArray body =
        dataType("100", "Mode", "i=29", "<Definition Name=\"1:Mode\"><Field Name=\"Off\" Value=\"0\"/><Field Name=\"On\" Value=\"5\"/></Definition>") +
        dataType("200", "Point", "i=22", "<Definition Name=\"1:Point\"><Field Name=\"X\" DataType=\"Double\"/><Field Name=\"Y\" DataType=\"Double\"/>"
                                         "<Field Name=\"Mode\" DataType=\"ns=1;i=100\"/></Definition>") +
        encoding("201", "Default Binary", "200") + encoding("202", "Default XML", "200") +
        dataType("300", "Labelled", "ns=1;i=200", "<Definition Name=\"1:Labelled\"><Field Name=\"Label\" DataType=\"String\" IsOptional=\"true\"/>"
                                                  "<Field Name=\"Tags\" DataType=\"UInt16\" ValueRank=\"1\" IsOptional=\"true\"/></Definition>") +
        encoding("301", "Default Binary", "300") + encoding("302", "Default XML", "300") +
        dataType("400", "Choice", "i=12756", "<Definition Name=\"1:Choice\" IsUnion=\"true\"><Field Name=\"Number\" DataType=\"Int32\"/>"
                                             "<Field Name=\"At\" DataType=\"ns=1;i=200\"/></Definition>") +
        encoding("401", "Default Binary", "400") + encoding("402", "Default XML", "400") +
        variable("P", "ns=1;i=200", "<ExtensionObject><TypeId><Identifier>ns=1;i=202</Identifier></TypeId><Body><Point><X>1.5</X><Y>-2</Y>"
                                    "<Mode>On_5</Mode></Point></Body></ExtensionObject>") +
        variable("L", "ns=1;i=300", "<ExtensionObject><TypeId><Identifier>ns=1;i=302</Identifier></TypeId><Body><Labelled><X>1</X><Y>2</Y>"
                                    "<Tags><UInt16>7</UInt16><UInt16>8</UInt16></Tags></Labelled></Body></ExtensionObject>") +
        variable("C", "ns=1;i=400", "<ExtensionObject><TypeId><Identifier>ns=1;i=402</Identifier></TypeId><Body><Choice><SwitchField>2</SwitchField>"
                                    "<At><X>3</X><Y>4</Y><Mode>Off_0</Mode></At></Choice></Body></ExtensionObject>");
    return body;
}

Variant valueOf(const AddressSpace& s, uint16_t ns, const char* id) {
    const Node* n = s.find(NodeId(ns, id));
    if (!n || !n->value) return {};
    auto dv = n->value->load();
    return dv ? dv->value : Variant();
}

} // namespace

class TestNodeSet : public QObject {
    Q_OBJECT

    std::map<QString, FileFacts> m_byModel;  // model URI -> the file that defines it

private slots:
    void initTestCase() {
        QDir dir(kDir);
        for (const QString& name : dir.entryList({QStringLiteral("*.xml")}, QDir::Files)) {
            FileFacts f = readFacts(dir.filePath(name));
            for (const QString& m : f.models) m_byModel[m] = f;
        }
        QVERIFY2(m_byModel.size() >= 28, qPrintable(QString::number(m_byModel.size())));
    }

    void companionSpecificationsLoad_data() {
        QTest::addColumn<QString>("model");
        for (const auto& [uri, f] : m_byModel)
            if (uri != QLatin1String(AddressSpace::kNs0Uri)) QTest::newRow(qPrintable(QFileInfo(f.path).fileName())) << uri;
    }

    // Each companion specification loads with its dependencies, given in reverse order; its
    // namespace then holds the file's nodes and the space gained the file's references.
    void companionSpecificationsLoad() {
        QFETCH(QString, model);
        std::vector<QString> closure;
        std::function<void(const QString&)> add = [&](const QString& uri) {
            if (uri == QLatin1String(AddressSpace::kNs0Uri) || std::find(closure.begin(), closure.end(), uri) != closure.end()) return;
            QVERIFY2(m_byModel.count(uri), qPrintable(QStringLiteral("no file defines %1").arg(uri)));
            for (const QString& r : m_byModel[uri].required) add(r);
            closure.push_back(uri);
        };
        add(model);
        // The dependencies in reverse order (the importer finds the order), then the file itself.
        std::vector<NodeSetDocument> deps;
        for (auto it = closure.rbegin() + 1; it != closure.rend(); ++it) {
            QString error;
            auto d = NodeSetDocument::load(m_byModel[*it].path, &error);
            QVERIFY2(d, qPrintable(error));
            deps.push_back(std::move(*d));
        }
        QString error;
        auto self = NodeSetDocument::load(m_byModel[model].path, &error);
        QVERIFY2(self, qPrintable(error));
        AddressSpace space = ns0Space();
        NodeSetImportResult r = importNodeSets(space, deps);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        const std::size_t nodesBefore = space.size(), refsBefore = forwardReferences(space);
        const bool describesItself = [&] {
            for (const auto& [uri, m] : loadedModels(space)) if (uri == model) return true;
            return false;
        }();
        QVERIFY(!describesItself);
        std::vector<NodeSetDocument> last;
        last.push_back(std::move(*self));
        r = importNodeSets(space, last);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));

        const FileFacts& f = m_byModel[model];
        const auto models = loadedModels(space);
        QVERIFY(models.count(model));
        // The importer adds a NamespaceMetadata object with 7 Properties when the file has none.
        const int extraNodes = int(space.size() - nodesBefore) - f.nodes;
        QVERIFY2(extraNodes == 0 || extraNodes == 8, qPrintable(QStringLiteral("%1 nodes in the file, %2 added").arg(f.nodes).arg(space.size() - nodesBefore)));
        const int extraRefs = int(forwardReferences(space) - refsBefore) - int(f.references.size());
        QCOMPARE(extraRefs, extraNodes == 0 ? 0 : 2 + 7 * 2);
        QCOMPARE(r.nodes, space.size() - nodesBefore);
        const int ns = space.namespaceIndex(model.toStdString());
        QVERIFY(ns > 0);
        int inNamespace = 0;
        for (const Node& n : space.nodes()) inNamespace += n.nodeId.namespaceIndex() == ns && !n.nodeId.isNull();
        QVERIFY(inNamespace >= f.nodes - 50);  // a file may define a few nodes of other namespaces
    }

    // DI + Machinery + MachineTool + Robotics together, given in the wrong order.
    void dependencyOrderIsFound() {
        // They and what they require, each file after those that need it.
        std::vector<QString> closure;
        std::function<void(const QString&)> add = [&](const QString& uri) {
            if (uri == QLatin1String(AddressSpace::kNs0Uri) || std::find(closure.begin(), closure.end(), uri) != closure.end()) return;
            QVERIFY2(m_byModel.count(uri), qPrintable(uri));
            for (const QString& r : m_byModel[uri].required) add(r);
            closure.push_back(uri);
        };
        for (const char* uri : {"http://opcfoundation.org/UA/DI/", "http://opcfoundation.org/UA/Machinery/",
                                "http://opcfoundation.org/UA/MachineTool/", "http://opcfoundation.org/UA/Robotics/"})
            add(QLatin1String(uri));
        std::vector<NodeSetDocument> docs;
        for (auto it = closure.rbegin(); it != closure.rend(); ++it) docs.push_back(*NodeSetDocument::load(m_byModel[*it].path, nullptr));
        AddressSpace space = ns0Space();
        QElapsedTimer t;
        t.start();
        const NodeSetImportResult r = importNodeSets(space, docs);
        qInfo("DI + Machinery + MachineTool + Robotics: %zu nodes in %lld ms", r.nodes, t.elapsed());
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        QCOMPARE(r.models.size(), closure.size());
        // Each model was loaded after every model it requires.
        std::vector<QString> loadedOrder;
        for (const auto& m : r.models) loadedOrder.push_back(m.uri);
        for (const auto& m : r.models)
            for (const QString& req : m_byModel[m.uri].required) {
                if (req == QLatin1String(AddressSpace::kNs0Uri)) continue;
                const auto at = [&](const QString& u) { return std::find(loadedOrder.begin(), loadedOrder.end(), u) - loadedOrder.begin(); };
                QVERIFY2(at(req) < at(m.uri), qPrintable(m.uri + QStringLiteral(" before ") + req));
            }
        // The NamespaceArray lists the new namespaces.
        const Node* array = space.find(NodeId(id::Server_NamespaceArray));
        QVERIFY(array && array->value);
        const auto held = array->value->load();
        const auto* uris = held->value.get<Array<String>>();
        QVERIFY(uris);
        QCOMPARE(uris->size(), space.namespaces().size());
        QVERIFY(std::find(uris->begin(), uris->end(), String("http://opcfoundation.org/UA/Robotics/")) != uris->end());
    }

    void aMissingModelIsNamed() {
        AddressSpace space = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(*NodeSetDocument::load(m_byModel[QStringLiteral("http://opcfoundation.org/UA/Machinery/")].path, nullptr));
        const NodeSetImportResult r = importNodeSets(space, docs);
        QVERIFY(!r.ok());
        QCOMPARE(r.status, StatusCode(status::BadNotFound));
        QVERIFY(!r.errors.empty());
        QVERIFY2(r.errors.front().message.contains(QStringLiteral("http://opcfoundation.org/UA/DI/")), qPrintable(r.errors.front().message));
        QVERIFY(r.errors.front().message.contains(QStringLiteral("not loaded")));
    }

    void anOlderModelIsRefused() {
        AddressSpace space = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, {})));
        QVERIFY(importNodeSets(space, docs).ok());
        const QByteArray modelB = "<Model ModelUri=\"urn:test:b\"><RequiredModel ModelUri=\"urn:test:a\" Version=\"1.0.0\" "
                                  "PublicationDate=\"2025-06-01T00:00:00Z\"/></Model>";
        std::vector<NodeSetDocument> b;
        b.push_back(readDoc(smallNodeSet(modelB, {}, "<Uri>urn:test:a</Uri><Uri>urn:test:b</Uri>")));
        NodeSetImportResult r = importNodeSets(space, b);
        QVERIFY(!r.ok());
        QVERIFY2(r.errors.front().message.contains(QStringLiteral("urn:test:a")) && r.errors.front().message.contains(QStringLiteral("older")),
                 qPrintable(r.errors.front().message));
        // A newer Version with the date satisfied passes; an older Version does not.
        const QByteArray modelC = "<Model ModelUri=\"urn:test:c\"><RequiredModel ModelUri=\"urn:test:a\" Version=\"1.2.0\"/></Model>";
        std::vector<NodeSetDocument> c;
        c.push_back(readDoc(smallNodeSet(modelC, {}, "<Uri>urn:test:a</Uri><Uri>urn:test:c</Uri>")));
        r = importNodeSets(space, c);
        QVERIFY(!r.ok());
        QVERIFY(r.errors.front().message.contains(QStringLiteral("version 1.0.0")));
        // Loading the same model twice is refused.
        std::vector<NodeSetDocument> again;
        again.push_back(readDoc(smallNodeSet(kModelA, {})));
        r = importNodeSets(space, again);
        QVERIFY(!r.ok());
        QVERIFY(r.errors.front().message.contains(QStringLiteral("already loaded")));
    }

    // Every error is listed with its node, and through SharedAddressSpace nothing is published.
    void aFileWithErrorsLoadsNothing() {
        const QByteArray body =
            variable("Good", "Int32", "<Int32>5</Int32>") +
            variable("BadValue", "Int32", "<Int32>five</Int32>") +
            "<UAObject NodeId=\"ns=1;s=BadRef\" BrowseName=\"1:BadRef\"><DisplayName>BadRef</DisplayName><References>"
            "<Reference ReferenceType=\"Organizes\" IsForward=\"false\">ns=1;s=Nowhere</Reference></References></UAObject>"
            "<UAObject NodeId=\"ns=1;s=BadType\" BrowseName=\"1:BadType\"><References>"
            "<Reference ReferenceType=\"NoSuchType\">i=85</Reference></References></UAObject>" +
            variable("NoDataType", "ns=1;i=3005", "") +  // no such node
            variable("ObjectAsDataType", "i=85", "");    // a node, but not a DataType
        SharedAddressSpace shared(ns0Space());
        const uint64_t version = shared.version();
        const std::size_t size = shared.snapshot()->size();
        NodeSetImportResult r;
        const StatusCode s = importPublished(shared, body, r);
        QVERIFY(s.isBad());
        QCOMPARE(shared.version(), version);
        QCOMPARE(shared.snapshot()->size(), size);
        QCOMPARE(shared.snapshot()->namespaceIndex("urn:test:a"), -1);
        QStringList where;
        for (const auto& e : r.errors) where << e.nodeId + QLatin1Char(' ') + e.message;
        // References and DataTypes are checked (and listed) together, before values.
        QVERIFY2(r.errors.size() == 4, qPrintable(where.join(u'\n')));
        QVERIFY(where.filter(QStringLiteral("Nowhere")).size() == 1);
        QVERIFY(where.filter(QStringLiteral("NoSuchType")).size() == 1);
        QVERIFY(where.filter(QStringLiteral("NoDataType the DataType 'ns=1;i=3005'")).size() == 1);
        QVERIFY(where.filter(QStringLiteral("ObjectAsDataType the DataType 'i=85'")).size() == 1);
        for (const auto& e : r.errors) QVERIFY(e.line > 0);
    }

    // A NodeId given twice is an error on its second node, before and after another error (the
    // importer adds nodes in one pass and stops adding at the first error).
    void aNodeIdGivenTwiceIsListed() {
        const QByteArray body = variable("A", "Int32", "<Int32>1</Int32>") + variable("A", "Int32", "<Int32>2</Int32>") +
                                "<UAObject NodeId=\"ns=1;x=broken\" BrowseName=\"1:Broken\"/>" +
                                variable("B", "Int32", "<Int32>3</Int32>") + variable("B", "Int32", "<Int32>4</Int32>") +
                                variable("C", "Int32", "<Int32>5</Int32>");
        SharedAddressSpace shared(ns0Space());
        const std::size_t size = shared.snapshot()->size();
        NodeSetImportResult r;
        const StatusCode s = importPublished(shared, body, r);
        QVERIFY(s.isBad());
        QCOMPARE(shared.snapshot()->size(), size);
        QStringList where;
        for (const auto& e : r.errors) where << e.nodeId + QLatin1Char(' ') + e.message;
        QVERIFY2(r.errors.size() == 3, qPrintable(where.join(u'\n')));
        QCOMPARE(where.filter(QStringLiteral("used twice in the file")).size(), 2);
        QCOMPARE(where.filter(QStringLiteral("does not parse")).size(), 1);
        QCOMPARE(r.status, StatusCode(status::BadNodeIdExists));  // the first error's
    }

    // The variables of a file with equal attributes share one SharedAttributes block (per
    // converting thread: a file this large is split between two), a variable that differs has
    // its own, and a DisplayName equal to the BrowseName's name is not stored.
    void equalAttributesAreSharedAfterImport() {
        QByteArray body;
        for (int i = 0; i < 1200; ++i) {
            const QByteArray id = "V" + QByteArray::number(i);
            body += variable(id, "Int32", "<Int32>1</Int32>", i == 600 ? "AccessLevel=\"3\"" : "");
        }
        AddressSpace space = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, body)));
        const NodeSetImportResult r = importNodeSets(space, docs);
        QVERIFY2(r.status.isGood(), qPrintable(errorsOf(r)));
        const uint16_t ns = uint16_t(space.namespaceIndex("urn:test:a"));
        std::set<const SharedAttributes*> blocks;
        for (int i = 0; i < 1200; ++i) {
            const Node* n = space.find(NodeId(ns, String("V" + std::to_string(i))));
            QVERIFY(n);
            QVERIFY(!n->ownDisplayName.isSet());
            QCOMPARE(n->displayName(), (LocalizedText{String(), String("V" + std::to_string(i))}));
            if (i != 600) blocks.insert(&n->attrs.get());
        }
        QVERIFY2(blocks.size() <= 2, qPrintable(QString::number(blocks.size())));  // one per thread at most
        const Node* odd = space.find(NodeId(ns, String("V600")));
        QCOMPARE(odd->attrs->accessLevel, uint8_t(3));
        QVERIFY(!blocks.count(&odd->attrs.get()));
        QCOMPARE(space.find(NodeId(ns, String("V0")))->attrs->accessLevel, access::CurrentRead);
        QCOMPARE(space.find(NodeId(ns, String("V0")))->attrs->dataType, NodeId(id::Int32));
    }

    // A file large enough for the importer to split its work between two threads lists its
    // errors as a sequential import would: all of them, in file order.
    void errorsOfALargeFileAreListedInFileOrder() {
        const auto import = [](const QByteArray& body) {
            AddressSpace space = ns0Space();
            std::vector<NodeSetDocument> docs;
            docs.push_back(readDoc(smallNodeSet(kModelA, body)));
            return importNodeSets(space, docs);
        };
        const auto ordered = [](const NodeSetImportResult& r) {
            for (std::size_t i = 1; i < r.errors.size(); ++i)
                if (r.errors[i - 1].line >= r.errors[i].line) return false;
            return true;
        };
        QByteArray body;
        for (int i = 0; i < 1200; ++i) {
            const QByteArray id = "V" + QByteArray::number(i);
            if (i == 100) body += variable(id, "ns=1;x=bad", "<Int32>1</Int32>");
            else if (i == 700) body += variable("V5", "Int32", "<Int32>1</Int32>");
            else if (i == 1000) body += variable(id, "ns=1;x=worse", "<Int32>1</Int32>");
            else body += variable(id, "Int32", "<Int32>1</Int32>");
            body += '\n';  // a line each: the errors' lines tell their order
        }
        const NodeSetImportResult r = import(body);
        QStringList where;
        for (const auto& e : r.errors) where << QString::number(e.line) + QLatin1Char(' ') + e.nodeId + QLatin1Char(' ') + e.message;
        QVERIFY2(r.errors.size() == 3, qPrintable(where.join(u'\n')));
        QVERIFY2(ordered(r), qPrintable(where.join(u'\n')));
        QVERIFY(r.errors[0].nodeId.endsWith(QStringLiteral("V100")));
        QVERIFY(r.errors[1].message.contains(QStringLiteral("used twice")));
        QVERIFY(r.errors[2].nodeId.endsWith(QStringLiteral("V1000")));
        QCOMPARE(r.status, StatusCode(status::BadDataTypeIdUnknown));

        // Only reference errors, one in each half: both listed, in order.
        QByteArray refs;
        for (int i = 0; i < 1200; ++i) {
            QByteArray v = variable("R" + QByteArray::number(i), "Int32", "<Int32>1</Int32>");
            if (i == 50) v.replace("i=63</Reference>", "ns=1;s=Nowhere</Reference>");
            if (i == 1100) v.replace("ReferenceType=\"HasTypeDefinition\"", "ReferenceType=\"NoSuchType\"");
            refs += v + '\n';
        }
        const NodeSetImportResult r2 = import(refs);
        where.clear();
        for (const auto& e : r2.errors) where << QString::number(e.line) + QLatin1Char(' ') + e.nodeId + QLatin1Char(' ') + e.message;
        QVERIFY2(r2.errors.size() == 2, qPrintable(where.join(u'\n')));
        QVERIFY2(ordered(r2), qPrintable(where.join(u'\n')));
        QVERIFY(r2.errors[0].message.contains(QStringLiteral("Nowhere")));
        QVERIFY(r2.errors[1].message.contains(QStringLiteral("NoSuchType")));
        QCOMPARE(r2.status, StatusCode(status::BadNodeIdUnknown));
    }

    void valuesOfEveryBuiltInType() {
        const QByteArray body =
            variable("Bool", "Boolean", "<Boolean>true</Boolean>") +
            variable("SByte", "SByte", "<SByte>-128</SByte>") +
            variable("UInt64", "UInt64", "<UInt64>18446744073709551615</UInt64>") +
            variable("Inf", "Double", "<Double>-INF</Double>") +
            variable("NaN", "Float", "<Float>NaN</Float>") +
            variable("Str", "String", "<String> spaced </String>") +
            variable("Empty", "String", "<String></String>") +
            variable("Blank", "String", "<String>\n      </String>") +
            variable("Indented", "String", "<String>\n    two\nlines \n  </String>") +
            variable("Time", "DateTime", "<DateTime>2024-05-06T07:08:09.123Z</DateTime>") +
            variable("Guid", "Guid", "<Guid><String>72962B91-FA75-4AE6-8D28-B404DC7DAF63</String></Guid>") +
            variable("Bytes", "ByteString", "<ByteString>AAEC/w==</ByteString>") +
            variable("Id", "NodeId", "<NodeId><Identifier>ns=1;i=42</Identifier></NodeId>") +
            variable("QName", "QualifiedName", "<QualifiedName><NamespaceIndex>1</NamespaceIndex><Name>Q</Name></QualifiedName>") +
            variable("Text", "LocalizedText", "<LocalizedText><Locale>de</Locale><Text>Hallo</Text></LocalizedText>") +
            variable("Status", "StatusCode", "<StatusCode><Code>2150891520</Code></StatusCode>") +
            variable("Ints", "Int32", "<ListOfInt32><Int32>1</Int32><Int32>-2</Int32><Int32>3</Int32></ListOfInt32>", "ValueRank=\"1\"") +
            variable("Matrix", "Int32", "<Matrix><Dimensions><Int32>2</Int32><Int32>3</Int32></Dimensions><Elements>"
                                        "<Int32>1</Int32><Int32>2</Int32><Int32>3</Int32><Int32>4</Int32><Int32>5</Int32><Int32>6</Int32>"
                                        "</Elements></Matrix>", "ValueRank=\"2\"") +
            variable("Args", "i=296", "<ListOfExtensionObject><ExtensionObject><TypeId><Identifier>i=297</Identifier></TypeId><Body>"
                                      "<Argument><Name>Speed</Name><DataType><Identifier>i=11</Identifier></DataType><ValueRank>-1</ValueRank>"
                                      "<ArrayDimensions/><Description><Text>how fast</Text></Description></Argument></Body></ExtensionObject>"
                                      "</ListOfExtensionObject>", "ValueRank=\"1\"") +
            variable("Any", "BaseDataType", "<Variant><Value><UInt16>7</UInt16></Value></Variant>");
        AddressSpace space = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, body)));
        const NodeSetImportResult r = importNodeSets(space, docs);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        const uint16_t ns = uint16_t(space.namespaceIndex("urn:test:a"));
        QCOMPARE(*valueOf(space, ns, "Bool").get<bool>(), true);
        QCOMPARE(*valueOf(space, ns, "SByte").get<int8_t>(), int8_t(-128));
        QCOMPARE(*valueOf(space, ns, "UInt64").get<uint64_t>(), std::numeric_limits<uint64_t>::max());
        QVERIFY(std::isinf(*valueOf(space, ns, "Inf").get<double>()) && *valueOf(space, ns, "Inf").get<double>() < 0);
        QVERIFY(std::isnan(*valueOf(space, ns, "NaN").get<float>()));
        QCOMPARE(*valueOf(space, ns, "Str").get<String>(), String(" spaced "));
        QCOMPARE(*valueOf(space, ns, "Empty").get<String>(), String(""));
        QCOMPARE(*valueOf(space, ns, "Blank").get<String>(), String(""));  // pretty-printed, as in Robotics
        QCOMPARE(*valueOf(space, ns, "Indented").get<String>(), String("two\nlines"));
        QCOMPARE(valueOf(space, ns, "Time").get<DateTime>()->toQDateTime(), QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9, 123), Qt::UTC));
        QCOMPARE(QString::fromStdString(valueOf(space, ns, "Guid").get<Guid>()->toString()).toUpper(),
                 QStringLiteral("72962B91-FA75-4AE6-8D28-B404DC7DAF63"));
        QCOMPARE(valueOf(space, ns, "Bytes").get<ByteString>()->toQByteArray(), QByteArray("\x00\x01\x02\xff", 4));
        QCOMPARE(*valueOf(space, ns, "Id").get<NodeId>(), NodeId(ns, 42u));
        QCOMPARE(*valueOf(space, ns, "QName").get<QualifiedName>(), (QualifiedName{ns, String("Q")}));
        QCOMPARE(*valueOf(space, ns, "Text").get<LocalizedText>(), (LocalizedText{String("de"), String("Hallo")}));
        QCOMPARE(valueOf(space, ns, "Status").get<StatusCode>()->code, 0x80340000u);
        QCOMPARE(*valueOf(space, ns, "Ints").get<Array<int32_t>>(), (Array<int32_t>{std::vector<int32_t>{1, -2, 3}}));
        const Variant m = valueOf(space, ns, "Matrix");
        QCOMPARE(m.arrayDimensions(), (Array<int32_t>{std::vector<int32_t>{2, 3}}));
        QCOMPARE(m.arrayLength(), std::size_t(6));
        const Variant argsValue = valueOf(space, ns, "Args");  // held: get() points into it
        const auto* args = argsValue.get<Array<ExtensionObject>>();
        QVERIFY(args && args->size() == 1);
        const Argument* a = (*args)[0].get<Argument>();
        QVERIFY2(a, "the Argument body decodes into the generated structure");
        QCOMPARE(a->name, String("Speed"));
        QCOMPARE(a->dataType, NodeId(id::Double));
        QCOMPARE(a->valueRank, -1);
        QCOMPARE(a->description.text, String("how fast"));
        QCOMPARE(*valueOf(space, ns, "Any").get<uint16_t>(), uint16_t(7));
    }

    // A structure, one with optional fields, a union and an enumeration defined in the file, and
    // values of them: the binary bodies follow OPC 10000-6 5.2.7 field by field.
    void customDataTypes() {
        const QByteArray body = customTypesBody();
        AddressSpace space = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, body)));
        const NodeSetImportResult r = importNodeSets(space, docs);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        const uint16_t ns = uint16_t(space.namespaceIndex("urn:test:a"));

        const auto* modeDef = space.find(NodeId(ns, 100u))->rare->dataTypeDefinition->get<ExtensionObject>()->get<EnumDefinition>();
        QVERIFY(modeDef && modeDef->fields.size() == 2);
        QCOMPARE(modeDef->fields[1].value, int64_t(5));
        QCOMPARE(modeDef->fields[1].name, String("On"));
        const auto* labelled = space.find(NodeId(ns, 300u))->rare->dataTypeDefinition->get<ExtensionObject>()->get<StructureDefinition>();
        QVERIFY(labelled);
        QCOMPARE(labelled->structureType, StructureType::StructureWithOptionalFields);
        QCOMPARE(labelled->fields.size(), std::size_t(5));  // X, Y, Mode of Point, then its own
        QCOMPARE(labelled->defaultEncodingId, NodeId(ns, 301u));
        QCOMPARE(labelled->baseDataType, NodeId(ns, 200u));
        const auto* choice = space.find(NodeId(ns, 400u))->rare->dataTypeDefinition->get<ExtensionObject>()->get<StructureDefinition>();
        QCOMPARE(choice->structureType, StructureType::Union);

        auto bodyOf = [&](const char* id) {
            const Variant v = valueOf(space, ns, id);
            const auto* x = v.get<ExtensionObject>();
            return x ? std::pair(x->encodingId(), x->body().toQByteArray()) : std::pair(NodeId(), QByteArray());
        };
        auto dbl = [](double d) { return QByteArray(reinterpret_cast<const char*>(&d), 8); };
        auto i32 = [](int32_t n) { return QByteArray(reinterpret_cast<const char*>(&n), 4); };
        const auto p = bodyOf("P");
        QCOMPARE(p.first, NodeId(ns, 201u));
        QCOMPARE(p.second, dbl(1.5) + dbl(-2) + i32(5));
        const auto l = bodyOf("L");
        QCOMPARE(l.first, NodeId(ns, 301u));
        // Mask: Label absent (bit 0), Tags present (bit 1); Mode absent: its default 0.
        QCOMPARE(l.second, i32(2) + dbl(1) + dbl(2) + i32(0) + i32(2) + QByteArray("\x07\x00\x08\x00", 4));
        const auto c = bodyOf("C");
        QCOMPARE(c.second, i32(2) + dbl(3) + dbl(4) + i32(0));

        // A Write of such a body is checked by the definition: whole, cut short, or with a byte
        // too many (ValueCheck.h, StructureBodyCheck.h).
        const Node& labelledVar = *space.find(NodeId(ns, "L"));
        auto withBody = [&](const QByteArray& b) {
            return Variant(ExtensionObject::opaque(NodeId(ns, 301u), ByteString::fromQByteArray(b)));
        };
        Variant good = withBody(l.second), cut = withBody(l.second.chopped(1)), extra = withBody(l.second + '\0');
        QCOMPARE(checkValueType(space, labelledVar, good), StatusCode(status::Good));
        QCOMPARE(checkValueType(space, labelledVar, cut), StatusCode(status::BadTypeMismatch));
        QCOMPARE(checkValueType(space, labelledVar, extra), StatusCode(status::BadTypeMismatch));
        // An array field claiming more elements than there are bytes.
        Variant lying = withBody(i32(2) + dbl(1) + dbl(2) + i32(0) + i32(1 << 30));
        QCOMPARE(checkValueType(space, labelledVar, lying), StatusCode(status::BadTypeMismatch));
    }


    // Export (issue 29 item 5): the 7 models of DI + Machinery + MachineTool + Robotics written as
    // one NodeSet and imported into a fresh address space give the same nodes, attributes, Values,
    // DataTypeDefinitions and references.
    void exportAndImportAgain() {
        std::vector<NodeSetDocument> docs;
        for (const char* f : {"Opc.Ua.Di.NodeSet2.xml", "Opc.Ua.IA.NodeSet2.xml", "opc.ua.isa95-jobcontrol.nodeset2.xml",
                              "Opc.Ua.Machinery.NodeSet2.xml", "Opc.Ua.Machinery.Jobs.Nodeset2.xml", "Opc.Ua.MachineTool.NodeSet2.xml",
                              "Opc.Ua.Robotics.NodeSet2.xml"})
            docs.push_back(*NodeSetDocument::load(kDir + QLatin1Char('/') + QLatin1String(f), nullptr));
        AddressSpace a = ns0Space();
        QVERIFY(importNodeSets(a, docs).ok());
        std::vector<uint16_t> namespaces;
        for (uint16_t ns = 1; ns < a.namespaces().size(); ++ns) namespaces.push_back(ns);
        QElapsedTimer t;
        t.start();
        const NodeSetExport x = exportNodeSet(a, namespaces);
        qInfo("exported %zu nodes, %zu references, %lld bytes in %lld ms", x.nodes, x.references, qint64(x.xml.size()), t.elapsed());
        QVERIFY2(x.errors.isEmpty(), qPrintable(x.errors.join(u'\n')));
        std::vector<NodeSetDocument> again;
        again.push_back(readDoc(x.xml, QStringLiteral("exported.xml")));
        QCOMPARE(again.back().models.size(), namespaces.size());
        AddressSpace b = ns0Space();
        const NodeSetImportResult r = importNodeSets(b, again);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r)));
        QCOMPARE(b.namespaces(), a.namespaces());
        int compared = 0;
        compareNamespaces(a, b, namespaces, &compared);
        QVERIFY(compared > 1800);
    }

    // The same for imported structures, an enumeration and a union with values of them.
    // What fuzz_nodeset found (tests/fuzz/nodeset/corpus/regression-*.xml replays each): a model
    // or namespace without a URI, and a model that adds nodes to namespace 0, are refused.
    void filesTheFuzzerFoundAreRefused() {
        auto readError = [](const QByteArray& xml) {
            QByteArray copy = xml;
            QBuffer b(&copy);
            b.open(QIODevice::ReadOnly);
            QString error;
            const bool read = NodeSetDocument::read(b, QStringLiteral("f.xml"), &error).has_value();
            return read ? QString() : error;
        };
        const QString noModelUri = readError(smallNodeSet("<Model Version=\"1.0.0\"/>", {}));
        QVERIFY2(noModelUri.contains(QStringLiteral("a <Model> without a URI")), qPrintable(noModelUri));
        const QString noRequiredUri = readError(smallNodeSet("<Model ModelUri=\"urn:test:a\"><RequiredModel Version=\"1\"/></Model>", {}));
        QVERIFY2(noRequiredUri.contains(QStringLiteral("a <RequiredModel> without a URI")), qPrintable(noRequiredUri));
        const QString emptyUri = readError(smallNodeSet(kModelA, {}, "<Uri>urn:test:a</Uri><Uri> </Uri>"));
        QVERIFY2(emptyUri.contains(QStringLiteral("<Uri> without a URI")), qPrintable(emptyUri));

        AddressSpace space = ns0Space();
        const std::size_t before = space.size();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, variable("Fine", "Int32", "<Int32>1</Int32>") +
            "<UAObject NodeId=\"i=5002\" BrowseName=\"1:Intruder\"><References>"
            "<Reference ReferenceType=\"Organizes\" IsForward=\"false\">i=85</Reference></References></UAObject>")));
        const NodeSetImportResult r = importNodeSets(space, docs);
        QVERIFY(!r.ok());
        QCOMPARE(r.status, StatusCode(status::BadNodeIdInvalid));
        QVERIFY2(errorsOf(r).contains(QStringLiteral("i=5002: a node of namespace 0 in a model of another namespace")), qPrintable(errorsOf(r)));
        // The node of namespace 0 is untouched. (The nodes before the error may have been added:
        // a failed import's space is dropped by its caller, NodeSetImporter.h.)
        QVERIFY(space.size() <= before + 1);
        const Node* n5002 = space.find(NodeId(5002u));
        QVERIFY(!n5002 || n5002->browseName.name.view() != "Intruder");
    }

    void exportKeepsCustomStructures() {
        AddressSpace a = ns0Space();
        std::vector<NodeSetDocument> docs;
        docs.push_back(readDoc(smallNodeSet(kModelA, customTypesBody())));
        QVERIFY(importNodeSets(a, docs).ok());
        const NodeSetExport x = exportNodeSet(a, {1});
        QVERIFY2(x.errors.isEmpty(), qPrintable(x.errors.join(u'\n')));
        QVERIFY(x.xml.contains("<SwitchField>2</SwitchField>"));
        QVERIFY(x.xml.contains("<Mode>On_5</Mode>"));
        std::vector<NodeSetDocument> again;
        again.push_back(readDoc(x.xml));
        AddressSpace b = ns0Space();
        const NodeSetImportResult r = importNodeSets(b, again);
        QVERIFY2(r.ok(), qPrintable(errorsOf(r) + QString::fromUtf8(x.xml.left(3000))));
        int compared = 0;
        compareNamespaces(a, b, {1}, &compared);
        QVERIFY(compared >= 10);
    }

    // ServerConfig::nodeSetFiles: loaded when the address space is built; any error keeps the
    // server from starting, with the error in errorString(). Server::importNodeSets while running.
    void serverLoadsAtStartAndWhileRunning() {
        ServerConfig bad;
        bad.port = 0;
        bad.hostName = QStringLiteral("127.0.0.1");
        bad.nodeSetFiles = {kDir + QStringLiteral("/Opc.Ua.Machinery.NodeSet2.xml"), QStringLiteral("/nonexistent/plant.xml")};
        Server refused(bad);
        QVERIFY(!refused.start());
        QVERIFY2(refused.errorString().contains(QStringLiteral("/nonexistent/plant.xml")), qPrintable(refused.errorString()));
        QCOMPARE(refused.startupNodeSets().status, StatusCode(status::BadNotFound));

        ServerConfig cfg = bad;
        cfg.nodeSetFiles = {kDir + QStringLiteral("/Opc.Ua.Machinery.NodeSet2.xml"), kDir + QStringLiteral("/Opc.Ua.Di.NodeSet2.xml")};
        Server server(cfg);
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QCOMPARE(server.startupNodeSets().models.size(), std::size_t(2));
        QVERIFY(server.addressSpace().snapshot()->namespaceIndex("http://opcfoundation.org/UA/Machinery/") > 0);
        const uint64_t version = server.addressSpaceVersion();
        const NodeSetImportResult r = server.importNodeSets({kDir + QStringLiteral("/Opc.Ua.PackML.NodeSet2.xml")});
        QVERIFY(r.ok());
        QCOMPARE(server.addressSpaceVersion(), version + 1);
        const auto snap = server.addressSpace().snapshot();
        const int packml = snap->namespaceIndex("http://opcfoundation.org/UA/PackML/");
        QVERIFY(packml > 0);
        // The NamespaceArray clients read lists it.
        const auto namespaceArray = snap->find(NodeId(id::Server_NamespaceArray))->value->load();
        const auto* uris = namespaceArray->value.get<Array<String>>();
        QCOMPARE(uris->at(std::size_t(packml)), String("http://opcfoundation.org/UA/PackML/"));
        // Loading it again is refused and changes nothing.
        QVERIFY(!server.importNodeSets({kDir + QStringLiteral("/Opc.Ua.PackML.NodeSet2.xml")}).ok());
        QCOMPARE(server.addressSpaceVersion(), version + 1);
        server.stop();
    }
};

UA_TEST_GUILESS_MAIN(TestNodeSet)
#include "tst_nodeset.moc"
