// The window's History tab (issue 30 item 5) against our Server in process with history
// (HistoryTestServer.h: Ramp's fixed series of 120 values, one every 500 ms, known exactly; Sine
// sampled; Int32 without history), offscreen: a Variable added from the tree's context menu and one
// dropped on the chart, the raw read's points, Count per 10 s as 6 buckets, an axis per series in
// its colour on alternating sides, a node without history named with its status in the series table
// and the legend, hover on a line, the values table as CSV and the chart as PNG, Remove. The Event
// history tab: the Server object's events read back, and a Variable's Bad_HistoryOperationUnsupported
// said in its status line (with UA_SCREENSHOT_DIR set, saved as client-14-event-history.png).
#include "../HistoryTestServer.h"
#include "WindowTestUtil.h"
#include "core/Connection.h"
#include "models/AddressTreeModel.h"
#include "models/HistoryTrendModel.h"
#include "models/HistoryValuesModel.h"
#include "models/NodeIdMime.h"
#include "window/AddressPanel.h"
#include "window/HistoryChartView.h"
#include "window/EventHistoryPanel.h"
#include "window/HistoryTrendPanel.h"
#include "models/EventHistoryModel.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/events/EventManager.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMimeData>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QValueAxis>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowHistory : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void addsFromTheTreesContextMenu();
    void drawsTheRawValuesOfAKnownWindow();
    void countPerTenSecondsGivesSixBuckets();
    void aDropOnTheChartAddsASeriesWithItsOwnAxis();
    void aNodeWithoutHistoryShowsItsStatus();
    void hoverShowsTheNearestPoint();
    void exportsCsvAndPng();
    void removesASeries();
    void eventHistoryTab();

private:
    HistoryTrendPanel* panel() const { return m_window->historyTrend(); }
    QString node(const char* name) const { return QStringLiteral("nsu=urn:ua-workbench:demo;s=") + QLatin1String(name); }
    NodeId nodeId(const char* name) const {
        return *parseUserNodeId(node(name), m_window->connection()->client()->nodeIdConverter());
    }
    // Read with the panel's settings; false when no readFinished came.
    bool readAndWait();
    int rowOf(const char* name) const;

    QTemporaryDir m_dir;
    test::HistoryTestServer m_history;
    std::unique_ptr<MainWindow> m_window;
};

void TestClientWindowHistory::initTestCase() {
    QVERIFY(m_dir.isValid());
    const QString error = m_history.start(m_dir);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    WindowOptions options;
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    options.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    ConnectionSettings s;
    s.endpointUrl = m_history.url;
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyNone);
    s.securityMode = MessageSecurityMode::None;
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>().code, status::Good.code);
}

void TestClientWindowHistory::cleanupTestCase() {
    m_window.reset();
    m_history.server.reset();
}

bool TestClientWindowHistory::readAndWait() {
    QSignalSpy finished(panel()->model(), &HistoryTrendModel::readFinished);
    panel()->read();
    return finished.wait(15000);
}

int TestClientWindowHistory::rowOf(const char* name) const {
    const NodeId id = nodeId(name);
    const auto& all = panel()->model()->series();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].node == id) return int(i);
    return -1;
}

