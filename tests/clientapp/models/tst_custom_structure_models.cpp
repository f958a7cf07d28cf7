// Custom structures in the client's models (issue 29 item 3), against our server with
// tests/interop/data/custom-types.NodeSet2.xml imported, under QAbstractItemModelTester:
// AttributesModel shows a Recipe field by field once the Connection's DataTypeCache has read its
// DataTypes (optional Comment absent, an array of Setpoints, an enumeration by name with its names
// for the editor), a field edited in place writes the whole structure back; the shape changes
// (StructureEdit.h): the optional Comment made present, set and removed again, a union's choice
// switched (and none), elements added to and removed from an array of structures, an array of
// Doubles inside one and a Value that is an array of structures, each read back from the server and
// decoded; rows they do not apply to are left alone (false, nothing written), and a Write the server
// refuses (a read-only Recipe) shows its status; MonitoredItemsModel shows a Setpoint's fields in its
// Value column.
#include "ModelsTestUtil.h"
#include "models/AttributesModel.h"
#include "models/MonitoredItemsModel.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

namespace {

const DynamicField* csField(const DynamicValue& v, const char* name) {
    for (const DynamicField& f : v.fields)
        if (f.name == QLatin1String(name)) return &f;
    return nullptr;
}

QString csString(const DynamicValue& v) {
    const String* s = v.scalar.get<String>();
    return s ? QString::fromStdString(s->str()) : QStringLiteral("?");
}

int csEdits(const QModelIndex& row) {
    return row.data(AttributesModel::StructureEditsRole).toInt();
}

} // namespace

class TestCustomStructureModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void attributesShowAndWriteFields();
    void dataAccessShowsFields();
    void optionalFieldMadePresentAndRemoved();
    void unionChoiceSwitched();
    void arrayElementsAddedAndRemoved();
    void valueArrayOfStructuresElements();
    void refusedShapeChangeShowsStatus();

