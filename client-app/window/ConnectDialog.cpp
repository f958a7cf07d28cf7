#include "window/ConnectDialog.h"

#include "core/ConnectErrors.h"
#include "core/Connection.h"
#include "core/ServerHistory.h"
#include "ValueText.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ua::clientapp {

namespace {

enum Column { NameColumn, PolicyColumn, ModeColumn, TokensColumn, LevelColumn };
constexpr int kPolicyRole = Qt::UserRole + 1;
constexpr int kModeRole = Qt::UserRole + 2;
constexpr int kEndpointRole = Qt::UserRole + 3;  // bool: an endpoint row (or "best available")

QWidget* fileRow(QLineEdit* edit, const QString& title, const QString& filter, QWidget* parent) {
    auto* row = new QWidget;
    auto* l = new QHBoxLayout(row);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse..."));
    l->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, parent, [edit, title, filter, parent] {
        const QString f = QFileDialog::getOpenFileName(parent, title, edit->text(), filter);
        if (!f.isEmpty()) edit->setText(f);
    });
    return row;
}

} // namespace

QString policyShortName(const QString& policyUri) {
    if (policyUri.isEmpty()) return QObject::tr("best available");
    const int hash = policyUri.lastIndexOf(QLatin1Char('#'));
    return hash >= 0 ? policyUri.mid(hash + 1) : policyUri;
}

QString modeName(MessageSecurityMode mode) {
    switch (mode) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    case MessageSecurityMode::Invalid: break;
    }
    return QObject::tr("best available");
}

QString tokenTypeNames(const Array<UserTokenPolicy>& tokens) {
    QStringList names;
    for (const UserTokenPolicy& t : tokens) {
        QString n;
        switch (t.tokenType) {
        case UserTokenType::Anonymous: n = QStringLiteral("Anonymous"); break;
        case UserTokenType::UserName: n = QStringLiteral("UserName"); break;
        case UserTokenType::Certificate: n = QStringLiteral("Certificate"); break;
        case UserTokenType::IssuedToken: n = QStringLiteral("IssuedToken"); break;
        }
        if (!names.contains(n)) names << n;
    }
    return names.join(QStringLiteral(", "));
}

ConnectDialog::ConnectDialog(Connection* connection, ServerHistory* history, QWidget* parent)
    : QDialog(parent), m_connection(connection), m_history(history) {
    setWindowTitle(tr("Connect to a server"));
    setObjectName(QStringLiteral("connectDialog"));
    resize(980, 540);
    auto* layout = new QVBoxLayout(this);

    auto* urlRow = new QHBoxLayout;
    urlRow->addWidget(new QLabel(tr("Endpoint URL:")));
    m_url = new QComboBox;
    m_url->setObjectName(QStringLiteral("urlField"));
    m_url->setEditable(true);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    m_url->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    if (m_history)
        for (const ConnectionSettings& s : m_history->entries()) m_url->addItem(s.label(), s.toJson());
    m_url->setEditText(m_history && !m_history->entries().empty() ? m_history->entries().front().endpointUrl
                                                                  : QStringLiteral("opc.tcp://localhost:4840"));
    urlRow->addWidget(m_url, 1);
    m_discover = new QPushButton(tr("Discover"));
    m_discover->setObjectName(QStringLiteral("discoverButton"));
    m_discover->setToolTip(tr("FindServers and GetEndpoints on this URL (SecurityPolicy None, no Session)"));
    urlRow->addWidget(m_discover);
    layout->addLayout(urlRow);
    // Why the URL cannot be used (issue 27 item 4), shown under it while Connect and Discover are off.
    m_urlError = new QLabel;
    m_urlError->setObjectName(QStringLiteral("urlError"));
    m_urlError->setStyleSheet(QStringLiteral("color: #b00020"));
    m_urlError->setWordWrap(true);
    m_urlError->hide();
    layout->addWidget(m_urlError);

    m_tree = new QTreeWidget;
    m_tree->setObjectName(QStringLiteral("endpointTree"));
    m_tree->setHeaderLabels({tr("Server / endpoint"), tr("Security policy"), tr("Mode"), tr("User tokens"), tr("Level")});
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    for (int c = NameColumn; c < LevelColumn; ++c) m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    layout->addWidget(m_tree, 1);
    m_status = new QLabel(tr("Discover lists the servers at this URL and every endpoint they offer."));
    m_status->setObjectName(QStringLiteral("discoveryStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto* form = new QFormLayout;
    m_endpointLabel = new QLabel(tr("best available"));
    m_endpointLabel->setObjectName(QStringLiteral("chosenEndpoint"));
    form->addRow(tr("Endpoint:"), m_endpointLabel);
    m_identity = new QComboBox;
    m_identity->setObjectName(QStringLiteral("identityKind"));
    m_identity->addItems({tr("Anonymous"), tr("User name and password"), tr("Certificate and private key")});
    form->addRow(tr("User:"), m_identity);
    m_identityPages = new QStackedWidget;
    m_identityPages->addWidget(new QWidget);
    auto* userPage = new QWidget;
    auto* userForm = new QFormLayout(userPage);
    userForm->setContentsMargins(0, 0, 0, 0);
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("userName"));
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    userForm->addRow(tr("User name:"), m_user);
    userForm->addRow(tr("Password:"), m_password);
    m_identityPages->addWidget(userPage);
    auto* certPage = new QWidget;
    auto* certForm = new QFormLayout(certPage);
    certForm->setContentsMargins(0, 0, 0, 0);
    m_certFile = new QLineEdit;
    m_keyFile = new QLineEdit;
    certForm->addRow(tr("Certificate:"), fileRow(m_certFile, tr("User certificate"), tr("Certificates (*.der *.pem *.crt)"), this));
    certForm->addRow(tr("Private key:"), fileRow(m_keyFile, tr("Private key"), tr("Keys (*.pem *.key)"), this));
    m_identityPages->addWidget(certPage);
    form->addRow(QString(), m_identityPages);
    // Reverse Connect (OPC 10000-6 7.1.3): the server dials this port (docs/ReverseConnect.md).
    m_reversePort = new QSpinBox;
    m_reversePort->setObjectName(QStringLiteral("reverseListenPort"));
    m_reversePort->setRange(0, 65535);
    m_reversePort->setSpecialValueText(tr("off: dial the URL"));
    m_reversePort->setToolTip(tr("Reverse Connect: wait on this TCP port for the server to connect (its ReverseHello "
                                 "must name the URL above), for servers behind a firewall that lets no connection in. "
                                 "Discover still dials the URL."));
    form->addRow(tr("Reverse connect, listen on port:"), m_reversePort);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox;
    m_connect = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    // Set once the button is in the dialog: before, QDialog does not learn it and makes the first
    // auto-default button of the focus chain (Discover) the default, so Return discovered.
    m_connect->setDefault(true);
    identityChanged();
    urlChanged();

    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_discover, &QPushButton::clicked, this, [this] {
        if (m_discovering) {
            ++m_discoveryRound;  // the answer of the running one is ignored
            m_connection->cancelOperations();
            m_discovering = false;
            m_discover->setText(tr("Discover"));
            m_status->setText(tr("Discovery stopped."));
            urlChanged();
        } else {
            discover();
        }
    });
    connect(m_identity, &QComboBox::currentIndexChanged, this, &ConnectDialog::identityChanged);
    connect(m_url, &QComboBox::activated, this, &ConnectDialog::historyChosen);
    connect(m_url, &QComboBox::editTextChanged, this, &ConnectDialog::urlChanged);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &ConnectDialog::endpointChosen);
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item->data(0, kEndpointRole).toBool()) accept();
    });
}

