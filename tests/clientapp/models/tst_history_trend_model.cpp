// The History trend's models (issue 30 item 5) against our Server in process with history
// (HistoryTestServer.h: a fixed series of 120 values known exactly in Ramp's history, sampled Ramp and
// Sine, Int32 without history), both under QAbstractItemModelTester: HistoryTrendModel (the series,
// the reads, the aggregates the server offers, drops) and HistoryValuesModel (the values table and
// its CSV).
#include "../HistoryTestServer.h"
#include "ModelsTestUtil.h"
#include "models/HistoryTrendModel.h"
#include "models/HistoryValuesModel.h"
#include "models/NodeIdMime.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestHistoryTrendModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void rawReadOfAKnownWindow();
    void aggregatesPerInterval();
    void aNodeWithoutHistoryShowsItsStatus();
    void anAggregateTheServerLacks();
    void csvOfTheTable();
    void removesASeries();
    void dropsOfTheTreesDrag();
    void theServersAggregates();
    void lastMinutesReadAgainAndAgain();
    void notConnected();

private:
    NodeId ramp() const { return test::demoNode(*m_connection, "Demo.Simulation.Ramp"); }
    // Reads with the model's settings and waits for readFinished; its status.
    StatusCode readAndWait();

    QTemporaryDir m_dir;
    test::HistoryTestServer m_history;
    std::unique_ptr<Connection> m_connection;
    std::unique_ptr<HistoryTrendModel> m_model;
    std::unique_ptr<HistoryValuesModel> m_values;
    std::unique_ptr<QAbstractItemModelTester> m_seriesTester;
    std::unique_ptr<QAbstractItemModelTester> m_valuesTester;
};

void TestHistoryTrendModel::initTestCase() {
    QVERIFY(m_dir.isValid());
    const QString error = m_history.start(m_dir);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("client-pki")));
    QCOMPARE(test::connectApp(*m_connection, m_history.url).code, status::Good.code);
}

void TestHistoryTrendModel::cleanupTestCase() {
    m_connection.reset();
    m_history.server.reset();
}

void TestHistoryTrendModel::init() {
    m_model = std::make_unique<HistoryTrendModel>(m_connection.get());
    m_values = std::make_unique<HistoryValuesModel>(m_model.get());
    m_seriesTester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_valuesTester = std::make_unique<QAbstractItemModelTester>(m_values.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_model->setTimeRange(m_history.fixedStart(), m_history.fixedEnd());
}

void TestHistoryTrendModel::cleanup() {
    m_valuesTester.reset();
    m_seriesTester.reset();
    m_values.reset();
    m_model.reset();
}

StatusCode TestHistoryTrendModel::readAndWait() {
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->read();
    if (!m_model->isReading()) return status::BadInvalidState;  // asynchronous: nothing answered yet
    if (!finished.wait(15000)) return status::BadTimeout;
    return finished.at(0).at(0).value<StatusCode>();
}

void TestHistoryTrendModel::rawReadOfAKnownWindow() {
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp()});
    QCOMPARE(m_model->rowCount(), 1);
    QVERIFY(m_model->isReading());  // the read runs on the Client's thread; nothing has answered
    QCOMPARE(m_model->index(0, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("reading ..."));
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>().code, status::Good.code);
    const HistorySeries& s = m_model->series().front();
    QCOMPARE(s.status.code, status::Good.code);
    QCOMPARE(int(s.values.size()), test::HistoryTestServer::kFixedValues);
    QCOMPARE(m_model->index(0, HistoryTrendModel::CountColumn).data().toInt(), test::HistoryTestServer::kFixedValues);
    QCOMPARE(m_model->index(0, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Good"));
    QCOMPARE(m_model->readStartMs(), m_history.p0Ms);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0, HistoryTrendModel::NameColumn).data().toString(), QStringLiteral("Ramp"), 5000);
    QCOMPARE(m_model->index(0, HistoryTrendModel::NodeIdColumn).data().toString(),
             QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Ramp"));
    QVERIFY(m_model->index(0, HistoryTrendModel::NameColumn).data(Qt::DecorationRole).value<QColor>().isValid());
    // The table: one row per value, the series' values in time order.
    QCOMPARE(m_values->rowCount(), test::HistoryTestServer::kFixedValues);
    for (int k : {0, 1, 57, 119}) {
        QCOMPARE(m_values->index(k, HistoryValuesModel::SeriesColumn).data().toString(), QStringLiteral("Ramp"));
        QCOMPARE(m_values->index(k, HistoryValuesModel::SourceTimestampColumn).data().toString(),
                 test::HistoryTestServer::isoMs(m_history.p0Ms + k * test::HistoryTestServer::kFixedStepMs));
        QCOMPARE(m_values->index(k, HistoryValuesModel::ValueColumn).data().toString(),
                 QString::number(test::HistoryTestServer::fixedValue(k)));
        QCOMPARE(m_values->index(k, HistoryValuesModel::StatusColumn).data().toString(), QStringLiteral("Good"));
        QCOMPARE(m_values->index(k, 0).data(HistoryValuesModel::TimeMsRole).toLongLong(),
                 m_history.p0Ms + k * test::HistoryTestServer::kFixedStepMs);
    }
    // A window of the first 10 s: 20 values; maxValuesPerSeries stops at 7 with Good_MoreData.
    m_model->setTimeRange(m_history.fixedStart(), m_history.fixedStart().addSecs(10));
    QCOMPARE(readAndWait().code, status::Good.code);
    QCOMPARE(int(m_model->series().front().values.size()), 20);
    m_model->setMaxValuesPerSeries(7);
    QCOMPARE(readAndWait().code, status::Good.code);
    QCOMPARE(int(m_model->series().front().values.size()), 7);
    QCOMPARE(m_model->series().front().status.code, status::GoodMoreData.code);
    QCOMPARE(m_model->index(0, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Good_MoreData"));
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("HistoryRead")) >= 3, true);
}

