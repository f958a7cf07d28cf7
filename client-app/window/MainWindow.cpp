#include "window/MainWindow.h"

#include "ua/server/nodeset/NodeSetExporter.h"

#include "core/NodeSetCrawler.h"

#include "core/ConnectErrors.h"
#include "core/Connection.h"
#include "core/ServerHistory.h"
#include "core/ServiceLog.h"
#include "ValueText.h"
#include "models/AddressTreeModel.h"
#include "models/EventsModel.h"
#include "models/MonitoredItemsModel.h"
#include "models/NodeIdMime.h"
#include "window/AddressPanel.h"
#include "window/AlarmsPanel.h"
#include "window/CallDialog.h"
#include "window/ServerCertificatesDialog.h"
#include "window/ConnectDialog.h"
#include "window/DataAccessPanel.h"
#include "window/EventHistoryPanel.h"
#include "window/EventsPanel.h"
#include "window/HistoryTrendPanel.h"
#include "window/NodePanel.h"
#include "window/TrendPanel.h"
#include "window/TrustDialog.h"
#include "ua/client/discovery/EndpointUrl.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QHostInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QSaveFile>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTimer>
#include <QToolButton>

namespace ua::clientapp {

namespace {

QString stateText(ClientState state) {
    switch (state) {
    case ClientState::Disconnected: return QObject::tr("Disconnected");
    case ClientState::Connecting: return QObject::tr("Connecting");
    case ClientState::ChannelOpen: return QObject::tr("Channel open");
    case ClientState::Connected: return QObject::tr("Connected");
    case ClientState::Reconnecting: return QObject::tr("Reconnecting");
    }
    return {};
}

QDockWidget* dock(const QString& title, const QString& name, QWidget* content, QMainWindow* window) {
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name);
    d->setWidget(content);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    return d;
}

} // namespace

MainWindow::MainWindow(WindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)), m_connection(new Connection(m_options.pkiDir, this)),
      m_history(new ServerHistory(m_options.historyFile, 20, this)) {
    setObjectName(QStringLiteral("clientMainWindow"));
    setWindowTitle(tr("UA Workbench Client"));
    resize(1400, 900);
    m_connection->setTrustPrompt([this](const Certificate& certificate, StatusCode reason) {
        return TrustDialog::ask(certificate, reason, this);
    });
    buildDocks();
    buildActions();

    connect(m_connection, &Connection::stateChanged, this, &MainWindow::stateChanged);
    connect(m_connection, &Connection::connectFinished, this, &MainWindow::connectFinished);
    connect(m_connection, &Connection::operationsChanged, this, &MainWindow::operationsChanged);
    stateChanged(ClientState::Disconnected, {});
    operationsChanged(0, {});
}

MainWindow::~MainWindow() {
    // The Connection goes with the other children after this body, when this is only a QWidget any
    // more: its last signals (an operation it ends as it drops its client) must not reach this
    // window's slots then (UBSan: a downcast to a MainWindow that is no longer one).
    disconnect(m_connection, nullptr, this, nullptr);
    // The panels' models talk to the Connection when they go (deleting their subscriptions): they
    // go first, while it is still there (QObject deletes children in creation order).
    delete takeCentralWidget();
    qDeleteAll(findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly));
}

