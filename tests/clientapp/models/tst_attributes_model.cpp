// AttributesModel against our server in process, under QAbstractItemModelTester: the attributes a
// Variable has (and not those it does not: Bad_AttributeIdInvalid rows hidden), names for
// enumerations and masks, the DataType's name, an Int32 written in place and read back, a text that
// does not parse refused with Bad_TypeMismatch before anything is sent, an array element written in
// place, a structure (ServerStatusDataType) expanded field by field, a matrix by dimensions.
#include "ModelsTestUtil.h"
#include "models/AttributesModel.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestAttributesModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void attributesOfAVariable();
    void writeInPlaceAndReadBack();
    void badTextIsNotWritten();
    void arrayElementInPlace();
    void structureAndMatrixExpanded();

private:
    // The top-level row of an attribute, or -1.
    static int rowOf(const AttributesModel& m, AttributeId id);
    // setNode and wait for loaded.
    bool load(AttributesModel& m, const NodeId& node);
    // The node's value as our Client reads it.
    Variant readBack(const NodeId& node);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestAttributesModel::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    m_server = test::startDemoServer();
    QVERIFY(m_server);
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(*m_connection, m_server->endpointUrl()), StatusCode());
}

void TestAttributesModel::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

int TestAttributesModel::rowOf(const AttributesModel& m, AttributeId id) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, 0).data(AttributesModel::AttributeIdRole).toUInt() == uint(id)) return r;
    return -1;
}

bool TestAttributesModel::load(AttributesModel& m, const NodeId& node) {
    QSignalSpy loaded(&m, &AttributesModel::loaded);
    m.setNode(node);
    return loaded.wait(10000) && loaded.at(0).at(0).value<StatusCode>().isGood();
}

Variant TestAttributesModel::readBack(const NodeId& node) {
    test::Awaited<ServiceResult<ReadResponse>> r;
    m_connection->client()->readValues({node}, this, r.callback());
    if (!r.wait() || !r->isGood() || r->response.results.empty()) return {};
    return r->response.results[0].value;
}

void TestAttributesModel::attributesOfAVariable() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId node = test::demoNode(*m_connection, "Demo.Scalars.Int32");
    QVERIFY(load(model, node));
    // A Variable has NodeId .. UserWriteMask, Value .. Historizing, AccessLevelEx (and perhaps
    // RolePermissions...); never IsAbstract, Symmetric, InverseName, ContainsNoLoops, Executable.
    for (AttributeId id : {AttributeId::NodeId, AttributeId::NodeClass, AttributeId::BrowseName, AttributeId::DisplayName,
                           AttributeId::Value, AttributeId::DataType, AttributeId::ValueRank, AttributeId::AccessLevel,
                           AttributeId::UserAccessLevel})
        QVERIFY2(rowOf(model, id) >= 0, qPrintable(QString::number(uint(id))));
    for (AttributeId id : {AttributeId::IsAbstract, AttributeId::Symmetric, AttributeId::InverseName,
                           AttributeId::ContainsNoLoops, AttributeId::Executable, AttributeId::EventNotifier})
        QCOMPARE(rowOf(model, id), -1);
    auto text = [&](AttributeId id, int column = AttributesModel::ValueColumn) {
        return model.index(rowOf(model, id), column).data().toString();
    };
    QCOMPARE(text(AttributeId::NodeId), QString::fromStdString(node.toString()));
    QCOMPARE(text(AttributeId::NodeId, AttributesModel::AttributeColumn), QStringLiteral("NodeId"));
    QCOMPARE(text(AttributeId::NodeClass), QStringLiteral("Variable (2)"));
    QCOMPARE(text(AttributeId::DisplayName), QStringLiteral("Int32"));
    QCOMPARE(text(AttributeId::DataType), QStringLiteral("Int32 (i=6)"));
    QCOMPARE(text(AttributeId::ValueRank), QStringLiteral("-1 (Scalar)"));
    QVERIFY(text(AttributeId::AccessLevel).startsWith(QStringLiteral("CurrentRead | CurrentWrite")));
    QCOMPARE(text(AttributeId::Value, AttributesModel::DataTypeColumn), QStringLiteral("Int32"));
    QCOMPARE(text(AttributeId::Value, AttributesModel::StatusColumn), QStringLiteral("Good"));
    const QModelIndex value = model.valueIndex();
    QCOMPARE(value.row(), rowOf(model, AttributeId::Value));
    QVERIFY(value.siblingAtColumn(AttributesModel::ValueColumn).data(AttributesModel::EditableRole).toBool());
    QVERIFY(!model.index(rowOf(model, AttributeId::NodeId), AttributesModel::ValueColumn).data(AttributesModel::EditableRole).toBool());
    QVERIFY(value.data(AttributesModel::SourceTimestampRole).toDateTime().isValid() ||
            value.data(AttributesModel::ServerTimestampRole).toDateTime().isValid());
    QCOMPARE(model.dataType(), NodeId(id::Int32));
    QCOMPARE(model.valueRank(), -1);
    QCOMPARE(model.rowCount(value), 0);  // a scalar: no children
    // The Read was logged.
    QVERIFY(test::logCount(*m_connection, QStringLiteral("Read")) >= 1);

    // An Object: EventNotifier by name; no Value.
    QVERIFY(load(model, NodeId(id::Server)));
    QCOMPARE(rowOf(model, AttributeId::Value), -1);
    QVERIFY(!model.valueIndex().isValid());
    QVERIFY(text(AttributeId::EventNotifier).startsWith(QStringLiteral("SubscribeToEvents")));
    // refresh() keeps the rows (no reset) when the attributes are the same.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy loaded(&model, &AttributesModel::loaded);
    model.refresh();
    QVERIFY(loaded.wait(10000));
    QCOMPARE(reset.count(), 0);
}

