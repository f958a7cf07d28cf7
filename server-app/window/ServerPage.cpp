#include "ServerPage.h"

#include "SettingsEditor.h"

#include "ua/server/runtime/Server.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ua::app {

namespace {

QString stateName(int32_t state) {
    switch (ServerState(state)) {
    case ServerState::Running: return QStringLiteral("Running");
    case ServerState::Failed: return QStringLiteral("Failed");
    case ServerState::NoConfiguration: return QStringLiteral("NoConfiguration");
    case ServerState::Suspended: return QStringLiteral("Suspended");
    case ServerState::Shutdown: return QStringLiteral("Shutdown");
    case ServerState::Test: return QStringLiteral("Test");
    case ServerState::CommunicationFault: return QStringLiteral("CommunicationFault");
    case ServerState::Unknown: break;
    }
    return QStringLiteral("Unknown");
}

QString tokenTypes(const EndpointDescription& e) {
    QStringList names;
    for (const auto& t : e.userIdentityTokens) {
        switch (t.tokenType) {
        case UserTokenType::Anonymous: names << QStringLiteral("Anonymous"); break;
        case UserTokenType::UserName: names << QStringLiteral("UserName"); break;
        case UserTokenType::Certificate: names << QStringLiteral("Certificate"); break;
        case UserTokenType::IssuedToken: names << QStringLiteral("IssuedToken"); break;
        }
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

ServerPage::ServerPage(const ServerSettings& settings, const QString& configPath, QWidget* parent)
    : QWidget(parent), m_configPath(configPath) {
    setObjectName(QStringLiteral("serverPage"));
    auto* status = new QGroupBox(tr("Server"));
    auto* sl = new QHBoxLayout(status);
    auto* labels = new QVBoxLayout;
    labels->addWidget(m_state = new QLabel);
    m_state->setObjectName(QStringLiteral("serverState"));
    labels->addWidget(m_url = new QLabel);
    m_url->setObjectName(QStringLiteral("serverUrl"));
    m_url->setTextInteractionFlags(Qt::TextSelectableByMouse);
    labels->addWidget(m_counts = new QLabel);
    sl->addLayout(labels, 1);
    sl->addWidget(m_start = new QPushButton(tr("Start")));
    sl->addWidget(m_stop = new QPushButton(tr("Stop")));
    m_start->setObjectName(QStringLiteral("startButton"));
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("ServerState Shutdown for the configured delay, then the Sessions are closed"));
    connect(m_start, &QPushButton::clicked, this, &ServerPage::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &ServerPage::stopRequested);

    m_endpoints = new QTreeWidget;
    m_endpoints->setObjectName(QStringLiteral("endpointsView"));
    m_endpoints->setHeaderLabels({tr("Endpoint URL"), tr("Security policy"), tr("Mode"), tr("User tokens")});
    m_endpoints->setRootIsDecorated(false);
    m_endpoints->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* endpoints = new QGroupBox(tr("Endpoints offered"));
    (new QVBoxLayout(endpoints))->addWidget(m_endpoints);

    auto* config = new QGroupBox(tr("Configuration: %1").arg(configPath));
    auto* cl = new QVBoxLayout(config);
    cl->addWidget(m_editor = new SettingsEditor);
    m_editor->setSettings(settings);
    auto* saveRow = new QHBoxLayout;
    saveRow->addWidget(m_saveStatus = new QLabel(tr("Changes apply when the server is started again.")), 1);
    saveRow->addWidget(m_save = new QPushButton(tr("Save")));
    m_save->setObjectName(QStringLiteral("saveButton"));
    cl->addLayout(saveRow);
    connect(m_save, &QPushButton::clicked, this, [this] {
        QString error;
        if (!save(&error)) m_saveStatus->setText(tr("Not saved: %1").arg(error));
    });
    connect(m_editor, &SettingsEditor::edited, this, [this] { m_saveStatus->setText(tr("Edited, not saved yet.")); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status);
    layout->addWidget(endpoints, 1);
    layout->addWidget(config);

    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &ServerPage::refresh);
    timer->start(250);
    setNextUrl(settings);  // and refresh()
}

bool ServerPage::save(QString* error) {
    // What the configuration file would refuse at the next start is refused here (a client URL).
    if (const QString problem = m_editor->problem(); !problem.isEmpty()) {
        if (error) *error = problem;
        return false;
    }
    const ServerSettings s = m_editor->settings();
    if (!s.save(m_configPath, error)) return false;
    m_editor->setSettings(s);
    setNextUrl(s);
    m_saveStatus->setText(tr("Saved to %1; it applies when the server is started again.").arg(m_configPath));
    emit settingsSaved(s);
    return true;
}

void ServerPage::setNextUrl(const ServerSettings& s) {
    ServerConfig c;
    c.hostName = s.hostName;
    c.port = s.port;
    m_nextUrl = c.endpointUrl();
    if (s.port == 0) m_nextUrl = m_nextUrl.chopped(1) + tr("<a free port>");
    refresh();
}

void ServerPage::setUsers(const UserDatabase& users) {
    m_editor->setUsers(users);
}

void ServerPage::setHistoryNodes(const std::vector<HistoryNodeSetting>& nodes) {
    m_editor->setHistoryNodes(nodes);
}

void ServerPage::attach(LiveServer* live) {
    m_live = live;
    m_endpoints->clear();
    if (live) {
        for (const auto& e : live->server().endpoints()) {
            const QString policy = QString::fromStdString(e.securityPolicyUri.str()).section(QLatin1Char('#'), 1);
            new QTreeWidgetItem(m_endpoints, {QString::fromStdString(e.endpointUrl.str()), policy,
                                              QString::fromLatin1(enumName(e.securityMode)), tokenTypes(e)});
        }
        m_status.clear();
    }
    refresh();
}

void ServerPage::setStatusText(const QString& text) {
    m_status = text;
    refresh();
}

void ServerPage::refresh() {
    Server* server = m_live ? &m_live->server() : nullptr;
    m_start->setEnabled(!server);
    m_stop->setEnabled(server != nullptr);
    if (!server) {
        // Capitalised as the ServerState names are ("Running"); the URL the next start listens on.
        m_state->setText(tr("<b>State:</b> %1").arg(m_status.isEmpty() ? tr("Stopped") : m_status));
        m_url->setText(tr("<b>URL:</b> %1 (not listening)").arg(m_nextUrl.toHtmlEscaped()));
        m_counts->clear();
        return;
    }
    const auto& rt = server->runtime();
    QString state = stateName(rt.state.load(std::memory_order_relaxed));
    if (ServerState(rt.state.load(std::memory_order_relaxed)) == ServerState::Shutdown)
        state += tr(" (SecondsTillShutdown %1)").arg(rt.secondsTillShutdown.load(std::memory_order_relaxed));
    m_state->setText(tr("<b>State:</b> %1").arg(state));
    m_url->setText(tr("<b>URL:</b> %1").arg(server->endpointUrl()));
    m_counts->setText(tr("<b>SecureChannels:</b> %1 &nbsp; <b>Subscriptions:</b> %2")
                          .arg(server->channelCount.load(std::memory_order_relaxed))
                          .arg(server->subscriptionRegistry().subscriptionCount()));
}

} // namespace ua::app