void MainWindow::buildDocks() {
    setDockNestingEnabled(true);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_address = new AddressPanel(m_connection);
    auto* addressDock = dock(tr("Address space"), QStringLiteral("addressDock"), m_address, this);
    addDockWidget(Qt::LeftDockWidgetArea, addressDock);

    m_node = new NodePanel(m_connection);
    auto* nodeDock = dock(tr("Attributes and references"), QStringLiteral("nodeDock"), m_node, this);
    addDockWidget(Qt::RightDockWidgetArea, nodeDock);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("centerTabs"));
    m_dataAccess = new DataAccessPanel(m_connection);
    m_trend = new TrendPanel(m_dataAccess->model());
    m_historyTrend = new HistoryTrendPanel(m_connection);
    m_events = new EventsPanel(m_connection);
    m_tabs->addTab(m_dataAccess, tr("Data access"));
    m_tabs->addTab(m_trend, tr("Trend"));
    m_tabs->addTab(m_historyTrend, tr("History"));
    m_tabs->addTab(m_events, tr("Events"));
    m_eventHistory = new EventHistoryPanel(m_connection);
    m_tabs->addTab(m_eventHistory, tr("Event history"));
    m_alarms = new AlarmsPanel(m_connection);
    m_tabs->addTab(m_alarms, tr("Alarms"));
    setCentralWidget(m_tabs);

    m_logView = new QTableView;
    m_logView->setObjectName(QStringLiteral("logView"));
    auto* logModel = new ServiceLogModel(m_connection->log(), m_logView);
    m_logView->setModel(logModel);
    m_logView->verticalHeader()->hide();
    m_logView->verticalHeader()->setDefaultSectionSize(20);
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setColumnWidth(ServiceLogModel::TimeColumn, 95);
    m_logView->setColumnWidth(ServiceLogModel::ServiceColumn, 150);
    // Wide enough for the usual status names whole ("Bad_TcpEndpointUrlInvalid"; issue 27 item 6).
    m_logView->setColumnWidth(ServiceLogModel::StatusColumn,
                              m_logView->fontMetrics().horizontalAdvance(QStringLiteral("Bad_CertificateHostNameInvalid")) + 16);
    m_logView->setColumnWidth(ServiceLogModel::ElapsedColumn, 50);
    connect(logModel, &QAbstractItemModel::rowsInserted, m_logView, [this] {
        QScrollBar* bar = m_logView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 3) m_logView->scrollToBottom();
    });
    auto* logDock = dock(tr("Log"), QStringLiteral("logDock"), m_logView, this);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    // Sizes apply once the window is laid out (before, the docks keep their minimum).
    QTimer::singleShot(0, this, [this, addressDock, nodeDock, logDock] {
        resizeDocks({addressDock, nodeDock}, {210, 460}, Qt::Horizontal);
        resizeDocks({logDock}, {170}, Qt::Vertical);
    });

    connect(m_address, &AddressPanel::nodeSelected, this, &MainWindow::nodeSelected);
    connect(m_address, &AddressPanel::monitorRequested, this, qOverload<const std::vector<NodeId>&>(&MainWindow::monitor));
    connect(m_address, &AddressPanel::historyTrendRequested, this, &MainWindow::addToHistoryTrend);
    connect(m_address, &AddressPanel::callRequested, this, [this](const NodeId& method, const NodeId& object) {
        showCallDialog(method, object);
    });
    connect(m_node, &NodePanel::goToRequested, m_address, &AddressPanel::goTo);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* server = menuBar()->addMenu(tr("&Server"));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QToolBar* bar = addToolBar(tr("Connection"));
    bar->setObjectName(QStringLiteral("connectionToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);

    // Three distinct icons (issue 27 item 6): Connect a network, Recent a list, Refresh the arrows.
    m_connectAction = new QAction(style()->standardIcon(QStyle::SP_DriveNetIcon), tr("Connect..."), this);
    m_connectAction->setObjectName(QStringLiteral("connectAction"));
    m_connectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_connectAction->setToolTip(tr("Discover a server's endpoints and connect (Ctrl+K)"));
    connect(m_connectAction, &QAction::triggered, this, &MainWindow::showConnectDialog);

    m_recentButton = new QToolButton;
    m_recentButton->setObjectName(QStringLiteral("recentButton"));
    m_recentButton->setText(tr("Recent"));
    m_recentButton->setToolTip(tr("Reconnect to a server you used before"));
    m_recentButton->setIcon(style()->standardIcon(QStyle::SP_FileDialogListView));
    m_recentButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_recentButton->setPopupMode(QToolButton::InstantPopup);
    auto* recentMenu = new QMenu(m_recentButton);
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    m_recentButton->setMenu(recentMenu);
    connect(recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();

    m_disconnectAction = new QAction(style()->standardIcon(QStyle::SP_DialogCloseButton), tr("Disconnect"), this);
    m_disconnectAction->setObjectName(QStringLiteral("disconnectAction"));
    connect(m_disconnectAction, &QAction::triggered, this, [this] { m_connection->disconnectFromServer(); });

    m_cancelAction = new QAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("Cancel"), this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setShortcutContext(Qt::WindowShortcut);
    m_cancelAction->setToolTip(tr("Stop waiting for the running operations (Esc)"));
    connect(m_cancelAction, &QAction::triggered, this, [this] { m_connection->cancelOperations(); });

    m_refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this);
    m_refreshAction->setObjectName(QStringLiteral("refreshAction"));
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_refreshAction->setToolTip(tr("Read the selected node's attributes and references again (F5)"));
    connect(m_refreshAction, &QAction::triggered, m_node, &NodePanel::refresh);

    bar->addAction(m_connectAction);
    bar->addWidget(m_recentButton);
    bar->addAction(m_disconnectAction);
    bar->addSeparator();
    bar->addAction(m_cancelAction);
    bar->addAction(m_refreshAction);

    server->addAction(m_connectAction);
    server->addMenu(recentMenu)->setText(tr("Recent"));
    server->addAction(m_disconnectAction);
    server->addAction(m_cancelAction);
    server->addAction(m_refreshAction);
    server->addSeparator();
    QAction* certificates = server->addAction(tr("Manage server &certificates..."), this, [this] { showServerCertificatesDialog(); });
    certificates->setObjectName(QStringLiteral("serverCertificatesAction"));
    certificates->setToolTip(tr("The server's trust list through its ServerConfiguration (OPC 10000-12 push management)"));

    QAction* open = file->addAction(tr("&Open project..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), {}, tr("UA Workbench projects (*.uaproj *.json)"));
        QString error;
        if (!path.isEmpty() && !openProject(path, &error)) QMessageBox::warning(this, tr("Open project"), error);
    });
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save project..."), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save project"), {}, tr("UA Workbench projects (*.uaproj *.json)"));
        if (path.isEmpty()) return;
        if (!path.contains(QLatin1Char('.'))) path += QStringLiteral(".uaproj");
        QString error;
        if (!saveProject(path, &error)) QMessageBox::warning(this, tr("Save project"), error);
        else statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    });
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    QAction* exportNodes = file->addAction(tr("&Export NodeSet..."), this, [this] {
        Client* client = m_connection->client();
        if (!client || client->state() != ClientState::Connected) {
            QMessageBox::information(this, tr("Export NodeSet"), tr("Connect to a server first."));
            return;
        }
        client->readValues({NodeId(uint32_t(2255))}, this, [this](const ServiceResult<ReadResponse>& r) {  // NamespaceArray
            const auto* uris = r.isGood() && !r.response.results.empty() ? r.response.results[0].value.get<Array<String>>() : nullptr;
            if (!uris) return;
            QStringList choices;
            for (std::size_t i = 1; i < uris->size(); ++i) choices << (*uris)[i].toQString();
            bool ok = false;
            const QString uri = QInputDialog::getItem(this, tr("Export NodeSet"), tr("Namespace:"), choices, 0, false, &ok);
            if (!ok) return;
            const QString path = QFileDialog::getSaveFileName(this, tr("Export NodeSet"), QStringLiteral("export.NodeSet2.xml"),
                                                              tr("NodeSet2 files (*.xml)"));
            if (!path.isEmpty()) exportNodeSet(uri, path);
        });
    });
    exportNodes->setObjectName(QStringLiteral("exportNodeSetAction"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

    m_stateLabel = new QLabel;
    m_stateLabel->setObjectName(QStringLiteral("connectionState"));
    // A long state or failure text must not widen the window: it is cut, and whole in the tooltip.
    m_stateLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_operationLabel = new QLabel;
    m_operationLabel->setObjectName(QStringLiteral("operationState"));
    statusBar()->addWidget(m_stateLabel, 1);
    statusBar()->addPermanentWidget(m_operationLabel);
}

void MainWindow::fillRecentMenu() {
    QMenu* menu = m_recentButton->menu();
    menu->clear();
    const auto& entries = m_history->entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const ConnectionSettings s = entries[i];
        QAction* a = menu->addAction(s.label(), this, [this, s] { connectTo(s); });
        a->setToolTip(s.endpointUrl);
        a->setObjectName(QStringLiteral("recent%1").arg(i));
    }
    if (entries.empty()) menu->addAction(tr("(no server used yet)"))->setEnabled(false);
    m_recentButton->setEnabled(true);
}

