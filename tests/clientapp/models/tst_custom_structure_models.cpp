// Custom structures in the client's models (issue 29 item 3), against our server with
// tests/interop/data/custom-types.NodeSet2.xml imported, under QAbstractItemModelTester:
// AttributesModel shows a Recipe field by field once the Connection's DataTypeCache has read its
// DataTypes (optional Comment absent, an array of Setpoints, an enumeration by name with its names
// for the editor), a field edited in place writes the whole structure back; MonitoredItemsModel shows
// a Setpoint's fields in its Value column.
#include "ModelsTestUtil.h"
#include "models/AttributesModel.h"
#include "models/MonitoredItemsModel.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

namespace {

QModelIndex childNamed(const QAbstractItemModel& m, const QModelIndex& parent, const QString& name) {
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == name) return m.index(r, 0, parent);
    return {};
}

} // namespace

class TestCustomStructureModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void attributesShowAndWriteFields();
    void dataAccessShowsFields();

private:
    NodeId customNode(uint32_t id) const;

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestCustomStructureModels::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.nodeSetFiles = {QStringLiteral(UA_INTEROP_DIR "/data/custom-types.NodeSet2.xml")};
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(*m_connection, m_server->endpointUrl()), StatusCode());
}

void TestCustomStructureModels::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

NodeId TestCustomStructureModels::customNode(uint32_t id) const {
    const int ns = m_connection->client()->nodeIdConverter().indexOf("urn:ua-workbench:test:custom-types");
    return NodeId(uint16_t(ns < 0 ? 0 : ns), id);
}

void TestCustomStructureModels::attributesShowAndWriteFields() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &AttributesModel::loaded);
    model.setNode(customNode(5003));
    QVERIFY(loaded.wait(10000));
    // The rows come again once the DataTypes are read.
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount(model.valueIndex()) >= 4, 10000);
    const QModelIndex value = model.valueIndex();
    QVERIFY2(value.siblingAtColumn(AttributesModel::ValueColumn).data().toString().contains(u"Title: Bread"),
             qPrintable(value.siblingAtColumn(AttributesModel::ValueColumn).data().toString()));
    QCOMPARE(childNamed(model, value, "Title").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Bread"));
    QCOMPARE(childNamed(model, value, "Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("(absent)"));
    const QModelIndex steps = childNamed(model, value, "Steps");
    QCOMPARE(steps.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Setpoint[]"));
    QCOMPARE(model.rowCount(steps), 2);
    const QModelIndex bake = model.index(1, 0, steps);
    const QModelIndex mode = childNamed(model, bake, "Mode");
    QCOMPARE(mode.siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Auto (5)"));
    QCOMPARE(mode.siblingAtColumn(AttributesModel::ValueColumn).data(AttributesModel::EnumNamesRole).toStringList(),
             QStringList({"Off", "Manual", "Auto"}));
    const QModelIndex bakeValue = childNamed(model, bake, "Value").siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(bakeValue.flags() & Qt::ItemIsEditable);
    QCOMPARE(bakeValue.data(AttributesModel::BuiltInTypeRole).toInt(), int(BuiltInType::Double));
    QCOMPARE(bakeValue.data(Qt::EditRole).toString(), QStringLiteral("220"));
    QVERIFY(!(steps.siblingAtColumn(AttributesModel::ValueColumn).flags() & Qt::ItemIsEditable));

    // Edit the second step's Value: the whole Recipe is written, then read again.
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    QVERIFY(model.setData(bakeValue, QStringLiteral("99.5")));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(model.valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString().contains(u"Value: 99.5"),
                             10000);
    // A text that does not parse as the field's type is refused before anything is sent.
    written.clear();
    const QModelIndex title = childNamed(model, model.valueIndex(), "Steps");
    const QModelIndex firstValue = childNamed(model, model.index(0, 0, title), "Value").siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(!model.setData(firstValue, QStringLiteral("warm")));
    QCOMPARE(written.size(), 1);
    QVERIFY(written.at(0).at(0).value<StatusCode>().isBad());
}

void TestCustomStructureModels::dataAccessShowsFields() {
    MonitoredItemsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addNodes({customNode(5002)});
    QTRY_VERIFY_WITH_TIMEOUT(model.index(0, MonitoredItemsModel::ValueColumn).data().toString().contains(u"Name: Oven"), 15000);
    QVERIFY2(model.index(0, MonitoredItemsModel::ValueColumn).data().toString().contains(u"Mode: Auto (5)"),
             qPrintable(model.index(0, MonitoredItemsModel::ValueColumn).data().toString()));
}

UA_TEST_MAIN(TestCustomStructureModels)
#include "tst_custom_structure_models.moc"
