// The Reverse Connect targets in the server app (issue 32 item 4): ReverseConnectionsModel under
// QAbstractItemModelTester, fed as the window feeds it (Server::reverseConnectStates() on each
// DiagnosticsPoller tick) from a real Server that dials three targets: our Client's ReverseListener
// (a spare held open, then used by a Client's connection, then the next spare), a closed port
// (failures in a row and the connect error), and a URL that is not opc.tcp (never dialled). Rows
// keep their identity: values change by dataChanged, never a reset. The window's Sessions page shows
// the table below the Sessions (or, with nothing configured, says how to configure it); with
// UA_SCREENSHOT_DIR set it saves 11-reverse-connect.png.
#include "../client/ClientTestUtil.h"
#include "MainWindow.h"
#include "TestServerConfig.h"
#include "models/DiagnosticsPoller.h"
#include "models/ReverseConnectionsModel.h"
#include "ua/client/channel/ReverseListener.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/runtime/Server.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::serverapp;

namespace {

// The cell's text.
QString reverseCell(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data().toString();
}

ReverseConnector::TargetState reverseTarget(const QString& url) {
    ReverseConnector::TargetState s;
    s.url = url;
    return s;
}

} // namespace

class TestReverseConnections : public QObject {
    Q_OBJECT
private slots:
    void statesAndRowIdentity();
    void modelFollowsALiveServer();
    void sessionsPageShowsTheTargets();
    void sessionsPageSaysWhenNoneIsConfigured();
};

// Hand-made states: every state has its text, a URL configured twice is two rows, a change of one
// target is a dataChanged over that row only, and rows come and go by key.
void TestReverseConnections::statesAndRowIdentity() {
    ReverseConnectionsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    const QString a = QStringLiteral("opc.tcp://a:4843");
    const QString b = QStringLiteral("opc.tcp://b:4843");
    std::vector<ReverseConnector::TargetState> states{reverseTarget(a), reverseTarget(b), reverseTarget(a)};
    model.update(states);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Url), a);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Url), b);
    QCOMPARE(reverseCell(model, 2, ReverseConnectionsModel::Url), a);  // the same URL twice: two targets
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::State), QStringLiteral("not dialled yet"));

    // The same states again: nothing is reported.
    model.update(states);
    QCOMPARE(changed.size(), 0);

    // The second "a" dials: only its row changes.
    const QPersistentModelIndex secondA = model.index(2, ReverseConnectionsModel::State);
    states[2].dialing = true;
    states[2].dials = 1;
    model.update(states);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed[0][0].toModelIndex().row(), 2);
    QCOMPARE(changed[0][1].toModelIndex().row(), 2);
    QCOMPARE(changed[0][1].toModelIndex().column(), ReverseConnectionsModel::ColumnCount - 1);
    QCOMPARE(secondA.data().toString(), QStringLiteral("dialling"));
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::State), QStringLiteral("not dialled yet"));

    // Every state's text.
    auto text = [](auto edit) {
        ReverseConnector::TargetState s = reverseTarget(QStringLiteral("opc.tcp://x:1"));
        edit(s);
        return ReverseConnectionsModel::stateText(s);
    };
    QCOMPARE(text([](auto& s) { s.valid = false; }), QStringLiteral("invalid URL"));
    QCOMPARE(text([](auto& s) { s.dialing = true; s.dials = 4; s.failures = 3; }), QStringLiteral("dialling (after failure 3)"));
    QCOMPARE(text([](auto& s) { s.spareOpen = true; s.dials = 1; }), QStringLiteral("spare open, waiting for Hello"));
    QCOMPARE(text([](auto& s) { s.dials = 3; s.failures = 3; }), QStringLiteral("retrying after failure 3"));
    QCOMPARE(text([](auto& s) { s.dials = 2; }), QStringLiteral("spare timed out, dialling again"));

    // Counters, their sort values and the trouble colour.
    states[1].dials = 12;
    states[1].failures = 12;
    states[1].used = 0;
    states[1].lastError = QStringLiteral("Connection refused");
    model.update(states);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Dials), QStringLiteral("12"));
    QCOMPARE(model.index(1, ReverseConnectionsModel::Failures).data(SortRole).toUInt(), 12u);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::LastError), QStringLiteral("Connection refused"));
    QVERIFY(model.index(1, ReverseConnectionsModel::State).data(Qt::ForegroundRole).value<QColor>().isValid());
    QVERIFY(!model.index(0, ReverseConnectionsModel::State).data(Qt::ForegroundRole).isValid());

    // A configuration without the first "a": the one left is the first of its URL and takes that
    // row (two targets of one URL cannot be told apart otherwise); the second "a"'s row goes, b
    // keeps its row and values.
    model.update({states[1], states[2]});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(removed.size(), 1);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Url), a);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::State), QStringLiteral("dialling"));
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Url), b);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Dials), QStringLiteral("12"));
    QVERIFY(!secondA.isValid());
    model.update({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.size(), 0);
    QCOMPARE(removed.size(), 2);
    QCOMPARE(inserted.size(), 1);
}