QString MainWindow::passwordKey(const ConnectionSettings& s) const {
    return s.endpointUrl + QLatin1Char('\n') + s.userName;
}

QString MainWindow::askPassword(const QString& title, const QString& label, bool* ok) {
    QInputDialog dialog(this);
    dialog.setObjectName(QStringLiteral("passwordDialog"));
    dialog.setWindowTitle(title);
    dialog.setLabelText(label);
    dialog.setTextEchoMode(QLineEdit::Password);
    *ok = dialog.exec() == QDialog::Accepted;
    return *ok ? dialog.textValue() : QString();
}

void MainWindow::connectTo(ConnectionSettings settings) {
    if (settings.identityKind == UserIdentity::Kind::UserName && settings.password.isEmpty()) {
        settings.password = m_passwords.value(passwordKey(settings));
        if (settings.password.isEmpty()) {
            bool ok = false;
            settings.password = askPassword(tr("Password"), tr("Password of %1 on %2:").arg(settings.userName, settings.endpointUrl), &ok);
            if (!ok) return;
        }
    }
    if (settings.identityKind == UserIdentity::Kind::UserName) m_passwords.insert(passwordKey(settings), settings.password);
    m_pending = settings;
    m_connectFailure.clear();
    ++m_connectAttempt;
    m_connection->connectTo(settings);
}

