#include "models/LogModel.h"

#include <algorithm>

namespace ua::serverapp {

LogModel::LogModel(int capacity, QObject* parent) : QAbstractTableModel(parent), m_capacity(std::max(1, capacity)) {}

void LogModel::attach(LogCapture* capture) { connect(capture, &LogCapture::recordsCaptured, this, &LogModel::append); }

void LogModel::append(const QList<LogRecord>& batch) {
    if (batch.isEmpty()) return;
    const qsizetype take = std::min<qsizetype>(batch.size(), m_capacity);  // only the newest fit
    const qsizetype overflow = qsizetype(m_records.size()) + take - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, int(overflow) - 1);
        m_records.erase(m_records.begin(), m_records.begin() + overflow);
        endRemoveRows();
    }
    bool newCategory = false;
    const int first = int(m_records.size());
    beginInsertRows({}, first, first + int(take) - 1);
    for (qsizetype i = batch.size() - take; i < batch.size(); ++i) {
        const LogRecord& r = batch[i];
        if (!m_categories.contains(r.category)) {
            m_categories.insert(std::lower_bound(m_categories.begin(), m_categories.end(), r.category), r.category);
            newCategory = true;
        }
        m_records.push_back(r);
    }
    endInsertRows();
    if (newCategory) emit categoriesChanged(m_categories);
}

void LogModel::clear() {
    if (m_records.empty()) return;
    beginRemoveRows({}, 0, int(m_records.size()) - 1);
    m_records.clear();
    endRemoveRows();
    m_categories.clear();
    emit categoriesChanged(m_categories);
}

QVariant LogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const LogRecord& r = record(index.row());
    switch (role) {
    case SeverityRole: return logSeverity(r.type);
    case TimeRole: return r.time;
    case Qt::ToolTipRole: return index.column() == Message ? QVariant(r.message) : QVariant();
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Time: return r.time.toString(QStringLiteral("hh:mm:ss.zzz"));
        case Level: return logLevelName(r.type);
        case Category: return r.category;
        case Message: return r.message;
        case ColumnCount: break;
        }
        break;
    default: break;
    }
    return {};
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Time: return tr("Time");
    case Level: return tr("Level");
    case Category: return tr("Category");
    case Message: return tr("Message");
    case ColumnCount: break;
    }
    return {};
}

LogFilterModel::LogFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void LogFilterModel::setMinimumLevel(QtMsgType level) {
    if (level == m_minimum) return;
    m_minimum = level;
    invalidateRowsFilter();
}

void LogFilterModel::setCategory(const QString& category) {
    if (category == m_category) return;
    m_category = category;
    invalidateRowsFilter();
}

void LogFilterModel::setSearchText(const QString& text) {
    if (text == m_search) return;
    m_search = text;
    invalidateRowsFilter();
}

bool LogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (sourceParent.isValid()) return false;
    const auto* log = qobject_cast<const LogModel*>(sourceModel());
    if (!log) return true;
    const LogRecord& r = log->record(sourceRow);
    if (logSeverity(r.type) < logSeverity(m_minimum)) return false;
    if (!m_category.isEmpty() && r.category != m_category) return false;
    if (!m_search.isEmpty() && !r.message.contains(m_search, Qt::CaseInsensitive) &&
        !r.category.contains(m_search, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace ua::serverapp
