// The client app's models end to end against node-opcua's servers (started here, tests/interop):
// node_server.js: connect, browse to a variable through AddressTreeModel (fetchMore and a browse
// path), read its attributes, write it in place and read it back, call Calculator.Multiply;
// node_sub_server.js: monitor the Counter (+1 every 100 ms) and see at least three changes, and its
// ticking events in the events table.
#include "ModelsTestUtil.h"
#include "models/AddressTreeModel.h"
#include "models/AttributesModel.h"
#include "models/EventsModel.h"
#include "models/MethodCallModel.h"
#include "models/MonitoredItemsModel.h"

#include <QAbstractItemModelTester>
#include <QProcess>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;


class TestModelsVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void browseReadWriteCall();
    void monitorCounterAndEvents();

private:
    ua::test::NodeServerProcess m_server;     // node_server.js
    ua::test::NodeServerProcess m_subServer;  // node_sub_server.js
    QTemporaryDir m_dir;
};

void TestModelsVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    qRegisterMetaType<ua::StatusCode>();
    qRegisterMetaType<ua::DataValue>();
    m_server.start(QStringLiteral("node_server.js"));
    m_subServer.start(QStringLiteral("node_sub_server.js"));  // both start at once (seconds each)
    QVERIFY2(m_server.waitReady(), qPrintable(m_server.error));
    QVERIFY2(m_subServer.waitReady(), qPrintable(m_subServer.error));
}

void TestModelsVsNode::cleanupTestCase() {}

