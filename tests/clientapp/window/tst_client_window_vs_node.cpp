// The window end to end against node-opcua's server (tests/clientapp/node_demo_server.js, started
// here): discover its endpoints in the Connect dialog, connect to the best one (Basic256Sha256
// SignAndEncrypt) accepting its certificate in the trust dialog, expand the tree to Demo/Setpoint
// by browse path, write it in place and read it back, monitor Demo/Counter with the tree's
// context-menu action (at least three changes in the Data access table, points in the trend
// series), events from the Server object, and call Demo/Add through the Call dialog's model.
#include "WindowTestUtil.h"
#include "core/Connection.h"
#include "models/AddressTreeModel.h"
#include "models/AttributesModel.h"
#include "models/EventsModel.h"
#include "models/MethodCallModel.h"
#include "models/MonitoredItemsModel.h"
#include "window/AddressPanel.h"
#include "window/CallDialog.h"
#include "window/ConnectDialog.h"
#include "window/DataAccessPanel.h"
#include "window/EventsPanel.h"
#include "window/MainWindow.h"
#include "window/NodePanel.h"
#include "window/TrendPanel.h"
#include "window/TrustDialog.h"

#include <QLabel>
#include <QLineSeries>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void discoversEveryEndpoint();
    void connectsAfterTheTrustDialog();
    void browsesToTheVariableAndWritesItInPlace();
    void monitorsAChangingCounter();
    void listsEvents();
    void callsTheMethod();

private:
    QProcess m_node;
    QString m_url;
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestClientWindowVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    m_node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    m_node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral(UA_CLIENTAPP_TEST_DIR "/node_demo_server.js"), QStringLiteral("0")});
    QVERIFY(m_node.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += m_node.readAllStandardOutput()).contains('\n') || m_node.state() == QProcess::NotRunning, 90000);
    const QList<QByteArray> words = out.trimmed().split(' ');
    QVERIFY2(words.size() == 2 && words[0] == "READY",
             qPrintable(QString::fromUtf8(out) + QString::fromUtf8(m_node.readAllStandardError().right(3000))));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(QString::fromLatin1(words[1]));

    WindowOptions options;
    options.pkiDir = m_dir.filePath(QStringLiteral("pki"));
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestClientWindowVsNode::cleanupTestCase() {
    m_window.reset();
    if (m_node.state() != QProcess::NotRunning) {
        m_node.closeWriteChannel();  // the script stops when its stdin closes
        if (!m_node.waitForFinished(10000)) m_node.kill();
        m_node.waitForFinished(5000);
    }
}

void TestClientWindowVsNode::discoversEveryEndpoint() {
    ConnectDialog dialog(m_window->connection(), m_window->history(), m_window.get());
    ConnectionSettings s;
    s.endpointUrl = m_url;
    dialog.setSettings(s);
    dialog.show();
    QSignalSpy discovered(&dialog, &ConnectDialog::discovered);
    dialog.discover();
    QVERIFY(discovered.wait(20000));
    QCOMPARE(discovered.at(0).at(0).value<DiscoveryResult>().status, StatusCode());
    // None; Basic256Sha256 Sign and SignAndEncrypt: 3 endpoint rows (+ "best available"), with token types.
    int endpoints = 0;
    QStringList modes;
    for (QTreeWidgetItemIterator it(dialog.endpointTree()); *it; ++it)
        if ((*it)->parent()) {
            ++endpoints;
            modes << (*it)->text(2);
            QVERIFY2((*it)->text(3).contains(QStringLiteral("Anonymous")) && (*it)->text(3).contains(QStringLiteral("UserName")),
                     qPrintable((*it)->text(3)));
        }
    QCOMPARE(endpoints, 3);
    QVERIFY(modes.contains(QStringLiteral("SignAndEncrypt")));
    QVERIFY(dialog.selectEndpoint(QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256"), MessageSecurityMode::Sign));
    QCOMPARE(dialog.settings().securityMode, MessageSecurityMode::Sign);
}

void TestClientWindowVsNode::connectsAfterTheTrustDialog() {
    ConnectionSettings s;
    s.endpointUrl = m_url;  // best available: Basic256Sha256 SignAndEncrypt, the certificate is not trusted yet
    bool asked = false;
    QString reason;
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* trust = qobject_cast<TrustDialog*>(w); trust && trust->isVisible()) {
                asked = true;
                reason = trust->findChild<QLabel*>(QStringLiteral("trustReason"))->text();
                trust->findChild<QPushButton*>(QStringLiteral("acceptOnce"))->click();
            }
    });
    poll.start(50);
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QVERIFY(asked);
    QVERIFY2(reason.contains(QStringLiteral("trust list")), qPrintable(reason));
    QCOMPARE(m_window->connection()->state(), ClientState::Connected);
}

