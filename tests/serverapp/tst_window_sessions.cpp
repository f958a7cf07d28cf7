// The server app's window, opened in-process under the offscreen platform with its own running
// server: our Client's Sessions and Subscriptions appear as rows in the views (found by
// objectName) and disappear when they close; "Close session" in the Sessions view's context menu
// closes a Session through Server::closeSession after a confirmation, and names the client's address
// (two Sessions of one name told apart); Stop asks first while clients are connected; the buttons
// of the certificate lists and users are disabled with nothing selected (issue 27 item 8). Issue 27
// items 9 and 10: "Stopped" with the URL of the next start, File > Quit (Ctrl+Q), a user's Roles
// edited after Add without Anonymous and AuthenticatedUser, the chart's series in distinct
// colours, NodeClass icons and a Value written from the Address space page.
#include "../client/ClientTestUtil.h"
#include "AddressSpacePage.h"
#include "HistoryPage.h"
#include "ua/server/nodeset/NodeSetDocument.h"
#include "LiveChart.h"
#include "MainWindow.h"
#include "SessionsPage.h"
#include "models/AddressSpaceModel.h"
#include "models/HistoryModel.h"
#include "models/LogModel.h"
#include "models/SessionsModel.h"
#include "models/UsersModel.h"

#include "ua/server/runtime/Server.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QMenuBar>
#include <QSet>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTimer>
#include <QListWidget>
#include <QTemporaryFile>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

class TestWindowSessions : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void sessionRowsAppearAndDisappear();
    void subscriptionRowsAppearAndDisappear();
    void closeSessionFromContextMenu();
    void filterAndSortTheSessions();
    void stopAndStartFromServerPage();
    void importNodeSetFromAddressSpacePage();
    void everyPageIsThere();
    void twinSessionsAreToldApart();
    void rowButtonsNeedASelection();
    void unlockIsAnAuditLine();
    void quitFromTheFileMenu();
    void rolesAreEditedAfterAdd();
    void requestSeriesHaveDistinctColours();
    void addressSpaceIconsAndWrite();
    void historizeIsSavedInTheFile();

private:
    // The messages of the Log page's "ua.audit" rows (issue 27 item 7).
    QStringList auditLog() const;
    // True once a message of auditLog() matches pattern (waits up to 5 s); logs them all otherwise.
    bool auditLogHas(const QString& pattern) const;
    // Answers the next confirmation (Confirmation.h) with its confirm or its Cancel button, once it
    // is the active modal widget; *text gets its question. Call before the action that asks.
    void answerConfirmation(bool confirm, QString* text = nullptr);
    // Opens the Sessions view's context menu on row and returns the "Close session" action's text;
    // triggers it when trigger is set.
    QString closeSessionAction(QTableView* view, int row, bool trigger);
    // Runs act on the next modal QDialog of that objectName once it is the active modal widget.
    void onModalDialog(const QString& objectName, std::function<void(QDialog*)> act);
    // A connected Client with its Session named name (nullptr on failure).
    std::unique_ptr<Client> connect(const QString& name);
    static QStringList column(QTableView* view, int column);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<app::MainWindow> m_window;
};

void TestWindowSessions::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    app::ServerSettings s;
    s.hostName = QStringLiteral("127.0.0.1");
    s.port = 0;
    s.ioThreads = 2;
    s.pkiDir = m_dir->filePath(QStringLiteral("pki"));
    s.demoEventsMs = 0;
    s.shutdownDelaySeconds = 1;
    s.users.setUser("operator1", "operator1-pw", roleBit(Role::Operator), 1000);  // a row in the users view
    m_window = std::make_unique<app::MainWindow>(s, m_dir->filePath(QStringLiteral("ua-server.json")));
    m_window->show();
    QString error;
    QVERIFY2(m_window->startServer(&error), qPrintable(error));
}

void TestWindowSessions::cleanup() {
    m_window.reset();
    m_dir.reset();
}

std::unique_ptr<Client> TestWindowSessions::connect(const QString& name) {
    ClientConfig cfg;
    cfg.sessionName = name;
    auto client = std::make_unique<Client>(cfg);
    const StatusCode s = test::connectSession(*client, m_window->server()->endpointUrl(), this);
    if (s.isBad()) {
        qWarning("connect %s: %s", qPrintable(name), s.name().c_str());
        return nullptr;
    }
    return client;
}

QStringList TestWindowSessions::column(QTableView* view, int column) {
    QStringList out;
    for (int r = 0; r < view->model()->rowCount(); ++r) out << view->model()->index(r, column).data().toString();
    out.sort();
    return out;
}