void TestHistoryTrendModel::aggregatesPerInterval() {
    m_model->setAggregate(*aggregateFromName("Count"), 10000);
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp()});
    QVERIFY(finished.wait(15000));
    const HistorySeries& s = m_model->series().front();
    QCOMPARE(s.status.code, status::Good.code);
    // One minute in 10 s intervals: 6 intervals of 20 values each.
    QCOMPARE(int(s.values.size()), 6);
    QCOMPARE(m_values->rowCount(), 6);
    for (int i = 0; i < 6; ++i) {
        QCOMPARE(m_values->index(i, HistoryValuesModel::ValueColumn).data().toString(), QStringLiteral("20"));
        QCOMPARE(m_values->index(i, HistoryValuesModel::SourceTimestampColumn).data().toString(),
                 test::HistoryTestServer::isoMs(m_history.p0Ms + i * 10000));
        QVERIFY2(m_values->index(i, HistoryValuesModel::StatusColumn).data().toString().startsWith(QStringLiteral("Good (Calculated")),
                 qPrintable(m_values->index(i, HistoryValuesModel::StatusColumn).data().toString()));
    }
    // Minimum and Maximum of the first 5 s (k = 0..9: 0, 7, 3, 10, 6, 2, 9, 5, 1, 8).
    m_model->setAggregate(*aggregateFromName("Maximum"), 5000);
    QCOMPARE(readAndWait().code, status::Good.code);
    QCOMPARE(int(m_model->series().front().values.size()), 12);
    QCOMPARE(m_values->index(0, HistoryValuesModel::ValueColumn).data().toString(), QStringLiteral("10"));
    m_model->setAggregate(*aggregateFromName("Minimum"), 5000);
    QCOMPARE(readAndWait().code, status::Good.code);
    QCOMPARE(m_values->index(0, HistoryValuesModel::ValueColumn).data().toString(), QStringLiteral("0"));
    // Raw again.
    m_model->setAggregate(NodeId(), 0);
    QCOMPARE(readAndWait().code, status::Good.code);
    QCOMPARE(int(m_model->series().front().values.size()), test::HistoryTestServer::kFixedValues);
}