void TestClientWindowVsNode::browsesToTheVariableAndWritesItInPlace() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(QStringLiteral("/Objects/1:Demo/1:Setpoint"));
    QVERIFY(done.wait(15000));
    QCOMPARE(done.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(address->tree()->currentIndex().data().toString(), QStringLiteral("Setpoint"));
    QCOMPARE(address->tree()->currentIndex().parent().data().toString(), QStringLiteral("Demo"));

    AttributesModel* attributes = m_window->nodePanel()->attributes();
    QTRY_VERIFY_WITH_TIMEOUT(attributes->valueIndex().isValid(), 5000);
    const auto valueText = [attributes] { return attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString(); };
    QCOMPARE(valueText(), QStringLiteral("20.5"));
    QSignalSpy written(attributes, &AttributesModel::writeFinished);
    QVERIFY(attributes->setData(attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn), QStringLiteral("42.25"), Qt::EditRole));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).value<StatusCode>(), StatusCode());
    QTRY_COMPARE_WITH_TIMEOUT(valueText(), QStringLiteral("42.25"), 5000);  // read back after the write
    // Read again on demand: the server keeps it.
    QSignalSpy loaded(attributes, &AttributesModel::loaded);
    attributes->refresh();
    QVERIFY(loaded.wait(10000));
    QCOMPARE(valueText(), QStringLiteral("42.25"));
}

void TestClientWindowVsNode::monitorsAChangingCounter() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(QStringLiteral("/Objects/1:Demo/1:Counter"));
    QVERIFY(done.wait(15000));
    QCOMPARE(done.at(0).at(0).value<StatusCode>(), StatusCode());
    MonitoredItemsModel* items = m_window->dataAccess()->model();
    items->setPublishingInterval(100);
    QVERIFY(test::chooseContextAction(address->tree(), address->tree()->currentIndex(), QStringLiteral("monitorAction")));
    QCOMPARE(items->rowCount(), 1);
    QStringList seen;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
        const QString v = items->index(0, MonitoredItemsModel::ValueColumn).data().toString();
        if (!v.isEmpty() && (seen.isEmpty() || seen.last() != v)) seen << v;
        return seen.size() >= 4;  // the first value and three changes
    }()), 10000);
    QCOMPARE(items->index(0, MonitoredItemsModel::DataTypeColumn).data().toString(), QStringLiteral("Int32"));
    qInfo("Counter values seen in the table: %s", qPrintable(seen.join(QStringLiteral(", "))));
    // The trend: tick it, the series gets the points.
    items->setTrend(0, true);
    m_window->centerTabs()->setCurrentWidget(m_window->trend());
    const uint32_t handle = items->clientHandleAt(0);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->trend()->series(handle) && m_window->trend()->series(handle)->count() >= 3, 10000);
    QLineSeries* series = m_window->trend()->series(handle);
    QVERIFY(series->at(series->count() - 1).y() > series->at(0).y());  // a counter goes up
}

void TestClientWindowVsNode::listsEvents() {
    m_window->centerTabs()->setCurrentWidget(m_window->events());
    EventsModel* events = m_window->events()->model();
    QTRY_VERIFY_WITH_TIMEOUT(events->rowCount() >= 2, 10000);
    const int source = events->fields().indexOf(QStringLiteral("SourceName"));
    QVERIFY(source >= 0);
    QCOMPARE(events->index(events->rowCount() - 1, source).data().toString(), QStringLiteral("Demo"));
}

void TestClientWindowVsNode::callsTheMethod() {
    CallDialog* dialog = m_window->showCallDialog(*NodeId::parse("ns=1;s=Demo.Add"), *NodeId::parse("ns=1;s=Demo"));
    MethodCallModel* model = dialog->model();
    QSignalSpy loaded(model, &MethodCallModel::loaded);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, MethodCallModel::NameColumn).data().toString(), QStringLiteral("A"));
    QCOMPARE(model->index(0, MethodCallModel::DataTypeColumn).data().toString(), QStringLiteral("Double"));
    QVERIFY(model->setInputText(0, QStringLiteral("2.5")));
    QVERIFY(model->setInputText(1, QStringLiteral("4")));
    QSignalSpy called(model, &MethodCallModel::callFinished);
    dialog->findChild<QPushButton*>(QStringLiteral("callButton"))->click();
    QVERIFY(called.wait(10000));
    QCOMPARE(called.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(model->outputs()->rowCount(), 1);
    QCOMPARE(model->outputs()->index(0, MethodOutputsModel::ValueColumn).data().toString(), QStringLiteral("6.5"));
    // node-opcua sends no inputArgumentResults for a Good call (allowed: OPC 10000-4 5.11.2.2).
    const QString result0 = model->index(0, MethodCallModel::ResultColumn).data().toString();
    QVERIFY2(result0.isEmpty() || result0 == QLatin1String("Good"), qPrintable(result0));
    // A wrong input: refused locally, per argument.
    model->setInputText(1, QStringLiteral("four"));
    called.clear();
    model->call();
    QTRY_VERIFY_WITH_TIMEOUT(called.count() == 1, 5000);
    QVERIFY(called.at(0).at(0).value<StatusCode>().isBad());
    QVERIFY2(model->index(1, MethodCallModel::ResultColumn).data().toString().startsWith(QLatin1String("Bad_")),
             qPrintable(model->index(1, MethodCallModel::ResultColumn).data().toString()));
    dialog->close();
}

UA_TEST_MAIN(TestClientWindowVsNode)
#include "tst_client_window_vs_node.moc"
