#include "window/SetupPanel.h"

#include "ua/secure/SecurityPolicy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace ua::loadtest {

namespace {

template <typename T>
T* named(T* widget, const char* name) {
    widget->setObjectName(QLatin1String(name));
    return widget;
}

QSpinBox* intSpin(const char* name, int min, int max, int value, const QString& suffix = {}) {
    auto* s = named(new QSpinBox, name);
    s->setRange(min, max);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setAccelerated(true);
    return s;
}

QDoubleSpinBox* doubleSpin(const char* name, double min, double max, double value, int decimals, const QString& suffix = {}) {
    auto* s = named(new QDoubleSpinBox, name);
    s->setRange(min, max);
    s->setDecimals(decimals);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setAccelerated(true);
    return s;
}

QFormLayout* form(QGroupBox* box) {
    auto* f = new QFormLayout(box);
    f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    f->setContentsMargins(6, 6, 6, 6);
    f->setVerticalSpacing(4);
    return f;
}

QString listText(const std::vector<int>& values) {
    QStringList parts;
    for (int v : values) parts << QString::number(v);
    return parts.join(QLatin1Char(','));
}

void setCombo(QComboBox* box, const QVariant& data) {
    const int i = box->findData(data);
    if (i >= 0) box->setCurrentIndex(i);
}

} // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("setupPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildTarget());
    layout->addWidget(buildLoad());
    layout->addWidget(buildSweep());
    layout->addWidget(buildStopRules());
    layout->addWidget(buildServer());
    layout->addWidget(buildDistributed());
    layout->addStretch();
    updateEnabled();
    for (auto* edit : {m_endpoint, m_sessions, m_outstanding}) connect(edit, &QLineEdit::textChanged, this, &SetupPanel::changed);
    for (auto* box : findChildren<QComboBox*>()) connect(box, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit changed();
    });
    connect(m_openLoop, &QRadioButton::toggled, this, &SetupPanel::updateEnabled);
}

QGroupBox* SetupPanel::buildTarget() {
    auto* box = new QGroupBox(tr("Target"));
    auto* f = form(box);
    m_endpoint = named(new QLineEdit(QStringLiteral("opc.tcp://localhost:4840")), "endpointUrl");
    m_endpoint->setPlaceholderText(QStringLiteral("opc.tcp://host:4840"));
    f->addRow(tr("Endpoint URL"), m_endpoint);
    // Reverse Connect (OPC 10000-6 7.1.3; ua-loadtest run --reverse-listen): the server behind a
    // firewall dials this port, its ReverseHello naming the endpoint URL above.
    m_reverseListenPort = intSpin("reverseListenPort", 0, 65535, 0);
    m_reverseListenPort->setSpecialValueText(tr("off: dial the server"));
    m_reverseListenPort->setToolTip(tr("Reverse Connect: listen on this port for the server's connections (its ReverseHello "
                                       "must name the endpoint URL); the server is configured to dial it"));
    f->addRow(tr("Reverse listen port"), m_reverseListenPort);
    m_policy = named(new QComboBox, "securityPolicy");
    m_policy->addItem(QStringLiteral("None"), QString());
    for (const char* uri : {kSecurityPolicyBasic256Sha256, kSecurityPolicyAes128Sha256RsaOaep, kSecurityPolicyAes256Sha256RsaPss,
                            kSecurityPolicyEccNistP256, kSecurityPolicyEccNistP384}) {
        const QString u = QString::fromLatin1(uri);
        m_policy->addItem(u.mid(u.lastIndexOf(QLatin1Char('#')) + 1), u);
    }
    f->addRow(tr("Security policy"), m_policy);
    m_mode = named(new QComboBox, "securityMode");
    m_mode->addItem(QStringLiteral("None"), int(MessageSecurityMode::None));
    m_mode->addItem(QStringLiteral("Sign"), int(MessageSecurityMode::Sign));
    m_mode->addItem(QStringLiteral("SignAndEncrypt"), int(MessageSecurityMode::SignAndEncrypt));
    f->addRow(tr("Security mode"), m_mode);
    m_user = named(new QLineEdit, "userName");
    m_user->setPlaceholderText(tr("anonymous"));
    f->addRow(tr("User"), m_user);
    m_password = named(new QLineEdit, "password");
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setToolTip(tr("Not remembered between runs, never written to saved runs"));
    f->addRow(tr("Password"), m_password);
    return box;
}

