// The window's Event history (client-app/models/EventHistoryModel.h; OPC 10000-11 6.5.2
// ReadEventDetails) against our Server in process that keeps the Server object's events
// (HistoryTestServer.h), under QAbstractItemModelTester: five events raised an hour back come back
// oldest first with their fields (the event type by name), over several requests when the page is
// small; a maximum stops with Good_MoreData; a range without events is Good_NoData; a Variable keeps
// no events (Bad_HistoryOperationUnsupported). The tab itself: tests/clientapp/window/
// tst_client_window_history.cpp.
#include "../HistoryTestServer.h"
#include "ModelsTestUtil.h"
#include "models/EventHistoryModel.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/events/EventManager.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestEventHistoryModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void eventsComeBackOldestFirst();
    void aMaximumStopsWithMoreData();
    void emptyRangeAndANodeWithoutEvents();

private:
    StatusCode readAndWait(EventHistoryModel& m, const NodeId& node, qint64 fromMs, qint64 toMs, quint64 max = 0);

    QTemporaryDir m_dir;
    test::HistoryTestServer m_history;
    std::unique_ptr<Connection> m_connection;
    qint64 m_t0 = 0;  // the first event's time, ms since 1970, an hour back
};

void TestEventHistoryModel::initTestCase() {
    QVERIFY(m_dir.isValid());
    const QString error = m_history.start(m_dir);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_t0 = (QDateTime::currentMSecsSinceEpoch() - 3'600'000) / 1000 * 1000;
    for (int k = 0; k < 5; ++k) {
        auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "WindowTest", "window event " + std::to_string(k),
                           uint16_t(200 + k));
        e->set("Time", Variant(DateTime::fromUnixMs(m_t0 + k * 1000)));
        m_history.server->events().raise(std::move(e));
    }
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("client-pki")));
    QCOMPARE(test::connectApp(*m_connection, m_history.url).code, status::Good.code);
}

void TestEventHistoryModel::cleanupTestCase() {
    m_connection.reset();
    m_history.server.reset();
}

StatusCode TestEventHistoryModel::readAndWait(EventHistoryModel& m, const NodeId& node, qint64 fromMs, qint64 toMs, quint64 max) {
    QSignalSpy finished(&m, &EventHistoryModel::readFinished);
    m.read(node, QDateTime::fromMSecsSinceEpoch(fromMs, Qt::UTC), QDateTime::fromMSecsSinceEpoch(toMs, Qt::UTC), max);
    // The events are written into the history file within its durability (500 ms here).
    if (finished.isEmpty() && !finished.wait(10000)) return status::BadTimeout;
    return finished.at(0).at(0).value<StatusCode>();
}

void TestEventHistoryModel::eventsComeBackOldestFirst() {
    EventHistoryModel m(m_connection.get());
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.status(), StatusCode(status::BadWaitingForResponse));
    // The history thread writes events within its durability: read until all five are there.
    QTRY_VERIFY_WITH_TIMEOUT((readAndWait(m, NodeId(id::Server), m_t0, m_t0 + 5000).isGood() && m.rowCount() == 5), 10000);
    QCOMPARE(m.columnCount(), 5);
    for (int k = 0; k < 5; ++k) {
        const QStringList e = m.eventFields(k);
        QCOMPARE(e.value(EventHistoryModel::TimeColumn), QDateTime::fromMSecsSinceEpoch(m_t0 + k * 1000, Qt::UTC).toString(Qt::ISODateWithMs));
        QCOMPARE(e.value(EventHistoryModel::SeverityColumn), QString::number(200 + k));
        QCOMPARE(e.value(EventHistoryModel::SourceColumn), QStringLiteral("WindowTest"));
        QCOMPARE(e.value(EventHistoryModel::MessageColumn), QStringLiteral("window event %1").arg(k));
    }
    QCOMPARE(m.requests(), 1);
    // The event type by name (a standard type: known without a call), its NodeId in the tooltip.
    QCOMPARE(m.index(0, EventHistoryModel::EventTypeColumn).data().toString(), QStringLiteral("BaseEventType"));
    QCOMPARE(m.index(0, EventHistoryModel::EventTypeColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("i=2041"));
    QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Time (UTC)"));
}

void TestEventHistoryModel::aMaximumStopsWithMoreData() {
    EventHistoryModel m(m_connection.get());
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT((readAndWait(m, NodeId(id::Server), m_t0, m_t0 + 5000).isGood() && m.rowCount() == 5), 10000);
    QCOMPARE(readAndWait(m, NodeId(id::Server), m_t0, m_t0 + 5000, 3), StatusCode(status::GoodMoreData));
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.eventFields(2).value(EventHistoryModel::MessageColumn), QStringLiteral("window event 2"));
    QCOMPARE(m.requests(), 2);  // the read, then the release of its ContinuationPoint
}

void TestEventHistoryModel::emptyRangeAndANodeWithoutEvents() {
    EventHistoryModel m(m_connection.get());
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const StatusCode empty = readAndWait(m, NodeId(id::Server), m_t0 - 60'000, m_t0 - 30'000);
    QVERIFY2(empty.isGood(), empty.name().c_str());
    QCOMPARE(m.rowCount(), 0);
    const NodeId ramp = test::demoNode(*m_connection, "Demo.Simulation.Ramp");
    QCOMPARE(readAndWait(m, ramp, m_t0, m_t0 + 5000), StatusCode(status::BadHistoryOperationUnsupported));
    QCOMPARE(m.rowCount(), 0);
    // A new read drops the rows of the one before at once.
    QVERIFY(readAndWait(m, NodeId(id::Server), m_t0, m_t0 + 5000).isGood());
    QCOMPARE(m.rowCount(), 5);
}

UA_TEST_MAIN(TestEventHistoryModel)
#include "tst_event_history_model.moc"
