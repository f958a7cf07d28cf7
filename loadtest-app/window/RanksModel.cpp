// One row per rank of a distributed step (see RanksModel.h).
#include "window/RanksModel.h"

#include "window/ResultsModel.h"

#include <QBrush>
#include <QColor>

namespace ua::loadtest {

RanksModel::RanksModel(QObject* parent) : QAbstractTableModel(parent) {}

void RanksModel::setStep(const StepResult& step) {
    beginResetModel();
    m_ranks = step.ranks;
    endResetModel();
}

void RanksModel::clear() {
    beginResetModel();
    m_ranks.clear();
    endResetModel();
}

int RanksModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_ranks.size()); }

int RanksModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RanksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_ranks.size())) return {};
    const RankShare& r = m_ranks[std::size_t(index.row())];
    if (role == Qt::ForegroundRole && !r.error.isEmpty()) return QBrush(QColor(0xb0, 0x20, 0x20));
    if (role == Qt::ToolTipRole && !r.error.isEmpty()) return r.error;
    if (role == Qt::TextAlignmentRole)
        return index.column() == HostColumn || index.column() == ErrorColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (Column(index.column())) {
    case RankColumn: return r.rank;
    case HostColumn: return r.host;
    case SessionsColumn: return r.sessions;
    case RateColumn: return r.targetRate > 0 ? formatRate(r.targetRate) : QString();
    case AnsweredColumn: return QString::number(r.answered);
    case FailedColumn: return QString::number(r.errors + r.timeouts);
    case RequestsPerSColumn: return formatRate(r.requestsPerS);
    case P99Column: return r.latency.count() ? formatMs(r.p99Us) : QString();
    case ClientCpuColumn: return QString::number(r.clientCpuPercent, 'f', 0);
    case ErrorColumn: return r.error;
    case ColumnCount: break;
    }
    return {};
}

QVariant RanksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case RankColumn: return tr("Rank");
    case HostColumn: return tr("Host");
    case SessionsColumn: return tr("Sessions");
    case RateColumn: return tr("Rate/s");
    case AnsweredColumn: return tr("Answered");
    case FailedColumn: return tr("Errors+timeouts");
    case RequestsPerSColumn: return tr("Req/s");
    case P99Column: return tr("p99 ms");
    case ClientCpuColumn: return tr("CPU %");
    case ErrorColumn: return tr("Error");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::loadtest
