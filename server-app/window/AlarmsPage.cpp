#include "AlarmsPage.h"

#include "TableViews.h"

#include "AlarmSettings.h"
#include "models/AdminAudit.h"
#include "models/AlarmsModel.h"

#include "ua/server/common/Clock.h"
#include "ua/server/runtime/Server.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace ua::app {

namespace {

const char* const kKinds[] = {"exclusiveLevel", "nonExclusiveLevel", "offNormal", "discrete"};

} // namespace

AlarmsPage::AlarmsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("alarmsPage"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("alarmsStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_ack = new QPushButton(tr("Acknowledge"));
    m_ack->setObjectName(QStringLiteral("acknowledgeAlarmButton"));
    m_ack->setToolTip(tr("Acknowledge the chosen alarms as the administrator (OPC 10000-9 Acknowledge)"));
    connect(m_ack, &QPushButton::clicked, this, &AlarmsPage::acknowledgeChosen);
    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("removeAlarmButton"));
    m_remove->setToolTip(tr("Remove the chosen alarms and their conditions until the server stops"));
    connect(m_remove, &QPushButton::clicked, this, &AlarmsPage::removeChosen);

    // The form of a new alarm.
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("alarmName"));
    m_name->setPlaceholderText(tr("TankLevel"));
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("alarmKind"));
    m_kind->addItem(tr("Exclusive level (HighHigh, High, Low, LowLow)"), QString::fromLatin1(kKinds[0]));
    m_kind->addItem(tr("Non-exclusive level (each limit its own state)"), QString::fromLatin1(kKinds[1]));
    m_kind->addItem(tr("Off-normal (value differs from the normal value)"), QString::fromLatin1(kKinds[2]));
    m_kind->addItem(tr("Discrete (value equals the alarm value)"), QString::fromLatin1(kKinds[3]));
    m_input = new QLineEdit;
    m_input->setObjectName(QStringLiteral("alarmInput"));
    m_input->setPlaceholderText(tr("nsu=urn:ua-workbench:demo;s=Demo.Simulation.Sine"));
    auto* limits = new QHBoxLayout;
    const char* names[] = {"HighHigh", "High", "Low", "LowLow"};
    for (int i = 0; i < 4; ++i) {
        m_limits[i] = new QLineEdit;
        m_limits[i]->setObjectName(QStringLiteral("alarmLimit%1").arg(QLatin1String(names[i])));
        m_limits[i]->setPlaceholderText(QLatin1String(names[i]));
        m_limits[i]->setToolTip(tr("%1 limit in the input's units; empty: not checked").arg(QLatin1String(names[i])));
        limits->addWidget(m_limits[i]);
    }
    m_deadband = new QDoubleSpinBox;
    m_deadband->setRange(0, 1e9);
    m_deadband->setDecimals(3);
    m_severity = new QSpinBox;
    m_severity->setRange(1, 1000);
    m_severity->setValue(500);
    m_critical = new QSpinBox;
    m_critical->setRange(1, 1000);
    m_critical->setValue(800);
    auto* severities = new QHBoxLayout;
    severities->addWidget(new QLabel(tr("High/Low")));
    severities->addWidget(m_severity);
    severities->addWidget(new QLabel(tr("HighHigh/LowLow")));
    severities->addWidget(m_critical);
    m_message = new QLineEdit;
    m_message->setPlaceholderText(tr("empty: \"<name>: <state> (<value>)\""));
    m_value = new QLineEdit;
    m_value->setObjectName(QStringLiteral("alarmValue"));
    m_value->setPlaceholderText(tr("off-normal: the normal value; discrete: the alarm value (true, 3, \"Stopped\")"));
    m_add = new QPushButton(tr("Add alarm"));
    m_add->setObjectName(QStringLiteral("addAlarmButton"));
    connect(m_add, &QPushButton::clicked, this, [this] { addFromForm(); });
    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Kind"), m_kind);
    form->addRow(tr("Input Variable"), m_input);
    form->addRow(tr("Limits"), limits);
    form->addRow(tr("Deadband"), m_deadband);
    form->addRow(tr("Severity"), severities);
    form->addRow(tr("Message"), m_message);
    form->addRow(tr("Value"), m_value);
    form->addRow(QString(), m_add);
    auto* box = new QGroupBox(tr("Define an alarm"));
    box->setLayout(form);

    m_view = new QTableView;  // replaced once a server runs (makeTableView needs the model)
    auto* tools = new QHBoxLayout;
    tools->addWidget(m_status, 1);
    tools->addWidget(m_ack);
    tools->addWidget(m_remove);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addLayout(tools);
    layout->addWidget(box);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_model && isVisible()) refreshed();
    });
    attach(nullptr);
}

