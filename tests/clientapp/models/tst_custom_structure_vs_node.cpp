// Custom structures changing shape in the client's AttributesModel (issue 29 item 3) against
// node-opcua's server with tests/interop/data/custom-types.NodeSet2.xml (node_custom_types_server.js:
// Recipe {Title "Soup", Comment absent, Steps [{Stir, 2, Manual, []}], Batch 7}, a Measurement
// union holding Label "full"). The model makes the optional Comment present and sets it, adds a
// Setpoint to Steps and a Double to a step's Limits, removes the Setpoint again and switches the
// union to Level; after each write node-opcua's own decoding of what arrived (its CHANGED line,
// node-opcua's toJSON of the value it decoded with its definitions) is checked.
#include "ModelsTestUtil.h"
#include "models/AttributesModel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestCustomStructureVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void shapeChangesDecodedByNodeOpcua();

private:
    // node-opcua's decoding of the next write of browseName (the JSON of its CHANGED line); empty
    // when none came.
    QJsonObject nextChange(const QByteArray& browseName);
    // The write's status (writeFinished).
    static StatusCode written(QSignalSpy& spy);

    ua::test::NodeServerProcess m_node;
    QByteArray m_out;
    QTemporaryDir m_dir;
};

void TestCustomStructureVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    qRegisterMetaType<ua::StatusCode>();
    m_node.start(QStringLiteral("node_custom_types_server.js"));
    QVERIFY2(m_node.waitReady(), qPrintable(m_node.error));
}

QJsonObject TestCustomStructureVsNode::nextChange(const QByteArray& browseName) {
    const QByteArray marker = "CHANGED " + browseName + ' ';
    const auto complete = [&] {
        m_out += m_node.process.readAllStandardOutput();
        const qsizetype at = m_out.indexOf(marker);
        return at >= 0 && m_out.indexOf('\n', at) > at;
    };
    if (!QTest::qWaitFor(complete, 10000)) return {};
    const qsizetype at = m_out.indexOf(marker);
    const qsizetype end = m_out.indexOf('\n', at);
    const QByteArray json = m_out.mid(at + marker.size(), end - at - marker.size());
    m_out.remove(0, end + 1);
    return QJsonDocument::fromJson(json).object();
}

StatusCode TestCustomStructureVsNode::written(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(10000)) return status::BadTimeout;
    return spy.takeFirst().at(0).value<StatusCode>();
}

void TestCustomStructureVsNode::shapeChangesDecodedByNodeOpcua() {
    Connection c(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(c, m_node.url()), StatusCode());
    const int ns = c.client()->nodeIdConverter().indexOf("urn:ua-workbench:test:custom-types");
    QVERIFY(ns > 0);
    AttributesModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy spy(&model, &AttributesModel::writeFinished);
    const auto show = [&](uint32_t id, int rows) {
        QSignalSpy loaded(&model, &AttributesModel::loaded);
        model.setNode(NodeId(uint16_t(ns), id));
        return loaded.wait(15000) &&
               QTest::qWaitFor([&] { return model.valueIndex().isValid() && model.rowCount(model.valueIndex()) >= rows; }, 15000);
    };
    const auto field = [&](const char* name) { return test::childRowNamed(model, model.valueIndex(), QString::fromLatin1(name)); };

    QVERIFY(show(5003, 4));
    QCOMPARE(field("Title").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("Soup"));
    QCOMPARE(field("Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("(absent)"));

    // The optional Comment present: node-opcua sees it (""), then set in place.
    QVERIFY(model.setFieldPresent(field("Comment"), true));
    QCOMPARE(written(spy), StatusCode());
    QJsonObject seen = nextChange("RecipeVariable");
    QVERIFY2(seen.contains("comment"), QJsonDocument(seen).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(seen.value("comment").toString(), QString());
    QCOMPARE(seen.value("title").toString(), QStringLiteral("Soup"));
    QCOMPARE(seen.value("batch").toInt(), 7);
    QTRY_VERIFY_WITH_TIMEOUT(field("Comment").siblingAtColumn(AttributesModel::ValueColumn).flags() & Qt::ItemIsEditable, 10000);
    QVERIFY(model.setData(field("Comment").siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("crunchy")));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("RecipeVariable");
    QCOMPARE(seen.value("comment").toString(), QStringLiteral("crunchy"));

    // A Setpoint appended to Steps, at its default.
    QTRY_COMPARE_WITH_TIMEOUT(field("Comment").siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("crunchy"), 10000);
    QCOMPARE(model.rowCount(field("Steps")), 1);
    QVERIFY(model.insertArrayElement(field("Steps")));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("RecipeVariable");
    QJsonArray steps = seen.value("steps").toArray();
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps[0].toObject().value("name").toString(), QStringLiteral("Stir"));
    QCOMPARE(steps[1].toObject().value("name").toString(), QString());
    QCOMPARE(steps[1].toObject().value("value").toDouble(), 0.0);
    QCOMPARE(seen.value("comment").toString(), QStringLiteral("crunchy"));

    // A Double appended to the first step's Limits (empty), set in place.
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(field("Steps")), 2, 10000);
    const auto limits = [&] { return test::childRowNamed(model, model.index(0, 0, field("Steps")), QStringLiteral("Limits")); };
    QVERIFY(model.insertArrayElement(limits()));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("RecipeVariable");
    QCOMPARE(seen.value("steps").toArray()[0].toObject().value("limits").toArray(), QJsonArray() << 0.0);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(limits()), 1, 10000);
    QVERIFY(model.setData(model.index(0, AttributesModel::ValueColumn, limits()), QStringLiteral("12.5")));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("RecipeVariable");
    QCOMPARE(seen.value("steps").toArray()[0].toObject().value("limits").toArray(), QJsonArray() << 12.5);

    // The new Setpoint removed again.
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0, AttributesModel::ValueColumn, limits()).data().toString(), QStringLiteral("12.5"), 10000);
    QVERIFY(model.removeArrayElement(model.index(1, 0, field("Steps"))));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("RecipeVariable");
    steps = seen.value("steps").toArray();
    QCOMPARE(steps.size(), 1);
    QCOMPARE(steps[0].toObject().value("name").toString(), QStringLiteral("Stir"));

    // The union switched from Label to Level (SwitchField 2), at 0.
    QVERIFY(show(5004, 1));
    QCOMPARE(model.valueIndex().data(AttributesModel::UnionChoiceRole).toInt(), 2);
    QVERIFY(model.setUnionChoice(model.valueIndex(), 1));
    QCOMPARE(written(spy), StatusCode());
    seen = nextChange("MeasurementVariable");
    QVERIFY2(seen.value("switchField").toInt() == 2, QJsonDocument(seen).toJson(QJsonDocument::Compact).constData());
    // (node-opcua names a union's field as the definition does: "Level".)
    QVERIFY2(seen.value("Level").toDouble(-1) == 0.0 && !seen.contains("Label") && !seen.contains("label"),
             QJsonDocument(seen).toJson(QJsonDocument::Compact).constData());
}

UA_TEST_MAIN(TestCustomStructureVsNode)
#include "tst_custom_structure_vs_node.moc"