private:
    NodeId customNode(uint32_t id) const;
    // The node's Value read with the Connection's Client and decoded by its DataTypeCache (a
    // Value array: element `element`).
    std::optional<DynamicValue> readDecoded(const NodeId& node, std::size_t element = 0);
    // The number of elements of the node's Value array as read now (-1 on an error).
    int readArrayLength(const NodeId& node);
    // Waits for the model's write to end; its status.
    static StatusCode waitWritten(QSignalSpy& written);
    // Shows node in model and waits until its Value rows are built from the DataTypes.
    static bool showNode(AttributesModel& model, const NodeId& node, int valueRows);

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
    QCOMPARE(test::childRowNamed(model, value, "Title").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Bread"));
    QCOMPARE(test::childRowNamed(model, value, "Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("(absent)"));
    const QModelIndex steps = test::childRowNamed(model, value, "Steps");
    QCOMPARE(steps.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Setpoint[]"));
    QCOMPARE(model.rowCount(steps), 2);
    const QModelIndex bake = model.index(1, 0, steps);
    const QModelIndex mode = test::childRowNamed(model, bake, "Mode");
    QCOMPARE(mode.siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Auto (5)"));
    QCOMPARE(mode.siblingAtColumn(AttributesModel::ValueColumn).data(AttributesModel::EnumNamesRole).toStringList(),
             QStringList({"Off", "Manual", "Auto"}));
    const QModelIndex bakeValue = test::childRowNamed(model, bake, "Value").siblingAtColumn(AttributesModel::ValueColumn);
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
    const QModelIndex title = test::childRowNamed(model, model.valueIndex(), "Steps");
    const QModelIndex firstValue = test::childRowNamed(model, model.index(0, 0, title), "Value").siblingAtColumn(AttributesModel::ValueColumn);
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

std::optional<DynamicValue> TestCustomStructureModels::readDecoded(const NodeId& node, std::size_t element) {
    test::Awaited<ServiceResult<ReadResponse>> r;
    m_connection->client()->readValues({node}, this, r.callback());
    if (!r.wait() || !r->isGood() || r->response.results.empty()) return std::nullopt;
    const Variant& v = r->response.results[0].value;
    const ExtensionObject* x = v.get<ExtensionObject>();
    if (const auto* xs = v.get<Array<ExtensionObject>>()) x = element < xs->size() ? &(*xs)[element] : nullptr;
    if (!x) return std::nullopt;
    QString error;
    auto d = m_connection->dataTypes()->decode(*x, &error);
    if (!d) qWarning("%s", qPrintable(error));
    return d;
}

int TestCustomStructureModels::readArrayLength(const NodeId& node) {
    test::Awaited<ServiceResult<ReadResponse>> r;
    m_connection->client()->readValues({node}, this, r.callback());
    if (!r.wait() || !r->isGood() || r->response.results.empty()) return -1;
    const auto* xs = r->response.results[0].value.get<Array<ExtensionObject>>();
    return xs ? int(xs->size()) : -1;
}

StatusCode TestCustomStructureModels::waitWritten(QSignalSpy& written) {
    if (written.isEmpty() && !written.wait(10000)) return status::BadTimeout;
    const StatusCode s = written.takeFirst().at(0).value<StatusCode>();
    return s;
}

bool TestCustomStructureModels::showNode(AttributesModel& model, const NodeId& node, int valueRows) {
    QSignalSpy loaded(&model, &AttributesModel::loaded);
    model.setNode(node);
    if (!loaded.wait(10000)) return false;
    return QTest::qWaitFor([&] { return model.valueIndex().isValid() && model.rowCount(model.valueIndex()) >= valueRows; }, 10000);
}

void TestCustomStructureModels::optionalFieldMadePresentAndRemoved() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId recipe = customNode(5003);
    QVERIFY(showNode(model, recipe, 4));
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    QModelIndex comment = test::childRowNamed(model, model.valueIndex(), "Comment");
    QCOMPARE(comment.siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("(absent)"));
    QCOMPARE(csEdits(comment), int(AttributesModel::AddField));
    QVERIFY(!(comment.siblingAtColumn(AttributesModel::ValueColumn).flags() & Qt::ItemIsEditable));
    // Rows it does not apply to: nothing is written, nothing signalled.
    const QModelIndex title = test::childRowNamed(model, model.valueIndex(), "Title");
    QCOMPARE(csEdits(title), 0);
    QVERIFY(!model.setFieldPresent(title, false));
    QVERIFY(!model.setFieldPresent(comment, false));  // absent already
    QVERIFY(!model.setFieldPresent(model.valueIndex(), true));
    QVERIFY(!model.setFieldPresent(model.index(0, 0), true));  // NodeId
    QVERIFY(!model.setFieldPresent(QModelIndex(), true));
    QTest::qWait(200);
    QCOMPARE(written.size(), 0);

    // Present at its default (""), written whole, read again: the row is now editable.
    QVERIFY(model.setFieldPresent(comment, true));
    QCOMPARE(waitWritten(written), StatusCode());
    auto back = readDecoded(recipe);
    QVERIFY(back);
    QVERIFY(csField(*back, "Comment")->present);
    QCOMPARE(csString(csField(*back, "Comment")->value), QString());
    QCOMPARE(csString(csField(*back, "Title")->value), QStringLiteral("Bread"));
    QCOMPARE(csField(*back, "Steps")->value.elements.size(), std::size_t(2));
    QTRY_VERIFY_WITH_TIMEOUT(csEdits(test::childRowNamed(model, model.valueIndex(), "Comment")) == AttributesModel::RemoveField, 10000);
    comment = test::childRowNamed(model, model.valueIndex(), "Comment").siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(comment.flags() & Qt::ItemIsEditable);
    QCOMPARE(comment.data(AttributesModel::BuiltInTypeRole).toInt(), int(BuiltInType::String));
    QVERIFY(model.setData(comment, QStringLiteral("crusty")));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(recipe);
    QVERIFY(back);
    QCOMPARE(csString(csField(*back, "Comment")->value), QStringLiteral("crusty"));
    QTRY_COMPARE_WITH_TIMEOUT(test::childRowNamed(model, model.valueIndex(), "Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("crusty"), 10000);

    // Removed again (from the Value column's index too); the optional Batch stays.
    QVERIFY(model.setFieldPresent(comment, false));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(recipe);
    QVERIFY(back);
    QVERIFY(!csField(*back, "Comment")->present);
    QVERIFY(csField(*back, "Batch")->present);
    QCOMPARE(csField(*back, "Batch")->value.scalar, Variant(uint16_t(42)));
    QTRY_COMPARE_WITH_TIMEOUT(test::childRowNamed(model, model.valueIndex(), "Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("(absent)"), 10000);
    QCOMPARE(model.valueIndex().siblingAtColumn(AttributesModel::StatusColumn).data().toString(), QStringLiteral("Write: Good"));
}

void TestCustomStructureModels::unionChoiceSwitched() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId measurement = customNode(5004);
    QVERIFY(showNode(model, measurement, 1));
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    QModelIndex value = model.valueIndex();
    QCOMPARE(value.data(AttributesModel::UnionFieldsRole).toStringList(), QStringList({"Count", "Level", "Label"}));
    QCOMPARE(value.data(AttributesModel::UnionChoiceRole).toInt(), 1);
    QCOMPARE(csEdits(value), int(AttributesModel::ChooseUnionField));
    const QModelIndex level = test::childRowNamed(model, value, "Level");
    QCOMPARE(csEdits(level), int(AttributesModel::RemoveField));  // the field it holds: none then
    // Out of range, or not a union: nothing.
    QVERIFY(!model.setUnionChoice(value, 3));
    QVERIFY(!model.setUnionChoice(value, -2));
    QVERIFY(!model.setUnionChoice(level, 0));
    QTest::qWait(200);
    QCOMPARE(written.size(), 0);

    // Label, at its default, then set in place.
    QVERIFY(model.setUnionChoice(value, 2));
    QCOMPARE(waitWritten(written), StatusCode());
    auto back = readDecoded(measurement);
    QVERIFY(back);
    QVERIFY(csField(*back, "Label")->present);
    QVERIFY(!csField(*back, "Level")->present);
    QCOMPARE(csString(csField(*back, "Label")->value), QString());
    QTRY_VERIFY_WITH_TIMEOUT(test::childRowNamed(model, model.valueIndex(), "Label").isValid(), 10000);
    QCOMPARE(model.valueIndex().data(AttributesModel::UnionChoiceRole).toInt(), 2);
    QCOMPARE(model.rowCount(model.valueIndex()), 1);
    QVERIFY(model.setData(test::childRowNamed(model, model.valueIndex(), "Label").siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("full")));
    QCOMPARE(waitWritten(written), StatusCode());
    QCOMPARE(csString(csField(*readDecoded(measurement), "Label")->value), QStringLiteral("full"));

    // None: no field rows.
    QTRY_COMPARE_WITH_TIMEOUT(test::childRowNamed(model, model.valueIndex(), "Label").siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("full"), 10000);
    QVERIFY(model.setUnionChoice(model.valueIndex(), -1));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(measurement);
    QVERIFY(back);
    for (const DynamicField& f : back->fields) QVERIFY2(!f.present, qPrintable(f.name));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.valueIndex()), 0, 10000);
    QCOMPARE(model.valueIndex().data(AttributesModel::UnionChoiceRole).toInt(), -1);

    // Count (an Int32 at 0); the Level it held first is gone.
    QVERIFY(model.setUnionChoice(model.valueIndex(), 0));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(measurement);
    QVERIFY(back);
    QVERIFY(csField(*back, "Count")->present);
    QCOMPARE(csField(*back, "Count")->value.scalar, Variant(int32_t(0)));
    QTRY_VERIFY_WITH_TIMEOUT(test::childRowNamed(model, model.valueIndex(), "Count").isValid(), 10000);
}

void TestCustomStructureModels::arrayElementsAddedAndRemoved() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId recipe = customNode(5003);
    QVERIFY(showNode(model, recipe, 4));
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    const auto steps = [&] { return test::childRowNamed(model, model.valueIndex(), "Steps"); };
    QCOMPARE(model.rowCount(steps()), 2);
    QCOMPARE(csEdits(steps()), int(AttributesModel::AddElement));
    QCOMPARE(csEdits(model.index(0, 0, steps())), AttributesModel::AddElement | AttributesModel::RemoveElement);
    QVERIFY(!model.removeArrayElement(steps()));  // the array itself, not an element
    QVERIFY(!model.insertArrayElement(test::childRowNamed(model, model.valueIndex(), "Title")));
    QTest::qWait(200);
    QCOMPARE(written.size(), 0);

    // A Setpoint appended at its default.
    QVERIFY(model.insertArrayElement(steps()));
    QCOMPARE(waitWritten(written), StatusCode());
    auto back = readDecoded(recipe);
    QVERIFY(back);
    const DynamicValue* s = &csField(*back, "Steps")->value;
    QCOMPARE(s->elements.size(), std::size_t(3));
    QCOMPARE(csString(csField(s->elements[0], "Name")->value), QStringLiteral("Knead"));
    QCOMPARE(csString(csField(s->elements[2], "Name")->value), QString());
    QCOMPARE(csField(s->elements[2], "Value")->value.scalar, Variant(0.0));
    QCOMPARE(csField(s->elements[2], "Mode")->value.scalar, Variant(int32_t(0)));
    QCOMPARE(csField(s->elements[2], "Limits")->value.elements.size(), std::size_t(0));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(steps()), 3, 10000);

    // Its Limits (Double[]): an element appended, set in place, one inserted after it.
    const auto limits = [&] { return test::childRowNamed(model, model.index(2, 0, steps()), "Limits"); };
    QCOMPARE(csEdits(limits()), int(AttributesModel::AddElement));
    QVERIFY(model.insertArrayElement(limits()));
    QCOMPARE(waitWritten(written), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(limits()), 1, 10000);
    const QModelIndex first = model.index(0, AttributesModel::ValueColumn, limits());
    QVERIFY(first.flags() & Qt::ItemIsEditable);
    QCOMPARE(csEdits(first), AttributesModel::AddElement | AttributesModel::RemoveElement);
    QVERIFY(model.setData(first, QStringLiteral("7.5")));
    QCOMPARE(waitWritten(written), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0, AttributesModel::ValueColumn, limits()).data().toString(), QStringLiteral("7.5"), 10000);
    QVERIFY(model.insertArrayElement(model.index(0, 0, limits())));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(recipe);
    QVERIFY(back);
    s = &csField(*back, "Steps")->value;
    const DynamicValue& l = csField(s->elements[2], "Limits")->value;
    QCOMPARE(l.elements.size(), std::size_t(2));
    QCOMPARE(l.elements[0].scalar, Variant(7.5));
    QCOMPARE(l.elements[1].scalar, Variant(0.0));

    // The first limit removed, then the first step: Bake, then the new one.
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(limits()), 2, 10000);
    QVERIFY(model.removeArrayElement(model.index(0, 0, limits())));
    QCOMPARE(waitWritten(written), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(limits()), 1, 10000);
    QVERIFY(model.removeArrayElement(model.index(0, 0, steps())));
    QCOMPARE(waitWritten(written), StatusCode());
    back = readDecoded(recipe);
    QVERIFY(back);
    s = &csField(*back, "Steps")->value;
    QCOMPARE(s->elements.size(), std::size_t(2));
    QCOMPARE(csString(csField(s->elements[0], "Name")->value), QStringLiteral("Bake"));
    QCOMPARE(csField(s->elements[1], "Limits")->value.elements.size(), std::size_t(1));
    QCOMPARE(csField(s->elements[1], "Limits")->value.elements[0].scalar, Variant(0.0));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(steps()), 2, 10000);
    QCOMPARE(model.index(0, AttributesModel::ValueColumn, steps()).data().toString().left(16), QStringLiteral("{Name: Bake, Val"));
}