// A real Server dialling three targets, the model refreshed on the poller's tick as in the window.
void TestReverseConnections::modelFollowsALiveServer() {
    ServerConfig cfg = test::localServerConfig();
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.port = test::freeLocalPort();  // known before start: the listener expects this EndpointUrl
    cfg.reverseConnect.retryMinMs = 50;
    cfg.reverseConnect.retryMaxMs = 200;
    ReverseListener listener;
    QVERIFY2(listener.listen(QHostAddress::LocalHost, 0), qPrintable(listener.errorString()));
    const QString endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(cfg.port);
    listener.expect({endpointUrl, {}});  // held until a Client waits for it
    const QString listening = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(listener.port());
    const QString closed = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(test::freeLocalPort());
    const QString invalid = QStringLiteral("http://not-opc-tcp:1234");
    cfg.reverseConnect.clientUrls = {listening, closed, invalid};
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server.endpointUrl(), endpointUrl);

    ReverseConnectionsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    DiagnosticsPoller poller(server.diagnostics());
    int ticks = 0;
    QObject::connect(&poller, &DiagnosticsPoller::snapshotReady, &model, [&] {
        model.update(server.reverseConnectStates());
        ++ticks;
    });
    poller.setInterval(100);
    poller.start();
    QTRY_VERIFY_WITH_TIMEOUT(ticks > 0, 5000);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Url), listening);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Url), closed);
    QCOMPARE(reverseCell(model, 2, ReverseConnectionsModel::Url), invalid);
    const QPersistentModelIndex listenerRow = model.index(0, ReverseConnectionsModel::State);

    // The URL that is not opc.tcp is never dialled.
    QCOMPARE(reverseCell(model, 2, ReverseConnectionsModel::State), QStringLiteral("invalid URL"));
    QCOMPARE(reverseCell(model, 2, ReverseConnectionsModel::Dials), QStringLiteral("0"));
    QVERIFY(!reverseCell(model, 2, ReverseConnectionsModel::LastError).isEmpty());

    // Nobody listens on the closed port: failures in a row, the connect error, never used.
    QTRY_VERIFY_WITH_TIMEOUT(model.index(1, ReverseConnectionsModel::Failures).data(SortRole).toUInt() >= 3, 15000);
    QVERIFY2(reverseCell(model, 1, ReverseConnectionsModel::LastError).contains(QStringLiteral("refused"), Qt::CaseInsensitive),
             qPrintable(reverseCell(model, 1, ReverseConnectionsModel::LastError)));
    const QString closedState = reverseCell(model, 1, ReverseConnectionsModel::State);
    QVERIFY2(closedState.startsWith(QStringLiteral("retrying after failure")) ||
                 closedState.startsWith(QStringLiteral("dialling (after failure")),
             qPrintable(closedState));
    QVERIFY(model.index(1, ReverseConnectionsModel::Dials).data(SortRole).toULongLong() >= 3);
    QCOMPARE(reverseCell(model, 1, ReverseConnectionsModel::Used), QStringLiteral("0"));

    // The listener holds the spare: open, waiting for a Hello, nothing used yet.
    QTRY_COMPARE_WITH_TIMEOUT(listenerRow.data().toString(), QStringLiteral("spare open, waiting for Hello"), 10000);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Used), QStringLiteral("0"));
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Dials), QStringLiteral("1"));
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Failures), QStringLiteral("0"));

    // A Client connects over it: Used counts it, and the next spare is dialled and held.
    ClientConfig cc;
    cc.reverseListener = &listener;
    Client client(cc);
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::Good);
    QTRY_COMPARE_WITH_TIMEOUT(reverseCell(model, 0, ReverseConnectionsModel::Used), QStringLiteral("1"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(listenerRow.data().toString(), QStringLiteral("spare open, waiting for Hello"), 10000);
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Dials), QStringLiteral("2"));
    QCOMPARE(reverseCell(model, 0, ReverseConnectionsModel::Failures), QStringLiteral("0"));
    QVERIFY(reverseCell(model, 0, ReverseConnectionsModel::LastError).isEmpty());

    // Row identity held across every refresh: one insertion, values by dataChanged, no reset.
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(removed.size(), 0);
    QCOMPARE(resets.size(), 0);
    QVERIFY(changed.size() > 0);
    QVERIFY(listenerRow.isValid());
    QCOMPARE(listenerRow.row(), 0);

    // Stopped: the server has no targets any more and the rows go.
    test::Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    poller.stop();
    server.stop();
    model.update(server.reverseConnectStates());
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(resets.size(), 0);
}

