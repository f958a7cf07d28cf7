// The ServerDiagnosticsSummary counters (OPC 10000-5 12.9 ServerDiagnosticsSummaryDataType) as a
// two-column table (name as in the specification, value), plus the open SecureChannels and the
// server-wide MonitoredItem count of the snapshot. Fixed rows; update() emits dataChanged for
// the values that changed.
#pragma once

#include "ua/server/common/DiagnosticsSnapshot.h"

#include <QAbstractTableModel>
#include <array>

namespace ua::serverapp {

class SummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Value, ColumnCount };
    Q_ENUM(Column)
    enum Row {
        ServerViewCount, CurrentSessionCount, CumulatedSessionCount, SecurityRejectedSessionCount,
        RejectedSessionCount, SessionTimeoutCount, SessionAbortCount, CurrentSubscriptionCount,
        CumulatedSubscriptionCount, PublishingIntervalCount, SecurityRejectedRequestsCount,
        RejectedRequestsCount,
        // Not in ServerDiagnosticsSummaryDataType:
        SecureChannels, MonitoredItems,
        RowCount
    };
    Q_ENUM(Row)

    explicit SummaryModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}

    void update(const DiagnosticsSnapshot& snapshot);
    // The summary alone (ServerDiagnostics::summary(), a few relaxed loads); keeps the last
    // SecureChannels and MonitoredItems.
    void updateSummary(const ServerDiagnosticsSummaryDataType& summary);
    uint64_t value(Row row) const { return m_values[std::size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : RowCount; }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void setValues(const std::array<uint64_t, RowCount>& values);
    std::array<uint64_t, RowCount> m_values{};
};

} // namespace ua::serverapp