void MainWindow::showConnectDialog() {
    auto* dialog = new ConnectDialog(m_connection, m_history, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!m_connection->settings().endpointUrl.isEmpty()) dialog->setSettings(m_connection->settings());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { connectTo(dialog->settings()); });
    dialog->open();
}

void MainWindow::stateChanged(ClientState state, StatusCode reason) {
    const ConnectionSettings& s = m_connection->settings();
    QString text = stateText(state);
    QString color = QStringLiteral("#555");
    switch (state) {
    case ClientState::Connected: {
        // What was chosen, not what was asked ("best"): the endpoint's policy and mode, the user.
        const ClientSnapshot snap = m_connection->client() ? m_connection->client()->snapshot() : ClientSnapshot();
        const QString name = serverName();
        QString user = tr("anonymous");
        if (s.identityKind == UserIdentity::Kind::UserName) user = s.userName;
        else if (s.identityKind == UserIdentity::Kind::Certificate) user = tr("user certificate");
        text = tr("Connected to %1 (%2), %3 %4, %5")
                   .arg(name.isEmpty() ? s.endpointUrl : name, s.endpointUrl,
                        policyShortName(snap.endpoint.securityPolicyUri.toQString()), modeName(snap.endpoint.securityMode), user);
        if (snap.reconnectCount > 0) text += tr("; reconnected %n time(s)", nullptr, int(snap.reconnectCount));
        color = QStringLiteral("#1b5e20");
        break;
    }
    case ClientState::Connecting:
    case ClientState::ChannelOpen:
        text = tr("Connecting to %1 ...").arg(s.endpointUrl);
        color = QStringLiteral("#8a6d00");
        break;
    case ClientState::Reconnecting:
        text = tr("Connection lost (%1): reconnecting to %2 ...").arg(app::statusName(reason), s.endpointUrl);
        color = QStringLiteral("#b35c00");
        break;
    case ClientState::Disconnected:
        text = reason.isBad() ? tr("Disconnected: %1").arg(app::statusName(reason)) : tr("Disconnected");
        // A reconnect that found a new server certificate and was told not to trust it (issue 27 item 2).
        if (m_lastState == ClientState::Reconnecting && app::statusName(reason).startsWith(QLatin1String("Bad_Certificate")))
            text += tr(": the server came back with another certificate, which was not accepted; reconnecting stopped (Connect asks again)");
        color = reason.isBad() ? QStringLiteral("#b00020") : QStringLiteral("#555");
        break;
    }
    if (state == ClientState::Disconnected && !m_connectFailure.isEmpty()) {
        // The failed connect's sentence stays (showConnectFailure) until the next connect.
    } else {
        m_stateLabel->setText(text);
        m_stateLabel->setToolTip(text);
        m_stateLabel->setStyleSheet(QStringLiteral("color: %1; font-weight: bold").arg(color));
    }
    m_lastState = state;
    m_disconnectAction->setEnabled(state != ClientState::Disconnected);
    const QString title = serverName();
    setWindowTitle(state == ClientState::Connected ? tr("%1 - UA Workbench Client").arg(title.isEmpty() ? s.endpointUrl : title)
                                                   : tr("UA Workbench Client"));
}