void TestWindowSessions::answerConfirmation(bool confirm, QString* text) {
    onModalDialog(QStringLiteral("confirmation"), [confirm, text](QDialog* dialog) {
        auto* box = qobject_cast<QMessageBox*>(dialog);
        QVERIFY(box);
        if (text) *text = box->text();
        auto* cancel = box->findChild<QPushButton*>(QStringLiteral("cancelButton"));
        QCOMPARE(box->defaultButton(), cancel);  // Return would keep things as they are
        QTest::mouseClick(box->findChild<QPushButton*>(confirm ? QStringLiteral("confirmButton") : QStringLiteral("cancelButton")),
                          Qt::LeftButton);
    });
}

void TestWindowSessions::onModalDialog(const QString& objectName, std::function<void(QDialog*)> act) {
    auto* poll = new QTimer(m_window.get());
    poll->start(20);
    QElapsedTimer waited;
    waited.start();
    QObject::connect(poll, &QTimer::timeout, this, [poll, objectName, act, waited] {
        if (waited.hasExpired(10000)) return poll->deleteLater();
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog || dialog->objectName() != objectName) return;
        poll->deleteLater();
        act(dialog);
    });
}

QStringList TestWindowSessions::auditLog() const {
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("logView"));
    QStringList out;
    if (!view) return out;
    const QAbstractItemModel* m = view->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, serverapp::LogModel::Category).data().toString() == QLatin1String("ua.audit"))
            out << m->index(r, serverapp::LogModel::Message).data().toString();
    return out;
}

bool TestWindowSessions::auditLogHas(const QString& pattern) const {
    const QRegularExpression re(pattern);
    const bool found = QTest::qWaitFor([&] {
        const QStringList lines = auditLog();
        return std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return re.match(l).hasMatch(); });
    }, 5000);
    if (!found) qWarning("no audit line matches %s; the lines: %s", qPrintable(pattern), qPrintable(auditLog().join('\n')));
    return found;
}

QString TestWindowSessions::closeSessionAction(QTableView* view, int row, bool trigger) {
    QString text;
    QTimer::singleShot(200, this, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        auto* action = menu->findChild<QAction*>(QStringLiteral("closeSessionAction"));
        if (!action) return;
        text = action->text();
        menu->close();
        if (trigger) action->trigger();
    });
    emit view->customContextMenuRequested(view->visualRect(view->model()->index(row, 0)).center());
    return text;
}

void TestWindowSessions::sessionRowsAppearAndDisappear() {
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("sessionsView"));
    QVERIFY(view);
    QCOMPARE(view->model()->rowCount(), 0);
    auto a = connect(QStringLiteral("window-a"));
    auto b = connect(QStringLiteral("window-b"));
    auto c = connect(QStringLiteral("window-c"));
    QVERIFY(a && b && c);
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name),
                              (QStringList{"window-a", "window-b", "window-c"}), 5000);

    test::Awaited<ServiceResult<CloseSessionResponse>> closed;
    b->closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name), (QStringList{"window-a", "window-c"}), 5000);

    for (Client* client : {a.get(), c.get()}) {
        test::Awaited<ServiceResult<CloseSessionResponse>> done;
        client->closeSession(this, done.callback());
        QVERIFY(done.wait());
    }
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 0, 5000);
}

void TestWindowSessions::subscriptionRowsAppearAndDisappear() {
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("subscriptionsView"));
    QVERIFY(view);
    auto client = connect(QStringLiteral("window-subscriber"));
    QVERIFY(client);
    test::Awaited<SubscriptionInfo> created;
    SubscriptionSettings settings;
    settings.publishingIntervalMs = 100;
    client->createSubscription(settings, this, {}, created.callback());
    QVERIFY(created.wait());
    QVERIFY(created->status.isGood());
    test::Awaited<MonitoredItemsResult> items;
    MonitoredItemSpec item;
    item.nodeId = NodeId(uint32_t(2258)); // Server_ServerStatus_CurrentTime
    client->createMonitoredItems(created->handle, {item}, this, items.callback());
    QVERIFY(items.wait());
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 1, 5000);
    QCOMPARE(view->model()->index(0, 0).data().toString(), QString::number(created->subscriptionId));
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->index(0, 3).data().toString(), QStringLiteral("1"), 5000); // Items

    test::Awaited<StatusCode> deleted;
    client->deleteSubscription(created->handle, this, deleted.callback());
    QVERIFY(deleted.wait());
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 0, 5000);
}