void TestCustomStructureModels::valueArrayOfStructuresElements() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId setpoints = customNode(5005);
    QVERIFY(showNode(model, setpoints, 2));
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    QCOMPARE(model.valueIndex().siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Setpoint[]"));
    QTRY_COMPARE_WITH_TIMEOUT(csEdits(model.valueIndex()), int(AttributesModel::AddElement), 10000);
    QCOMPARE(csEdits(model.index(1, 0, model.valueIndex())), AttributesModel::AddElement | AttributesModel::RemoveElement);
    QCOMPARE(readArrayLength(setpoints), 2);

    // Appended at its default, then one inserted after [0].
    QVERIFY(model.insertArrayElement(model.valueIndex()));
    QCOMPARE(waitWritten(written), StatusCode());
    QCOMPARE(readArrayLength(setpoints), 3);
    auto third = readDecoded(setpoints, 2);
    QVERIFY(third);
    QCOMPARE(third->typeName, QStringLiteral("Setpoint"));
    QCOMPARE(csString(csField(*third, "Name")->value), QString());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.valueIndex()), 3, 10000);
    QVERIFY(model.insertArrayElement(model.index(0, 0, model.valueIndex())));
    QCOMPARE(waitWritten(written), StatusCode());
    QCOMPARE(readArrayLength(setpoints), 4);
    QCOMPARE(csString(csField(*readDecoded(setpoints, 0), "Name")->value), QStringLiteral("Low"));
    QCOMPARE(csString(csField(*readDecoded(setpoints, 1), "Name")->value), QString());
    QCOMPARE(csString(csField(*readDecoded(setpoints, 2), "Name")->value), QStringLiteral("High"));

    // A field of an element edited in place, then elements removed down to none.
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.valueIndex()), 4, 10000);
    QVERIFY(model.setData(test::childRowNamed(model, model.index(1, 0, model.valueIndex()), "Name").siblingAtColumn(AttributesModel::ValueColumn),
                          QStringLiteral("Mid")));
    QCOMPARE(waitWritten(written), StatusCode());
    QCOMPARE(csString(csField(*readDecoded(setpoints, 1), "Name")->value), QStringLiteral("Mid"));
    for (int n = 4; n > 0; --n) {
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.valueIndex()), n, 10000);
        QVERIFY(model.removeArrayElement(model.index(0, 0, model.valueIndex())));
        QCOMPARE(waitWritten(written), StatusCode());
        QCOMPARE(readArrayLength(setpoints), n - 1);
    }
    // Empty: the DataType says what an element is.
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.valueIndex()), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(csEdits(model.valueIndex()), int(AttributesModel::AddElement), 10000);
    QVERIFY(model.insertArrayElement(model.valueIndex()));
    QCOMPARE(waitWritten(written), StatusCode());
    QCOMPARE(readArrayLength(setpoints), 1);
    QCOMPARE(csField(*readDecoded(setpoints, 0), "Value")->value.scalar, Variant(0.0));
}

