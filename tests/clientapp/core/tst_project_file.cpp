// The project file (client-app/core/ProjectFile.h): every field saved and read back, the errors for
// a file that is not a project, a newer version and broken JSON, and NodeIds stored with namespace
// URIs (nsu=): saved against one server and restored against another whose namespace indexes differ
// (both our Server in process; the second has an extra namespace in front, and a decoy node at the
// old index).
#include "../../client/ClientTestUtil.h"

#include "core/ProjectFile.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;
using namespace ua::test;

namespace {

constexpr const char* kPlantUri = "urn:test:plant";

// Adds the namespaces (in this order) and a Double variable <ns>;s=Temp in each, under Objects,
// with the value given per namespace; then publishes the new NamespaceArray.
StatusCode addNamespaces(Server& server, const std::vector<std::pair<std::string, double>>& namespaces) {
    return server.updateAddressSpace([&](AddressSpace& space) {
        for (const auto& [uri, value] : namespaces) {
            const uint16_t ns = space.addNamespace(uri);
            Node n;
            n.nodeId = NodeId(ns, "Temp");
            n.nodeClass = NodeClass::Variable;
            n.browseName = QualifiedName{ns, String("Temp")};
            n.setDisplayName(LocalizedText{String(), String("Temp")});
            n.attrs.edit().dataType = NodeId(id::Double);
            n.attrs.edit().valueRank = -1;
            NodeIndex added = 0;
            StatusCode s = space.addNode(std::move(n), &added);
            if (s.isBad()) return s;
            space.nodeMutable(added).value->store(DataValue(Variant(value)));
            s = space.addReference(NodeId(id::ObjectsFolder), NodeId(id::Organizes), NodeId(ns, "Temp"));
            if (s.isBad()) return s;
        }
        Array<String> uris;
        for (const String& u : space.namespaces()) uris.push_back(u);
        Node* array = space.findMutable(NodeId(id::Server_NamespaceArray));
        if (!array || !array->value) return StatusCode(status::BadInternalError);
        array->value->store(DataValue(Variant(uris)));
        return StatusCode();
    });
}

ServerConfig serverConfig(const char* applicationUri) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("localhost");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 0;
    cfg.applicationUri = QString::fromLatin1(applicationUri);
    return cfg;
}

} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private slots:
    void roundTripsEveryField();
    void errors();
    void nodeIdsSurviveOtherNamespaceIndexes();

private:
    double readDouble(Client& client, const NodeId& id);
    QTemporaryDir m_dir;
};

