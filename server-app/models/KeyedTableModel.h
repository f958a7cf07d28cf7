// A flat table whose rows are keyed (a session's NodeId, a subscription id, a certificate's
// thumbprint, a user name): replacing its contents with a fresh list removes the rows whose key is
// gone (rowsRemoved, one signal per contiguous run), updates the rows that stay in place
// (dataChanged over the rows that differ) and appends the new keys at the end (one rowsInserted).
// Never a model reset per refresh, so views keep their selection, scroll position and sort.
//
// Row must be equality-comparable; keyOf(row) gives its Key (hashable). Rows keep the order in
// which their keys first appeared; views sort through a QSortFilterProxyModel and the models'
// SortRole.
#pragma once

#include <QAbstractTableModel>
#include <unordered_map>
#include <vector>

namespace ua::serverapp {

// The role that gives a cell's raw value for sorting (a number, a QDateTime), where
// Qt::DisplayRole gives text.
inline constexpr int SortRole = Qt::UserRole + 1;

template <class Row, class Key>
class KeyedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(m_rows.size()); }

    // The row's position, or -1.
    int rowOfKey(const Key& key) const {
        const auto it = m_index.find(key);
        return it == m_index.end() ? -1 : it->second;
    }
    const std::vector<Row>& rows() const { return m_rows; }

protected:
    virtual Key keyOf(const Row& row) const = 0;
    const Row& rowAt(int row) const { return m_rows[std::size_t(row)]; }

    // Replaces the rows by fresh (keys unique) with the fewest signals described above.
    void replaceRows(std::vector<Row> fresh) {
        std::unordered_map<Key, std::size_t> freshIndex;
        freshIndex.reserve(fresh.size());
        std::vector<bool> taken(fresh.size(), false);  // a duplicate key counts as taken: dropped
        for (std::size_t i = 0; i < fresh.size(); ++i)
            if (!freshIndex.emplace(keyOf(fresh[i]), i).second) taken[i] = true;

        // Rows whose key is gone, removed from the end so that earlier positions stay valid.
        for (int last = int(m_rows.size()) - 1; last >= 0;) {
            if (freshIndex.count(keyOf(m_rows[std::size_t(last)]))) {
                --last;
                continue;
            }
            int first = last;
            while (first > 0 && !freshIndex.count(keyOf(m_rows[std::size_t(first - 1)]))) --first;
            beginRemoveRows({}, first, last);
            m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
            endRemoveRows();
            last = first - 1;
        }

        // Rows that stay: new contents in place (always taken, so that a row that shares its
        // snapshot does not keep an old one alive; reported only when it differs).
        const bool removed = m_rows.size() != m_index.size();
        int changedFirst = -1, changedLast = -1;
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            const std::size_t f = freshIndex.at(keyOf(m_rows[r]));
            taken[f] = true;
            const bool changed = !(m_rows[r] == fresh[f]);
            m_rows[r] = std::move(fresh[f]);
            if (changed) {
                if (changedFirst < 0) changedFirst = int(r);
                changedLast = int(r);
            }
        }
        if (removed) {  // positions moved; otherwise the index is still right
            m_index.clear();
            for (std::size_t r = 0; r < m_rows.size(); ++r) m_index.emplace(keyOf(m_rows[r]), int(r));
        }
        if (changedFirst >= 0)
            emit dataChanged(index(changedFirst, 0), index(changedLast, columnCount() - 1));

        // New keys, appended in their order in fresh.
        std::size_t added = 0;
        for (std::size_t f = 0; f < fresh.size(); ++f) added += taken[f] ? 0 : 1;
        if (added) {
            const int first = int(m_rows.size());
            beginInsertRows({}, first, first + int(added) - 1);
            for (std::size_t f = 0; f < fresh.size(); ++f) {
                if (taken[f]) continue;
                m_index.emplace(keyOf(fresh[f]), int(m_rows.size()));
                m_rows.push_back(std::move(fresh[f]));
            }
            endInsertRows();
        }
    }

private:
    std::vector<Row> m_rows;
    std::unordered_map<Key, int> m_index;
};

} // namespace ua::serverapp