// The filter field keeps the rows whose name, client, address, security or user contains its text
// (case-insensitive); sortBy() sorts by a named column.
void TestWindowSessions::filterAndSortTheSessions() {
    auto* page = m_window->findChild<app::SessionsPage*>();
    QVERIFY(page);
    QTableView* view = page->view();
    auto a = connect(QStringLiteral("plant-a"));
    auto b = connect(QStringLiteral("plant-b"));
    auto c = connect(QStringLiteral("office-c"));
    QVERIFY(a && b && c);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 3, 5000);
    page->setFilterText(QStringLiteral("PLANT"));
    QCOMPARE(page->filter()->text(), QStringLiteral("PLANT"));
    QCOMPARE(column(view, serverapp::SessionsModel::Name), (QStringList{"plant-a", "plant-b"}));
    page->setFilterText(QStringLiteral("office"));
    QCOMPARE(column(view, serverapp::SessionsModel::Name), (QStringList{"office-c"}));
    // The address and the user of a Session reach the model with a refresh after its activation (a
    // loaded machine: after the rows): waited for, not assumed.
    page->setFilterText(QStringLiteral("127.0.0.1:"));  // the address column
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 3, 5000);
    page->setFilterText(QStringLiteral("(anonymous)"));  // the user column
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 3, 5000);
    page->setFilterText(QStringLiteral("no such session"));
    QCOMPARE(view->model()->rowCount(), 0);
    page->setFilterText(QString());
    QCOMPARE(view->model()->rowCount(), 3);
    QVERIFY(page->sortBy(QStringLiteral("Name"), Qt::DescendingOrder));
    QCOMPARE(view->model()->index(0, serverapp::SessionsModel::Name).data().toString(), QStringLiteral("plant-b"));
    QVERIFY(page->sortBy(QStringLiteral("Name"), Qt::AscendingOrder));
    QCOMPARE(view->model()->index(0, serverapp::SessionsModel::Name).data().toString(), QStringLiteral("office-c"));
    QVERIFY(!page->sortBy(QStringLiteral("NoSuchColumn"), Qt::AscendingOrder));
    // A filtered view follows the Sessions: a new matching one appears, a closed one goes.
    page->setFilterText(QStringLiteral("plant"));
    auto d = connect(QStringLiteral("plant-d"));
    QVERIFY(d);
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name), (QStringList{"plant-a", "plant-b", "plant-d"}), 5000);
    test::Awaited<ServiceResult<CloseSessionResponse>> closed;
    a->closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name), (QStringList{"plant-b", "plant-d"}), 5000);
}

void TestWindowSessions::closeSessionFromContextMenu() {
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("sessionsView"));
    QVERIFY(view);
    m_window->pages()->setCurrentWidget(view->parentWidget());
    auto victim = connect(QStringLiteral("window-victim"));
    auto other = connect(QStringLiteral("window-other"));
    QVERIFY(victim && other);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 2, 5000);
    int row = -1;
    for (int r = 0; r < 2; ++r)
        if (view->model()->index(r, serverapp::SessionsModel::Name).data().toString() == QStringLiteral("window-victim")) row = r;
    QVERIFY(row >= 0);

    // Open the context menu on the victim's row and pick "Close session": asked first; Cancel keeps it.
    QString question;
    answerConfirmation(false, &question);
    QVERIFY(closeSessionAction(view, row, true).startsWith(QStringLiteral("Close session \"window-victim\" from 127.0.0.1:")));
    QVERIFY2(question.contains(QStringLiteral("window-victim")), qPrintable(question));
    QTest::qWait(300);
    QCOMPARE(column(view, serverapp::SessionsModel::Name), (QStringList{"window-other", "window-victim"}));
    // Confirmed: closed.
    answerConfirmation(true);
    QVERIFY(!closeSessionAction(view, row, true).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name), QStringList{"window-other"}, 5000);
    // The Log page has the audit line: who closed which Session of whom from where.
    QVERIFY(auditLogHas("^administrator \\S+: closed Session 'window-victim' \\(ns=1;[^)]+\\) of user anonymous from "
                        "127\\.0\\.0\\.1:\\d+$"));
    // The closed Session's client learns it on its next request.
    test::Awaited<ServiceResult<ReadResponse>> read;
    victim->readValues({NodeId(uint32_t(2259))}, this, read.callback());
    QVERIFY(read.wait());
    QVERIFY2(read->status.isBad() || read->response.responseHeader.serviceResult.isBad(), read->status.name().c_str());
}

