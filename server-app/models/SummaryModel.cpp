#include "models/SummaryModel.h"

#include "models/KeyedTableModel.h"

namespace ua::serverapp {

namespace {
struct RowText {
    const char* name;
    const char* description;
};
// Names as in OPC 10000-5 12.9; descriptions shortened from it.
constexpr std::array<RowText, SummaryModel::RowCount> kRows{{
    {"ServerViewCount", QT_TRANSLATE_NOOP("SummaryModel", "Server-created views")},
    {"CurrentSessionCount", QT_TRANSLATE_NOOP("SummaryModel", "Sessions open now")},
    {"CumulatedSessionCount", QT_TRANSLATE_NOOP("SummaryModel", "Sessions created since start")},
    {"SecurityRejectedSessionCount", QT_TRANSLATE_NOOP("SummaryModel", "Session requests rejected for security reasons")},
    {"RejectedSessionCount", QT_TRANSLATE_NOOP("SummaryModel", "Session requests rejected (all reasons)")},
    {"SessionTimeoutCount", QT_TRANSLATE_NOOP("SummaryModel", "Sessions closed because they timed out")},
    {"SessionAbortCount", QT_TRANSLATE_NOOP("SummaryModel", "Sessions closed because of errors")},
    {"CurrentSubscriptionCount", QT_TRANSLATE_NOOP("SummaryModel", "Subscriptions now")},
    {"CumulatedSubscriptionCount", QT_TRANSLATE_NOOP("SummaryModel", "Subscriptions created since start")},
    {"PublishingIntervalCount", QT_TRANSLATE_NOOP("SummaryModel", "Publishing intervals in use")},
    {"SecurityRejectedRequestsCount", QT_TRANSLATE_NOOP("SummaryModel", "Requests rejected for security reasons")},
    {"RejectedRequestsCount", QT_TRANSLATE_NOOP("SummaryModel", "Requests rejected (all reasons)")},
    {"SecureChannels", QT_TRANSLATE_NOOP("SummaryModel", "SecureChannels open now")},
    {"MonitoredItems", QT_TRANSLATE_NOOP("SummaryModel", "MonitoredItems of all Subscriptions")},
}};

std::array<uint64_t, SummaryModel::RowCount> valuesOf(const ServerDiagnosticsSummaryDataType& s) {
    return {s.serverViewCount, s.currentSessionCount, s.cumulatedSessionCount, s.securityRejectedSessionCount,
            s.rejectedSessionCount, s.sessionTimeoutCount, s.sessionAbortCount, s.currentSubscriptionCount,
            s.cumulatedSubscriptionCount, s.publishingIntervalCount, s.securityRejectedRequestsCount,
            s.rejectedRequestsCount, 0, 0};
}
} // namespace

void SummaryModel::update(const DiagnosticsSnapshot& snapshot) {
    auto v = valuesOf(snapshot.summary);
    v[SecureChannels] = uint64_t(std::max(0, snapshot.channels));
    v[MonitoredItems] = snapshot.monitoredItems;
    setValues(v);
}

void SummaryModel::updateSummary(const ServerDiagnosticsSummaryDataType& summary) {
    auto v = valuesOf(summary);
    v[SecureChannels] = m_values[SecureChannels];
    v[MonitoredItems] = m_values[MonitoredItems];
    setValues(v);
}

void SummaryModel::setValues(const std::array<uint64_t, RowCount>& values) {
    int first = -1, last = -1;
    for (int r = 0; r < RowCount; ++r)
        if (values[std::size_t(r)] != m_values[std::size_t(r)]) {
            if (first < 0) first = r;
            last = r;
        }
    m_values = values;
    if (first >= 0) emit dataChanged(index(first, Value), index(last, Value));
}

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const std::size_t r = std::size_t(index.row());
    if (role == Qt::ToolTipRole) return tr(kRows[r].description);
    if (index.column() == Name && role == Qt::DisplayRole) return QString::fromLatin1(kRows[r].name);
    if (index.column() == Name && role == SortRole) return index.row();
    if (index.column() == Value && (role == Qt::DisplayRole || role == SortRole)) return qulonglong(m_values[r]);
    if (index.column() == Value && role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant SummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    return section == Name ? tr("Counter") : section == Value ? tr("Value") : QVariant();
}

} // namespace ua::serverapp