// The window's Sessions page: the Reverse Connect table with the running server's targets, below
// the Session that came over one of them.
void TestReverseConnections::sessionsPageShowsTheTargets() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ReverseListener listener;  // a client that waits for this server: its spare is used
    ReverseListener idle;      // a client listener nobody connects through yet: its spare waits
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    QVERIFY(idle.listen(QHostAddress::LocalHost, 0));
    app::ServerSettings s;
    s.hostName = QStringLiteral("127.0.0.1");
    s.port = test::freeLocalPort();
    s.ioThreads = 1;
    s.pkiDir = dir.filePath(QStringLiteral("pki"));
    s.demoEventsMs = 0;
    s.shutdownDelaySeconds = 0;
    s.reverseConnect.retryMinMs = 1000;
    s.reverseConnect.retryMaxMs = 60'000;
    const QString endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(s.port);
    for (ReverseListener* l : {&listener, &idle}) l->expect({endpointUrl, {}});
    const QString closed = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(test::freeLocalPort());
    s.reverseConnect.clientUrls = {QStringLiteral("opc.tcp://127.0.0.1:%1").arg(listener.port()),
                                   QStringLiteral("opc.tcp://127.0.0.1:%1").arg(idle.port()), closed};
    app::MainWindow window(s, dir.filePath(QStringLiteral("ua-server.json")));
    window.show();
    QString error;
    QVERIFY2(window.startServer(&error), qPrintable(error));
    QCOMPARE(window.server()->endpointUrl(), endpointUrl);
    QWidget* sessionsPage = window.findChild<QWidget*>(QStringLiteral("sessionsPage"));
    QVERIFY(sessionsPage);
    window.pages()->setCurrentWidget(sessionsPage);

    auto* view = window.findChild<QTableView*>(QStringLiteral("reverseConnectionsView"));
    auto* empty = window.findChild<QLabel*>(QStringLiteral("reverseConnectionsEmpty"));
    auto* summary = window.findChild<QLabel*>(QStringLiteral("reverseConnectionsSummary"));
    QVERIFY(view && empty && summary);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 3, 5000);
    QVERIFY(view->isVisible());
    QVERIFY(!empty->isVisible());
    QCOMPARE(view->model()->headerData(ReverseConnectionsModel::State, Qt::Horizontal).toString(), QStringLiteral("State"));
    for (int r = 0; r < 3; ++r)
        QCOMPARE(reverseCell(*view->model(), r, ReverseConnectionsModel::Url), s.reverseConnect.clientUrls[r]);

    ClientConfig cc;
    cc.reverseListener = &listener;
    cc.sessionName = QStringLiteral("Line 3 HMI (reverse connect)");
    Client client(cc);
    QCOMPARE(test::connectSession(client, endpointUrl, this), status::Good);
    auto* sessions = window.findChild<QTableView*>(QStringLiteral("sessionsView"));
    QVERIFY(sessions);
    QTRY_COMPARE_WITH_TIMEOUT(sessions->model()->rowCount(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(reverseCell(*view->model(), 0, ReverseConnectionsModel::Used), QStringLiteral("1"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(reverseCell(*view->model(), 0, ReverseConnectionsModel::State),
                              QStringLiteral("spare open, waiting for Hello"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(reverseCell(*view->model(), 1, ReverseConnectionsModel::State),
                              QStringLiteral("spare open, waiting for Hello"), 10000);
    QCOMPARE(reverseCell(*view->model(), 1, ReverseConnectionsModel::Used), QStringLiteral("0"));
    QTRY_VERIFY_WITH_TIMEOUT(reverseCell(*view->model(), 2, ReverseConnectionsModel::State).contains(QStringLiteral("failure")), 10000);
    QVERIFY(!reverseCell(*view->model(), 2, ReverseConnectionsModel::LastError).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("3 client listener(s): 2 with a spare open, 1 failing")), 5000);

    if (const QByteArray shots = qgetenv("UA_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(300);
        QVERIFY(window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/11-reverse-connect.png")));
    }

    test::Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    // Stopped: no rows; the page says the server is not running.
    bool stopped = false;
    window.stopServer([&] { stopped = true; });
    QTRY_VERIFY_WITH_TIMEOUT(stopped, 10000);
    QCOMPARE(view->model()->rowCount(), 0);
    QVERIFY(!view->isVisible());
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->text(), QStringLiteral("The server is not running."));
}

// Nothing configured: no table, a sentence that says where to add client URLs.
void TestReverseConnections::sessionsPageSaysWhenNoneIsConfigured() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    app::ServerSettings s;
    s.hostName = QStringLiteral("127.0.0.1");
    s.port = 0;
    s.ioThreads = 1;
    s.pkiDir = dir.filePath(QStringLiteral("pki"));
    s.demoEventsMs = 0;
    app::MainWindow window(s, dir.filePath(QStringLiteral("ua-server.json")));
    window.show();
    QString error;
    QVERIFY2(window.startServer(&error), qPrintable(error));
    window.pages()->setCurrentWidget(window.findChild<QWidget*>(QStringLiteral("sessionsPage")));
    auto* view = window.findChild<QTableView*>(QStringLiteral("reverseConnectionsView"));
    auto* empty = window.findChild<QLabel*>(QStringLiteral("reverseConnectionsEmpty"));
    QVERIFY(view && empty);
    QTRY_VERIFY_WITH_TIMEOUT(empty->isVisible(), 5000);
    QVERIFY(!view->isVisible());
    QCOMPARE(view->model()->rowCount(), 0);
    QVERIFY2(empty->text().startsWith(QStringLiteral("No reverse connections configured")), qPrintable(empty->text()));
    QVERIFY(empty->text().contains(QStringLiteral("--reverse-connect")));
    QVERIFY(empty->text().contains(QStringLiteral("Reverse Connect to")));  // the form field's label
}

UA_TEST_MAIN(TestReverseConnections)
#include "tst_reverse_connections.moc"