void TestCustomStructureModels::refusedShapeChangeShowsStatus() {
    AttributesModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const NodeId sealed = customNode(5006);
    QVERIFY(showNode(model, sealed, 4));
    QSignalSpy written(&model, &AttributesModel::writeFinished);
    const QModelIndex comment = test::childRowNamed(model, model.valueIndex(), "Comment");
    QCOMPARE(csEdits(comment), int(AttributesModel::AddField));
    QVERIFY(model.setFieldPresent(comment, true));  // sent; the server says no
    QCOMPARE(waitWritten(written), StatusCode(status::BadNotWritable));
    QCOMPARE(model.valueIndex().siblingAtColumn(AttributesModel::StatusColumn).data().toString(), QStringLiteral("Write: Bad_NotWritable"));
    QCOMPARE(model.valueIndex().data(AttributesModel::StatusCodeRole).toUInt(), status::BadNotWritable.code);
    auto back = readDecoded(sealed);
    QVERIFY(back);
    QVERIFY(!csField(*back, "Comment")->present);
    QCOMPARE(test::childRowNamed(model, model.valueIndex(), "Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("(absent)"));
    QVERIFY(model.insertArrayElement(test::childRowNamed(model, model.valueIndex(), "Steps")));
    QCOMPARE(waitWritten(written), StatusCode(status::BadNotWritable));
    QCOMPARE(readDecoded(sealed)->fields[2].value.elements.size(), std::size_t(0));
}

UA_TEST_MAIN(TestCustomStructureModels)
#include "tst_custom_structure_models.moc"