QString ConnectDialog::urlProblem() const {
    return endpointUrlProblem(m_url->currentText());
}

void ConnectDialog::urlChanged() {
    const QString problem = urlProblem();
    m_urlError->setText(problem);
    m_urlError->setVisible(!problem.isEmpty());
    m_connect->setEnabled(problem.isEmpty());
    m_discover->setEnabled(problem.isEmpty() || m_discovering);  // Stop stays available
}

void ConnectDialog::accept() {
    if (!urlProblem().isEmpty()) {  // a double-clicked endpoint, or Return, with a URL that cannot work
        urlChanged();
        return;
    }
    QDialog::accept();
}

void ConnectDialog::historyChosen(int index) {
    if (index < 0) return;
    setSettings(ConnectionSettings::fromJson(m_url->itemData(index).toJsonObject()));
}

void ConnectDialog::setSettings(const ConnectionSettings& s) {
    m_url->setEditText(s.endpointUrl);
    m_policy = s.securityPolicyUri;
    m_mode = s.securityMode;
    m_displayName = s.displayName;
    m_displayNameUrl = s.endpointUrl;
    m_endpointLabel->setText(m_policy.isEmpty() && m_mode == MessageSecurityMode::Invalid
                                 ? tr("best available")
                                 : policyShortName(m_policy) + QStringLiteral(", ") + modeName(m_mode));
    m_identity->setCurrentIndex(int(s.identityKind));
    m_user->setText(s.userName);
    m_password->setText(s.password);
    m_certFile->setText(s.userCertificateFile);
    m_keyFile->setText(s.userKeyFile);
    m_reversePort->setValue(s.reverseListenPort);
}

ConnectionSettings ConnectDialog::settings() const {
    ConnectionSettings s;
    s.endpointUrl = m_url->currentText().trimmed();
    // The name belongs to the URL it came with: another URL typed over it is another server.
    if (Connection::sameServer(m_displayNameUrl, s.endpointUrl)) s.displayName = m_displayName;
    s.securityPolicyUri = m_policy;
    s.securityMode = m_mode;
    s.identityKind = UserIdentity::Kind(m_identity->currentIndex());
    if (s.identityKind == UserIdentity::Kind::UserName) {
        s.userName = m_user->text();
        s.password = m_password->text();
    } else if (s.identityKind == UserIdentity::Kind::Certificate) {
        s.userCertificateFile = m_certFile->text();
        s.userKeyFile = m_keyFile->text();
    }
    s.reverseListenPort = quint16(m_reversePort->value());
    return s;
}