void AlarmsPage::attach(LiveServer* live) {
    m_timer.stop();
    m_live = live;
    QTableView* old = m_view;
    delete m_model;
    m_model = new serverapp::AlarmsModel(live ? &live->server() : nullptr, this);
    m_view = makeTableView(QStringLiteral("alarmsView"), m_model, this, serverapp::AlarmsModel::Severity, Qt::DescendingOrder);
    delete layout()->replaceWidget(old, m_view);  // the old layout item is ours to delete
    delete old;
    for (QWidget* w : std::initializer_list<QWidget*>{m_add, m_ack, m_remove}) w->setEnabled(live);
    if (!live) {
        m_status->setText(tr("The server is not running."));
        return;
    }
    refreshed();
    fitColumns(m_view);
    m_timer.start(500);
}

void AlarmsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refreshed();
    if (m_model && m_model->rowCount() <= 100) fitColumns(m_view);
}

void AlarmsPage::refreshed() {
    if (!m_model) return;
    m_model->refresh();
    m_status->setText(tr("%1 alarms, %2 active, %3 not acknowledged.")
                          .arg(m_model->rowCount())
                          .arg(m_model->activeCount())
                          .arg(m_model->unacknowledgedCount()));
}

std::vector<int> AlarmsPage::chosenRows() const {
    std::vector<int> rows;
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(m_view->model());
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) rows.push_back((proxy ? proxy->mapToSource(i) : i).row());
    return rows;
}

bool AlarmsPage::addFromForm() {
    if (!m_live) return false;
    AlarmSetting s;
    s.name = m_name->text().trimmed();
    s.kind = m_kind->currentData().toString();
    s.input = m_input->text().trimmed();
    std::optional<double>* limits[] = {&s.highHigh, &s.high, &s.low, &s.lowLow};
    for (int i = 0; i < 4; ++i) {
        const QString t = m_limits[i]->text().trimmed();
        if (t.isEmpty()) continue;
        bool ok = false;
        const double d = t.toDouble(&ok);
        if (!ok || !std::isfinite(d)) {
            m_status->setText(tr("The limit \"%1\" is not a number.").arg(t));
            return false;
        }
        *limits[i] = d;
    }
    s.deadband = m_deadband->value();
    s.severity = m_severity->value();
    s.criticalSeverity = m_critical->value();
    s.message = m_message->text();
    if (const QString v = m_value->text().trimmed(); !v.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson("[" + v.toUtf8() + "]");  // true, 3, "Stopped"
        s.value = doc.isArray() && doc.array().size() == 1 ? doc.array().at(0) : QJsonValue(v);
    }
    const std::optional<AlarmDefinition> d = AlarmSettings::toDefinition(s);
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    if (!d) {
        m_status->setText(tr("The input must be a NodeId such as ns=2;s=Name or nsu=URI;s=Name."));
        return false;
    }
    std::string why;
    const StatusCode st = m_live->server().addAlarm(*d, &why);
    audit.line(st.isGood(), tr("added the alarm %1 on %2").arg(s.name, s.input), tr("alarm %1 not added").arg(s.name),
               QString::fromStdString(st.name()));
    if (st.isBad()) {
        m_status->setText(tr("Not added: %1 (%2).").arg(QString::fromStdString(why), QString::fromStdString(st.name())));
        return false;
    }
    refreshed();
    return true;
}

void AlarmsPage::acknowledgeChosen() {
    if (!m_live || !m_model) return;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    for (int row : chosenRows()) {
        const ConditionSummary& c = m_model->condition(row);
        const StatusCode s = m_live->server().conditions().call(
            ConditionMethod::Acknowledge, c.conditionId,
            Array<Variant>{Variant(c.eventId), Variant(LocalizedText{String("en"), String("acknowledged in the server window")})},
            serverapp::windowAdministrator().toStdString(), monotonicMs());
        audit.line(s.isGood(), tr("acknowledged the alarm %1").arg(QString::fromStdString(c.name)),
                   tr("alarm %1 not acknowledged").arg(QString::fromStdString(c.name)), QString::fromStdString(s.name()));
    }
    refreshed();
}

void AlarmsPage::removeChosen() {
    if (!m_live || !m_model) return;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    std::vector<std::string> names;
    for (int row : chosenRows()) names.push_back(m_model->condition(row).name);
    for (const std::string& n : names) {
        const StatusCode s = m_live->server().removeAlarm(n);
        audit.line(s.isGood(), tr("removed the alarm %1").arg(QString::fromStdString(n)),
                   tr("alarm %1 not removed").arg(QString::fromStdString(n)), QString::fromStdString(s.name()));
    }
    refreshed();
}

} // namespace ua::app