void TestWindowSessions::stopAndStartFromServerPage() {
    auto* stop = m_window->findChild<QPushButton*>(QStringLiteral("stopButton"));
    auto* start = m_window->findChild<QPushButton*>(QStringLiteral("startButton"));
    auto* state = m_window->findChild<QLabel*>(QStringLiteral("serverState"));
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("sessionsView"));
    QVERIFY(stop && start && state && view);
    QTRY_VERIFY(state->text().contains(QStringLiteral("Running")));
    auto client = connect(QStringLiteral("window-until-stop"));
    QVERIFY(client);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 1, 5000);
    QVERIFY(stop->isEnabled() && !start->isEnabled());

    // A client is connected: Stop asks first; Cancel keeps the server running.
    QSignalSpy stopped(m_window.get(), &app::MainWindow::serverStopped);
    QString question;
    answerConfirmation(false, &question);
    stop->click();
    QVERIFY2(question.contains(QStringLiteral("1 client Session")), qPrintable(question));
    QTest::qWait(300);
    QVERIFY(m_window->server());
    QVERIFY(state->text().contains(QStringLiteral("Running")));
    QCOMPARE(stopped.count(), 0);
    answerConfirmation(true);
    stop->click();
    QTRY_VERIFY_WITH_TIMEOUT(state->text().contains(QStringLiteral("Shutdown")), 2000);
    QVERIFY(stopped.wait(6000));
    QVERIFY(!m_window->server());
    QCOMPARE(view->model()->rowCount(), 0);
    QVERIFY(start->isEnabled() && !stop->isEnabled());
    // Stopped: capitalised like "Running", and the URL of the next start stays in sight.
    QVERIFY2(state->text().endsWith(QStringLiteral("Stopped")), qPrintable(state->text()));
    auto* url = m_window->findChild<QLabel*>(QStringLiteral("serverUrl"));
    QVERIFY(url);
    QVERIFY2(url->text().contains(QStringLiteral("opc.tcp://127.0.0.1:")) && url->text().endsWith(QStringLiteral("(not listening)")),
             qPrintable(url->text()));
    QVERIFY(auditLogHas("^administrator \\S+: stopping the server: ServerState Shutdown for 1 s, then its 1 Session\\(s\\) "
                        "are closed$"));
    QVERIFY(auditLogHas("^administrator \\S+: stopped the server$"));

    start->click();
    QVERIFY(m_window->server());
    QTRY_VERIFY(state->text().contains(QStringLiteral("Running")));
    // Started twice now (init and this click): two audit lines with the URL and the configuration file.
    QVERIFY(auditLogHas("^administrator \\S+: started the server on opc\\.tcp://127\\.0\\.0\\.1:\\d+ \\(configuration "
                        ".*ua-server\\.json\\)$"));
    QTRY_COMPARE(auditLog().filter(QRegularExpression(": started the server on ")).size(), 2);
    auto again = connect(QStringLiteral("window-after-start"));
    QVERIFY(again);
    QTRY_COMPARE_WITH_TIMEOUT(column(view, serverapp::SessionsModel::Name), QStringList{"window-after-start"}, 5000);

    // No client connected: Stop does not ask.
    test::Awaited<ServiceResult<CloseSessionResponse>> closed;
    again->closeSession(this, closed.callback());
    QVERIFY(closed.wait());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->server()->sessions().count(), 0, 5000);
    stopped.clear();
    question.clear();
    answerConfirmation(false, &question);  // would keep the server running, had it asked
    stop->click();
    QVERIFY(stopped.wait(6000));
    QCOMPARE(question, QString());
}

void TestWindowSessions::everyPageIsThere() {
    QStringList names;
    for (int i = 0; i < m_window->pages()->count(); ++i) names << m_window->pages()->widget(i)->objectName();
    QCOMPARE(names, (QStringList{"serverPage", "sessionsPage", "subscriptionsPage", "diagnosticsPage", "addressSpacePage",
                                 "historyPage", "alarmsPage", "certificatesPage", "logPage"}));
    for (const char* view : {"sessionsView", "subscriptionsView", "summaryView", "addressSpaceView", "historyView", "alarmsView", "trustedView",
                             "rejectedView", "usersView", "logView", "endpointsView"})
        QVERIFY2(m_window->findChild<QAbstractItemView*>(QLatin1String(view)), view);
    // The address space tree shows the RootFolder's children.
    auto* tree = m_window->findChild<QAbstractItemView*>(QStringLiteral("addressSpaceView"));
    QTRY_VERIFY(tree->model()->rowCount() >= 3);
}