QGroupBox* SetupPanel::buildLoad() {
    auto* box = new QGroupBox(tr("Load"));
    auto* f = form(box);
    m_scenario = named(new QComboBox, "scenario");
    const std::pair<Scenario, QString> scenarios[] = {
        {Scenario::Read, tr("Read: Value attributes of the benchmark variables")},
        {Scenario::Write, tr("Write: Int32 Values to the benchmark variables")},
        {Scenario::Browse, tr("Browse: the Server object, all references")},
        {Scenario::Subscribe, tr("Subscribe: monitored items sampling a counter")},
        {Scenario::Connect, tr("Connect: channel + session establishment storm")},
        {Scenario::HistoryRead, tr("History read: Read Raw of historized nodes (our server's demo signals)")},
        {Scenario::Events, tr("Events: an event item per Session on the Server object while our server raises events")},
    };
    for (const auto& [s, tip] : scenarios) {
        m_scenario->addItem(scenarioName(s), int(s));
        m_scenario->setItemData(m_scenario->count() - 1, tip, Qt::ToolTipRole);
    }
    f->addRow(tr("Scenario"), m_scenario);
    m_valuesPerRequest = intSpin("valuesPerRequest", 1, 10000, 1);
    m_valuesPerRequest->setToolTip(tr("Values read or written in one request (history read: the nodes of a request)"));
    f->addRow(tr("Values per request"), m_valuesPerRequest);
    m_historyValues = intSpin("historyValuesPerNode", 1, 100000, 1000);
    m_historyValues->setToolTip(tr("History read: numValuesPerNode of each Read Raw, from an hour back forward"));
    f->addRow(tr("History values per node"), m_historyValues);
    m_eventRate = intSpin("eventRate", 0, 1'000'000, int(LoadParameters{}.eventRate), tr(" events/s"));
    m_eventRate->setSingleStep(1000);
    m_eventRate->setSpecialValueText(tr("the server's own"));
    m_eventRate->setToolTip(tr("Events: the events our server raises a second (its Demo/Events/GenerateEvents), each offered to "
                               "every Session's event item; 0: the events the server raises by itself"));
    f->addRow(tr("Event rate"), m_eventRate);
    m_eventMinSeverity = intSpin("eventMinSeverity", 1, 1000, LoadParameters{}.eventMinSeverity);
    m_eventMinSeverity->setToolTip(tr("Events: the item's where clause, Severity >= this (1: every event)"));
    f->addRow(tr("Minimum severity"), m_eventMinSeverity);
    m_monitoredItems = intSpin("monitoredItems", 1, 100000, 100);
    m_monitoredItems->setToolTip(tr("Monitored items per Session (subscribe)"));
    f->addRow(tr("Monitored items"), m_monitoredItems);
    m_samplingMs = doubleSpin("samplingIntervalMs", 0, 60000, 10, 0, tr(" ms"));
    f->addRow(tr("Sampling interval"), m_samplingMs);
    m_publishingMs = doubleSpin("publishingIntervalMs", 0, 60000, 100, 0, tr(" ms"));
    f->addRow(tr("Publishing interval"), m_publishingMs);

    m_closedLoop = named(new QRadioButton(tr("Closed loop")), "closedLoop");
    m_closedLoop->setToolTip(tr("A response sends the next request: always 'outstanding' in flight per Session"));
    m_openLoop = named(new QRadioButton(tr("Open loop")), "openLoop");
    m_openLoop->setToolTip(tr("A fixed schedule; latency from the intended send time, so a stall shows in the tail"));
    m_closedLoop->setChecked(true);
    m_targetRate = doubleSpin("targetRate", 1, 10'000'000, 1000, 0, tr(" req/s"));
    m_targetRate->setToolTip(tr("Requests per second over all Sessions (open loop)"));
    auto* loop = new QHBoxLayout;
    loop->addWidget(m_closedLoop);
    loop->addWidget(m_openLoop);
    loop->addStretch();
    f->addRow(tr("Shape"), loop);
    f->addRow(tr("Target rate"), m_targetRate);
    m_timeoutMs = intSpin("requestTimeoutMs", 100, 600000, 5000, tr(" ms"));
    m_timeoutMs->setSingleStep(500);
    f->addRow(tr("Request timeout"), m_timeoutMs);
    m_ioThreads = intSpin("ioThreads", 0, 64, 0);
    m_ioThreads->setSpecialValueText(tr("auto"));
    m_ioThreads->setToolTip(tr("Client I/O threads shared by every Session; auto: one per 100 Sessions, at most the cores"));
    f->addRow(tr("Client I/O threads"), m_ioThreads);
    return box;
}