QString MainWindow::serverName() const {
    // The name the connected server gives itself in its EndpointDescription: a displayName kept in
    // the settings may belong to the server connected before (issue 27 item 1).
    const ClientSnapshot snap = m_connection->client() ? m_connection->client()->snapshot() : ClientSnapshot();
    const QString name = snap.endpoint.server.applicationName.text.toQString();
    return name.isEmpty() ? m_connection->settings().displayName : name;
}

void MainWindow::connectFinished(StatusCode status) {
    if (status.isGood()) {
        ConnectionSettings used = m_connection->settings();
        used.displayName = serverName();
        m_history->use(used);
        m_events->connected();
        m_alarms->connected();
        statusBar()->showMessage(tr("Session active"), 3000);
    } else {
        m_passwords.remove(passwordKey(m_pending));  // a wrong password is not tried again
        // The server refused the user: ask for the password again at once and retry, as UaExpert
        // does (issue 27 item 4); Cancel leaves the failure on screen.
        const uint32_t kind = status.code & 0xFFFF0000u;
        if (m_pending.identityKind == UserIdentity::Kind::UserName &&
            (kind == status::BadUserAccessDenied.code || kind == status::BadIdentityTokenRejected.code)) {
            bool ok = false;
            const QString password =
                askPassword(tr("Password refused"),
                            tr("%1 refused the password of %2 (%3). Password:")
                                .arg(m_pending.endpointUrl, m_pending.userName, app::statusName(status)),
                            &ok);
            if (ok) {
                ConnectionSettings again = m_pending;
                again.password = password;
                connectTo(again);
                return;
            }
        }
        // A sentence beside the status code (issue 27 item 4), kept in the state label until the
        // next connect. Bad_ConnectionRejected is both "unknown host" and "nothing listens" (the
        // specification has no code for an unknown host): a host lookup tells them apart.
        ConnectFailureContext context;
        context.endpointUrl = m_connection->settings().endpointUrl;
        if ((status.code & 0xFFFF0000u) == status::BadSecurityChecksFailed.code)
            context.clientCertificate = ownCertificateIn(m_connection->pkiDir());
        const bool cancelled = (status.code & 0xFFFF0000u) == status::BadDisconnect.code;
        showConnectFailure(connectFailureText(status, context), cancelled);
        const std::optional<EndpointUrl> url = EndpointUrl::parse(context.endpointUrl);
        if ((status.code & 0xFFFF0000u) == status::BadConnectionRejected.code && url) {
            const int attempt = m_connectAttempt;
            QHostInfo::lookupHost(url->host, this, [this, attempt, status, context](const QHostInfo& info) mutable {
                if (attempt != m_connectAttempt || m_connection->state() != ClientState::Disconnected) return;
                context.hostResolved = info.error() == QHostInfo::NoError && !info.addresses().isEmpty();
                showConnectFailure(connectFailureText(status, context), false);
            });
        }
    }
}

void MainWindow::showConnectFailure(const QString& text, bool cancelled) {
    m_connectFailure = text;
    m_stateLabel->setText(text);
    m_stateLabel->setToolTip(text);
    m_stateLabel->setStyleSheet(cancelled ? QStringLiteral("color: #555; font-weight: bold")
                                          : QStringLiteral("color: #b00020; font-weight: bold"));
}

void MainWindow::operationsChanged(int count, const QString& latest) {
    m_cancelAction->setEnabled(count > 0);
    m_operationLabel->setText(count > 0 ? tr("%1 ... (%2 running; Esc cancels)").arg(latest).arg(count) : QString());
}

void MainWindow::nodeSelected(const NodeId& node) {
    m_node->setNode(node);
}

