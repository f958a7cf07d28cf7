// AddressSpaceModel against a running Server: the tree from the RootFolder fetched lazily, values
// read as a Read does and refreshed after our Client writes one, and nodes added to the address
// space while the server runs appearing under an expanded folder, and going again, without a reset.
#include "../client/ClientTestUtil.h"
#include "models/AddressSpaceModel.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::serverapp;

class TestAddressSpaceModel : public QObject {
    Q_OBJECT
private slots:
    void treeValuesAndChanges();
    void columnsAndAdministratorWrites();
};

static int addressRowNamed(const QAbstractItemModel& m, const QModelIndex& parent, const QString& name) {
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, AddressSpaceModel::DisplayName, parent).data().toString() == name) return r;
    return -1;
}

// A server on any free port of 127.0.0.1, one I/O thread, the demo namespace, benchmarkVariables.
static ServerConfig modelServerConfig(uint32_t benchmarkVariables) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = benchmarkVariables;
    return cfg;
}

void TestAddressSpaceModel::treeValuesAndChanges() {
    ServerConfig cfg = modelServerConfig(20);
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the client writes anonymously
    // No SessionDiagnostics objects: the client's would be published by the diagnostics timer at a
    // moment of its own, and the "unchanged version" check below then saw a row inserted (it
    // failed so under ASan with three tests at once).
    cfg.maxSessionDiagnosticsObjects = 0;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    AddressSpaceModel model(server.addressSpace());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), int(AddressSpaceModel::ColumnCount));
    const int objectsRow = addressRowNamed(model, {}, "Objects");
    QVERIFY(objectsRow >= 0);
    QVERIFY(addressRowNamed(model, {}, "Types") >= 0);
    QVERIFY(addressRowNamed(model, {}, "Views") >= 0);
    const QModelIndex objects = model.index(objectsRow, 0);
    QCOMPARE(model.nodeId(objects), NodeId(id::ObjectsFolder));
    QCOMPARE(model.index(objectsRow, AddressSpaceModel::NodeClass).data().toString(), QStringLiteral("Object"));
    QVERIFY(model.hasChildren(objects));
    if (model.canFetchMore(objects)) model.fetchMore(objects);
    QVERIFY(!model.canFetchMore(objects));
    QVERIFY(addressRowNamed(model, objects, "Server") >= 0);
    const int benchmarkRow = addressRowNamed(model, objects, "Benchmark");
    QVERIFY(benchmarkRow >= 0);
    const QModelIndex benchmark = model.index(benchmarkRow, 0, objects);
    if (model.canFetchMore(benchmark)) model.fetchMore(benchmark);
    QCOMPARE(model.rowCount(benchmark), 20);
    const QModelIndex first = model.index(0, AddressSpaceModel::Value, benchmark);
    QCOMPARE(model.index(0, AddressSpaceModel::NodeId, benchmark).data().toString(), QStringLiteral("ns=1;i=1000"));
    QCOMPARE(model.index(0, AddressSpaceModel::NodeClass, benchmark).data().toString(), QStringLiteral("Variable"));
    QCOMPARE(first.data().toString(), QStringLiteral("1000"));
    QVERIFY(!model.hasChildren(first.siblingAtColumn(0)));
    QCOMPARE(model.findFetched(NodeId(1, 1005u)).row(), 5);
    // The ServerStatus' CurrentTime is a live value (a ValueSource).
    const int serverRow = addressRowNamed(model, objects, "Server");
    const QModelIndex serverIndex = model.index(serverRow, 0, objects);
    if (model.canFetchMore(serverIndex)) model.fetchMore(serverIndex);
    const int statusRow = addressRowNamed(model, serverIndex, "ServerStatus");
    QVERIFY(statusRow >= 0);
    QVERIFY(!model.index(statusRow, AddressSpaceModel::Value, serverIndex).data().toString().isEmpty());

    // A real client writes the first variable; refreshValues sees it.
    Client client;
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), StatusCode());
    test::Awaited<ServiceResult<WriteResponse>> w;
    client.writeValue(NodeId(1, 1000u), Variant(int32_t(42)), this, w.callback());
    QVERIFY(w.wait());
    QVERIFY(w->isGood());
    QCOMPARE(w->response.results.size(), 1u);
    QVERIFY(w->response.results[0].isGood());
    QCOMPARE(model.index(1, AddressSpaceModel::Value, benchmark).data().toString(), QStringLiteral("1001"));  // shown
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.refreshValues({model.index(1, 0, benchmark), first, first.siblingAtColumn(0)});
    QCOMPARE(changed.count(), 1);  // only the one that changed
    QCOMPARE(changed.at(0).at(0).toModelIndex(), first);
    QCOMPARE(first.data().toString(), QStringLiteral("42"));
    // Again for every row shown: none of the benchmark rows changed (the ServerStatus structure,
    // shown field by field, has a live CurrentTime and may).
    model.refreshAllValues();
    int benchmarkChanges = 0;
    for (const QList<QVariant>& c : changed)
        if (c.at(0).toModelIndex().parent() == benchmark) ++benchmarkChanges;
    QCOMPARE(benchmarkChanges, 1);

    // A node added under Objects appears under the fetched folder: rowsInserted, no reset.
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.refreshStructure();  // unchanged version: nothing
    QCOMPARE(inserted.count(), 0);
    const int before = model.rowCount(objects);
    const std::shared_ptr<const AddressSpace> withoutExtra = server.addressSpace().snapshot();
    QVERIFY(server.updateAddressSpace([](AddressSpace& space) {
                      Node n;
                      n.nodeId = NodeId(1, "Extra");
                      n.nodeClass = NodeClass::Object;
                      n.browseName = QualifiedName{1, String("Extra")};
                      n.setDisplayName(LocalizedText{String(), String("Extra")});
                      const StatusCode s = space.addNode(std::move(n));
                      if (s.isBad()) return s;
                      return space.addReference(NodeId(id::ObjectsFolder), NodeId(id::Organizes), NodeId(1, "Extra"));
                  }).isGood());
    model.refreshStructure();
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(0).toModelIndex(), objects);
    QCOMPARE(model.rowCount(objects), before + 1);
    QCOMPARE(model.index(before, 0, objects).data().toString(), QStringLiteral("Extra"));
    QCOMPARE(model.index(before, 0, objects).data(AddressSpaceModel::NodeIdRole).toString(), QStringLiteral("ns=1;s=Extra"));
    QCOMPARE(model.rowCount(benchmark), 20);  // the expanded folder stays

    // And gone again (the address space as it was): rowsRemoved under Objects, the rest stays.
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(server.updateAddressSpace([&](AddressSpace& space) {
                      space = *withoutExtra;
                      return StatusCode();
                  }).isGood());
    model.refreshStructure();
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(1).toInt(), before);
    QCOMPARE(model.rowCount(objects), before);
    QCOMPARE(model.rowCount(benchmark), 20);
    QVERIFY(!model.findFetched(NodeId(1, "Extra")).isValid());
    QCOMPARE(model.findFetched(NodeId(1, 1005u)).row(), 5);
    QCOMPARE(reset.count(), 0);

    test::Awaited<ServiceResult<CloseSessionResponse>> closed;
    client.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