void TestClientWindowHistory::addsFromTheTreesContextMenu() {
    QTabWidget* tabs = m_window->centerTabs();
    QCOMPARE(tabs->tabText(tabs->indexOf(panel())), QStringLiteral("History"));
    // The fixed window first, so that the read the addition starts is of it.
    panel()->setTimeRange(m_history.fixedStart(), m_history.fixedEnd());
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(node("Demo.Simulation.Ramp"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(0).value<StatusCode>().code, status::Good.code);
    QSignalSpy finished(panel()->model(), &HistoryTrendModel::readFinished);
    QVERIFY(test::chooseContextAction(address->tree(), address->tree()->currentIndex(), QStringLiteral("historyTrendAction")));
    QVERIFY(tabs->currentWidget() == panel());
    QCOMPARE(panel()->model()->rowCount(), 1);
    QVERIFY(finished.wait(15000));
    QTRY_COMPARE_WITH_TIMEOUT(panel()->model()->index(0, HistoryTrendModel::NameColumn).data().toString(), QStringLiteral("Ramp"), 5000);
    // The tab looked at while connected: the server's aggregates in the list.
    auto* aggregate = panel()->findChild<QComboBox*>(QStringLiteral("historyAggregate"));
    QVERIFY(aggregate);
    QTRY_VERIFY_WITH_TIMEOUT(panel()->model()->aggregatesFromServer(), 5000);
    QCOMPARE(aggregate->count(), 1 + 18);  // Raw and ours
    QCOMPARE(aggregate->itemText(0), QStringLiteral("Raw"));
    QVERIFY(aggregate->findText(QStringLiteral("Count")) > 0);
}

void TestClientWindowHistory::drawsTheRawValuesOfAKnownWindow() {
    QVERIFY(panel()->setAggregate(QStringLiteral("Raw")));
    QVERIFY(readAndWait());
    const HistorySeries& ramp = panel()->model()->series().front();
    QLineSeries* line = panel()->chartView()->lineSeries(ramp.key);
    QVERIFY(line);
    QCOMPARE(line->count(), test::HistoryTestServer::kFixedValues);
    for (int k : {0, 33, 119}) {
        QCOMPARE(qint64(line->at(k).x()), m_history.p0Ms + k * test::HistoryTestServer::kFixedStepMs);
        QCOMPARE(line->at(k).y(), test::HistoryTestServer::fixedValue(k));
    }
    // X spans the range asked for; Y is the series' own axis, around 0 .. 10, in its colour.
    QDateTimeAxis* x = panel()->chartView()->timeAxis();
    QCOMPARE(x->min().toMSecsSinceEpoch(), m_history.p0Ms);
    QCOMPARE(x->max().toMSecsSinceEpoch(), m_history.p0Ms + 60000);
    QValueAxis* y = panel()->chartView()->valueAxis(ramp.key);
    QVERIFY(y);
    // Values 0 .. 10, on round ticks: 0, 2, ..., 10.
    QCOMPARE(y->min(), 0.0);
    QCOMPARE(y->max(), 10.0);
    QCOMPARE(y->tickCount(), 6);
    QCOMPARE(y->linePenColor(), ramp.color);
    QCOMPARE(line->pen().color(), ramp.color);
    QCOMPARE(y->titleText(), QStringLiteral("Ramp"));
    // The table below: every value.
    QCOMPARE(panel()->valuesView()->model()->rowCount(), test::HistoryTestServer::kFixedValues);
    QCOMPARE(panel()->model()->index(0, HistoryTrendModel::CountColumn).data().toInt(), test::HistoryTestServer::kFixedValues);
}

void TestClientWindowHistory::countPerTenSecondsGivesSixBuckets() {
    QVERIFY(panel()->setAggregate(QStringLiteral("Count"), 10000));
    QVERIFY(!panel()->setAggregate(QStringLiteral("NoSuchAggregate")));
    QVERIFY(readAndWait());
    const HistorySeries& ramp = panel()->model()->series().front();
    QCOMPARE(ramp.status.code, status::Good.code);
    QLineSeries* line = panel()->chartView()->lineSeries(ramp.key);
    QCOMPARE(line->count(), 6);
    for (int i = 0; i < 6; ++i) {
        QCOMPARE(qint64(line->at(i).x()), m_history.p0Ms + i * 10000);
        QCOMPARE(line->at(i).y(), 20.0);
    }
    // Average per 30 s: the mean of (7k mod 11) over each half minute.
    QVERIFY(panel()->setAggregate(QStringLiteral("Average"), 30000));
    QVERIFY(readAndWait());
    line = panel()->chartView()->lineSeries(panel()->model()->series().front().key);
    QCOMPARE(line->count(), 2);
    for (int i = 0; i < 2; ++i) {
        double sum = 0;
        for (int k = i * 60; k < i * 60 + 60; ++k) sum += test::HistoryTestServer::fixedValue(k);
        QVERIFY2(std::abs(line->at(i).y() - sum / 60) < 1e-9, qPrintable(QString::number(line->at(i).y())));
    }
    QVERIFY(panel()->setAggregate(QStringLiteral("Raw")));
    QVERIFY(readAndWait());
}

void TestClientWindowHistory::aDropOnTheChartAddsASeriesWithItsOwnAxis() {
    // What the tree's drag carries, dropped on the chart.
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(node("Demo.Simulation.Sine"));
    QVERIFY(done.wait(10000));
    std::unique_ptr<QMimeData> data(address->model()->mimeData({address->tree()->currentIndex()}));
    QVERIFY(data);
    HistoryChartView* chart = panel()->chartView();
    QVERIFY(chart->acceptDrops());
    QSignalSpy finished(panel()->model(), &HistoryTrendModel::readFinished);
    const QPoint center = chart->viewport()->rect().center();
    QDragEnterEvent enter(center, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(chart->viewport(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(center), Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(chart->viewport(), &drop);
    QVERIFY(drop.isAccepted());
    QCOMPARE(panel()->model()->rowCount(), 2);
    QVERIFY(finished.wait(15000));
    // The fixed window has no Sine; the last two minutes have both, sampled since the server started
    // (every 100 ms; fewer on a loaded machine: read until there are 20).
    panel()->setLastMinutes(2, 0);
    QVERIFY(readAndWait());
    const HistorySeries& sine = panel()->model()->series()[std::size_t(rowOf("Demo.Simulation.Sine"))];
    QCOMPARE(sine.status.code, status::Good.code);
    QTRY_VERIFY_WITH_TIMEOUT(readAndWait() && panel()->chartView()->lineSeries(sine.key)->count() >= 20, 15000);
    QLineSeries* sineLine = panel()->chartView()->lineSeries(sine.key);
    const HistorySeries& ramp = panel()->model()->series()[std::size_t(rowOf("Demo.Simulation.Ramp"))];
    QValueAxis* rampAxis = chart->valueAxis(ramp.key);
    QValueAxis* sineAxis = chart->valueAxis(sine.key);
    QVERIFY(rampAxis && sineAxis && rampAxis != sineAxis);
    QVERIFY(rampAxis->alignment() == Qt::AlignLeft);
    QVERIFY(sineAxis->alignment() == Qt::AlignRight);
    QCOMPARE(sineAxis->linePenColor(), sine.color);
    QVERIFY(sine.color != ramp.color);
    QCOMPARE(sineAxis->labelsColor(), sine.color);
    // Each axis spans its own series' values (Sine: 100 sin(2 pi t / 60 s), a few seconds of it; Ramp
    // counts 0 .. 99 every 10 s), to the round ticks around them.
    for (auto [line, axis] : {std::pair{sineLine, sineAxis}, std::pair{panel()->chartView()->lineSeries(ramp.key), rampAxis}}) {
        double lo = 1e300, hi = -1e300;
        for (int i = 0; i < line->count(); ++i) {
            lo = std::min(lo, line->at(i).y());
            hi = std::max(hi, line->at(i).y());
        }
        QVERIFY2(axis->min() <= lo && axis->max() >= hi && axis->max() - axis->min() < (hi - lo) * 1.8 + 2.1,
                 qPrintable(QStringLiteral("%1 .. %2 for %3 .. %4").arg(axis->min()).arg(axis->max()).arg(lo).arg(hi)));
    }
    // (Whether the two ranges differ depends on how far the Sine and the Ramp have run: the loop above
    // checks what matters, that each axis fits its own series.)
    QCOMPARE(int(chart->chart()->axes(Qt::Vertical).size()), 2);
    QCOMPARE(int(chart->chart()->axes(Qt::Horizontal).size()), 1);
}

void TestClientWindowHistory::aNodeWithoutHistoryShowsItsStatus() {
    panel()->setTimeRange(m_history.fixedStart(), m_history.fixedEnd());  // the known window again
    QSignalSpy finished(panel()->model(), &HistoryTrendModel::readFinished);
    m_window->addToHistoryTrend({nodeId("Demo.Scalars.Int32")});
    QVERIFY(finished.wait(15000));
    const int row = rowOf("Demo.Scalars.Int32");
    QCOMPARE(row, 2);
    HistoryTrendModel* model = panel()->model();
    QCOMPARE(model->series()[std::size_t(row)].status.code, status::BadHistoryOperationUnsupported.code);
    QTableView* series = panel()->seriesView();
    QCOMPARE(series->model()->index(row, HistoryTrendModel::StatusColumn).data().toString(), QStringLiteral("Bad_HistoryOperationUnsupported"));
    QVERIFY(!series->isColumnHidden(HistoryTrendModel::StatusColumn));
    // No axis of its own; its legend entry says why.
    const quint64 key = model->series()[std::size_t(row)].key;
    QVERIFY(!panel()->chartView()->valueAxis(key));
    QLineSeries* line = panel()->chartView()->lineSeries(key);
    QVERIFY(line);
    QCOMPARE(line->count(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(panel()->chartView()->lineSeries(model->series()[std::size_t(row)].key)->name(),
                              QStringLiteral("Int32: Bad_HistoryOperationUnsupported"), 5000);
    auto* message = panel()->findChild<QLabel*>(QStringLiteral("historyMessage"));
    QVERIFY(message);
    QVERIFY2(message->text().contains(QStringLiteral("1 series failed")), qPrintable(message->text()));
    // The others are drawn as before.
    QCOMPARE(panel()->chartView()->lineSeries(model->series()[0].key)->count(), test::HistoryTestServer::kFixedValues);
}

void TestClientWindowHistory::hoverShowsTheNearestPoint() {
    panel()->setTimeRange(m_history.fixedStart(), m_history.fixedEnd());
    QVERIFY(readAndWait());
    const HistorySeries& ramp = panel()->model()->series().front();
    QLineSeries* line = panel()->chartView()->lineSeries(ramp.key);
    QVERIFY(line && line->count() == test::HistoryTestServer::kFixedValues);
    // Qt Charts reports a point on the line under the cursor; a little after point 40, near its value.
    const QPointF near(line->at(40).x() + 60, line->at(40).y() + 0.05);
    emit line->hovered(near, true);
    const QString expected = QStringLiteral("Ramp = %1 at %2 (Good)")
                                 .arg(test::HistoryTestServer::fixedValue(40))
                                 .arg(test::HistoryTestServer::isoMs(m_history.p0Ms + 40 * test::HistoryTestServer::kFixedStepMs));
    QCOMPARE(panel()->hoverText(), expected);
    auto* label = panel()->findChild<QLabel*>(QStringLiteral("historyHover"));
    QVERIFY(label);
    QCOMPARE(label->text(), expected);
    // Nearer point 41 (the next half second).
    emit line->hovered(QPointF(line->at(41).x() - 30, line->at(41).y()), true);
    QVERIFY2(panel()->hoverText().contains(test::HistoryTestServer::isoMs(m_history.p0Ms + 41 * 500)), qPrintable(panel()->hoverText()));
    emit line->hovered(near, false);
}

void TestClientWindowHistory::exportsCsvAndPng() {
    panel()->setTimeRange(m_history.fixedStart(), m_history.fixedEnd());
    QVERIFY(readAndWait());
    const QString csvPath = m_dir.filePath(QStringLiteral("history.csv"));
    QString error;
    QVERIFY2(panel()->exportCsv(csvPath, &error), qPrintable(error));
    QFile file(csvPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // The header and Ramp's 120 values (Sine has none in the fixed window, Int32 failed).
    QCOMPARE(lines.size(), 1 + test::HistoryTestServer::kFixedValues);
    QCOMPARE(lines[0], QStringLiteral("series,sourceTimestamp,value,status"));
    for (int k : {0, 5, 119})
        QCOMPARE(lines[1 + k], QStringLiteral("Ramp,%1,%2,Good")
                                   .arg(test::HistoryTestServer::isoMs(m_history.p0Ms + k * test::HistoryTestServer::kFixedStepMs))
                                   .arg(test::HistoryTestServer::fixedValue(k)));
    const QString pngPath = m_dir.filePath(QStringLiteral("history.png"));
    QVERIFY2(panel()->exportPng(pngPath, &error), qPrintable(error));
    const QImage image(pngPath);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), panel()->chartView()->size() * panel()->chartView()->devicePixelRatio());
    // Not blank: the line's colour is in it.
    const QColor rampColor = panel()->model()->series().front().color;
    bool found = false;
    for (int y = 0; y < image.height() && !found; y += 1)
        for (int x = 0; x < image.width() && !found; x += 1) found = image.pixelColor(x, y) == rampColor;
    QVERIFY(found);
    // A file that cannot be written: false with the reason.
    QVERIFY(!panel()->exportCsv(m_dir.filePath(QStringLiteral("no/such/dir/x.csv")), &error));
    QVERIFY2(error.startsWith(QStringLiteral("Not exported")), qPrintable(error));
}

void TestClientWindowHistory::removesASeries() {
    HistoryTrendModel* model = panel()->model();
    const int before = model->rowCount();
    const int row = rowOf("Demo.Scalars.Int32");
    const quint64 key = model->series()[std::size_t(row)].key;
    QTableView* view = panel()->seriesView();
    view->selectRow(row);
    QVERIFY(test::chooseContextAction(view, view->model()->index(row, 0), QStringLiteral("historyRemoveAction")));
    QCOMPARE(model->rowCount(), before - 1);
    QCOMPARE(rowOf("Demo.Scalars.Int32"), -1);
    QVERIFY(!panel()->chartView()->lineSeries(key));
    QCOMPARE(int(panel()->chartView()->chart()->series().size()), before - 1);
    // Ramp too: its rows leave the values table (Sine has none in the fixed window).
    const int ramp = rowOf("Demo.Simulation.Ramp");
    view->selectRow(ramp);
    QVERIFY(test::chooseContextAction(view, view->model()->index(ramp, 0), QStringLiteral("historyRemoveAction")));
    QCOMPARE(model->rowCount(), before - 2);
    QCOMPARE(rowOf("Demo.Simulation.Ramp"), -1);
    QCOMPARE(panel()->valuesView()->model()->rowCount(), 0);
}

void TestClientWindowHistory::eventHistoryTab() {
    // Three events of a plant line half an hour back (the Server object keeps its events here).
    const qint64 t0 = (QDateTime::currentMSecsSinceEpoch() - 1'800'000) / 1000 * 1000;
    const char* messages[] = {"Line 3: filler pressure high", "Line 3: filler pressure normal", "Line 3: batch 4711 finished"};
    for (int k = 0; k < 3; ++k) {
        auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Line3.Filler", messages[k], uint16_t(k == 0 ? 700 : 300));
        e->set("Time", Variant(DateTime::fromUnixMs(t0 + k * 60'000)));
        m_history.server->events().raise(std::move(e));
    }
    EventHistoryPanel* panel = m_window->eventHistory();
    QVERIFY(panel);
    m_window->findChild<QTabWidget*>(QStringLiteral("centerTabs"))->setCurrentWidget(panel);
    QSignalSpy finished(panel->model(), &EventHistoryModel::readFinished);
    // The history thread writes events within its durability (500 ms here): read until they are in.
    const auto messagesRead = [&] {
        QStringList out;
        for (int r = 0; r < panel->model()->rowCount(); ++r) out << panel->model()->eventFields(r).value(EventHistoryModel::MessageColumn);
        return out;
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            finished.clear();
            panel->read(QStringLiteral("i=2253"), 60);
            return finished.wait(10000) && messagesRead().contains(QString::fromLatin1(messages[2]));
        }(),
        15000);
    const QStringList read = messagesRead();
    QVERIFY(read.indexOf(QString::fromLatin1(messages[0])) < read.indexOf(QString::fromLatin1(messages[2])));  // oldest first
    QVERIFY2(panel->status()->text().contains(QStringLiteral("event(s) in 1 request(s)")), qPrintable(panel->status()->text()));
    QCOMPARE(panel->view()->model(), panel->model());
    if (const QByteArray shots = qgetenv("UA_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(m_window->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/client-14-event-history.png")));
    // A Variable keeps no events: the status line says so, in red.
    QVERIFY(!panel->read(QStringLiteral("not a node"), 60));
    QVERIFY2(panel->status()->text().contains(QStringLiteral("is not a NodeId")), qPrintable(panel->status()->text()));
    finished.clear();
    QVERIFY(panel->read(node("Demo.Simulation.Ramp"), 60));
    QVERIFY(finished.wait(10000));
    QVERIFY2(panel->status()->text().contains(QStringLiteral("Bad_HistoryOperationUnsupported")), qPrintable(panel->status()->text()));
}

UA_TEST_MAIN(TestClientWindowHistory)
#include "tst_client_window_history.moc"
