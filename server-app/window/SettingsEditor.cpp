#include "SettingsEditor.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

namespace ua::app {

namespace {

QSpinBox* spin(int lo, int hi, const QString& suffix = {}) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setSuffix(suffix);
    return s;
}

constexpr SecurityPolicyId kPolicies[] = {SecurityPolicyId::Basic256Sha256, SecurityPolicyId::Aes128Sha256RsaOaep,
                                          SecurityPolicyId::Aes256Sha256RsaPss, SecurityPolicyId::EccNistP256,
                                          SecurityPolicyId::EccNistP384, SecurityPolicyId::Basic128Rsa15,
                                          SecurityPolicyId::Basic256};

} // namespace

SettingsEditor::SettingsEditor(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("settingsEditor"));
    auto* endpoint = new QGroupBox(tr("Endpoint"));
    auto* ef = new QFormLayout(endpoint);
    ef->addRow(tr("Host name"), m_host = new QLineEdit);
    m_host->setPlaceholderText(tr("this machine's host name"));
    ef->addRow(tr("Port"), m_port = spin(0, 65535));
    m_port->setSpecialValueText(tr("any free port"));
    ef->addRow(tr("I/O threads"), m_threads = spin(0, 256));
    m_threads->setSpecialValueText(tr("one per core but one"));
    ef->addRow(tr("PKI folder"), m_pki = new QLineEdit);
    m_pki->setPlaceholderText(ServerSettings::defaultPkiDir());
    // Reverse Connect (OPC 10000-6 7.1.3): the client listeners the server dials out to.
    m_reverseUrls = new QPlainTextEdit;
    m_reverseUrls->setObjectName(QStringLiteral("reverseConnectUrls"));
    m_reverseUrls->setPlaceholderText(tr("opc.tcp://client-a:4843\nopc.tcp://client-b:4843"));  // one a line
    m_reverseUrls->setToolTip(tr("Reverse Connect, one URL a line: the server dials each client listener and keeps a "
                                 "spare connection open to it (reverseConnect.clientUrls; --reverse-connect URL adds one "
                                 "for a run)"));
    m_reverseUrls->setTabChangesFocus(true);
    m_reverseUrls->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_reverseUrls->setFixedHeight(m_reverseUrls->fontMetrics().lineSpacing() * 3 + 12);
    ef->addRow(tr("Reverse Connect to"), m_reverseUrls);
    m_reverseProblem = new QLabel;
    m_reverseProblem->setObjectName(QStringLiteral("reverseConnectProblem"));
    m_reverseProblem->setWordWrap(true);
    m_reverseProblem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_reverseProblem->hide();
    ef->addRow(m_reverseProblem);

    auto* security = new QGroupBox(tr("Security policies and modes"));
    auto* grid = new QGridLayout(security);
    grid->addWidget(new QLabel(tr("<b>Sign</b>")), 0, 1);
    grid->addWidget(new QLabel(tr("<b>SignAndEncrypt</b>")), 0, 2);
    auto* none = new QCheckBox(tr("None (no security)"));
    m_endpoints[{SecurityPolicyId::None, MessageSecurityMode::None}] = none;
    grid->addWidget(none, 1, 0, 1, 3);
    int row = 2;
    for (SecurityPolicyId p : kPolicies) {
        grid->addWidget(new QLabel(policyName(p)), row, 0);
        int col = 1;
        for (MessageSecurityMode m : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt}) {
            auto* box = new QCheckBox;
            box->setObjectName(QStringLiteral("endpoint_%1_%2").arg(policyName(p), modeName(m)));
            m_endpoints[{p, m}] = box;
            grid->addWidget(box, row, col++);
        }
        ++row;
    }
    grid->addWidget(m_deprecated = new QCheckBox(tr("Allow the deprecated Basic128Rsa15 and Basic256")), row, 0, 1, 3);

    auto* tokens = new QGroupBox(tr("User tokens"));
    auto* tl = new QVBoxLayout(tokens);
    tl->addWidget(m_anonymous = new QCheckBox(tr("Anonymous")));
    tl->addWidget(m_anonymousWrites = new QCheckBox(tr("Anonymous Sessions may write (Operator Role; demo)")));
    tl->addWidget(m_userName = new QCheckBox(tr("User name and password")));
    tl->addWidget(m_x509 = new QCheckBox(tr("X509 certificate")));
    tl->addStretch();

    auto* limits = new QGroupBox(tr("Sessions and demo"));
    auto* lf = new QFormLayout(limits);
    addLimits(lf, sessionLimits());
    lf->addRow(tr("Demo events every"), m_demoEvents = spin(0, 3'600'000, tr(" ms")));
    m_demoEvents->setSpecialValueText(tr("never"));
    lf->addRow(tr("Shutdown delay"), m_shutdownDelay = spin(0, 3600, tr(" s")));

    auto* subscriptions = new QGroupBox(tr("Subscriptions and MonitoredItems"));
    auto* sf = new QFormLayout(subscriptions);
    addLimits(sf, subscriptionLimits());

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(endpoint, 0, 0);
    layout->addWidget(limits, 0, 1);
    layout->addWidget(security, 1, 0);
    layout->addWidget(tokens, 1, 1);
    layout->addWidget(subscriptions, 0, 2, 2, 1);

    for (auto* e : {m_host, m_pki}) connect(e, &QLineEdit::textEdited, this, &SettingsEditor::edited);
    for (auto* s : {m_port, m_threads, m_demoEvents, m_shutdownDelay})
        connect(s, &QSpinBox::valueChanged, this, &SettingsEditor::edited);
    for (const LimitField& f : m_limits) {
        if (f.count) connect(f.count, &QSpinBox::valueChanged, this, &SettingsEditor::edited);
        if (f.value) connect(f.value, &QDoubleSpinBox::valueChanged, this, &SettingsEditor::edited);
    }
    for (auto* b : {m_deprecated, m_anonymous, m_userName, m_x509, m_anonymousWrites})
        connect(b, &QCheckBox::toggled, this, &SettingsEditor::edited);
    for (auto& [key, box] : m_endpoints) connect(box, &QCheckBox::toggled, this, &SettingsEditor::edited);
    connect(m_reverseUrls, &QPlainTextEdit::textChanged, this, [this] {
        showProblem();
        emit edited();
    });
}