// The DataType and Status columns, a matrix with its dimensions, a DateTime with its zone, and the
// administrator's write of a Value (issue 27 item 10): parsed as the node's DataType and ValueRank,
// written, read back by our Client over the wire; refused with the reason when the text does not
// parse or the node is not writable, and then nothing changes.
void TestAddressSpaceModel::columnsAndAdministratorWrites() {
    Server server(modelServerConfig(5));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    AddressSpaceModel model(server.addressSpace());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.headerData(AddressSpaceModel::DataType, Qt::Horizontal).toString(), QStringLiteral("DataType"));
    QCOMPARE(model.headerData(AddressSpaceModel::Status, Qt::Horizontal).toString(), QStringLiteral("Status"));
    auto fetched = [&](const QModelIndex& parent, const QString& name) {
        if (model.canFetchMore(parent)) model.fetchMore(parent);
        const int row = addressRowNamed(model, parent, name);
        return row < 0 ? QModelIndex() : model.index(row, 0, parent);
    };
    const QModelIndex objects = fetched({}, QStringLiteral("Objects"));
    const QModelIndex demo = fetched(objects, QStringLiteral("Demo"));
    QVERIFY(demo.isValid());
    QCOMPARE(demo.data(AddressSpaceModel::NodeClassRole).toInt(), int(NodeClass::Object));
    QVERIFY(demo.siblingAtColumn(AddressSpaceModel::DataType).data().toString().isEmpty());  // an Object
    QVERIFY(!(model.flags(demo.siblingAtColumn(AddressSpaceModel::Value)) & Qt::ItemIsEditable));

    // A matrix: its dimensions and DataType with the ValueRank.
    const QModelIndex matrix = fetched(demo, QStringLiteral("Matrix"));
    QVERIFY(matrix.isValid());
    QCOMPARE(matrix.data(AddressSpaceModel::NodeClassRole).toInt(), int(NodeClass::Variable));
    QCOMPARE(matrix.siblingAtColumn(AddressSpaceModel::DataType).data().toString(), QStringLiteral("Int32[,]"));
    QCOMPARE(matrix.siblingAtColumn(AddressSpaceModel::Value).data().toString(), QStringLiteral("2 x 3 [[1, 2, 3], [4, 5, 6]]"));
    QCOMPARE(matrix.siblingAtColumn(AddressSpaceModel::Value).data(Qt::EditRole).toString(), QStringLiteral("[[1, 2, 3], [4, 5, 6]]"));
    QCOMPARE(matrix.siblingAtColumn(AddressSpaceModel::Status).data().toString(), QStringLiteral("Good"));

    // A DateTime shows its zone (UTC, "Z"), not a bare local time.
    const QModelIndex status = fetched(fetched(objects, QStringLiteral("Server")), QStringLiteral("ServerStatus"));
    const QModelIndex currentTime = fetched(status, QStringLiteral("CurrentTime"));
    QVERIFY(currentTime.isValid());
    QCOMPARE(currentTime.siblingAtColumn(AddressSpaceModel::DataType).data().toString(), QStringLiteral("UtcTime"));
    const QString time = currentTime.siblingAtColumn(AddressSpaceModel::Value).data().toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+Z$")).match(time).hasMatch(), qPrintable(time));
    QVERIFY(!(model.flags(currentTime.siblingAtColumn(AddressSpaceModel::Value)) & Qt::ItemIsEditable));  // not writable

    // The administrator writes the matrix; our Client reads it back over the wire.
    const QModelIndex matrixValue = matrix.siblingAtColumn(AddressSpaceModel::Value);
    QVERIFY(model.flags(matrixValue) & Qt::ItemIsEditable);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY2(model.setData(matrixValue, QStringLiteral("[[7, 8, 9], [10, 11, 12]]")), qPrintable(model.lastError()));
    QCOMPARE(model.lastError(), QString());
    QCOMPARE(matrixValue.data().toString(), QStringLiteral("2 x 3 [[7, 8, 9], [10, 11, 12]]"));
    QCOMPARE(changed.count(), 1);
    Client client;
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), StatusCode());
    const NodeId matrixId = model.nodeId(matrix);
    test::Awaited<ServiceResult<ReadResponse>> read;
    client.readValues({matrixId}, this, read.callback());
    QVERIFY(read.wait());
    QVERIFY(read->isGood());
    QCOMPARE(read->response.results[0].value, [] {
        Variant m(Array<int32_t>{7, 8, 9, 10, 11, 12});
        m.setArrayDimensions(Array<int32_t>{2, 3});
        return m;
    }());

    // Text that does not parse as Int32: refused with the reason, nothing written.
    QVERIFY(!model.setData(matrixValue, QStringLiteral("[[1, 2, 3], [4, 5, x]]")));
    QVERIFY2(!model.lastError().isEmpty(), "no reason given");
    QVERIFY(!model.setData(matrixValue, QStringLiteral("[[1, 2], [3]]")));  // ragged
    QVERIFY(model.lastError().contains(QStringLiteral("same length")));
    QCOMPARE(matrixValue.data().toString(), QStringLiteral("2 x 3 [[7, 8, 9], [10, 11, 12]]"));
    // A node that is not writable: the Write's status.
    QVERIFY(!model.setData(currentTime.siblingAtColumn(AddressSpaceModel::Value), QStringLiteral("now")));
    QVERIFY2(model.lastError().contains(QStringLiteral("Bad_NotWritable")), qPrintable(model.lastError()));
    // A scalar Double of the demo namespace: a number out of the text, NaN accepted as a Double.
    const QModelIndex dbl = fetched(fetched(demo, QStringLiteral("Scalars")), QStringLiteral("Double"));
    QVERIFY(dbl.isValid());
    QCOMPARE(dbl.siblingAtColumn(AddressSpaceModel::DataType).data().toString(), QStringLiteral("Double"));
    QVERIFY(model.setData(dbl.siblingAtColumn(AddressSpaceModel::Value), QStringLiteral("-2.5e3")));
    QCOMPARE(dbl.siblingAtColumn(AddressSpaceModel::Value).data().toString(), QStringLiteral("-2500"));
    QVERIFY(!model.setData(dbl.siblingAtColumn(AddressSpaceModel::Value), QStringLiteral("twelve")));
    QCOMPARE(dbl.siblingAtColumn(AddressSpaceModel::Value).data().toString(), QStringLiteral("-2500"));

    test::Awaited<ServiceResult<CloseSessionResponse>> closed;
    client.closeSession(this, closed.callback());
    QVERIFY(closed.wait());
}

UA_TEST_GUILESS_MAIN(TestAddressSpaceModel)
#include "tst_address_space_model.moc"
