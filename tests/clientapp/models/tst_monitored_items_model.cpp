// MonitoredItemsModel and TrendBuffer against our server in process, under
// QAbstractItemModelTester: Simulation/Sine monitored with at least three changes, its DisplayName
// and DataType read, the trend series filled; a node dropped in as drag data; per-item settings
// (ModifyMonitoredItems) and the publishing interval (ModifySubscription); removal
// (DeleteMonitoredItems); an unknown node's Bad_NodeIdUnknown; export to project items and import
// into another model; the items created again on a new Client.
#include "ModelsTestUtil.h"
#include "models/MonitoredItemsModel.h"
#include "models/NodeIdMime.h"
#include "models/TrendBuffer.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QMimeData>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestMonitoredItemsModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void monitorSineAndTrend();
    void dropSettingsAndRemove();
    void projectItemsAndNewClient();
    void trendBufferWindow();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestMonitoredItemsModel::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    qRegisterMetaType<ua::DataValue>();
    m_server = test::startDemoServer();
    QVERIFY(m_server);
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(*m_connection, m_server->endpointUrl()), StatusCode());
}

void TestMonitoredItemsModel::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

void TestMonitoredItemsModel::monitorSineAndTrend() {
    Connection& c = *m_connection;
    MonitoredItemsModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    TrendBuffer trend;
    trend.follow(&model);
    QSignalSpy values(&model, &MonitoredItemsModel::valueChanged);
    QSignalSpy subscription(&model, &MonitoredItemsModel::subscriptionChanged);
    QSignalSpy created(&model, &MonitoredItemsModel::itemsServiceFinished);
    model.setDefaultItemSettings(100, 1);
    model.addNodes({test::demoNode(c, "Demo.Simulation.Sine")});
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(created.wait(10000));
    QCOMPARE(created.at(0).at(0).toString(), QStringLiteral("CreateMonitoredItems"));
    QCOMPARE(created.at(0).at(1).value<StatusCode>(), StatusCode());
    QCOMPARE(subscription.count(), 1);
    QCOMPARE(subscription.at(0).at(0).value<StatusCode>(), StatusCode());
    QVERIFY(model.revisedPublishingInterval() > 0);
    // At least three changes of the signal (it changes every 100 ms).
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 3, 10000);
    std::set<double> distinct;
    for (const auto& v : values) {
        QCOMPARE(v.at(0).toInt(), 0);
        QCOMPARE(v.at(1).toUInt(), model.clientHandleAt(0));
        const DataValue dv = v.at(2).value<DataValue>();
        if (const double* d = dv.value.get<double>()) distinct.insert(*d);
    }
    QVERIFY(distinct.size() >= 2);
    auto cell = [&](int column) { return model.index(0, column).data().toString(); };
    QTRY_COMPARE(cell(MonitoredItemsModel::DisplayNameColumn), QStringLiteral("Sine"));
    QTRY_COMPARE(cell(MonitoredItemsModel::DataTypeColumn), QStringLiteral("Double"));
    QCOMPARE(cell(MonitoredItemsModel::NodeIdColumn), QString::fromStdString(test::demoNode(c, "Demo.Simulation.Sine").toString()));
    QCOMPARE(cell(MonitoredItemsModel::StatusColumn), QStringLiteral("Good"));
    QVERIFY(!cell(MonitoredItemsModel::ValueColumn).isEmpty());
    QVERIFY(!cell(MonitoredItemsModel::SourceTimestampColumn).isEmpty());
    QVERIFY(!cell(MonitoredItemsModel::ServerTimestampColumn).isEmpty());
    QCOMPARE(model.index(0, MonitoredItemsModel::SamplingIntervalColumn).data().toDouble(), 100.0);
    QCOMPARE(cell(MonitoredItemsModel::QueueSizeColumn), QStringLiteral("1"));
    QCOMPARE(cell(MonitoredItemsModel::DeadbandColumn), QStringLiteral("None"));
    QVERIFY(model.index(0, 0).data(MonitoredItemsModel::NumericValueRole).isValid());
    QVERIFY(test::logCount(c, QStringLiteral("CreateSubscription")) >= 1);
    QVERIFY(test::logCount(c, QStringLiteral("CreateMonitoredItems")) >= 1);

    // Into the trend by its check box: a series that fills.
    QSignalSpy added(&trend, &TrendBuffer::seriesAdded);
    QVERIFY(model.setData(model.index(0, 0), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(added.count(), 1);
    const uint32_t handle = model.clientHandleAt(0);
    QVERIFY(trend.hasSeries(handle));
    QCOMPARE(trend.name(handle), QStringLiteral("Sine"));
    QTRY_VERIFY_WITH_TIMEOUT(trend.pointCount(handle) >= 3, 10000);
    const QList<QPointF> pts = trend.points(handle, QDateTime::currentMSecsSinceEpoch() + 1000);
    QVERIFY(pts.size() >= 3);
    for (int i = 1; i < pts.size(); ++i) QVERIFY(pts[i].x() >= pts[i - 1].x());
    QVERIFY(std::abs(pts.last().x() - double(QDateTime::currentMSecsSinceEpoch())) < 5000);
    QVERIFY(trend.valueRange(QDateTime::currentMSecsSinceEpoch() + 1000).has_value());
    QCOMPARE(model.items().at(0).trend, true);
}

void TestMonitoredItemsModel::dropSettingsAndRemove() {
    Connection& c = *m_connection;
    MonitoredItemsModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy services(&model, &MonitoredItemsModel::itemsServiceFinished);
    // A drag from the tree: nsu= NodeIds.
    std::unique_ptr<QMimeData> drag(makeNodeIdMimeData({test::demoNode(c, "Demo.Scalars.Int32"), test::demoNode(c, "Demo.Simulation.Ramp")},
                                                       c.client()->nodeIdConverter()));
    QVERIFY(QString::fromUtf8(drag->data(QString::fromLatin1(kNodeIdMimeType))).startsWith(QStringLiteral("nsu=urn:ua-workbench:demo;")));
    QVERIFY(model.canDropMimeData(drag.get(), Qt::CopyAction, -1, -1, {}));
    QVERIFY(model.dropMimeData(drag.get(), Qt::CopyAction, -1, -1, {}));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(services.wait(10000));
    QTRY_COMPARE(model.index(0, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Int32"));
    QTRY_COMPARE(model.index(1, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Ramp"));
    QTRY_VERIFY(model.lastValueAt(0) != nullptr);

    // Per-item settings: ModifyMonitoredItems; the revised values shown.
    services.clear();
    model.setItemSettings(1, 250, 5, 1, 0.5);
    QVERIFY(services.wait(10000));
    QCOMPARE(services.at(0).at(0).toString(), QStringLiteral("ModifyMonitoredItems"));
    QCOMPARE(services.at(0).at(1).value<StatusCode>(), StatusCode());
    QCOMPARE(model.index(1, MonitoredItemsModel::SamplingIntervalColumn).data().toDouble(), 250.0);
    QCOMPARE(model.index(1, MonitoredItemsModel::QueueSizeColumn).data().toUInt(), 5u);
    QCOMPARE(model.index(1, MonitoredItemsModel::DeadbandColumn).data().toString(), QStringLiteral("Absolute 0.5"));
    QCOMPARE(model.index(1, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));
    // By editing a cell: the deadband as text.
    services.clear();
    QVERIFY(model.setData(model.index(1, MonitoredItemsModel::DeadbandColumn), QStringLiteral("None")));
    QVERIFY(services.wait(10000));
    QCOMPARE(model.index(1, MonitoredItemsModel::DeadbandColumn).data().toString(), QStringLiteral("None"));
    QVERIFY(!model.setData(model.index(1, MonitoredItemsModel::DeadbandColumn), QStringLiteral("sometimes")));

    // The publishing interval: ModifySubscription.
    QSignalSpy subscription(&model, &MonitoredItemsModel::subscriptionChanged);
    model.setPublishingInterval(200);
    QVERIFY(subscription.wait(10000));
    QCOMPARE(subscription.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(subscription.at(0).at(1).toDouble(), 200.0);
    QCOMPARE(model.subscriptionSettings().publishingIntervalMs, 200.0);
    QVERIFY(test::logCount(c, QStringLiteral("ModifySubscription")) >= 1);

    // A node that does not exist: its row shows the server's status.
    model.addNodes({test::demoNode(c, "Demo.NoSuchVariable")});
    QTRY_COMPARE(model.index(2, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Bad_NodeIdUnknown"));
    QVERIFY(c.log()->records().back().detail.contains(QStringLiteral("1 of 1 failed: Bad_NodeIdUnknown")));
    // It is not asked for again when the next node is added.
    services.clear();
    model.addNodes({test::demoNode(c, "Demo.Scalars.Boolean")});
    QVERIFY(services.wait(10000));
    QCOMPARE(services.at(0).at(0).toString(), QStringLiteral("CreateMonitoredItems"));
    QTRY_COMPARE(model.index(3, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));
    QCOMPARE(model.index(2, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Bad_NodeIdUnknown"));
    bool found = false;
    for (const auto& r : c.log()->records())
        if (r.service == QLatin1String("CreateMonitoredItems")) found = r.detail == QLatin1String("1 items");  // the last one
    QVERIFY(found);
    QVERIFY(model.removeRows(3, 1));

    // Remove: DeleteMonitoredItems, rows gone at once.
    services.clear();
    QVERIFY(model.removeRows(0, 1));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Ramp"));
    QVERIFY(services.wait(10000));
    QCOMPARE(services.at(0).at(0).toString(), QStringLiteral("DeleteMonitoredItems"));
    QCOMPARE(services.at(0).at(1).value<StatusCode>(), StatusCode());
    // The removed item sends nothing any more; the other still does.
    QSignalSpy values(&model, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 2, 10000);
    for (const auto& v : values) QCOMPARE(v.at(1).toUInt(), model.clientHandleAt(0));
}

void TestMonitoredItemsModel::projectItemsAndNewClient() {
    Connection& c = *m_connection;
    std::vector<ProjectItem> items;
    {
        MonitoredItemsModel model(&c);
        model.addNodes({test::demoNode(c, "Demo.Simulation.Sine"), test::demoNode(c, "Demo.Scalars.Double")});
        model.setTrend(0, true);
        model.setItemSettings(1, 500, 2, 0, 0);
        items = model.items();
    }
    QCOMPARE(items.size(), std::size_t(2));
    QCOMPARE(items[0].nodeId, QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Sine"));
    QCOMPARE(items[0].trend, true);
    QCOMPARE(items[1].samplingIntervalMs, 500.0);
    QCOMPARE(items[1].queueSize, 2u);

    // Imported into another model (a project opened): created with those settings.
    MonitoredItemsModel model(&c);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy trendSpy(&model, &MonitoredItemsModel::trendChanged);
    model.setItems(items);
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.trendAt(0));
    QVERIFY(trendSpy.count() >= 1);
    QCOMPARE(model.nodeIdAt(0), test::demoNode(c, "Demo.Simulation.Sine"));
    QTRY_COMPARE(model.index(1, MonitoredItemsModel::SamplingIntervalColumn).data().toDouble(), 500.0);
    QSignalSpy values(&model, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 3, 10000);

    // A new Client (connectTo again): the items are created again on it and values come again.
    QSignalSpy clients(&c, &Connection::clientChanged);
    QCOMPARE(test::connectApp(c, m_server->endpointUrl()), StatusCode());
    QCOMPARE(clients.count(), 1);
    values.clear();
    QTRY_VERIFY_WITH_TIMEOUT(values.count() >= 3, 10000);
    QCOMPARE(model.index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));
    QCOMPARE(model.rowCount(), 2);
}

void TestMonitoredItemsModel::trendBufferWindow() {
    TrendBuffer trend(5);
    trend.addSeries(1, QStringLiteral("a"));
    QVERIFY(!trend.append(2, 1000, 1.0));  // no such series
    for (int i = 0; i < 8; ++i) QVERIFY(trend.append(1, 1000 + i * 1000, double(i)));
    QCOMPARE(trend.pointCount(1), 5);  // bounded: the oldest dropped
    trend.setWindowSeconds(2);
    // Window [6000, 8000] plus the point before it.
    const QList<QPointF> pts = trend.points(1, 8000);
    QCOMPARE(pts.size(), 4);
    QCOMPARE(pts.first(), QPointF(5000, 4));
    QCOMPARE(pts.last(), QPointF(8000, 7));
    QCOMPARE(trend.valueRange(8000)->first, 4.0);
    // Values that are not plotted: a String, a Bad status.
    DataValue text(Variant(String("x")));
    QVERIFY(!trend.append(1, text));
    DataValue bad(Variant(1.5));
    bad.setStatus(status::BadSensorFailure);
    QVERIFY(!trend.append(1, bad));
    QCOMPARE(TrendBuffer::numericValue(Variant(uint16_t(7))), std::optional<double>(7.0));
    QCOMPARE(TrendBuffer::numericValue(Variant(true)), std::optional<double>(1.0));
    QVERIFY(!TrendBuffer::numericValue(Variant(Array<double>{1.0})));
}

UA_TEST_MAIN(TestMonitoredItemsModel)
#include "tst_monitored_items_model.moc"
