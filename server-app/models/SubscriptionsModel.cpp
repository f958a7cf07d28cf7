#include "models/SubscriptionsModel.h"

namespace ua::serverapp {

void SubscriptionsModel::update(const DiagnosticsSnapshot& snapshot) {
    std::unordered_map<NodeId, QString> sessionNames;
    sessionNames.reserve(snapshot.sessions.size());
    for (const SessionSnapshot& s : snapshot.sessions)
        sessionNames.emplace(s.diagnostics.sessionId, s.diagnostics.sessionName.toQString());

    std::unordered_map<uint32_t, Previous> next;
    next.reserve(snapshot.subscriptions.size());
    std::vector<SubscriptionRow> rows;
    rows.reserve(snapshot.subscriptions.size());
    for (const SubscriptionDiagnosticsDataType& d : snapshot.subscriptions) {
        SubscriptionRow r;
        r.diagnostics = d;
        const auto name = sessionNames.find(d.sessionId);
        if (name != sessionNames.end()) r.sessionName = name->second;
        Previous window{d.notificationsCount, snapshot.takenMs, 0.0};  // first seen: 0 until a window is complete
        const auto prev = m_previous.find(d.subscriptionId);
        if (prev != m_previous.end()) {
            const Previous& p = prev->second;
            const int64_t dtMs = snapshot.takenMs - p.sinceMs;
            if (d.notificationsCount < p.notifications) {
                // A counter that went back (a transferred Subscription starts anew): a new window.
            } else if (dtMs >= kRateWindowMs) {
                window.rate = double(d.notificationsCount - p.notifications) * 1000.0 / double(dtMs);
            } else {
                window = p;  // the window is still open: keep its start and the last rate
            }
        }
        r.notificationsPerSecond = window.rate;
        next[d.subscriptionId] = window;
        rows.push_back(std::move(r));
    }
    m_previous = std::move(next);
    replaceRows(std::move(rows));
}

QVariant SubscriptionsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const SubscriptionRow& r = rowAt(index.row());
    const SubscriptionDiagnosticsDataType& d = r.diagnostics;
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Session: return QString::fromStdString(d.sessionId.toString());
        case Items: return tr("%1 disabled").arg(d.disabledMonitoredItemCount);
        case Queue:
            return tr("unacknowledged %1, discarded %2, keep-alive %3/%4, lifetime %5/%6, next sequence number %7")
                .arg(d.unacknowledgedMessageCount)
                .arg(d.discardedMessageCount)
                .arg(d.currentKeepAliveCount)
                .arg(d.maxKeepAliveCount)
                .arg(d.currentLifetimeCount)
                .arg(d.maxLifetimeCount)
                .arg(d.nextSequenceNumber);
        case Overflows:
            return tr("MonitoredItem queues %1, event queues %2").arg(d.monitoringQueueOverflowCount).arg(d.eventQueueOverFlowCount);
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Session ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (Column(index.column())) {
    case Id: return qulonglong(d.subscriptionId);
    case Session: return r.sessionName.isEmpty() ? QString::fromStdString(d.sessionId.toString()) : r.sessionName;
    case PublishingInterval: return sort ? QVariant(d.publishingInterval) : QVariant(QString::number(d.publishingInterval, 'g', 6));
    case Items: return qulonglong(d.monitoredItemCount);
    case NotificationsPerSecond:
        return sort ? QVariant(r.notificationsPerSecond) : QVariant(QString::number(r.notificationsPerSecond, 'f', 1));
    case Queue: return qulonglong(d.unacknowledgedMessageCount);
    case LatePublishes: return qulonglong(d.latePublishRequestCount);
    case Overflows: return qulonglong(d.monitoringQueueOverflowCount) + d.eventQueueOverFlowCount;
    case ColumnCount: break;
    }
    return {};
}

QVariant SubscriptionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Id: return tr("Id");
    case Session: return tr("Session");
    case PublishingInterval: return tr("Interval (ms)");
    case Items: return tr("Items");
    case NotificationsPerSecond: return tr("Notifications/s");
    case Queue: return tr("Unacknowledged");
    case LatePublishes: return tr("Late publishes");
    case Overflows: return tr("Overflows");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::serverapp