QGroupBox* SetupPanel::buildSweep() {
    auto* box = new QGroupBox(tr("Sweep"));
    auto* f = form(box);
    auto* validator = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9, ]*")), this);
    m_sessions = named(new QLineEdit(QStringLiteral("1,2,5,10,20")), "sessionsList");
    m_sessions->setValidator(validator);
    m_sessions->setToolTip(tr("Sessions of each step, each on a SecureChannel of its own"));
    f->addRow(tr("Sessions"), m_sessions);
    m_outstanding = named(new QLineEdit(QStringLiteral("1,10,100")), "outstandingList");
    m_outstanding->setValidator(validator);
    m_outstanding->setToolTip(tr("Requests in flight per Session"));
    f->addRow(tr("Outstanding"), m_outstanding);
    m_duration = doubleSpin("durationS", 0.2, 36000, 10, 1, tr(" s"));
    f->addRow(tr("Duration per step"), m_duration);
    m_warmup = doubleSpin("warmupS", 0, 3600, 2, 1, tr(" s"));
    m_warmup->setToolTip(tr("The same load before each measured period; its figures are discarded"));
    f->addRow(tr("Warm-up per step"), m_warmup);
    return box;
}

QGroupBox* SetupPanel::buildStopRules() {
    auto* box = new QGroupBox(tr("Stop a row when a step beats the server"));
    auto* f = form(box);
    const StopRules d;
    m_maxErrorsPercent = doubleSpin("maxErrorsPercent", 0, 100, d.maxErrorFraction * 100, 1, tr(" %"));
    f->addRow(tr("Errors + timeouts over"), m_maxErrorsPercent);
    m_maxP99Factor = doubleSpin("maxP99Factor", 1, 10000, d.maxP99Factor, 1, tr(" x lightest"));
    f->addRow(tr("p99 over"), m_maxP99Factor);
    m_minThroughputFactor = doubleSpin("minThroughputFactor", 0, 1, d.minThroughputFactor, 2, tr(" x previous"));
    f->addRow(tr("Requests/s under"), m_minThroughputFactor);
    m_brokenConnection = named(new QCheckBox(tr("A connection breaks")), "brokenConnection");
    m_brokenConnection->setChecked(d.brokenConnection);
    f->addRow(QString(), m_brokenConnection);
    return box;
}

QGroupBox* SetupPanel::buildServer() {
    auto* box = new QGroupBox(tr("Server and run"));
    auto* f = form(box);
    m_serverPid = intSpin("serverPid", 0, 1 << 30, 0);
    m_serverPid->setSpecialValueText(tr("unknown"));
    m_serverPid->setToolTip(tr("The server's process id on this machine: its CPU time per operation and RSS are measured"));
    f->addRow(tr("Server process id"), m_serverPid);
    m_label = named(new QLineEdit, "runLabel");
    m_label->setPlaceholderText(tr("e.g. ours, node-opcua (default: the endpoint)"));
    f->addRow(tr("Label"), m_label);
    return box;
}

QGroupBox* SetupPanel::buildDistributed() {
    auto* box = new QGroupBox(tr("Distributed (MPI)"));
    auto* f = form(box);
    m_processes = intSpin("mpiProcesses", 1, 100000, 1);
    m_processes->setSpecialValueText(tr("this process"));
    m_processes->setToolTip(tr("Processes that generate the load together, started by mpirun (Open MPI): each drives its "
                               "share of every step's Sessions, and the results are merged"));
    f->addRow(tr("Processes"), m_processes);
    m_hosts = named(new QLineEdit, "mpiHosts");
    m_hosts->setPlaceholderText(tr("this machine; or gen-a:4, gen-b:4; or a hostfile"));
    m_hosts->setToolTip(tr("The machines of the processes: host:processes separated by commas (reached by ssh), or the path "
                           "of an Open MPI hostfile; empty: this machine"));
    f->addRow(tr("Hosts"), m_hosts);
    connect(m_processes, &QSpinBox::valueChanged, this, &SetupPanel::updateEnabled);
    return box;
}