void TestAttributesModel::writeInPlaceAndReadBack() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId node = test::demoNode(*m_connection, "Demo.Scalars.Int32");
    QVERIFY(load(model, node));
    const QModelIndex cell = model.valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(model.flags(cell) & Qt::ItemIsEditable);
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    const int writesBefore = test::logCount(*m_connection, QStringLiteral("Write"));
    QVERIFY(model.setData(cell, QStringLiteral("-123456")));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("Write")), writesBefore + 1);
    // The value is read again after a Good write, and the result stays in the Status column.
    QTRY_COMPARE(cell.data().toString(), QStringLiteral("-123456"));
    QCOMPARE(cell.siblingAtColumn(AttributesModel::StatusColumn).data().toString(), QStringLiteral("Write: Good"));
    QCOMPARE(readBack(node), Variant(int32_t(-123456)));

    // writeValue with a Variant.
    written.clear();
    model.writeValue(Variant(int32_t(7)));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(readBack(node), Variant(int32_t(7)));
    QTRY_COMPARE(cell.data().toString(), QStringLiteral("7"));

    // A Variable that is not writable: the server's status is shown.
    QVERIFY(load(model, NodeId(id::Server_ServerStatus_State)));
    written.clear();
    QVERIFY(model.setData(model.valueIndex().siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("1")));
    QVERIFY(written.wait(10000));
    const StatusCode refused = written.at(0).at(0).value<StatusCode>();
    QVERIFY2(refused == StatusCode(status::BadNotWritable) || refused == StatusCode(status::BadUserAccessDenied),
             refused.name().c_str());
    QCOMPARE(model.valueIndex().data(AttributesModel::StatusCodeRole).toUInt(), refused.code);
}

void TestAttributesModel::badTextIsNotWritten() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId node = test::demoNode(*m_connection, "Demo.Scalars.Int32");
    QVERIFY(load(model, node));
    const Variant before = readBack(node);
    const QModelIndex cell = model.valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    const int writesBefore = test::logCount(*m_connection, QStringLiteral("Write"));
    QVERIFY(!model.setData(cell, QStringLiteral("twelve")));
    QCOMPARE(written.count(), 1);  // at once: nothing was sent
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode(status::BadTypeMismatch));
    QVERIFY(!written.at(0).at(1).toString().isEmpty());
    QCOMPARE(model.valueIndex().data(AttributesModel::StatusCodeRole).toUInt(), uint(status::BadTypeMismatch));
    QVERIFY(cell.siblingAtColumn(AttributesModel::StatusColumn).data().toString().startsWith(QStringLiteral("Write: Bad_TypeMismatch")));
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("Write")), writesBefore);
    QCOMPARE(readBack(node), before);
    // Out of the type's range: Bad_OutOfRange, also before sending.
    QVERIFY(!model.writeText(QStringLiteral("3000000000")));
    QCOMPARE(written.last().at(0).value<StatusCode>(), StatusCode(status::BadOutOfRange));
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("Write")), writesBefore);
}