void ConnectDialog::identityChanged() {
    m_identityPages->setCurrentIndex(m_identity->currentIndex());
}

void ConnectDialog::discover() {
    const QString url = m_url->currentText().trimmed();
    if (!urlProblem().isEmpty()) return urlChanged();
    m_tree->clear();
    m_discovering = true;
    const int round = ++m_discoveryRound;
    m_discover->setText(tr("Stop"));
    m_status->setText(tr("Discovering %1 ...").arg(url));
    QPointer<ConnectDialog> self(this);
    m_connection->discover(url, [self, round, url](const DiscoveryResult& r) {
        if (!self || round != self->m_discoveryRound) return;
        self->m_discovering = false;
        self->m_discover->setText(tr("Discover"));
        self->urlChanged();
        self->showDiscovery(r, url);
        emit self->discovered(r);
    });
}

void ConnectDialog::showDiscovery(const DiscoveryResult& r, const QString& url) {
    m_tree->clear();
    if (r.status.isBad()) {
        ConnectFailureContext context;
        context.endpointUrl = url;
        const QString sentence = connectFailureSentence(r.status, context);
        m_status->setText(sentence.isEmpty() ? tr("Discovery of %1 failed: %2").arg(url, app::statusName(r.status))
                                             : tr("Discovery of %1 failed: %2: %3").arg(url, app::statusName(r.status), sentence));
        return;
    }
    auto* best = new QTreeWidgetItem(m_tree, {tr("Best available")});
    best->setData(0, kEndpointRole, true);
    best->setToolTip(0, tr("The client chooses: SignAndEncrypt over Sign over None, then the strongest policy"));
    best->setData(0, kModeRole, int(MessageSecurityMode::Invalid));
    // One top-level row per server FindServers named; the endpoints under the server whose
    // applicationUri they carry (a server without FindServers gets a row from its endpoints).
    std::map<QString, QTreeWidgetItem*> servers;
    auto serverRow = [&](const ApplicationDescription& app) {
        const QString uri = app.applicationUri.toQString();
        auto it = servers.find(uri);
        if (it != servers.end()) return it->second;
        QStringList urls;
        for (const String& u : app.discoveryUrls) urls << u.toQString();
        auto* item = new QTreeWidgetItem(m_tree, {app.applicationName.text.toQString() + QStringLiteral("  (") + uri + QLatin1Char(')')});
        item->setToolTip(0, tr("Discovery URLs: %1").arg(urls.join(QStringLiteral(", "))));
        item->setData(0, kEndpointRole, false);
        item->setFirstColumnSpanned(true);
        servers.emplace(uri, item);
        return item;
    };
    for (const ApplicationDescription& app : r.servers) serverRow(app);
    int endpoints = 0;
    for (const EndpointDescription& e : r.endpoints) {
        QTreeWidgetItem* parent = serverRow(e.server);
        auto* item = new QTreeWidgetItem(parent, {e.endpointUrl.toQString(), policyShortName(e.securityPolicyUri.toQString()),
                                                  modeName(e.securityMode), tokenTypeNames(e.userIdentityTokens),
                                                  QString::number(e.securityLevel)});
        item->setData(0, kEndpointRole, true);
        item->setData(0, kPolicyRole, e.securityPolicyUri.toQString());
        item->setData(0, kModeRole, int(e.securityMode));
        item->setToolTip(PolicyColumn, e.securityPolicyUri.toQString());
        if (m_displayName.isEmpty() || !Connection::sameServer(m_displayNameUrl, url)) {
            m_displayName = e.server.applicationName.text.toQString();
            m_displayNameUrl = url;
        }
        ++endpoints;
    }
    m_tree->expandAll();
    QString text = tr("%1 server(s), %2 endpoint(s).").arg(servers.size()).arg(endpoints);
    if (r.findServersStatus.isBad()) text += tr(" FindServers: %1.").arg(app::statusName(r.findServersStatus));
    m_status->setText(text + tr(" Choose an endpoint, or keep \"best available\"."));
    if (!selectEndpoint(m_policy, m_mode)) m_tree->setCurrentItem(best);
}

bool ConnectDialog::selectEndpoint(const QString& policyUri, MessageSecurityMode mode) {
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        QTreeWidgetItem* item = *it;
        if (!item->data(0, kEndpointRole).toBool()) continue;
        if (item->data(0, kPolicyRole).toString() == policyUri && item->data(0, kModeRole).toInt() == int(mode)) {
            m_tree->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

void ConnectDialog::endpointChosen() {
    QTreeWidgetItem* item = m_tree->currentItem();
    if (!item || !item->data(0, kEndpointRole).toBool()) return;
    m_policy = item->data(0, kPolicyRole).toString();
    m_mode = MessageSecurityMode(item->data(0, kModeRole).toInt());
    m_endpointLabel->setText(m_mode == MessageSecurityMode::Invalid ? tr("best available")
                                                                   : policyShortName(m_policy) + QStringLiteral(", ") + modeName(m_mode));
}

} // namespace ua::clientapp