void TestModelsVsNode::browseReadWriteCall() {
    Connection c(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(c, m_server.url()), StatusCode());

    // Browse: Objects -> Bench -> Int32_1000, one level at a time as a view expands them.
    AddressTreeModel tree(&c);
    auto fetched = [&](const QModelIndex& parent, const QString& name) -> QModelIndex {
        if (tree.canFetchMore(parent)) tree.fetchMore(parent);
        if (!QTest::qWaitFor([&] { return !tree.isFetching(parent); }, 15000)) return {};
        for (int r = 0; r < tree.rowCount(parent); ++r)
            if (tree.index(r, 0, parent).data().toString() == name) return tree.index(r, 0, parent);
        return {};
    };
    const QModelIndex objects = fetched({}, QStringLiteral("Objects"));
    QVERIFY(objects.isValid());
    const QModelIndex bench = fetched(objects, QStringLiteral("Bench"));
    QVERIFY(bench.isValid());
    QVERIFY(fetched(objects, QStringLiteral("Calculator")).isValid());
    const QModelIndex int32 = fetched(bench, QStringLiteral("Int32_1000"));
    QVERIFY(int32.isValid());
    const NodeId node = tree.nodeIdAt(int32);
    QCOMPARE(node, NodeId(1, 1000u));
    QCOMPARE(tree.nodeClassAt(int32), NodeClass::Variable);
    // The same node by a browse path (TranslateBrowsePaths on node-opcua).
    QSignalSpy found(&tree, &AddressTreeModel::goToFinished);
    tree.goTo(QStringLiteral("/Objects/1:Bench/1:Int32_1001"));
    QVERIFY(found.wait(15000));
    QCOMPARE(found.at(0).at(1).value<StatusCode>(), StatusCode());
    QCOMPARE(tree.nodeIdAt(found.at(0).at(0).value<QModelIndex>()), NodeId(1, 1001u));

    // Read its attributes, write it in place, read it back.
    AttributesModel attributes(&c);
    QAbstractItemModelTester tester(&attributes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&attributes, &AttributesModel::loaded);
    attributes.setNode(node);
    QVERIFY(loaded.wait(15000));
    QCOMPARE(loaded.at(0).at(0).value<StatusCode>(), StatusCode());
    const QModelIndex value = attributes.valueIndex();
    QVERIFY(value.isValid());
    QCOMPARE(value.siblingAtColumn(AttributesModel::ValueColumn).data().toString(), QStringLiteral("1000"));
    QCOMPARE(value.siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Int32"));
    QSignalSpy written(&attributes, &AttributesModel::writeFinished);
    QVERIFY(attributes.setData(value.siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("4242")));
    QVERIFY(written.wait(15000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(attributes.valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("4242"), 15000);
    test::Awaited<ServiceResult<ReadResponse>> back;
    c.client()->readValues({node}, this, back.callback());
    QVERIFY(back.wait());
    QCOMPARE(back->response.results.at(0).value, Variant(int32_t(4242)));
    // A bad text: refused here, node-opcua's value unchanged.
    QVERIFY(!attributes.setData(attributes.valueIndex().siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("4242.5")));
    QCOMPARE(written.last().at(0).value<StatusCode>(), StatusCode(status::BadTypeMismatch));

    // Call Calculator.Multiply (its Object found by an inverse Browse).
    MethodCallModel call(&c);
    QSignalSpy methodLoaded(&call, &MethodCallModel::loaded);
    call.setMethod(NodeId(1, "Calculator.Multiply"));
    QVERIFY(methodLoaded.wait(15000));
    QCOMPARE(methodLoaded.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(call.objectId(), NodeId(1, "Calculator"));
    QCOMPARE(call.rowCount(), 2);
    QCOMPARE(call.index(0, MethodCallModel::NameColumn).data().toString(), QStringLiteral("Values"));
    QCOMPARE(call.index(0, MethodCallModel::DataTypeColumn).data().toString(), QStringLiteral("Int32[]"));
    QCOMPARE(call.outputs()->index(0, MethodOutputsModel::NameColumn).data().toString(), QStringLiteral("Products"));
    call.setInputText(0, QStringLiteral("[1, 2, 3]"));
    call.setInputText(1, QStringLiteral("3"));
    QSignalSpy called(&call, &MethodCallModel::callFinished);
    call.call();
    QVERIFY(called.wait(15000));
    QCOMPARE(called.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(call.outputs()->values().at(0), Variant(Array<int32_t>{3, 6, 9}));
    QCOMPARE(call.outputs()->index(0, MethodOutputsModel::ValueColumn).data().toString(), QStringLiteral("[3, 6, 9]"));
    // One argument too few: node-opcua's answer.
    call.setInputText(1, QString());
    call.call();
    QVERIFY(called.wait(15000));
    QCOMPARE(called.last().at(0).value<StatusCode>(), StatusCode(status::BadArgumentsMissing));
}

void TestModelsVsNode::monitorCounterAndEvents() {
    Connection c(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(c, m_subServer.url()), StatusCode());
    MonitoredItemsModel items(&c);
    QAbstractItemModelTester tester(&items, QAbstractItemModelTester::FailureReportingMode::QtTest);
    items.setDefaultItemSettings(100, 10);
    QSignalSpy values(&items, &MonitoredItemsModel::valueChanged);
    items.addNodes({NodeId(1, "Counter")});
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 3, 15000);
    int32_t last = -1;
    for (const auto& v : values) {
        const DataValue dv = v.at(2).value<DataValue>();
        const int32_t* n = dv.value.get<int32_t>();
        QVERIFY(n);
        QVERIFY(*n > last);  // every change, in order
        last = *n;
    }
    QCOMPARE(items.index(0, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Counter"));
    QTRY_COMPARE(items.index(0, MonitoredItemsModel::DataTypeColumn).data().toString(), QStringLiteral("Int32"));
    QCOMPARE(items.index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));

    // Its events: "tick <k>" from "Ticker" on the Server object.
    EventsModel events(&c);
    QAbstractItemModelTester eventsTester(&events, QAbstractItemModelTester::FailureReportingMode::QtTest);
    events.start();
    QTRY_VERIFY_WITH_TIMEOUT(events.rowCount() >= 3, 15000);
    QCOMPARE(events.status(), StatusCode());
    QVERIFY(events.index(0, 4).data().toString().startsWith(QStringLiteral("tick ")));  // Message
    QCOMPARE(events.index(0, 1).data().toString(), QStringLiteral("Ticker"));            // SourceName
    QVERIFY(events.index(0, 3).data().toInt() >= 100);                                   // Severity
}

UA_TEST_MAIN(TestModelsVsNode)
#include "tst_models_vs_node.moc"
