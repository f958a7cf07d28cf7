// The window against our Server in process (offscreen): connect (state in the status bar, the
// server history), go to a node by NodeId, its attributes and references, write its Value in place,
// monitor a changing Variable with the tree's context-menu action (rows and changes in the Data
// access table, points in the trend), events, the service log, the Recent menu, and a project saved
// and opened again in a second window (server, monitored items, trend window).
#include "WindowTestUtil.h"
#include "core/Connection.h"
#include "core/ServerHistory.h"
#include "core/ServiceLog.h"
#include "models/AddressTreeModel.h"
#include "models/AttributesModel.h"
#include "models/EventsModel.h"
#include "models/MonitoredItemsModel.h"
#include "models/ReferencesModel.h"
#include "window/AddressPanel.h"
#include "ua/server/nodeset/NodeSetDocument.h"
#include "window/DataAccessPanel.h"
#include "window/EventsPanel.h"
#include "window/MainWindow.h"
#include "window/NodePanel.h"
#include "window/TrendPanel.h"

#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QLabel>
#include <QMimeData>
#include <QLineSeries>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowSmoke : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void connects();
    void goesToANodeAndShowsItsAttributesAndReferences();
    void writesTheValueInPlace();
    void monitorsFromTheTreeContextMenu();
    void showsEvents();
    void logsEveryCall();
    void savesAndOpensAProject();
    void reconnectsFromRecentInTwoClicks();
    void monitorsANodeDraggedFromTheTree();
    void toolbarIconsAreDistinct();
    void fitsANarrowScreen();
    void addsAndDeletesNodesFromTheTree();
    void exportsANamespaceAsNodeSet();

private:
    std::unique_ptr<MainWindow> makeWindow(const QString& name);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<MainWindow> m_window;
    QString m_url;
};

static const QString kDemo = QStringLiteral("nsu=urn:ua-workbench:demo;s=");

std::unique_ptr<MainWindow> TestClientWindowSmoke::makeWindow(const QString& name) {
    WindowOptions options;
    options.historyFile = m_dir.filePath(name + QStringLiteral("-history.ini"));
    auto w = std::make_unique<MainWindow>(options);
    w->resize(1300, 850);
    w->show();
    return w;
}

