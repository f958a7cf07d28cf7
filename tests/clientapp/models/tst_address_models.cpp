// AddressTreeModel and ReferencesModel against our server in process, under
// QAbstractItemModelTester: the lazy tree from the RootFolder (Objects -> Server, Demo), drag data
// with nsu= NodeIds, go to a browse path and to a NodeId (inverse Browses up to the root), the
// failures (Bad_NoMatch, Bad_BrowseNameInvalid), a refresh that keeps the rows, a cancelled fetch
// that can be fetched again, and the forward and inverse references of the Server object.
#include "ModelsTestUtil.h"
#include "models/AddressTreeModel.h"
#include "models/NodeIdMime.h"
#include "models/ReferencesModel.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <algorithm>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestAddressModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void treeFetchesLazily();
    void dragGivesPersistentNodeIds();
    void goToPathAndNodeId();
    void refreshKeepsRowsAndCancelAllowsAgain();
    void leavesShowNoExpandArrow();
    void referencesOfTheServerObject();

private:
    // Fetches parent's children (if needed) and returns the row named name, or -1.
    int fetchedRow(AddressTreeModel& m, const QModelIndex& parent, const QString& name);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestAddressModels::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    m_server = test::startDemoServer();
    QVERIFY(m_server);
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
}

void TestAddressModels::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

int TestAddressModels::fetchedRow(AddressTreeModel& m, const QModelIndex& parent, const QString& name) {
    // (QAbstractItemModelTester may have started the fetch already.)
    if (m.canFetchMore(parent)) m.fetchMore(parent);
    if (m.isFetching(parent)) {
        if (!QTest::qWaitFor([&] { return !m.isFetching(parent); }, 10000)) return -2;
    }
    const QVariant status = parent.data(AddressTreeModel::FetchStatusRole);
    if (status.isValid() && StatusCode(status.toUInt()).isBad()) return -3;
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == name) return r;
    return -1;
}