// Two Sessions of one name: the context menu names each one's client address.
void TestWindowSessions::twinSessionsAreToldApart() {
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("sessionsView"));
    QVERIFY(view);
    m_window->pages()->setCurrentWidget(view->parentWidget());
    auto first = connect(QStringLiteral("twin"));
    auto second = connect(QStringLiteral("twin"));
    QVERIFY(first && second);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 2, 5000);
    const QString a = closeSessionAction(view, 0, false);
    const QString b = closeSessionAction(view, 1, false);
    QVERIFY2(a.startsWith(QStringLiteral("Close session \"twin\" from ")), qPrintable(a));
    QVERIFY2(b.startsWith(QStringLiteral("Close session \"twin\" from ")), qPrintable(b));
    QVERIFY(a != b);
    QVERIFY(a.endsWith(view->model()->index(0, serverapp::SessionsModel::Address).data().toString()));
}

// Reject, Trust, Delete, Remove, Set password and Unlock act on the selected row: disabled without one.
void TestWindowSessions::rowButtonsNeedASelection() {
    const QStringList names{"trustedView_reject", "trustedView_delete", "rejectedView_trust", "rejectedView_delete",
                            "removeUserButton", "setPasswordButton", "editRolesButton", "unlockUserButton"};
    for (const QString& name : names) {
        auto* b = m_window->findChild<QPushButton*>(name);
        QVERIFY2(b, qPrintable(name));
        QVERIFY2(!b->isEnabled(), qPrintable(name));
    }
    auto* users = m_window->findChild<QTableView*>(QStringLiteral("usersView"));
    QVERIFY(users);
    QVERIFY(users->model()->rowCount() > 0);  // operator1
    users->selectRow(0);
    for (const char* name : {"removeUserButton", "setPasswordButton", "editRolesButton", "unlockUserButton"})
        QVERIFY2(m_window->findChild<QPushButton*>(QLatin1String(name))->isEnabled(), name);
    QVERIFY(!m_window->findChild<QPushButton*>(QStringLiteral("trustedView_delete"))->isEnabled());  // another list
    users->clearSelection();
    for (const char* name : {"removeUserButton", "setPasswordButton", "editRolesButton", "unlockUserButton"})
        QVERIFY2(!m_window->findChild<QPushButton*>(QLatin1String(name))->isEnabled(), name);
}

// Unlock in the users panel is an audit line naming the administrator and the user.
void TestWindowSessions::unlockIsAnAuditLine() {
    auto* users = m_window->findChild<QTableView*>(QStringLiteral("usersView"));
    auto* unlock = m_window->findChild<QPushButton*>(QStringLiteral("unlockUserButton"));
    QVERIFY(users && unlock);
    m_window->pages()->setCurrentWidget(m_window->findChild<QWidget*>(QStringLiteral("certificatesPage")));
    users->selectRow(0);
    QVERIFY(unlock->isEnabled());
    unlock->click();
    QVERIFY(auditLogHas("^administrator \\S+: unlocked user 'operator1' \\(was not locked out; its failed logins are "
                        "forgotten\\)$"));
}

// File > Quit, and its Ctrl+Q, close the window.
void TestWindowSessions::quitFromTheFileMenu() {
    auto* quit = m_window->findChild<QAction*>(QStringLiteral("quitAction"));
    QVERIFY(quit);
    QCOMPARE(quit->shortcut(), QKeySequence(QStringLiteral("Ctrl+Q")));
    QVERIFY(m_window->menuBar()->actions().first()->menu()->actions().contains(quit));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_Q, Qt::ControlModifier);
    QTRY_VERIFY(!m_window->isVisible());
}

