#include "models/AlarmsModel.h"

#include "SeverityColor.h"
#include "ValueText.h"
#include "ua/server/runtime/Server.h"

#include <QLocale>

namespace ua::serverapp {

QString alarmStateText(const ConditionSummary& c) {
    QString s;
    if (!c.enabled) s = AlarmsModel::tr("Disabled");
    else if (c.active) s = c.limitState.empty() ? AlarmsModel::tr("Active") : AlarmsModel::tr("%1 active").arg(QString::fromStdString(c.limitState));
    else s = AlarmsModel::tr("Normal");
    if (c.shelved == ShelvedState::TimedShelved) s += AlarmsModel::tr(", shelved (timed)");
    else if (c.shelved == ShelvedState::OneShotShelved) s += AlarmsModel::tr(", shelved (one shot)");
    return s;
}

namespace {

QString alarmValueText(const DataValue& v) {
    if (v.status.isBad()) return QString::fromStdString(v.status.name());
    return app::formatVariant(v.value, 10);
}

QDateTime alarmTime(const DateTime& t) {
    return t.ticks ? t.toQDateTime() : QDateTime();
}

} // namespace

AlarmsModel::AlarmsModel(Server* server, QObject* parent) : KeyedTableModel(parent), m_server(server) {}

void AlarmsModel::refresh() {
    std::vector<AlarmRow> rows;
    if (m_server)
        for (ConditionSummary& c : m_server->conditions().summaries()) rows.push_back({std::move(c)});
    replaceRows(std::move(rows));
}

int AlarmsModel::activeCount() const {
    int n = 0;
    for (const AlarmRow& r : rows()) n += r.c.active;
    return n;
}

int AlarmsModel::unacknowledgedCount() const {
    int n = 0;
    for (const AlarmRow& r : rows()) n += r.c.enabled && !r.c.acked;
    return n;
}

QVariant AlarmsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const ConditionSummary& c = rowAt(index.row()).c;
    if (role == SortRole) {
        switch (index.column()) {
        case Severity: return c.severity;
        case Time: return alarmTime(c.time);
        case Acked: return c.acked;
        case Confirmed: return c.confirmed;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::BackgroundRole) return c.active && c.enabled ? QVariant(app::severityColor(c.severity)) : QVariant();
    if (role == Qt::ForegroundRole) return c.active && c.enabled ? QVariant(QColor(Qt::black)) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Name) return QString::fromStdString(c.conditionId.toString());
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Name: return QString::fromStdString(c.name);
    case State: return alarmStateText(c);
    case Severity: return c.severity;
    case Acked: return c.acked ? tr("yes") : tr("no");
    case Confirmed: return c.confirmed ? tr("yes") : tr("no");
    case Value: return alarmValueText(c.value);
    case Source: return QString::fromStdString(c.source.toString());
    case Time: {
        const QDateTime t = alarmTime(c.time);
        return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) : QString();
    }
    case Message: return QString::fromStdString(c.message);
    default: return {};
    }
}

QVariant AlarmsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Alarm");
    case State: return tr("State");
    case Severity: return tr("Severity");
    case Acked: return tr("Acknowledged");
    case Confirmed: return tr("Confirmed");
    case Value: return tr("Input value");
    case Source: return tr("Source");
    case Time: return tr("Last event");
    case Message: return tr("Message");
    default: return {};
    }
}

} // namespace ua::serverapp