void TestAddressModels::treeFetchesLazily() {
    // The model exists before the connection: nothing to fetch until Connected, then a reset.
    Connection c(m_dir.filePath(QStringLiteral("pki")));
    AddressTreeModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(model.rowCount(), 0);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    QVERIFY(reset.count() >= 1);
    // Fetchable now (the tester may have started the fetch, or even seen it done).
    QVERIFY(model.canFetchMore({}) || model.isFetching({}) || model.rowCount() > 0);

    const int objectsRow = fetchedRow(model, {}, QStringLiteral("Objects"));
    QVERIFY(objectsRow >= 0);
    QVERIFY(fetchedRow(model, {}, QStringLiteral("Types")) >= 0);
    QVERIFY(fetchedRow(model, {}, QStringLiteral("Views")) >= 0);
    QVERIFY(!model.canFetchMore({}));
    const QModelIndex objects = model.index(objectsRow, 0);
    QCOMPARE(model.nodeIdAt(objects), NodeId(id::ObjectsFolder));
    QCOMPARE(objects.data(AddressTreeModel::NodeClassRole).toInt(), int(NodeClass::Object));
    QCOMPARE(objects.data(AddressTreeModel::NodeIdRole).toString(), QStringLiteral("i=85"));
    QCOMPARE(objects.data(AddressTreeModel::TypeDefinitionRole).toString(), QStringLiteral("i=61"));  // FolderType
    QVERIFY(!objects.data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(model.hasChildren(objects));

    const int serverRow = fetchedRow(model, objects, QStringLiteral("Server"));
    QVERIFY(serverRow >= 0);
    const int demoRow = fetchedRow(model, objects, QStringLiteral("Demo"));
    QVERIFY(demoRow >= 0);
    const QModelIndex demo = model.index(demoRow, 0, objects);
    QCOMPARE(model.nodeIdAt(demo), test::demoNode(c, "Demo"));
    QCOMPARE(model.parent(demo), objects);
    const int scalarsRow = fetchedRow(model, demo, QStringLiteral("Scalars"));
    QVERIFY(scalarsRow >= 0);
    const QModelIndex scalars = model.index(scalarsRow, 0, demo);
    const int int32Row = fetchedRow(model, scalars, QStringLiteral("Int32"));
    QVERIFY(int32Row >= 0);
    const QModelIndex int32 = model.index(int32Row, 0, scalars);
    QCOMPARE(model.nodeClassAt(int32), NodeClass::Variable);
    QVERIFY(int32.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Demo.Scalars.Int32")));
    // A Variable without children: fetched, then no children.
    QCOMPARE(fetchedRow(model, int32, QStringLiteral("x")), -1);
    QVERIFY(!model.hasChildren(int32));
    QCOMPARE(model.findFetched(test::demoNode(c, "Demo.Scalars.Int32")), int32);
    // Every fetch was logged as a Browse.
    QVERIFY(test::logCount(c, QStringLiteral("Browse")) >= 5);
    QCOMPARE(c.log()->records().back().status, StatusCode());
}

void TestAddressModels::dragGivesPersistentNodeIds() {
    Connection& c = *m_connection;
    if (c.state() != ClientState::Connected) QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    AddressTreeModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex objects = model.index(fetchedRow(model, {}, QStringLiteral("Objects")), 0);
    const QModelIndex demo = model.index(fetchedRow(model, objects, QStringLiteral("Demo")), 0, objects);
    const QModelIndex server = model.index(fetchedRow(model, objects, QStringLiteral("Server")), 0, objects);
    QVERIFY(model.flags(demo) & Qt::ItemIsDragEnabled);
    QVERIFY(model.mimeTypes().contains(QString::fromLatin1(kNodeIdMimeType)));
    std::unique_ptr<QMimeData> data(model.mimeData({demo, server, demo}));
    QVERIFY(data);
    const QString lines = QString::fromUtf8(data->data(QString::fromLatin1(kNodeIdMimeType)));
    QCOMPARE(lines, QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo\ni=2253"));
    QCOMPARE(data->text(), lines);
    QCOMPARE(demo.data(AddressTreeModel::PersistentNodeIdRole).toString(), QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo"));
    const std::vector<NodeId> back = nodeIdsFromMimeData(data.get(), c.client()->nodeIdConverter());
    QCOMPARE(back.size(), std::size_t(2));
    QCOMPARE(back[0], test::demoNode(c, "Demo"));
    QCOMPARE(back[1], NodeId(id::Server));
    // Text only (another program): parsed line by line, unknown lines skipped.
    QMimeData text;
    text.setText(QStringLiteral("i=2255\nnot a node\nnsu=urn:unknown;i=1\nns=0;i=2256"));
    const std::vector<NodeId> fromText = nodeIdsFromMimeData(&text, c.client()->nodeIdConverter());
    QCOMPARE(fromText.size(), std::size_t(2));
    QCOMPARE(fromText[1], NodeId(id::Server_ServerStatus));
}

void TestAddressModels::goToPathAndNodeId() {
    Connection& c = *m_connection;
    if (c.state() != ClientState::Connected) QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    // No QAbstractItemModelTester here: it fetches every level it sees (the whole namespace 0, some
    // thousand Browses), which treeFetchesLazily covers; here the goTo's own fetches are measured.
    AddressTreeModel model(&c);
    const int ns = c.client()->nodeIdConverter().indexOf(DemoNodeManager::kUri);
    QVERIFY(ns > 0);

    // A browse path from the RootFolder: every level fetched on the way.
    QSignalSpy done(&model, &AddressTreeModel::goToFinished);
    QModelIndex viaCallback;
    model.goTo(QStringLiteral("/Objects/%1:Demo/%1:Scalars/%1:Double").arg(ns),
               [&](const QModelIndex& i, StatusCode s) { if (s.isGood()) viaCallback = i; });
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode());
    const QModelIndex dbl = done.at(0).at(0).value<QModelIndex>();
    QVERIFY(dbl.isValid());
    QCOMPARE(viaCallback, dbl);
    QCOMPARE(model.nodeIdAt(dbl), test::demoNode(c, "Demo.Scalars.Double"));
    QCOMPARE(dbl.parent().data().toString(), QStringLiteral("Scalars"));
    QCOMPARE(dbl.parent().parent().parent().data().toString(), QStringLiteral("Objects"));

    // A NodeId: the path to it found by inverse Browses (ServerStatus <- Server <- Objects <- Root).
    done.clear();
    model.goTo(QStringLiteral("i=2256"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode());
    const QModelIndex status = done.at(0).at(0).value<QModelIndex>();
    QCOMPARE(model.nodeIdAt(status), NodeId(id::Server_ServerStatus));
    QCOMPARE(model.nodeIdAt(status.parent()), NodeId(id::Server));
    QCOMPARE(model.nodeIdAt(status.parent().parent()), NodeId(id::ObjectsFolder));
    // The persistent form works too.
    done.clear();
    model.goTo(QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Methods.Scale"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode());
    QCOMPARE(model.nodeIdAt(done.at(0).at(0).value<QModelIndex>()), test::demoNode(c, "Demo.Methods.Scale"));

    // Failures: a path that leads nowhere, a node that does not exist, a text that is neither.
    done.clear();
    model.goTo(QStringLiteral("/Objects/%1:Demo/%1:NoSuchThing").arg(ns));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode(status::BadNoMatch));
    QVERIFY(!done.at(0).at(0).value<QModelIndex>().isValid());
    done.clear();
    model.goTo(QStringLiteral("ns=%1;s=Demo.NoSuchNode").arg(ns));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode(status::BadNodeIdUnknown));
    done.clear();
    model.goTo(QStringLiteral("<NoSuchReference>x"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(1).value<StatusCode>(), StatusCode(status::BadBrowseNameInvalid));
}

void TestAddressModels::refreshKeepsRowsAndCancelAllowsAgain() {
    Connection& c = *m_connection;
    if (c.state() != ClientState::Connected) QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    AddressTreeModel model(&c);  // (no tester: see goToPathAndNodeId)
    const QModelIndex objects = model.index(fetchedRow(model, {}, QStringLiteral("Objects")), 0);
    const int demoRow = fetchedRow(model, objects, QStringLiteral("Demo"));
    QVERIFY(demoRow >= 0);
    const QPersistentModelIndex demo = model.index(demoRow, 0, objects);
    const int rows = model.rowCount(objects);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy fetched(&model, &AddressTreeModel::fetchFinished);
    model.refresh(objects);
    QVERIFY(fetched.wait(10000));
    QCOMPARE(model.rowCount(objects), rows);
    QCOMPARE(inserted.count() + removed.count() + reset.count(), 0);
    QVERIFY(demo.isValid());
    QCOMPARE(demo.data().toString(), QStringLiteral("Demo"));

    // A fetch cancelled by the user (the window's Cancel): reported, and possible again.
    const QModelIndex d = demo;
    QTRY_VERIFY(!model.isFetching(d));
    if (!model.canFetchMore(d)) {
        model.refresh(d);               // then fetch again and cancel that
        QVERIFY(model.isFetching(d));
        c.cancelOperations();
        QTRY_VERIFY(!model.isFetching(d));
        QVERIFY(model.canFetchMore(d));
    }
    fetched.clear();
    model.fetchMore(d);
    QVERIFY(!model.canFetchMore(d));
    c.cancelOperations();
    QTRY_COMPARE(fetched.count(), 1);
    QCOMPARE(fetched.at(0).at(1).value<StatusCode>(), StatusCode(status::BadRequestCancelledByClient));
    QVERIFY(model.canFetchMore(d));
    QVERIFY(fetchedRow(model, d, QStringLiteral("Simulation")) >= 0);
}

// Issue 27 item 6: a leaf Variable shows no expand arrow before it is clicked. When a level arrives,
// one Browse asks whether each new row has children; a row without is fetched with none
// (hasChildren() false, nothing to fetch), a Variable with children (ServerStatus) keeps its arrow.
// No tester here: QAbstractItemModelTester fetches every row it visits, which would hide the probe.
void TestAddressModels::leavesShowNoExpandArrow() {
    Connection& c = *m_connection;
    if (c.state() != ClientState::Connected) QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    AddressTreeModel model(&c);
    const QModelIndex objects = model.index(fetchedRow(model, {}, QStringLiteral("Objects")), 0);
    const QModelIndex demo = model.index(fetchedRow(model, objects, QStringLiteral("Demo")), 0, objects);
    const int scalarsRow = fetchedRow(model, demo, QStringLiteral("Scalars"));
    QVERIFY(scalarsRow >= 0);
    const QModelIndex scalars = model.index(scalarsRow, 0, demo);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const int int32Row = fetchedRow(model, scalars, QStringLiteral("Int32"));
    QVERIFY(int32Row >= 0);
    const QModelIndex int32 = model.index(int32Row, 0, scalars);
    QTRY_VERIFY(!model.hasChildren(int32));
    QVERIFY(!model.canFetchMore(int32));
    QVERIFY(!model.isFetching(int32));
    QCOMPARE(StatusCode(int32.data(AddressTreeModel::FetchStatusRole).toUInt()), StatusCode());
    QVERIFY(std::any_of(changed.begin(), changed.end(), [&](const QList<QVariant>& args) {
        return args.at(0).toModelIndex() == int32;  // the view hears it
    }));
    // Every Scalar is a leaf; not one was browsed on its own (one Browse asked for all of them).
    for (int r = 0; r < model.rowCount(scalars); ++r) QTRY_VERIFY(!model.hasChildren(model.index(r, 0, scalars)));
    const QString int32Id = QString::fromStdString(model.nodeIdAt(int32).toString());
    for (const ServiceLogRecord& rec : c.log()->records())
        QVERIFY2(!(rec.service == QLatin1String("Browse") && rec.detail == int32Id), "the leaf was browsed by itself");

    // A Variable with children keeps its arrow: Server's ServerStatus (CurrentTime, State, ...).
    const QModelIndex server = model.index(fetchedRow(model, objects, QStringLiteral("Server")), 0, objects);
    const int statusRow = fetchedRow(model, server, QStringLiteral("ServerStatus"));
    QVERIFY(statusRow >= 0);
    const QModelIndex serverStatus = model.index(statusRow, 0, server);
    QCOMPARE(model.nodeClassAt(serverStatus), NodeClass::Variable);
    QTest::qWait(300);  // the probe's answer is in
    QVERIFY(model.hasChildren(serverStatus));
    QVERIFY(model.canFetchMore(serverStatus));
    QVERIFY(fetchedRow(model, serverStatus, QStringLiteral("State")) >= 0);
}

void TestAddressModels::referencesOfTheServerObject() {
    Connection& c = *m_connection;
    if (c.state() != ClientState::Connected) QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    ReferencesModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &ReferencesModel::loaded);
    model.setNode(NodeId(id::Server));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.at(0).at(0).value<StatusCode>(), StatusCode());
    QVERIFY(model.rowCount() > 10);
    int forward = -1, inverse = -1, typeDef = -1;
    bool seenInverse = false, orderOk = true;
    for (int r = 0; r < model.rowCount(); ++r) {
        const bool isForward = model.index(r, 0).data(ReferencesModel::IsForwardRole).toBool();
        if (!isForward) seenInverse = true;
        else if (seenInverse) orderOk = false;
        const QString target = model.index(r, ReferencesModel::TargetNameColumn).data().toString();
        const QString type = model.index(r, ReferencesModel::ReferenceTypeColumn).data().toString();
        if (isForward && target == QLatin1String("ServerStatus")) forward = r;
        if (!isForward && target == QLatin1String("Objects")) inverse = r;
        if (isForward && type == QLatin1String("HasTypeDefinition")) typeDef = r;
    }
    QVERIFY(orderOk);  // forward references first
    QVERIFY(forward >= 0);
    QVERIFY(inverse >= 0);
    QVERIFY(typeDef >= 0);
    QCOMPARE(model.index(forward, ReferencesModel::DirectionColumn).data().toString(), QStringLiteral("Forward"));
    QCOMPARE(model.index(forward, ReferencesModel::ReferenceTypeColumn).data().toString(), QStringLiteral("HasComponent"));
    QCOMPARE(model.index(forward, ReferencesModel::TargetNodeIdColumn).data().toString(), QStringLiteral("i=2256"));
    QCOMPARE(model.index(forward, ReferencesModel::NodeClassColumn).data().toString(), QStringLiteral("Variable"));
    QCOMPARE(model.index(forward, ReferencesModel::TypeDefinitionColumn).data().toString(), QStringLiteral("ServerStatusType"));
    QCOMPARE(model.targetNodeIdAt(forward), NodeId(id::Server_ServerStatus));
    QCOMPARE(model.index(inverse, ReferencesModel::DirectionColumn).data().toString(), QStringLiteral("Inverse"));
    QCOMPARE(model.index(inverse, ReferencesModel::ReferenceTypeColumn).data().toString(), QStringLiteral("Organizes"));
    QCOMPARE(model.index(typeDef, ReferencesModel::TargetNameColumn).data().toString(), QStringLiteral("ServerType"));

    // A node that does not exist: its Browse status.
    loaded.clear();
    model.setNode(NodeId(0, 999999u));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.at(0).at(0).value<StatusCode>(), StatusCode(status::BadNodeIdUnknown));
    QCOMPARE(model.rowCount(), 0);
}

UA_TEST_MAIN(TestAddressModels)
#include "tst_address_models.moc"