DistributedSetup SetupPanel::distributed() const {
    DistributedSetup d;
    d.processes = m_processes->value();
    d.hosts = m_hosts->text().trimmed();
    return d;
}

void SetupPanel::updateEnabled() {
    const auto s = Scenario(m_scenario->currentData().toInt());
    m_valuesPerRequest->setEnabled(s == Scenario::Read || s == Scenario::Write || s == Scenario::HistoryRead);
    m_historyValues->setEnabled(s == Scenario::HistoryRead);
    const bool subscribe = s == Scenario::Subscribe;
    const bool events = s == Scenario::Events;
    m_eventRate->setEnabled(events);
    m_eventMinSeverity->setEnabled(events);
    m_monitoredItems->setEnabled(subscribe);
    m_samplingMs->setEnabled(subscribe);
    m_publishingMs->setEnabled(subscribe || events);
    m_targetRate->setEnabled(m_openLoop->isChecked());
    const bool secure = !m_policy->currentData().toString().isEmpty();
    if (!secure) m_mode->setCurrentIndex(0);
    else if (m_mode->currentIndex() == 0) m_mode->setCurrentIndex(2);
    m_mode->setEnabled(secure);
    m_hosts->setEnabled(m_processes->value() > 1);
}

std::optional<LoadParameters> SetupPanel::parameters(QString* error) const {
    const auto sessions = parseStepList(m_sessions->text());
    const auto outstanding = parseStepList(m_outstanding->text());
    const QString url = m_endpoint->text().trimmed();
    auto fail = [error](QWidget* field, const QString& why) -> std::optional<LoadParameters> {
        if (error) *error = why;
        field->setFocus();
        return std::nullopt;
    };
    if (!url.startsWith(QLatin1String("opc.tcp://"))) return fail(m_endpoint, tr("The endpoint URL must start with opc.tcp://"));
    if (!sessions) return fail(m_sessions, tr("Sessions: positive whole numbers separated by commas, e.g. 1,2,5,10,20"));
    if (!outstanding) return fail(m_outstanding, tr("Outstanding: positive whole numbers separated by commas, e.g. 1,10,100"));
    LoadParameters p;
    p.endpointUrl = url;
    p.reverseListenPort = quint16(m_reverseListenPort->value());
    p.securityPolicyUri = m_policy->currentData().toString();
    p.securityMode = p.securityPolicyUri.isEmpty() ? MessageSecurityMode::None : MessageSecurityMode(m_mode->currentData().toInt());
    p.userName = m_user->text().trimmed();
    p.password = m_password->text();
    p.scenario = Scenario(m_scenario->currentData().toInt());
    p.valuesPerRequest = m_valuesPerRequest->value();
    p.historyValuesPerNode = m_historyValues->value();
    p.historyNodes = m_historyNodes;  // from a loaded run or the command line; the window has no field
    p.historySpanS = m_historySpanS;
    p.eventRate = uint32_t(m_eventRate->value());
    p.eventMinSeverity = m_eventMinSeverity->value();
    p.eventQueueSize = m_eventQueueSize;  // from a loaded run or the command line; the window has no field
    p.monitoredItems = m_monitoredItems->value();
    p.samplingIntervalMs = m_samplingMs->value();
    p.publishingIntervalMs = m_publishingMs->value();
    p.targetRate = m_openLoop->isChecked() ? m_targetRate->value() : 0;
    p.requestTimeoutMs = uint32_t(m_timeoutMs->value());
    p.ioThreads = m_ioThreads->value();
    p.sessions = sessions->front();
    p.outstanding = outstanding->front();
    p.durationS = m_duration->value();
    p.warmupS = m_warmup->value();
    p.serverPid = m_serverPid->value();
    return p;
}

std::optional<SweepPlan> SetupPanel::plan(QString* error) const {
    if (!parameters(error)) return std::nullopt;
    SweepPlan plan;
    plan.sessions = *parseStepList(m_sessions->text());
    plan.outstanding = *parseStepList(m_outstanding->text());
    plan.stopRules.maxErrorFraction = m_maxErrorsPercent->value() / 100;
    plan.stopRules.maxP99Factor = m_maxP99Factor->value();
    plan.stopRules.minThroughputFactor = m_minThroughputFactor->value();
    plan.stopRules.brokenConnection = m_brokenConnection->isChecked();
    return plan;
}