void TestClientWindowSmoke::initTestCase() {
    QVERIFY(m_dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.demoUpdateRateMs = 100;
    cfg.demoEventsMs = 200;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the window writes anonymously
    cfg.security.users.anonymousRoles |= roleBit(Role::ConfigureAdmin);  // and adds and deletes nodes
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_url = m_server->endpointUrl();
    m_window = makeWindow(QStringLiteral("main"));
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestClientWindowSmoke::cleanupTestCase() {
    m_window.reset();
    m_server.reset();
}

void TestClientWindowSmoke::connects() {
    ConnectionSettings s;
    s.endpointUrl = m_url;
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(m_window->connection()->state(), ClientState::Connected);
    auto* state = m_window->findChild<QLabel*>(QStringLiteral("connectionState"));
    QVERIFY(state);
    QVERIFY2(state->text().startsWith(QStringLiteral("Connected to")), qPrintable(state->text()));
    QCOMPARE(int(m_window->history()->entries().size()), 1);
    QCOMPARE(m_window->history()->entries().front().endpointUrl, m_url);
    // The tree's first level arrives and Objects is opened.
    AddressTreeModel* tree = m_window->addressPanel()->model();
    QTRY_VERIFY_WITH_TIMEOUT(tree->rowCount() >= 3, 5000);
    QVERIFY(test::columnTexts(tree, 0).contains(QStringLiteral("Objects")));
}

void TestClientWindowSmoke::goesToANodeAndShowsItsAttributesAndReferences() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(kDemo + QStringLiteral("Demo.Scalars.Int32"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(0).value<StatusCode>(), StatusCode());
    const QModelIndex current = address->tree()->currentIndex();
    QCOMPARE(current.data().toString(), QStringLiteral("Int32"));
    QVERIFY(address->tree()->isExpanded(current.parent()));
    AttributesModel* attributes = m_window->nodePanel()->attributes();
    QTRY_VERIFY_WITH_TIMEOUT(attributes->valueIndex().isValid(), 5000);
    QCOMPARE(attributes->valueIndex().siblingAtColumn(AttributesModel::DataTypeColumn).data().toString(), QStringLiteral("Int32"));
    // NodeId and AccessLevel are shown whole, not elided (issue 27 item 6).
    QTreeView* view = m_window->nodePanel()->attributesView();
    int whole = 0;
    for (int r = 0; r < attributes->rowCount(); ++r) {
        const QModelIndex cell = attributes->index(r, AttributesModel::ValueColumn);
        const int attribute = cell.data(AttributesModel::AttributeIdRole).toInt();
        if (attribute != 1 && attribute != 17) continue;  // NodeId, AccessLevel
        const QString text = cell.data().toString();
        QVERIFY2(view->columnWidth(AttributesModel::ValueColumn) > view->fontMetrics().horizontalAdvance(text),
                 qPrintable(text));
        ++whole;
    }
    QCOMPARE(whole, 2);
    ReferencesModel* references = m_window->nodePanel()->references();
    QTRY_VERIFY_WITH_TIMEOUT(references->rowCount() >= 2, 5000);  // HasTypeDefinition forward, HasComponent inverse
    QVERIFY(test::columnTexts(references, ReferencesModel::DirectionColumn).contains(QStringLiteral("Inverse")));
}

void TestClientWindowSmoke::writesTheValueInPlace() {
    NodePanel* node = m_window->nodePanel();
    AttributesModel* attributes = node->attributes();
    const QModelIndex value = attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(value.flags() & Qt::ItemIsEditable);
    // In place: the view's editor on the Value cell, text typed, Enter.
    QVERIFY(node->editValue());
    QTRY_VERIFY(node->attributesView()->indexWidget(value));  // the cell's editor is open
    QWidget* editor = node->attributesView()->indexWidget(value);
    QSignalSpy written(attributes, &AttributesModel::writeFinished);
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, QStringLiteral("4711"));
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(written.wait(5000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("4711"), 5000);
    auto* status = m_window->findChild<QLabel*>(QStringLiteral("writeStatus"));
    QVERIFY(status && status->text().contains(QStringLiteral("Good")));
    // Text that is not an Int32: refused before anything is sent.
    written.clear();
    QVERIFY(!attributes->setData(attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("abc"), Qt::EditRole));
}

void TestClientWindowSmoke::monitorsFromTheTreeContextMenu() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(kDemo + QStringLiteral("Demo.Simulation.Sine"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.at(0).at(0).value<StatusCode>(), StatusCode());
    MonitoredItemsModel* items = m_window->dataAccess()->model();
    QCOMPARE(items->rowCount(), 0);
    QVERIFY(test::chooseContextAction(address->tree(), address->tree()->currentIndex(), QStringLiteral("monitorAction")));
    QCOMPARE(items->rowCount(), 1);
    QCOMPARE(m_window->centerTabs()->currentWidget(), m_window->dataAccess());
    QSignalSpy changes(items, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(changes.count() >= 3, 10000);
    QCOMPARE(items->index(0, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Sine"));
    QCOMPARE(items->index(0, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"));
    QVERIFY(!items->index(0, MonitoredItemsModel::SourceTimestampColumn).data().toString().isEmpty());
    // In the trend: the check box, then points in the series.
    QVERIFY(items->setData(items->index(0, MonitoredItemsModel::DisplayNameColumn), Qt::Checked, Qt::CheckStateRole));
    m_window->centerTabs()->setCurrentWidget(m_window->trend());
    const uint32_t handle = items->clientHandleAt(0);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->trend()->series(handle) && m_window->trend()->series(handle)->count() >= 3, 10000);
}

void TestClientWindowSmoke::showsEvents() {
    m_window->centerTabs()->setCurrentWidget(m_window->events());  // subscribes to the Server object when shown
    EventsModel* events = m_window->events()->model();
    QTRY_VERIFY_WITH_TIMEOUT(events->isRunning(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(events->rowCount() >= 2, 10000);
    QVERIFY(events->columnCount() >= 5);
}

void TestClientWindowSmoke::logsEveryCall() {
    const auto& records = m_window->connection()->log()->records();
    QStringList services;
    for (const auto& r : records) services << r.service;
    for (const char* s : {"Browse", "Read", "Write", "CreateSubscription", "CreateMonitoredItems"})
        QVERIFY2(services.contains(QString::fromLatin1(s)), qPrintable(services.join(QLatin1Char(' '))));
    QTRY_COMPARE(m_window->logView()->model()->rowCount(), int(records.size()));
}

void TestClientWindowSmoke::savesAndOpensAProject() {
    m_window->trend()->setWindowSeconds(10);
    const QString path = m_dir.filePath(QStringLiteral("smoke.uaproj"));
    QString error;
    QVERIFY2(m_window->saveProject(path, &error), qPrintable(error));

    auto second = makeWindow(QStringLiteral("second"));
    QSignalSpy finished(second->connection(), &Connection::connectFinished);
    QVERIFY2(second->openProject(path, &error), qPrintable(error));
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    MonitoredItemsModel* items = second->dataAccess()->model();
    QCOMPARE(items->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(items->index(0, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Sine"), 5000);
    QVERIFY(items->trendAt(0));
    QCOMPARE(second->trend()->windowSeconds(), 10);
    QSignalSpy changes(items, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(changes.count() >= 2, 10000);
}

void TestClientWindowSmoke::reconnectsFromRecentInTwoClicks() {
    m_window->findChild<QAction*>(QStringLiteral("disconnectAction"))->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Disconnected, 5000);
    // Click 1: the Recent button opens its menu; click 2: the server.
    auto* recent = m_window->findChild<QToolButton*>(QStringLiteral("recentButton"));
    QVERIFY(recent);
    bool chosen = false;
    QTimer::singleShot(100, this, [&chosen] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        QAction* first = menu ? menu->findChild<QAction*>(QStringLiteral("recent0")) : nullptr;
        if (menu) menu->close();
        if (first) {
            first->trigger();
            chosen = true;
        }
    });
    recent->showMenu();  // click 1 (returns when the menu has closed)
    QVERIFY(chosen);     // click 2
    QTRY_COMPARE_WITH_TIMEOUT(m_window->connection()->state(), ClientState::Connected, 10000);
    // The monitored items come back on the new Session.
    MonitoredItemsModel* items = m_window->dataAccess()->model();
    QSignalSpy changes(items, &MonitoredItemsModel::valueChanged);
    QTRY_VERIFY_WITH_TIMEOUT(changes.count() >= 2, 10000);
}

void TestClientWindowSmoke::monitorsANodeDraggedFromTheTree() {
    // What a drag from the tree to the table carries (the tree model's mime data), dropped where
    // the table view drops it (its model).
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(kDemo + QStringLiteral("Demo.Simulation.Ramp"));
    QVERIFY(done.wait(10000));
    QVERIFY(address->tree()->dragEnabled());
    std::unique_ptr<QMimeData> data(address->model()->mimeData({address->tree()->currentIndex()}));
    QVERIFY(data);
    QTableView* table = m_window->dataAccess()->view();
    QVERIFY(table->acceptDrops());
    QAbstractItemModel* model = table->model();
    const int before = model->rowCount();
    QVERIFY(model->canDropMimeData(data.get(), Qt::CopyAction, -1, -1, {}));
    QVERIFY(model->dropMimeData(data.get(), Qt::CopyAction, -1, -1, {}));
    QCOMPARE(model->rowCount(), before + 1);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(before, MonitoredItemsModel::DisplayNameColumn).data().toString(), QStringLiteral("Ramp"), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(before, MonitoredItemsModel::StatusColumn).data().toString(), QStringLiteral("Good"), 5000);
}

// Connect, Recent and Refresh each have an icon of their own (issue 27 item 6).
void TestClientWindowSmoke::toolbarIconsAreDistinct() {
    auto* connectAction = m_window->findChild<QAction*>(QStringLiteral("connectAction"));
    auto* refreshAction = m_window->findChild<QAction*>(QStringLiteral("refreshAction"));
    auto* recent = m_window->findChild<QToolButton*>(QStringLiteral("recentButton"));
    QVERIFY(connectAction && refreshAction && recent);
    const QImage c = connectAction->icon().pixmap(16, 16).toImage();
    const QImage r = recent->icon().pixmap(16, 16).toImage();
    const QImage f = refreshAction->icon().pixmap(16, 16).toImage();
    QVERIFY(!c.isNull() && !r.isNull() && !f.isNull());
    QVERIFY(c != r);
    QVERIFY(c != f);
    QVERIFY(r != f);
}

// The window can be made as narrow as a laptop's half screen (issue 27 item 6: it was 1,083 px),
// connected and with a long state text.
void TestClientWindowSmoke::fitsANarrowScreen() {
    const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
    qInfo("minimum size %d x %d", minimum.width(), minimum.height());
    QVERIFY2(minimum.width() <= 800, qPrintable(QString::number(minimum.width())));
    m_window->resize(800, 600);
    QTRY_COMPARE(m_window->width(), 800);
}

// The tree's Add folder / Delete (AddNodes, DeleteNodes of our server): the new folder appears
// below Objects, a second one of the same name is refused with the reason under the field, and
// Delete removes it again.
void TestClientWindowSmoke::addsAndDeletesNodesFromTheTree() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy went(address, &AddressPanel::goToFinished);
    address->goTo(QStringLiteral("i=85"));
    QVERIFY(went.wait(10000));
    const QModelIndex objects = address->tree()->currentIndex();
    QCOMPARE(objects.data().toString(), QStringLiteral("Objects"));
    auto childNamed = [&](const QString& name) {
        for (int r = 0; r < address->model()->rowCount(objects); ++r)
            if (address->model()->index(r, 0, objects).data().toString() == name) return address->model()->index(r, 0, objects);
        return QModelIndex();
    };
    QSignalSpy done(address, &AddressPanel::nodeManagementFinished);
    address->addChild(objects, 0, QStringLiteral("FromTheClient"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.last().at(0).value<StatusCode>(), StatusCode());
    QVERIFY(!done.last().at(1).value<NodeId>().isNull());
    QTRY_VERIFY_WITH_TIMEOUT(childNamed(QStringLiteral("FromTheClient")).isValid(), 5000);
    QVERIFY(m_server->addressSpace().snapshot()->find(done.last().at(1).value<NodeId>()));

    address->addChild(objects, 0, QStringLiteral("FromTheClient"));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.last().at(0).value<StatusCode>(), StatusCode(status::BadBrowseNameDuplicated));
    auto* refusal = address->findChild<QLabel*>(QStringLiteral("goToStatus"));
    QVERIFY(refusal && refusal->isVisible() && refusal->text().contains(QStringLiteral("Bad_BrowseNameDuplicated")));

    address->deleteNode(childNamed(QStringLiteral("FromTheClient")));
    QVERIFY(done.wait(10000));
    QCOMPARE(done.last().at(0).value<StatusCode>(), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(!childNamed(QStringLiteral("FromTheClient")).isValid(), 5000);
}

// File > Export NodeSet...: the demo namespace read through the services and written as NodeSet2;
// the file reads back with the demo model and as many nodes as the window reported.
void TestClientWindowSmoke::exportsANamespaceAsNodeSet() {
    QSignalSpy exported(m_window.get(), &MainWindow::nodeSetExported);
    const QString path = m_dir.filePath(QStringLiteral("demo.NodeSet2.xml"));
    m_window->exportNodeSet(QStringLiteral("urn:ua-workbench:demo"), path);
    QVERIFY(exported.wait(60000));
    QCOMPARE(exported.last().at(0).value<StatusCode>(), StatusCode());
    const int nodes = exported.last().at(1).toInt();
    QVERIFY2(nodes > 50, qPrintable(exported.last().at(2).toString()));
    QString error;
    const auto doc = NodeSetDocument::load(path, &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->models.size(), std::size_t(1));
    QCOMPARE(doc->models[0].modelUri, QStringLiteral("urn:ua-workbench:demo"));
    QCOMPARE(int(doc->nodes.size()), nodes);
    m_window->exportNodeSet(QStringLiteral("urn:nobody"), path);
    QVERIFY(exported.wait(10000));
    QCOMPARE(exported.last().at(0).value<StatusCode>(), StatusCode(status::BadNotFound));
}

UA_TEST_MAIN(TestClientWindowSmoke)
#include "tst_client_window_smoke.moc"