// Add asks for the assignable Roles only; Roles... (or a double-click) edits them afterwards.
void TestWindowSessions::rolesAreEditedAfterAdd() {
    m_window->pages()->setCurrentWidget(m_window->findChild<QWidget*>(QStringLiteral("certificatesPage")));
    auto* users = m_window->findChild<QTableView*>(QStringLiteral("usersView"));
    auto* roles = m_window->findChild<QPushButton*>(QStringLiteral("editRolesButton"));
    QVERIFY(users && roles);
    QStringList offered;
    bool sawDialog = false;
    onModalDialog(QStringLiteral("editRolesDialog"), [&](QDialog* d) {
        sawDialog = true;
        for (QCheckBox* b : d->findChildren<QCheckBox*>()) offered << b->text();
        QVERIFY(d->findChild<QCheckBox*>(QStringLiteral("roleOperator"))->isChecked());  // operator1's Role
        d->findChild<QCheckBox*>(QStringLiteral("roleOperator"))->setChecked(false);
        d->findChild<QCheckBox*>(QStringLiteral("roleEngineer"))->setChecked(true);
        d->findChild<QCheckBox*>(QStringLiteral("roleObserver"))->setChecked(true);
        QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    users->selectRow(0);
    roles->click();
    QVERIFY(sawDialog);
    QCOMPARE(offered, (QStringList{"Observer", "Operator", "Engineer", "Supervisor", "ConfigureAdmin", "SecurityAdmin"}));
    QTRY_COMPARE(m_window->server()->userStore().snapshot()->find("operator1")->roles,
                 roleBit(Role::Observer) | roleBit(Role::Engineer));
    QCOMPARE(users->model()->index(0, serverapp::UsersModel::Roles).data().toString(), QStringLiteral("Observer, Engineer"));
    QVERIFY(auditLogHas("^administrator \\S+: set the Roles of user 'operator1' to Observer, Engineer$"));
    // And saved in the configuration file.
    app::ServerSettings saved;
    QVERIFY(saved.load(m_dir->filePath(QStringLiteral("ua-server.json"))));
    QCOMPARE(saved.users.find("operator1")->roles, roleBit(Role::Observer) | roleBit(Role::Engineer));
}

// Up to 14 request series on the Diagnostics page: each in a colour of its own.
void TestWindowSessions::requestSeriesHaveDistinctColours() {
    app::LiveChart chart(QStringLiteral("Requests"), QStringLiteral("requests/s"), 60000);
    QSet<QRgb> colours;
    for (int i = 0; i < 14; ++i) {
        chart.addSeries(QStringLiteral("series %1").arg(i));
        colours.insert(chart.series(i)->color().rgb());
    }
    QCOMPARE(colours.size(), 14);
}

// The Address space page: NodeClass icons, and a Value written in the tree's editor as the
// administrator (read back by our Client), a refused one with its reason below the tree.
// Historize from the Address space page and Stop historizing on the History page write
// ua-server.json's history.nodes (the node by namespace URI), so a restart keeps the choice.
void TestWindowSessions::historizeIsSavedInTheFile() {
    auto* page = m_window->findChild<app::AddressSpacePage*>(QStringLiteral("addressSpacePage"));
    auto* historyPage = m_window->findChild<app::HistoryPage*>(QStringLiteral("historyPage"));
    QVERIFY(page && historyPage);
    const QString configPath = m_dir->filePath(QStringLiteral("ua-server.json"));
    const int ns = m_window->server()->addressSpace().snapshot()->namespaceIndex("urn:ua-workbench:demo");
    QVERIFY(ns > 0);
    const NodeId int32(uint16_t(ns), String("Demo.Scalars.Int32"));
    const QString persistent = QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Scalars.Int32");
    const auto entries = [&](const QString& id) {
        app::ServerSettings onDisk;
        QString error;
        if (!onDisk.load(configPath, &error)) qWarning("%s", qPrintable(error));
        int n = 0;
        for (const app::HistoryNodeSetting& node : onDisk.history.nodes) n += node.nodeId == id;
        return std::pair{n, int(onDisk.history.nodes.size())};
    };
    const int demoSignals = int(app::HistorySettings::demoSignals().size());

    QVERIFY(page->setHistorized(int32, true));
    QVERIFY2(page->writeStatus()->text().contains(QStringLiteral("Saved in the configuration file")), qPrintable(page->writeStatus()->text()));
    QCOMPARE(entries(persistent), std::pair(1, demoSignals + 1));  // the demo signals stay
    // Again: still one entry.
    QVERIFY(page->setHistorized(int32, false));
    QCOMPARE(entries(persistent), std::pair(0, demoSignals));
    QVERIFY(page->setHistorized(int32, true));
    QCOMPARE(entries(persistent), std::pair(1, demoSignals + 1));

    // A restart of the window's server historizes it from the file's list.
    QSignalSpy stopped(m_window.get(), &app::MainWindow::serverStopped);
    m_window->stopServer();
    QVERIFY(stopped.wait(6000));
    QString error;
    QVERIFY2(m_window->startServer(&error), qPrintable(error));
    QTRY_VERIFY(m_window->server()->history()->isHistorized(int32));

    // Stop historizing on the History page takes it out of the file.
    m_window->pages()->setCurrentWidget(historyPage);
    QTRY_VERIFY_WITH_TIMEOUT(historyPage->model()->rowCount() > 0, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const auto& row : historyPage->model()->rows())
                if (row.nodeId == QString::fromStdString(int32.toString())) return true;
            return false;
        }(),
        5000);
    int row = -1;
    for (int r = 0; r < historyPage->view()->model()->rowCount(); ++r)
        if (historyPage->view()->model()->index(r, 0).data().toString() == QString::fromStdString(int32.toString())) row = r;
    QVERIFY(row >= 0);
    historyPage->view()->selectRow(row);
    historyPage->stopChosen();
    QVERIFY(!m_window->server()->history()->isHistorized(int32));
    QCOMPARE(entries(persistent), std::pair(0, demoSignals));
}