QString SetupPanel::label() const {
    const QString l = m_label->text().trimmed();
    return l.isEmpty() ? m_endpoint->text().trimmed() : l;
}

int SetupPanel::plannedSteps() const {
    const auto s = parseStepList(m_sessions->text());
    const auto o = parseStepList(m_outstanding->text());
    return s && o ? int(s->size() * o->size()) : 0;
}

void SetupPanel::apply(const LoadParameters& p, const SweepPlan& plan, const QString& label) {
    m_endpoint->setText(p.endpointUrl);
    m_reverseListenPort->setValue(p.reverseListenPort);
    setCombo(m_policy, p.securityPolicyUri);
    setCombo(m_mode, int(p.securityMode));
    m_user->setText(p.userName);
    setCombo(m_scenario, int(p.scenario));
    m_valuesPerRequest->setValue(p.valuesPerRequest);
    m_historyValues->setValue(p.historyValuesPerNode);
    m_historyNodes = p.historyNodes;
    m_historySpanS = p.historySpanS;
    m_eventRate->setValue(int(p.eventRate));
    m_eventMinSeverity->setValue(p.eventMinSeverity);
    m_eventQueueSize = p.eventQueueSize;
    m_monitoredItems->setValue(p.monitoredItems);
    m_samplingMs->setValue(p.samplingIntervalMs);
    m_publishingMs->setValue(p.publishingIntervalMs);
    (p.targetRate > 0 ? m_openLoop : m_closedLoop)->setChecked(true);
    if (p.targetRate > 0) m_targetRate->setValue(p.targetRate);
    m_timeoutMs->setValue(int(p.requestTimeoutMs));
    m_ioThreads->setValue(p.ioThreads);
    m_sessions->setText(listText(plan.sessions));
    m_outstanding->setText(listText(plan.outstanding));
    m_duration->setValue(p.durationS);
    m_warmup->setValue(p.warmupS);
    m_maxErrorsPercent->setValue(plan.stopRules.maxErrorFraction * 100);
    m_maxP99Factor->setValue(plan.stopRules.maxP99Factor);
    m_minThroughputFactor->setValue(plan.stopRules.minThroughputFactor);
    m_brokenConnection->setChecked(plan.stopRules.brokenConnection);
    m_serverPid->setValue(int(p.serverPid));
    m_label->setText(label);
    updateEnabled();
}

void SetupPanel::save(QSettings& settings) const {
    settings.beginGroup(QStringLiteral("setup"));
    for (auto* edit : {m_endpoint, m_user, m_sessions, m_outstanding, m_label, m_hosts}) settings.setValue(edit->objectName(), edit->text());
    for (auto* box : findChildren<QComboBox*>()) settings.setValue(box->objectName(), box->currentData());
    for (auto* spin : findChildren<QSpinBox*>()) settings.setValue(spin->objectName(), spin->value());
    for (auto* spin : findChildren<QDoubleSpinBox*>()) settings.setValue(spin->objectName(), spin->value());
    settings.setValue(m_openLoop->objectName(), m_openLoop->isChecked());
    settings.setValue(m_brokenConnection->objectName(), m_brokenConnection->isChecked());
    settings.endGroup();
}

void SetupPanel::restore(QSettings& settings) {
    settings.beginGroup(QStringLiteral("setup"));
    for (auto* edit : {m_endpoint, m_user, m_sessions, m_outstanding, m_label, m_hosts})
        if (settings.contains(edit->objectName())) edit->setText(settings.value(edit->objectName()).toString());
    for (auto* box : findChildren<QComboBox*>())
        if (settings.contains(box->objectName())) setCombo(box, settings.value(box->objectName()));
    for (auto* spin : findChildren<QSpinBox*>())
        if (settings.contains(spin->objectName())) spin->setValue(settings.value(spin->objectName()).toInt());
    for (auto* spin : findChildren<QDoubleSpinBox*>())
        if (settings.contains(spin->objectName())) spin->setValue(settings.value(spin->objectName()).toDouble());
    if (settings.value(m_openLoop->objectName()).toBool()) m_openLoop->setChecked(true);
    if (settings.contains(m_brokenConnection->objectName()))
        m_brokenConnection->setChecked(settings.value(m_brokenConnection->objectName()).toBool());
    settings.endGroup();
    updateEnabled();
}

} // namespace ua::loadtest