void TestHistoryTrendModel::aNodeWithoutHistoryShowsItsStatus() {
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp(), test::demoNode(*m_connection, "Demo.Scalars.Int32")});
    QCOMPARE(m_model->rowCount(), 2);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>().code, status::Good.code);  // the request; each node has its own
    QCOMPARE(m_model->series()[0].status.code, status::Good.code);
    QCOMPARE(m_model->series()[1].status.code, status::BadHistoryOperationUnsupported.code);
    QCOMPARE(m_model->index(1, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Bad_HistoryOperationUnsupported"));
    QCOMPARE(m_model->index(1, HistoryTrendModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x00, 0x20));
    QCOMPARE(m_model->index(1, HistoryTrendModel::CountColumn).data().toInt(), 0);
    QVERIFY(!m_model->index(0, HistoryTrendModel::StatusColumn).data(Qt::ForegroundRole).isValid());
    // Only Ramp's values are rows.
    QCOMPARE(m_values->rowCount(), test::HistoryTestServer::kFixedValues);
    // An unknown node: Bad_NodeIdUnknown beside the others.
    m_model->addNodes({test::demoNode(*m_connection, "Demo.NoSuchNode")});
    QTRY_COMPARE_WITH_TIMEOUT(m_model->series()[2].read, true, 15000);
    QCOMPARE(m_model->series()[2].status.code, status::BadNodeIdUnknown.code);
}

void TestHistoryTrendModel::anAggregateTheServerLacks() {
    // TimeAverage2 is a standard aggregate our server does not compute (docs/History.md).
    m_model->setAggregate(NodeId(id::AggregateFunction_TimeAverage2), 10000);
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp()});
    QVERIFY(finished.wait(15000));
    QCOMPARE(m_model->series().front().status.code, status::BadAggregateNotSupported.code);
    QCOMPARE(m_model->index(0, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Bad_AggregateNotSupported"));
    QCOMPARE(m_values->rowCount(), 0);
}

void TestHistoryTrendModel::csvOfTheTable() {
    m_model->setTimeRange(m_history.fixedStart(), m_history.fixedStart().addSecs(2));
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp()});
    QVERIFY(finished.wait(15000));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->series().front().name, QStringLiteral("Ramp"), 5000);
    QStringList expected{QStringLiteral("series,sourceTimestamp,value,status")};
    for (int k = 0; k < 4; ++k)
        expected << QStringLiteral("Ramp,%1,%2,Good")
                        .arg(test::HistoryTestServer::isoMs(m_history.p0Ms + k * 500))
                        .arg(test::HistoryTestServer::fixedValue(k));
    QCOMPARE(m_values->toCsv(), expected.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    // An aggregate: the status with its historian bits.
    m_model->setAggregate(*aggregateFromName("Count"), 1500);
    QCOMPARE(readAndWait().code, status::Good.code);
    const QStringList lines = m_values->toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);  // [0, 1.5 s), [1.5, 2 s): a partial interval
    QCOMPARE(lines[1], QStringLiteral("Ramp,%1,3,Good (Calculated)").arg(test::HistoryTestServer::isoMs(m_history.p0Ms)));
    // The second interval holds one value; a status with a comma ("Good (Calculated, Partial)") is quoted.
    const QString status = m_values->index(1, HistoryValuesModel::StatusColumn).data().toString();
    QVERIFY2(status.startsWith(QStringLiteral("Good (Calculated")) || status.startsWith(QStringLiteral("Uncertain")), qPrintable(status));
    QCOMPARE(lines[2], QStringLiteral("Ramp,%1,1,").arg(test::HistoryTestServer::isoMs(m_history.p0Ms + 1500)) +
                           (status.contains(QLatin1Char(',')) ? QLatin1Char('"') + status + QLatin1Char('"') : status));
}

void TestHistoryTrendModel::removesASeries() {
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({ramp(), test::demoNode(*m_connection, "Demo.Simulation.Sine")});
    QVERIFY(finished.wait(15000));
    QCOMPARE(m_model->rowCount(), 2);
    const int rampRows = test::HistoryTestServer::kFixedValues;
    QCOMPARE(m_values->rowCount(), rampRows);  // Sine has no values twenty minutes back
    QCOMPARE(m_model->series()[1].status.code, status::GoodNoData.code);
    QVERIFY(m_model->removeRows(0, 1));
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_values->rowCount(), 0);
    QCOMPARE(m_model->series()[0].node, test::demoNode(*m_connection, "Demo.Simulation.Sine"));
    // The same node twice is one series.
    m_model->addNodes({test::demoNode(*m_connection, "Demo.Simulation.Sine")});
    QCOMPARE(m_model->rowCount(), 1);
    QVERIFY(!m_model->removeRows(1, 1));
}