void TestWindowSessions::addressSpaceIconsAndWrite() {
    auto* page = m_window->findChild<app::AddressSpacePage*>(QStringLiteral("addressSpacePage"));
    QVERIFY(page);
    m_window->pages()->setCurrentWidget(page);
    QVERIFY(page->expandPath({QStringLiteral("Objects"), QStringLiteral("Demo"), QStringLiteral("Scalars")}));
    QAbstractItemModel* model = page->view()->model();
    auto find = [&](const QModelIndex& parent, const QString& name) {
        for (int r = 0; r < model->rowCount(parent); ++r)
            if (model->index(r, 0, parent).data().toString() == name) return model->index(r, 0, parent);
        return QModelIndex();
    };
    const QModelIndex objects = find({}, QStringLiteral("Objects"));
    const QModelIndex scalars = find(find(objects, QStringLiteral("Demo")), QStringLiteral("Scalars"));
    const QModelIndex int32 = find(scalars, QStringLiteral("Int32"));
    QVERIFY(int32.isValid());
    const QIcon objectIcon = qvariant_cast<QIcon>(objects.data(Qt::DecorationRole));
    const QIcon variableIcon = qvariant_cast<QIcon>(int32.data(Qt::DecorationRole));
    QVERIFY(!objectIcon.isNull() && !variableIcon.isNull());
    QVERIFY(objectIcon.pixmap(16).toImage() != variableIcon.pixmap(16).toImage());

    // Double-click the Value, type, Return: written.
    const QModelIndex value = int32.siblingAtColumn(serverapp::AddressSpaceModel::Value);
    QVERIFY(model->flags(value) & Qt::ItemIsEditable);
    page->view()->scrollTo(value);
    page->view()->setCurrentIndex(value);
    page->view()->edit(value);
    auto* editor = page->view()->findChild<QLineEdit*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("-77"));
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(value.data().toString(), QStringLiteral("-77"));
    QVERIFY2(page->writeStatus()->text().startsWith(QStringLiteral("Wrote -77")), qPrintable(page->writeStatus()->text()));
    QVERIFY(auditLogHas("^administrator \\S+: wrote -77 to the Value of 'Int32' \\(ns=\\d+;s=Demo\\.Scalars\\.Int32\\)$"));
    auto client = connect(QStringLiteral("reads-what-the-admin-wrote"));
    QVERIFY(client);
    test::Awaited<ServiceResult<ReadResponse>> read;
    client->readValues({NodeId(uint16_t(m_window->server()->addressSpace().snapshot()->namespaceIndex("urn:ua-workbench:demo")),
                               String("Demo.Scalars.Int32"))},
                       this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->response.results[0].value, Variant(int32_t(-77)));

    // Out of range for Int32: not written, the reason below the tree.
    QVERIFY(!model->setData(value, QStringLiteral("99999999999")));
    QVERIFY2(page->writeStatus()->text().contains(QStringLiteral("out of range")), qPrintable(page->writeStatus()->text()));
    QCOMPARE(value.data().toString(), QStringLiteral("-77"));
}