void TestAttributesModel::arrayElementInPlace() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId node = test::demoNode(*m_connection, "Demo.Arrays.Int32");
    QVERIFY(load(model, node));
    const QModelIndex value = model.valueIndex();
    const Variant before = readBack(node);
    const auto* arr = before.get<Array<int32_t>>();
    QVERIFY(arr && arr->size() >= 2);
    QCOMPARE(model.rowCount(value), int(arr->size()));
    QCOMPARE(value.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Int32[]"));
    const QModelIndex second = model.index(1, AttributesModel::ValueColumn, value);
    QCOMPARE(model.index(1, AttributesModel::AttributeColumn, value).data().toString(), QStringLiteral("[1]"));
    QCOMPARE(second.data().toString(), QString::number((*arr)[1]));
    QCOMPARE(model.index(1, AttributesModel::DataTypeColumn, value).data().toString(), QStringLiteral("Int32"));
    QVERIFY(model.flags(second) & Qt::ItemIsEditable);
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    QVERIFY(model.setData(second, QStringLiteral("4711")));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    Array<int32_t> expected = *arr;
    expected[1] = 4711;
    QCOMPARE(readBack(node), Variant(expected));
    QTRY_COMPARE(model.index(1, AttributesModel::ValueColumn, model.valueIndex()).data().toString(), QStringLiteral("4711"));
    // The whole array as text.
    written.clear();
    QVERIFY(model.setData(value.siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("[5, 6, 7]")));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(readBack(node), Variant(Array<int32_t>{5, 6, 7}));
    QTRY_COMPARE(model.rowCount(model.valueIndex()), 3);
}

void TestAttributesModel::structureAndMatrixExpanded() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, NodeId(id::Server_ServerStatus)));
    const QModelIndex value = model.valueIndex();
    QCOMPARE(value.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("ServerStatusDataType"));
    QStringList fields;
    for (int r = 0; r < model.rowCount(value); ++r) fields << model.index(r, 0, value).data().toString();
    QCOMPARE(fields, (QStringList{"StartTime", "CurrentTime", "State", "BuildInfo", "SecondsTillShutdown", "ShutdownReason"}));
    const QModelIndex state = model.index(2, 0, value);
    QCOMPARE(state.siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Running (0)"));
    const QModelIndex buildInfo = model.index(3, 0, value);
    QCOMPARE(buildInfo.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("BuildInfo"));
    QCOMPARE(model.rowCount(buildInfo), 6);
    QCOMPARE(model.index(0, 0, buildInfo).data().toString(), QStringLiteral("ProductUri"));
    QCOMPARE(model.index(0, AttributesModel::ValueColumn, buildInfo).data().toString(), QStringLiteral("urn:ua-workbench:server"));
    QVERIFY(!(model.flags(state.siblingAtColumn(AttributesModel::ValueColumn)) & Qt::ItemIsEditable));

    // A DataType's DataTypeDefinition: a StructureDefinition with its fields, read-only.
    QVERIFY(load(model, NodeId(id::BuildInfo)));
    const QModelIndex definition = model.index(rowOf(model, AttributeId::DataTypeDefinition), 0);
    QVERIFY(definition.isValid());
    QCOMPARE(definition.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("StructureDefinition"));
    int fieldsRow = -1;
    for (int r = 0; r < model.rowCount(definition); ++r)
        if (model.index(r, 0, definition).data().toString() == QLatin1String("Fields")) fieldsRow = r;
    QVERIFY(fieldsRow >= 0);
    const QModelIndex defFields = model.index(fieldsRow, 0, definition);
    QCOMPARE(model.rowCount(defFields), 6);  // ProductUri .. BuildDate
    QVERIFY(!(model.flags(model.index(0, AttributesModel::ValueColumn, defFields)) & Qt::ItemIsEditable));

    // A 2x3 matrix: two rows of three.
    QVERIFY(load(model, test::demoNode(*m_connection, "Demo.Matrix")));
    const QModelIndex matrix = model.valueIndex();
    QCOMPARE(model.rowCount(matrix), 2);
    QCOMPARE(model.rowCount(model.index(0, 0, matrix)), 3);
    QCOMPARE(model.index(2, 0, model.index(1, 0, matrix)).data().toString(), QStringLiteral("[2]"));
}

UA_TEST_MAIN(TestAttributesModel)
#include "tst_attributes_model.moc"