void TestHistoryTrendModel::dropsOfTheTreesDrag() {
    std::unique_ptr<QMimeData> data(makeNodeIdMimeData({ramp()}, m_connection->client()->nodeIdConverter()));
    QVERIFY(m_model->canDropMimeData(data.get(), Qt::CopyAction, -1, -1, {}));
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    QVERIFY(m_model->dropMimeData(data.get(), Qt::CopyAction, -1, -1, {}));
    QCOMPARE(m_model->rowCount(), 1);
    QVERIFY(finished.wait(15000));
    QCOMPARE(int(m_model->series().front().values.size()), test::HistoryTestServer::kFixedValues);
    QMimeData other;
    other.setData(QStringLiteral("application/x-other"), "x");
    QVERIFY(!m_model->canDropMimeData(&other, Qt::CopyAction, -1, -1, {}));
}

void TestHistoryTrendModel::theServersAggregates() {
    QCOMPARE(m_model->aggregatesFromServer(), false);
    QCOMPARE(int(m_model->aggregates().size()), int(standardAggregates().size()));  // before: the standard list
    QSignalSpy loaded(m_model.get(), &HistoryTrendModel::aggregatesLoaded);
    m_model->loadAggregates();
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.at(0).at(0).toBool(), true);
    QStringList names;
    for (const HistoryAggregate& a : m_model->aggregates()) names << a.name;
    // Ours: Interpolative .. PercentBad (docs/History.md), in the order of OPC 10000-13.
    QCOMPARE(names.size(), 18);
    QCOMPARE(names.front(), QStringLiteral("Interpolative"));
    QVERIFY(names.contains(QStringLiteral("Average")));
    QVERIFY(names.contains(QStringLiteral("Count")));
    QVERIFY(!names.contains(QStringLiteral("TimeAverage2")));
    QCOMPARE(names.indexOf(QStringLiteral("Average")) < names.indexOf(QStringLiteral("Count")), true);
}

void TestHistoryTrendModel::lastMinutesReadAgainAndAgain() {
    m_model->setLastMinutes(1);
    m_model->setCyclicUpdate(1);
    QSignalSpy finished(m_model.get(), &HistoryTrendModel::readFinished);
    m_model->addNodes({test::demoNode(*m_connection, "Demo.Simulation.Sine")});
    QVERIFY(finished.wait(15000));
    QVERIFY2(!m_model->series().front().values.empty(), "the sampled Sine has values in the last minute");
    const qint64 newest = m_model->series().front().values.back().sourceTimestamp.toQDateTime().toMSecsSinceEpoch();
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() >= 3, 10000);
    // Sampled every 100 ms meanwhile: the later reads end later.
    const qint64 later = m_model->series().front().values.back().sourceTimestamp.toQDateTime().toMSecsSinceEpoch();
    QVERIFY2(later >= newest + 1000, qPrintable(QStringLiteral("%1 then %2").arg(newest).arg(later)));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(std::abs(m_model->readEndMs() - now) < 3000);
    QCOMPARE(m_model->readEndMs() - m_model->readStartMs(), qint64(60000));
    // Off: no more reads.
    m_model->setCyclicUpdate(0);
    QTest::qWait(300);
    const int reads = int(finished.size());
    QTest::qWait(2500);
    QCOMPARE(int(finished.size()), reads);
}

void TestHistoryTrendModel::notConnected() {
    Connection idle(m_dir.filePath(QStringLiteral("idle-pki")));
    HistoryTrendModel model(&idle);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(&model, &HistoryTrendModel::readFinished);
    model.addNodes({NodeId(2, "Demo.Simulation.Ramp")});
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).value<StatusCode>().code, status::BadServerNotConnected.code);
    QCOMPARE(model.index(0, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Bad_ServerNotConnected"));
}

UA_TEST_MAIN(TestHistoryTrendModel)
#include "tst_history_trend_model.moc"