// Import NodeSet... on the Address space page: DI loads into the running server and shows in the
// tree; a file with an error loads nothing and the errors dialog names the node.
void TestWindowSessions::importNodeSetFromAddressSpacePage() {
    auto* page = m_window->findChild<app::AddressSpacePage*>(QStringLiteral("addressSpacePage"));
    QVERIFY(page);
    m_window->pages()->setCurrentWidget(page);
    const QString di = QStringLiteral(UA_NODESET_DIR "/Opc.Ua.Di.NodeSet2.xml");
    QSignalSpy imported(page, &app::AddressSpacePage::nodeSetsImported);
    page->importNodeSets({di});  // on a thread of its own: the window stays responsive
    QVERIFY(imported.wait(20000));
    QCOMPARE(imported.last().at(0).toBool(), true);
    QVERIFY2(page->writeStatus()->text().contains(QStringLiteral("http://opcfoundation.org/UA/DI/")), qPrintable(page->writeStatus()->text()));
    QVERIFY(auditLogHas("^administrator \\S+: imported NodeSet .*Opc\\.Ua\\.Di\\.NodeSet2\\.xml: http://opcfoundation.org/UA/DI/ 1\\.04\\.0"));
    QVERIFY(page->expandPath({QStringLiteral("Objects"), QStringLiteral("DeviceSet")}));
    QVERIFY(m_window->server()->addressSpace().snapshot()->namespaceIndex("http://opcfoundation.org/UA/DI/") > 0);

    // A model whose reference points nowhere: nothing is imported, the dialog lists the error.
    QTemporaryFile broken(m_dir->filePath(QStringLiteral("broken-XXXXXX.xml")));
    QVERIFY(broken.open());
    broken.write("<UANodeSet xmlns=\"http://opcfoundation.org/UA/2011/03/UANodeSet.xsd\"><NamespaceUris><Uri>urn:broken</Uri></NamespaceUris>"
                 "<Models><Model ModelUri=\"urn:broken\"/></Models>"
                 "<UAObject NodeId=\"ns=1;i=1\" BrowseName=\"1:Lost\"><References><Reference ReferenceType=\"i=35\" IsForward=\"false\">"
                 "ns=1;i=99</Reference></References></UAObject></UANodeSet>");
    broken.close();
    const uint64_t version = m_window->server()->addressSpaceVersion();
    page->importNodeSets({broken.fileName()});
    QVERIFY(imported.wait(20000));
    QCOMPARE(imported.last().at(0).toBool(), false);
    QCOMPARE(m_window->server()->addressSpaceVersion(), version);
    QTRY_VERIFY(page->findChild<QDialog*>(QStringLiteral("nodeSetErrorsDialog")));
    auto* dialog = page->findChild<QDialog*>(QStringLiteral("nodeSetErrorsDialog"));
    auto* list = dialog->findChild<QListWidget*>(QStringLiteral("nodeSetErrorList"));
    QVERIFY(list && list->count() == 1);
    QVERIFY2(list->item(0)->text().contains(QStringLiteral("ns=1;i=1: the reference target 'ns=1;i=99' does not exist")),
             qPrintable(list->item(0)->text()));
    QVERIFY(page->writeStatus()->text().startsWith(QStringLiteral("Nothing imported")));
    dialog->close();

    // Export NodeSet...: DI's namespace written, and the file imports into a fresh address space.
    const QString exported = m_dir->filePath(QStringLiteral("di-export.xml"));
    const auto snap = m_window->server()->addressSpace().snapshot();
    QVERIFY(page->exportNodeSet({uint16_t(snap->namespaceIndex("http://opcfoundation.org/UA/DI/"))}, exported));
    QVERIFY2(page->writeStatus()->text().startsWith(QStringLiteral("Exported ")), qPrintable(page->writeStatus()->text()));
    QString error;
    auto doc = NodeSetDocument::load(exported, &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->models.size(), std::size_t(1));
    QCOMPARE(doc->models[0].modelUri, QStringLiteral("http://opcfoundation.org/UA/DI/"));
    QCOMPARE(doc->nodes.size(), std::size_t(412));  // the 412 nodes of Opc.Ua.Di.NodeSet2.xml

    // The context menu's Add folder / Add variable and Delete: in the tree, audited, refused for ns0.
    QVERIFY(page->addChild(NodeId(uint32_t(85)), 0, QStringLiteral("Line1")));
    QVERIFY(page->expandPath({QStringLiteral("Objects"), QStringLiteral("Line1")}));
    const auto after = m_window->server()->addressSpace().snapshot();
    NodeId line;
    for (const Reference& r : after->find(NodeId(uint32_t(85)))->references)
        if (r.isForward && after->node(r.target).browseName.name == String("Line1")) line = after->node(r.target).nodeId;
    QVERIFY(!line.isNull());
    QVERIFY(page->addChild(line, 2, QStringLiteral("Speed")));
    QVERIFY(page->expandPath({QStringLiteral("Objects"), QStringLiteral("Line1"), QStringLiteral("Speed")}));
    QVERIFY(!page->addChild(line, 2, QStringLiteral("Speed")));
    QVERIFY2(page->writeStatus()->text().contains(QStringLiteral("BadBrowseNameDuplicated")), qPrintable(page->writeStatus()->text()));
    QVERIFY(auditLogHas("^administrator \\S+: added the variable 'Speed' \\(ns=1;i=\\d+\\) below ns=1;i=\\d+$"));
    QVERIFY(!page->deleteNode(NodeId(uint32_t(85))));
    QVERIFY(page->writeStatus()->text().contains(QStringLiteral("BadNoDeleteRights")));
    QVERIFY(page->deleteNode(line));
    QVERIFY(!m_window->server()->addressSpace().snapshot()->find(line));
    QVERIFY(auditLogHas("^administrator \\S+: deleted the node ns=1;i=\\d+$"));
}

UA_TEST_MAIN(TestWindowSessions)
#include "tst_window_sessions.moc"
