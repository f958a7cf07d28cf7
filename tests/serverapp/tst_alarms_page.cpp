// The Alarms page and its model (issue 31 item 2) over a running server with an alarm on the
// demo's writable Double: the model's rows follow the conditions (state, severity colour,
// acknowledgement) under QAbstractItemModelTester; the page's form adds an alarm (and refuses bad
// ones with the reason), Acknowledge and Remove act on the chosen rows. Offscreen.
#include "AlarmsPage.h"
#include "models/AlarmsModel.h"
#include "SeverityColor.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/runtime/Server.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

class tst_alarms_page : public QObject {
    Q_OBJECT
private slots:
    void modelFollowsTheConditions();
    void pageAddsAcknowledgesAndRemoves();
};

namespace {

ServerConfig alarmConfig() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.alarmPollMs = 20;
    AlarmDefinition a;
    a.name = "Level";
    a.namespaceUri = "urn:ua-workbench:demo";
    a.input = NodeId(0, String("Demo.Scalars.Double"));
    a.high = 10;
    a.highHigh = 20;
    a.criticalSeverity = 900;
    cfg.alarms.push_back(a);
    return cfg;
}

void writeDouble(Server& server, double v) {
    const auto space = server.addressSpace().snapshot();
    const int ns = space->namespaceIndex("urn:ua-workbench:demo");
    DataValue d{Variant(v)};
    d.setStatus(status::Good);
    space->find(NodeId(uint16_t(ns), String("Demo.Scalars.Double")))->value->store(d);
}

} // namespace

void tst_alarms_page::modelFollowsTheConditions() {
    Server server(alarmConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    serverapp::AlarmsModel model(&server);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    writeDouble(server, 5);
    QTRY_VERIFY([&] {
        model.refresh();
        return model.rowCount() == 1 && model.condition(0).time.ticks != 0;
    }());
    const int row = model.rowOfKey(QStringLiteral("Level"));
    QCOMPARE(row, 0);
    QCOMPARE(model.index(row, serverapp::AlarmsModel::State).data().toString(), QStringLiteral("Normal"));
    QVERIFY(!model.index(row, serverapp::AlarmsModel::Name).data(Qt::BackgroundRole).isValid());
    writeDouble(server, 25);
    QTRY_VERIFY([&] {
        model.refresh();
        return model.condition(row).active;
    }());
    QCOMPARE(model.index(row, serverapp::AlarmsModel::State).data().toString(), QStringLiteral("HighHigh active"));
    QCOMPARE(model.index(row, serverapp::AlarmsModel::Severity).data().toInt(), 900);
    QCOMPARE(model.index(row, serverapp::AlarmsModel::Name).data(Qt::BackgroundRole).value<QColor>(), app::severityColor(900));
    QCOMPARE(model.index(row, serverapp::AlarmsModel::Acked).data().toString(), QStringLiteral("no"));
    QCOMPARE(model.index(row, serverapp::AlarmsModel::Value).data().toString(), QStringLiteral("25"));
    QCOMPARE(model.activeCount(), 1);
    QCOMPARE(model.unacknowledgedCount(), 1);
    QVERIFY(app::severityColor(300) != app::severityColor(900));
    server.stop();
}

void tst_alarms_page::pageAddsAcknowledgesAndRemoves() {
    Server server(alarmConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    app::LiveServer live(server);
    app::AlarmsPage page;
    page.show();
    page.attach(&live);
    writeDouble(server, 15);
    QTRY_VERIFY(page.model()->rowCount() == 1 && page.model()->condition(0).active);

    // A bad limit and a duplicate name are refused with the reason.
    page.nameEdit()->setText(QStringLiteral("Pump"));
    page.kindBox()->setCurrentIndex(0);
    page.inputEdit()->setText(QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Scalars.Boolean"));
    page.limitEdit(1)->setText(QStringLiteral("high"));
    QVERIFY(!page.addFromForm());
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("not a number")), qPrintable(page.statusLabel()->text()));
    page.limitEdit(1)->clear();
    QVERIFY(!page.addFromForm());  // a level alarm without limits
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("BadInvalidArgument")), qPrintable(page.statusLabel()->text()));
    page.nameEdit()->setText(QStringLiteral("Level"));
    page.kindBox()->setCurrentIndex(2);  // off-normal
    page.valueEdit()->setText(QStringLiteral("true"));
    QVERIFY(!page.addFromForm());
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("BadBrowseNameDuplicated")), qPrintable(page.statusLabel()->text()));
    // An off-normal alarm on the Boolean, normal true.
    page.nameEdit()->setText(QStringLiteral("Pump"));
    QVERIFY2(page.addFromForm(), qPrintable(page.statusLabel()->text()));
    QCOMPARE(page.model()->rowCount(), 2);
    const auto defs = server.conditions().definitions();
    QCOMPARE(defs.size(), std::size_t(2));
    QCOMPARE(defs[1].kind, AlarmKind::OffNormal);
    QCOMPARE(defs[1].stateValue, Variant(true));
    QVERIFY(server.addressSpace().snapshot()->find(NodeId(1, String("Alarms/Pump"))));

    // Acknowledge the active one.
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(page.view()->model());
    QVERIFY(proxy);
    const auto select = [&](const QString& name) {
        page.view()->selectionModel()->clearSelection();
        const QModelIndex source = page.model()->index(page.model()->rowOfKey(name), 0);
        page.view()->selectionModel()->select(proxy->mapFromSource(source), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    };
    select(QStringLiteral("Level"));
    page.acknowledgeChosen();
    QTRY_VERIFY(server.conditions().summaries()[0].acked);
    QCOMPARE(server.conditions().summaries()[0].comment.text, String("acknowledged in the server window"));
    // Remove the new one.
    select(QStringLiteral("Pump"));
    page.removeChosen();
    QCOMPARE(server.conditions().size(), std::size_t(1));
    QCOMPARE(page.model()->rowCount(), 1);
    QVERIFY(!server.addressSpace().snapshot()->find(NodeId(1, String("Alarms/Pump"))));
    page.attach(nullptr);
    server.stop();
}

UA_TEST_MAIN(tst_alarms_page)
#include "tst_alarms_page.moc"
