// Every Subscription of a DiagnosticsSnapshot (OPC 10000-5 12.15 SubscriptionDiagnosticsDataType),
// one row per subscriptionId; notifications/s from the difference between this snapshot and the
// previous one given to update().
#pragma once

#include "models/KeyedTableModel.h"
#include "ua/server/common/DiagnosticsSnapshot.h"

#include <unordered_map>

namespace ua::serverapp {

struct SubscriptionRow {
    SubscriptionDiagnosticsDataType diagnostics;
    QString sessionName;               // of the owning Session in the same snapshot ("" if unknown)
    double notificationsPerSecond = 0; // notificationsCount per second since the previous snapshot
    friend bool operator==(const SubscriptionRow&, const SubscriptionRow&) = default;
};

class SubscriptionsModel : public KeyedTableModel<SubscriptionRow, uint32_t> {
    Q_OBJECT
public:
    enum Column {
        Id,                     // subscriptionId
        Session,                // the owning Session's name (sessionId in the tooltip)
        PublishingInterval,     // ms, as revised
        Items,                  // monitoredItemCount (disabled ones in the tooltip)
        NotificationsPerSecond, // notificationsCount difference / time between snapshots
        // What "queue" means here: the spec's diagnostics have no fill level of the MonitoredItem
        // queues, so this column shows the Subscription's own queue, the NotificationMessages sent
        // and not yet acknowledged (unacknowledgedMessageCount, the retransmission queue). It
        // grows when a client stops acknowledging or cannot keep up, which is what an
        // administrator needs to spot; the tooltip adds currentKeepAliveCount, currentLifetimeCount
        // against maxLifetimeCount (the Subscription expires when it gets there: no Publish
        // requests), nextSequenceNumber and discardedMessageCount.
        Queue,
        LatePublishes,          // latePublishRequestCount: times it entered the LATE state (notifications ready, no Publish request queued)
        Overflows,              // monitoringQueueOverflowCount + eventQueueOverFlowCount (values dropped)
        ColumnCount
    };
    Q_ENUM(Column)

    explicit SubscriptionsModel(QObject* parent = nullptr) : KeyedTableModel(parent) {}

    void update(const DiagnosticsSnapshot& snapshot);
    uint32_t subscriptionId(int row) const { return row >= 0 && row < rowCount() ? rowAt(row).diagnostics.subscriptionId : 0; }

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    uint32_t keyOf(const SubscriptionRow& r) const override { return r.diagnostics.subscriptionId; }

private:
    // Notifications/s is measured over at least kRateWindowMs: a Subscription publishing every
    // 500 ms or slower would otherwise read 0 in every other 250 ms poll. The rate shown is the
    // last complete window's.
    static constexpr int64_t kRateWindowMs = 1000;
    struct Previous {
        uint32_t notifications = 0;  // at the start of the current window
        int64_t sinceMs = 0;         // the start of the current window (snapshot takenMs)
        double rate = 0;             // of the last complete window
    };
    std::unordered_map<uint32_t, Previous> m_previous;
};

} // namespace ua::serverapp