QStringList SettingsEditor::reverseUrls() const {
    QStringList urls;
    for (const QString& line : m_reverseUrls->toPlainText().split(QLatin1Char('\n')))
        if (const QString url = line.trimmed(); !url.isEmpty()) urls << url;
    return urls;
}

QString SettingsEditor::problem() const {
    for (const QString& url : reverseUrls()) {
        QString why;
        if (!validReverseConnectUrl(url, &why)) return tr("Reverse Connect: %1").arg(why);
    }
    return {};
}

void SettingsEditor::showProblem() {
    const QString p = problem();
    m_reverseProblem->setText(p);
    m_reverseProblem->setVisible(!p.isEmpty());
}

void SettingsEditor::addLimits(QFormLayout* form, const std::vector<SettingLimit>& limits) {
    for (const SettingLimit& l : limits) {
        LimitField f{&l};
        QWidget* w = nullptr;
        if (l.isCount()) {
            w = f.count = spin(int(l.lo), int(std::min(l.hi, 2'147'483'647.0)), QString::fromUtf8(l.unit));
        } else {
            f.value = new QDoubleSpinBox;
            f.value->setDecimals(0);
            f.value->setRange(l.lo, l.hi);
            f.value->setSuffix(QString::fromUtf8(l.unit));
            w = f.value;
        }
        w->setObjectName(QStringLiteral("limit_%1").arg(QLatin1String(l.key)));
        form->addRow(tr(l.label), w);
        m_limits.push_back(f);
    }
}

void SettingsEditor::setSettings(const ServerSettings& s) {
    const QSignalBlocker block(this);
    m_base = s;
    m_host->setText(s.hostName);
    m_port->setValue(s.port);
    m_threads->setValue(s.ioThreads);
    m_pki->setText(s.pkiDir);
    for (auto& [key, box] : m_endpoints) {
        const auto& wanted = key;  // clang 14 cannot capture a structured binding
        box->setChecked(std::any_of(s.endpoints.begin(), s.endpoints.end(),
                                    [&](const EndpointSecurity& e) { return e.policy == wanted.first && e.mode == wanted.second; }));
    }
    m_deprecated->setChecked(s.allowDeprecatedPolicies);
    m_anonymous->setChecked(s.allowAnonymous);
    m_anonymousWrites->setChecked(s.users.anonymousRoles & roleBit(Role::Operator));
    m_userName->setChecked(s.allowUserName);
    m_x509->setChecked(s.allowX509);
    for (const LimitField& f : m_limits) {
        const double v = f.limit->get(s);
        if (f.count) f.count->setValue(int(std::min(v, 2'147'483'647.0)));
        else f.value->setValue(v);
    }
    m_demoEvents->setValue(int(s.demoEventsMs));
    m_shutdownDelay->setValue(int(s.shutdownDelaySeconds));
    m_reverseUrls->setPlainText(s.reverseConnect.clientUrls.join(QLatin1Char('\n')));
    showProblem();
}

ServerSettings SettingsEditor::settings() const {
    ServerSettings s = m_base;
    s.hostName = m_host->text().trimmed();
    s.port = quint16(m_port->value());
    s.ioThreads = m_threads->value();
    s.pkiDir = m_pki->text().trimmed();
    // The order of GetEndpoints: None first, then the policies as the editor lists them.
    s.endpoints.clear();
    if (m_endpoints.at({SecurityPolicyId::None, MessageSecurityMode::None})->isChecked())
        s.endpoints.push_back({SecurityPolicyId::None, MessageSecurityMode::None});
    for (SecurityPolicyId p : kPolicies)
        for (MessageSecurityMode m : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt})
            if (m_endpoints.at({p, m})->isChecked()) s.endpoints.push_back({p, m});
    s.allowDeprecatedPolicies = m_deprecated->isChecked();
    s.allowAnonymous = m_anonymous->isChecked();
    if (m_anonymousWrites->isChecked())
        s.users.anonymousRoles |= roleBit(Role::Operator);
    else
        s.users.anonymousRoles &= ~roleBit(Role::Operator);
    s.allowUserName = m_userName->isChecked();
    s.allowX509 = m_x509->isChecked();
    for (const LimitField& f : m_limits) f.limit->set(s, f.count ? double(f.count->value()) : f.value->value());
    s.demoEventsMs = uint32_t(m_demoEvents->value());
    s.shutdownDelaySeconds = uint32_t(m_shutdownDelay->value());
    s.reverseConnect.clientUrls = reverseUrls();
    return s;
}

} // namespace ua::app
