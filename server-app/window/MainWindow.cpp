#include "MainWindow.h"

#include "AddressSpacePage.h"
#include "CertificatesPage.h"
#include "Confirmation.h"
#include "DiagnosticsPage.h"
#include "LogPage.h"
#include "ServerLifecycle.h"
#include "ServerPage.h"
#include "SessionsPage.h"
#include "SubscriptionsPage.h"
#include "AlarmsPage.h"
#include "HistoryPage.h"

#include "models/AdminAudit.h"
#include "models/HistoryModel.h"
#include "models/LogCapture.h"

#include "ua/server/runtime/Server.h"

#include <QAction>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

namespace ua::app {

MainWindow::MainWindow(ServerSettings settings, QString configPath, QWidget* parent)
    : QMainWindow(parent), m_settings(std::move(settings)), m_configPath(std::move(configPath)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("UA Workbench Server"));
    m_logCapture = new serverapp::LogCapture(10000, this);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);

    m_serverPage = new ServerPage(m_settings, m_configPath);
    m_tabs->addTab(m_serverPage, tr("Server"));
    m_views.push_back(m_serverPage);
    connect(m_serverPage, &ServerPage::startRequested, this, [this] { startServer(); });
    connect(m_serverPage, &ServerPage::stopRequested, this, [this] {
        // Stopping disconnects every client: asked first while there are any (issue 27 item 8).
        const int sessions = m_server ? m_server->sessions().count() : 0;
        if (sessions > 0 &&
            !confirmAction(this, tr("Stop the server"),
                           tr("%n client Session(s) are connected. Stopping tells them ServerState Shutdown, then closes "
                              "their Sessions after %1 s. Stop the server?", nullptr, sessions)
                               .arg(m_settings.shutdownDelaySeconds),
                           tr("Stop")))
            return;
        stopServer();
    });
    connect(m_serverPage, &ServerPage::settingsSaved, this, [this](const ServerSettings& s) { m_settings = s; });
    auto addView = [this](auto* page, const QString& title) {
        m_tabs->addTab(page, title);
        m_views.push_back(page);
    };
    addView(new SessionsPage, tr("Sessions"));
    addView(new SubscriptionsPage, tr("Subscriptions"));
    addView(new DiagnosticsPage, tr("Diagnostics"));
    const SaveHistorized saveHistory = [this](const NodeId& node, double samplingIntervalMs, bool on, QString* error) {
        return saveHistorized(node, samplingIntervalMs, on, error);
    };
    auto* addressSpace = new AddressSpacePage;
    addressSpace->setSaveHistorized(saveHistory);
    addView(addressSpace, tr("Address space"));
    auto* history = new HistoryPage;
    history->setSaveHistorized(saveHistory);
    addView(history, tr("History"));
    addView(new AlarmsPage, tr("Alarms"));
    addView(new CertificatesPage([this](const UserDatabase& users, QString* error) { return saveUsers(users, error); }),
            tr("Certificates and users"));
    m_tabs->addTab(new LogPage(m_logCapture), tr("Log"));

    // File > Quit (Ctrl+Q), as in any desktop application (issue 27 item 9).
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));  // QKeySequence::Quit is empty on some platforms
    connect(quit, &QAction::triggered, this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setMenuRole(QAction::QuitRole);

    resize(1200, 800);
}

MainWindow::~MainWindow() {
    destroyServer();
}

bool MainWindow::saveUsers(const UserDatabase& users, QString* error) {
    // Only the "users" object changes in the file; unsaved edits on the Server page stay unsaved.
    ServerSettings onDisk = m_settings;
    if (!onDisk.load(m_configPath, error)) return false;
    onDisk.users = users;
    if (!onDisk.save(m_configPath, error)) return false;
    m_settings.users = users;
    m_serverPage->setUsers(users);
    return true;
}

bool MainWindow::saveHistorized(const NodeId& node, double samplingIntervalMs, bool on, QString* error) {
    if (!m_server) return false;
    HistoryNodeSetting setting;
    setting.nodeId = QString::fromStdString(serverapp::persistentNodeIdText(*m_server->addressSpace().snapshot(), node));
    setting.samplingIntervalMs = samplingIntervalMs;
    // As saveUsers: only history.nodes changes in the file.
    ServerSettings onDisk = m_settings;
    if (!onDisk.load(m_configPath, error)) return false;
    onDisk.history.setNode(setting, on);
    if (!onDisk.save(m_configPath, error)) return false;
    m_settings.history.nodes = onDisk.history.nodes;
    m_serverPage->setHistoryNodes(onDisk.history.nodes);
    return true;
}

void MainWindow::attachAll(LiveServer* live) {
    for (ServerView* v : m_views) v->attach(live);
}

bool MainWindow::startServer(QString* error) {
    if (m_server) return true;
    auto server = std::make_unique<Server>(m_settings.toServerConfig());
    if (!server->start()) {
        const QString why = tr("cannot start on port %1: %2").arg(m_settings.port).arg(server->errorString());
        serverapp::AdminAudit{}.line(false, {}, tr("could not start the server"), why);
        m_serverPage->setStatusText(why);
        statusBar()->showMessage(why);
        if (error) *error = why;
        return false;
    }
    m_server = std::move(server);
    m_live = std::make_unique<LiveServer>(*m_server);
    attachAll(m_live.get());
    serverapp::AdminAudit{}.line(true, tr("started the server on %1 (configuration %2)").arg(m_server->endpointUrl(), m_configPath), {});
    statusBar()->showMessage(tr("Listening on %1").arg(m_server->endpointUrl()));
    emit serverStarted();
    return true;
}

void MainWindow::stopServer(std::function<void()> done, const QString& who) {
    if (!m_server || m_stopping) {
        if (!m_server && done) done();
        return;
    }
    m_stopping = true;
    statusBar()->showMessage(tr("Shutting down in %1 s").arg(m_settings.shutdownDelaySeconds));
    serverapp::AdminAudit audit;
    if (!who.isEmpty()) audit.who = who;
    audit.line(true, tr("stopping the server: ServerState Shutdown for %1 s, then its %n Session(s) are closed", nullptr,
                        m_server->sessions().count())
                         .arg(m_settings.shutdownDelaySeconds),
               {});
    shutDownGracefully(*m_server, m_settings.shutdownDelaySeconds, tr("The administrator stopped the server"), this,
                       [this, audit, done = std::move(done)] {
                           destroyServer();
                           audit.line(true, tr("stopped the server"), {});
                           m_serverPage->setStatusText(tr("Stopped"));
                           statusBar()->showMessage(tr("Stopped"));
                           emit serverStopped();
                           if (done) done();
                       });
}

void MainWindow::destroyServer() {
    attachAll(nullptr);
    m_live.reset();
    if (m_server) m_server->stop();
    m_server.reset();
    m_stopping = false;
}

} // namespace ua::app