void MainWindow::monitor(const std::vector<NodeId>& nodes) {
    std::vector<NodeId> valid;
    for (const NodeId& n : nodes)
        if (!n.isNull()) valid.push_back(n);
    if (valid.empty()) return;
    m_dataAccess->addNodes(valid);
    m_tabs->setCurrentWidget(m_dataAccess);
}

void MainWindow::addToHistoryTrend(const std::vector<NodeId>& nodes) {
    std::vector<NodeId> valid;
    for (const NodeId& n : nodes)
        if (!n.isNull()) valid.push_back(n);
    if (valid.empty()) return;
    m_historyTrend->addNodes(valid);
    m_tabs->setCurrentWidget(m_historyTrend);
}

CallDialog* MainWindow::showCallDialog(const NodeId& method, const NodeId& object) {
    auto* dialog = new CallDialog(m_connection, method, object, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

ServerCertificatesDialog* MainWindow::showServerCertificatesDialog() {
    auto* dialog = new ServerCertificatesDialog(m_connection, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

Project MainWindow::project() const {
    Project p;
    p.server = m_connection->settings().endpointUrl.isEmpty() ? m_pending : m_connection->settings();
    p.server.password.clear();
    p.subscription = m_dataAccess->model()->subscriptionSettings();
    p.monitoredItems = m_dataAccess->model()->items();
    p.eventNotifier = m_events->notifierText();
    p.eventFields = m_events->model()->fields();
    p.windowGeometry = saveGeometry();
    p.windowState = saveState();
    p.trendWindowSeconds = m_trend->windowSeconds();
    return p;
}

void MainWindow::applyProject(const Project& p) {
    if (!p.windowGeometry.isEmpty()) restoreGeometry(p.windowGeometry);
    if (!p.windowState.isEmpty()) restoreState(p.windowState);
    m_trend->setWindowSeconds(p.trendWindowSeconds);
    // The connection first: one to another server clears the items and events of the old one
    // (Connection::serverChanged), and the project's must stay.
    if (!p.server.endpointUrl.isEmpty()) connectTo(p.server);
    m_dataAccess->model()->setSubscriptionSettings(p.subscription);
    m_dataAccess->model()->setItems(p.monitoredItems);
    if (!p.eventFields.isEmpty()) m_events->setFields(p.eventFields);
    if (!p.eventNotifier.isEmpty()) m_events->setNotifierText(p.eventNotifier);
}

bool MainWindow::openProject(const QString& path, QString* error) {
    std::optional<Project> p = loadProject(path, error);
    if (!p) return false;
    applyProject(*p);
    return true;
}

bool MainWindow::saveProject(const QString& path, QString* error) {
    return ua::clientapp::saveProject(project(), path, error);
}

void MainWindow::exportNodeSet(const QString& namespaceUri, const QString& path) {
    Client* client = m_connection->client();
    if (!client || client->state() != ClientState::Connected) {
        emit nodeSetExported(StatusCode(status::BadServerNotConnected), 0, tr("Not connected"));
        return;
    }
    statusBar()->showMessage(tr("Reading %1 ...").arg(namespaceUri));
    auto* crawler = new NodeSetCrawler(*client, namespaceUri, this);
    connect(crawler, &NodeSetCrawler::finished, this, [this, crawler, path](StatusCode st, const QString& what) {
        crawler->deleteLater();
        if (st.isBad()) {
            const QString message = tr("Not exported: %1: %2").arg(what, app::statusName(st));
            statusBar()->showMessage(message, 10000);
            emit nodeSetExported(st, 0, message);
            return;
        }
        const NodeSetExport x = ua::exportNodeSet(crawler->space(), {crawler->namespaceIndex()});
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(x.xml) != x.xml.size() || !file.commit()) {
            const QString message = tr("Not exported: %1: %2").arg(path, file.errorString());
            statusBar()->showMessage(message, 10000);
            emit nodeSetExported(StatusCode(status::BadUnexpectedError), 0, message);
            return;
        }
        const QString message = tr("Exported %1 nodes and %2 references to %3").arg(x.nodes).arg(x.references).arg(path);
        statusBar()->showMessage(message, 10000);
        emit nodeSetExported(StatusCode(), int(x.nodes), message);
    });
    crawler->start();
}

} // namespace ua::clientapp
