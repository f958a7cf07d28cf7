// node-opcua's client browses and reads the NodeSet2 models our server imported (issue 29 item 2):
// client_nodeset.js builds node-opcua's own address space from the same files and compares every
// attribute of every node of every imported namespace, the built-in Values, and each node's
// references browsed both ways. Rows: DI + Machinery + MachineTool + Robotics with what they
// require, and every companion specification of node-opcua-nodesets at once.
#include "NodeScript.h"
#include "ua/server/runtime/Server.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include "TestMain.h"

namespace {
// The Variables and VariableTypes that have a <Value> in the files, as "<namespace uri>|i=123",
// read here with QXmlStreamReader (the script tells a missing value from a lost one with it).
QJsonArray nodesWithValues(const QStringList& files) {
    QJsonArray out;
    for (const QString& path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) continue;
        QXmlStreamReader r(&f);
        QStringList uris{QStringLiteral("http://opcfoundation.org/UA/")};
        QString node;
        int depth = 0;
        while (!r.atEnd()) {
            r.readNext();
            if (r.isEndElement()) { --depth; continue; }
            if (!r.isStartElement()) continue;
            ++depth;
            if (r.name() == u"Uri" && depth == 3) { uris << r.readElementText().trimmed(); --depth; }
            else if (depth == 2) node = r.attributes().value(QLatin1String("NodeId")).toString();
            else if (depth == 3 && r.name() == u"Value" && !node.isEmpty()) {
                int ns = 0;
                QString id = node;
                if (id.startsWith(QStringLiteral("ns="))) {
                    ns = id.mid(3, id.indexOf(u';') - 3).toInt();
                    id = id.mid(id.indexOf(u';') + 1);
                }
                out.append(uris.value(ns) + QLatin1Char('|') + id);
            }
        }
    }
    return out;
}
} // namespace

class TestNodeNodeSet : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaReadsTheImportedModels_data();
    void nodeOpcuaReadsTheImportedModels();
};

void TestNodeNodeSet::nodeOpcuaReadsTheImportedModels_data() {
    QTest::addColumn<QStringList>("files");
    const QDir dir(QStringLiteral(UA_NODESET_DIR));
    QStringList machines;
    for (const char* f : {"Opc.Ua.Di.NodeSet2.xml", "Opc.Ua.IA.NodeSet2.xml", "opc.ua.isa95-jobcontrol.nodeset2.xml",
                          "Opc.Ua.Machinery.NodeSet2.xml", "Opc.Ua.Machinery.Jobs.Nodeset2.xml", "Opc.Ua.MachineTool.NodeSet2.xml",
                          "Opc.Ua.Robotics.NodeSet2.xml"})
        machines << dir.filePath(QLatin1String(f));
    QTest::newRow("DI+Machinery+MachineTool+Robotics") << machines;
    QStringList all;
    for (const QString& f : dir.entryList({QStringLiteral("*.xml")}, QDir::Files))
        if (f != QLatin1String("Opc.Ua.NodeSet2.xml")) all << dir.filePath(f);
    QTest::newRow("every companion specification") << all;
}

void TestNodeNodeSet::nodeOpcuaReadsTheImportedModels() {
    QFETCH(QStringList, files);
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    ua::ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.nodeSetFiles = files;
    ua::Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server.startupNodeSets().models.size(), std::size_t(files.size()));
    QTemporaryDir dir;
    const QString valued = dir.filePath(QStringLiteral("valued.json"));
    QFile out(valued);
    QVERIFY(out.open(QIODevice::WriteOnly));
    const QJsonArray withValues = nodesWithValues(files);
    QVERIFY(withValues.size() > 100);
    out.write(QJsonDocument(withValues).toJson(QJsonDocument::Compact));
    out.close();
    const ua::test::NodeScriptResult node =
        ua::test::runNodeScript(QStringLiteral("client_nodeset.js"), QStringList{server.endpointUrl(), valued} + files, 240000);
    ua::test::verifyNodeChecks(node, 4);
}

UA_TEST_GUILESS_MAIN(TestNodeNodeSet)
#include "tst_node_nodeset.moc"