void TestProjectFile::roundTripsEveryField() {
    Project p;
    p.server.endpointUrl = QStringLiteral("opc.tcp://plc:4840");
    p.server.displayName = QStringLiteral("Line 1");
    p.server.securityPolicyUri = QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256");
    p.server.securityMode = MessageSecurityMode::Sign;
    p.server.identityKind = UserIdentity::Kind::UserName;
    p.server.userName = QStringLiteral("alice");
    p.server.password = QStringLiteral("never-stored");
    p.subscription.publishingIntervalMs = 250;
    p.subscription.lifetimeCount = 300;
    p.subscription.maxKeepAliveCount = 20;
    p.subscription.maxNotificationsPerPublish = 1000;
    p.subscription.publishingEnabled = false;
    p.subscription.priority = 7;
    p.monitoredItems.push_back({QStringLiteral("nsu=urn:x;s=Temp"), QStringLiteral("Temp"), 100, 10, 1, 0.5, true});
    p.monitoredItems.push_back({QStringLiteral("i=2258"), QStringLiteral("CurrentTime"), -1, 1, 0, 0, false});
    p.eventNotifier = QStringLiteral("nsu=urn:x;i=5");
    p.eventFields = {QStringLiteral("Time"), QStringLiteral("SourceName"), QStringLiteral("Message")};
    p.windowGeometry = QByteArray("\x01\x02\x00\xff geometry", 13);
    p.windowState = QByteArray(300, '\x7f');
    p.trendWindowSeconds = 300;
    const QString path = m_dir.filePath(QStringLiteral("all.uaproj"));
    QString error;
    QVERIFY2(saveProject(p, path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("\"format\": \"ua-workbench-client-project\""));
    QVERIFY(!text.contains("never-stored"));

    const auto q = loadProject(path, &error);
    QVERIFY2(q.has_value(), qPrintable(error));
    QVERIFY(q->server.sameTarget(p.server));
    QCOMPARE(q->server.displayName, p.server.displayName);
    QVERIFY(q->server.password.isEmpty());
    QCOMPARE(q->subscription.publishingIntervalMs, 250.0);
    QCOMPARE(q->subscription.lifetimeCount, 300u);
    QCOMPARE(q->subscription.maxKeepAliveCount, 20u);
    QCOMPARE(q->subscription.maxNotificationsPerPublish, 1000u);
    QCOMPARE(q->subscription.publishingEnabled, false);
    QCOMPARE(int(q->subscription.priority), 7);
    QCOMPARE(q->monitoredItems.size(), std::size_t(2));
    const ProjectItem& a = q->monitoredItems[0];
    QCOMPARE(a.nodeId, QStringLiteral("nsu=urn:x;s=Temp"));
    QCOMPARE(a.displayName, QStringLiteral("Temp"));
    QCOMPARE(a.samplingIntervalMs, 100.0);
    QCOMPARE(a.queueSize, 10u);
    QCOMPARE(a.deadbandType, 1u);
    QCOMPARE(a.deadbandValue, 0.5);
    QCOMPARE(a.trend, true);
    QCOMPARE(q->monitoredItems[1].samplingIntervalMs, -1.0);
    QCOMPARE(q->monitoredItems[1].trend, false);
    QCOMPARE(q->eventNotifier, p.eventNotifier);
    QCOMPARE(q->eventFields, p.eventFields);
    QCOMPARE(q->windowGeometry, p.windowGeometry);
    QCOMPARE(q->windowState, p.windowState);
    QCOMPARE(q->trendWindowSeconds, 300);

    QVERIFY(!saveProject(p, m_dir.filePath(QStringLiteral("no/such/dir/x.uaproj")), &error));
    QVERIFY2(error.startsWith(QStringLiteral("cannot write")), qPrintable(error));
}

void TestProjectFile::errors() {
    auto write = [this](const QString& name, const QByteArray& content) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(content);
        return path;
    };
    QString error;
    QVERIFY(!loadProject(write("other.json", R"({"format": "something-else", "version": 1})"), &error));
    QVERIFY2(error.endsWith(QStringLiteral("is not a project file")), qPrintable(error));
    QVERIFY(!loadProject(write("array.json", "[1, 2]"), &error));
    QVERIFY2(error.endsWith(QStringLiteral("is not a project file")), qPrintable(error));
    QVERIFY(!loadProject(write("newer.json", R"({"format": "ua-workbench-client-project", "version": 2})"), &error));
    QVERIFY2(error.endsWith(QStringLiteral("version 2 is newer than this program")), qPrintable(error));
    QVERIFY(!loadProject(write("broken.json", R"({"format": "ua-workbench-client-project", "version": 1,)"), &error));
    QVERIFY2(error.contains(QStringLiteral("JSON error at offset")), qPrintable(error));
    QVERIFY(!loadProject(m_dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY2(error.startsWith(QStringLiteral("cannot read")), qPrintable(error));
    // The smallest valid project: defaults for the rest.
    const auto minimal = loadProject(write("minimal.json", R"({"format": "ua-workbench-client-project", "version": 1})"), &error);
    QVERIFY2(minimal.has_value(), qPrintable(error));
    QCOMPARE(minimal->eventNotifier, QStringLiteral("i=2253"));
    QCOMPARE(minimal->subscription.publishingIntervalMs, 500.0);
    QCOMPARE(minimal->trendWindowSeconds, 60);
}

double TestProjectFile::readDouble(Client& client, const NodeId& id) {
    Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({id}, this, r.callback());
    if (!r.wait() || r->status.isBad() || r->response.results.size() != 1) return -1000;
    const double* v = r->response.results[0].value.get<double>();
    return v ? *v : -2000;
}

void TestProjectFile::nodeIdsSurviveOtherNamespaceIndexes() {
    // Server A: [0 UA, 1 urn:test:a, 2 urn:test:plant]. Server B: [0 UA, 1 urn:test:b, 2 urn:test:filler,
    // 3 urn:test:plant]; B's ns=2;s=Temp (the filler's) is a decoy with another value.
    Server a(serverConfig("urn:test:a"));
    QVERIFY(a.start());
    QCOMPARE(addNamespaces(a, {{kPlantUri, 1.5}}), StatusCode());
    Server b(serverConfig("urn:test:b"));
    QVERIFY(b.start());
    QCOMPARE(addNamespaces(b, {{"urn:test:filler", -7.0}, {kPlantUri, 2.5}}), StatusCode());

    Client clientA;
    QCOMPARE(connectSession(clientA, a.endpointUrl(), this), status::Good);
    const NodeIdConverter convA = clientA.nodeIdConverter();
    QCOMPARE(convA.indexOf(kPlantUri), 2);
    const NodeId tempA(2, "Temp");
    QCOMPARE(readDouble(clientA, tempA), 1.5);

    Project p;
    p.server.endpointUrl = a.endpointUrl();
    const auto stored = convA.toPersistentString(tempA);
    QVERIFY(stored.has_value());
    QCOMPARE(QString::fromStdString(*stored), QStringLiteral("nsu=urn:test:plant;s=Temp"));
    p.monitoredItems.push_back({QString::fromStdString(*stored), QStringLiteral("Temp"), 100, 1, 0, 0, true});
    p.monitoredItems.push_back({QString::fromStdString(*convA.toPersistentString(NodeId(id::Server_ServerStatus_State))),
                                QStringLiteral("State"), -1, 1, 0, 0, false});
    p.eventNotifier = QString::fromStdString(*convA.toPersistentString(NodeId(id::Server)));
    const QString path = m_dir.filePath(QStringLiteral("plant.uaproj"));
    QString error;
    QVERIFY2(saveProject(p, path, &error), qPrintable(error));

    const auto loaded = loadProject(path, &error);
    QVERIFY2(loaded.has_value(), qPrintable(error));
    Client clientB;
    QCOMPARE(connectSession(clientB, b.endpointUrl(), this), status::Good);
    const NodeIdConverter convB = clientB.nodeIdConverter();
    QCOMPARE(convB.indexOf(kPlantUri), 3);
    const auto tempB = convB.fromPersistentString(loaded->monitoredItems[0].nodeId.toStdString());
    QVERIFY(tempB.has_value());
    QCOMPARE(*tempB, NodeId(3, "Temp"));
    QCOMPARE(readDouble(clientB, *tempB), 2.5);
    QCOMPARE(readDouble(clientB, tempA), -7.0);  // what the index alone would have restored
    QCOMPARE(loaded->monitoredItems[1].nodeId, QStringLiteral("i=2259"));
    QCOMPARE(*convB.fromPersistentString(loaded->monitoredItems[1].nodeId.toStdString()), NodeId(id::Server_ServerStatus_State));
    QCOMPARE(*convB.fromPersistentString(loaded->eventNotifier.toStdString()), NodeId(id::Server));
}

UA_TEST_GUILESS_MAIN(TestProjectFile)
#include "tst_project_file.moc"
