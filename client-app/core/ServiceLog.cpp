#include "core/ServiceLog.h"

#include "ValueText.h"

namespace ua::clientapp {

ServiceLog::ServiceLog(int capacity, QObject* parent) : QObject(parent), m_capacity(std::max(1, capacity)) {}

void ServiceLog::record(ServiceLogRecord r) {
    if (!r.time.isValid()) r.time = QDateTime::currentDateTime();
    m_records.push_back(std::move(r));
    ++m_total;
    while (m_records.size() > std::size_t(m_capacity)) m_records.pop_front();
    emit recorded(m_records.back());
}

void ServiceLog::record(const QString& service, StatusCode status, qint64 elapsedMs, const QString& detail) {
    record(ServiceLogRecord{QDateTime::currentDateTime(), service, status, elapsedMs, detail});
}

void ServiceLog::clear() {
    m_records.clear();
    emit cleared();
}

ServiceLogModel::ServiceLogModel(ServiceLog* log, QObject* parent)
    : QAbstractTableModel(parent), m_log(log), m_syncTimer(new QTimer(this)) {
    m_syncTimer->setSingleShot(true);
    m_syncTimer->setInterval(kBatchMs);
    connect(m_syncTimer, &QTimer::timeout, this, &ServiceLogModel::sync);
    if (!log) return;
    m_first = log->totalRecorded() - qint64(log->records().size());
    m_rows = int(log->records().size());
    connect(log, &ServiceLog::recorded, this, [this] {
        if (!m_syncTimer->isActive()) m_syncTimer->start();
    });
    connect(log, &ServiceLog::cleared, this, [this] {
        beginResetModel();
        m_first = m_log ? m_log->totalRecorded() : 0;
        m_rows = 0;
        endResetModel();
    });
    connect(log, &QObject::destroyed, this, [this] {
        beginResetModel();
        m_rows = 0;
        endResetModel();
    });
}

void ServiceLogModel::sync() {
    if (!m_log) return;
    const qint64 total = m_log->totalRecorded();
    const qint64 first = total - qint64(m_log->records().size());
    if (first > m_first) {  // the capacity dropped the oldest records
        const int gone = int(std::min<qint64>(first - m_first, m_rows));
        if (gone > 0) {
            beginRemoveRows({}, 0, gone - 1);
            m_rows -= gone;
            m_first += gone;
            endRemoveRows();
        }
        if (m_rows == 0) m_first = first;
    }
    const qint64 end = m_first + m_rows;
    if (total > end) {
        beginInsertRows({}, m_rows, m_rows + int(total - end) - 1);
        m_rows += int(total - end);
        endInsertRows();
    }
}

const ServiceLogRecord* ServiceLogModel::recordAt(int row) const {
    if (!m_log || row < 0 || row >= m_rows) return nullptr;
    const qint64 first = m_log->totalRecorded() - qint64(m_log->records().size());
    const qint64 i = m_first + row - first;  // negative: dropped since the last sync
    if (i < 0 || i >= qint64(m_log->records().size())) return nullptr;
    return &m_log->records()[std::size_t(i)];
}

int ServiceLogModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }

int ServiceLogModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ServiceLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ServiceLogRecord* r = recordAt(index.row());
    if (!r) return {};
    if (role == Qt::ToolTipRole) return r->detail;
    if (role == Qt::TextAlignmentRole && index.column() == ElapsedColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case TimeColumn: return r->time.toString(QStringLiteral("HH:mm:ss.zzz"));
    case ServiceColumn: return r->service;
    case StatusColumn: return app::statusName(r->status);  // "Bad_UserAccessDenied", as the status bar writes it
    case ElapsedColumn: return r->elapsedMs;
    case DetailColumn: return r->detail;
    default: return {};
    }
}

QVariant ServiceLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case ServiceColumn: return tr("Service");
    case StatusColumn: return tr("Status");
    case ElapsedColumn: return tr("ms");
    case DetailColumn: return tr("Detail");
    default: return {};
    }
}

} // namespace ua::clientapp
