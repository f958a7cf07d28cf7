#include "models/HistoryValuesModel.h"

#include "ValueText.h"
#include "core/HistoryText.h"
#include "models/HistoryTrendModel.h"

#include <QColor>

namespace ua::clientapp {

HistoryValuesModel::HistoryValuesModel(HistoryTrendModel* series, QObject* parent)
    : QAbstractTableModel(parent), m_series(series) {
    connect(series, &HistoryTrendModel::valuesChanged, this, &HistoryValuesModel::rebuild);
    // A removed series: its rows' indexes into series() are stale at once, before valuesChanged.
    connect(series, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this] {
        beginResetModel();
        m_rows.clear();
        endResetModel();
    });
    connect(series, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        beginResetModel();
        m_rows.clear();
        endResetModel();
    });
    rebuild();
}

void HistoryValuesModel::rebuild() {
    beginResetModel();
    m_rows.clear();
    if (m_series) {
        const auto& all = m_series->series();
        for (std::size_t s = 0; s < all.size(); ++s)
            for (std::size_t v = 0; v < all[s].values.size(); ++v) m_rows.push_back({int(s), int(v)});
    }
    endResetModel();
}

QString HistoryValuesModel::text(int row, int column) const {
    const Row& r = m_rows[std::size_t(row)];
    const HistorySeries& s = m_series->series()[std::size_t(r.series)];
    const DataValue& dv = s.values[std::size_t(r.value)];
    switch (column) {
    case SeriesColumn: return s.name;
    case SourceTimestampColumn: return historyTimeText(historyValueTime(dv));
    case ValueColumn: return dv.hasValue ? app::formatVariant(dv.value) : QString();
    case StatusColumn: return historyStatusText(dv.hasStatus ? dv.status : StatusCode());
    }
    return {};
}

QString HistoryValuesModel::toCsv() const {
    QString out = QStringLiteral("series,sourceTimestamp,value,status\n");
    for (int r = 0; r < rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < ColumnCount; ++c) fields << csvField(text(r, c));
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

int HistoryValuesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_series ? 0 : int(m_rows.size());
}

int HistoryValuesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryValuesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_series || index.row() >= int(m_rows.size())) return {};
    const Row& r = m_rows[std::size_t(index.row())];
    const HistorySeries& s = m_series->series()[std::size_t(r.series)];
    const DataValue& dv = s.values[std::size_t(r.value)];
    switch (role) {
    case Qt::DisplayRole: return text(index.row(), index.column());
    case Qt::DecorationRole: return index.column() == SeriesColumn ? QVariant(s.color) : QVariant();
    case Qt::ForegroundRole:
        return index.column() == StatusColumn && dv.status.isBad() ? QVariant(QColor(0xb0, 0x00, 0x20)) : QVariant();
    case SeriesKeyRole: return s.key;
    case TimeMsRole: {
        const DateTime t = historyValueTime(dv);
        return t.isMin() ? QVariant() : QVariant(t.toQDateTime().toMSecsSinceEpoch());
    }
    case StatusCodeRole: return quint32(dv.status.code);
    default: return {};
    }
}

QVariant HistoryValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SeriesColumn: return tr("Series");
    case SourceTimestampColumn: return tr("Source timestamp");
    case ValueColumn: return tr("Value");
    case StatusColumn: return tr("Status");
    }
    return {};
}

} // namespace ua::clientapp
