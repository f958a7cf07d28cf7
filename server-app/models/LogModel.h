// The server app's log: a bounded ring of LogRecords (default 10,000; the oldest rows are removed
// as new ones arrive) fed in batches by LogCapture, the categories seen so far, and
// LogFilterModel, a proxy that shows the records at or above a minimum level, of one category or
// all, containing a search text.
#pragma once

#include "models/LogCapture.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <deque>

namespace ua::serverapp {

class LogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Level, Category, Message, ColumnCount };
    Q_ENUM(Column)
    // On any cell: the record's logSeverity (int), its QDateTime.
    static constexpr int SeverityRole = Qt::UserRole + 1;
    static constexpr int TimeRole = Qt::UserRole + 2;

    explicit LogModel(int capacity = 10000, QObject* parent = nullptr);

    // Feeds the model from capture (its recordsCaptured batches).
    void attach(LogCapture* capture);
    // Appends a batch: one rowsRemoved for the oldest rows beyond capacity, one rowsInserted.
    void append(const QList<LogRecord>& batch);
    void clear();

    int capacity() const { return m_capacity; }
    const LogRecord& record(int row) const { return m_records[std::size_t(row)]; }
    // The categories seen since the start (or the last clear), sorted.
    QStringList categories() const { return m_categories; }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(m_records.size()); }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void categoriesChanged(const QStringList& categories);

private:
    int m_capacity;
    std::deque<LogRecord> m_records;
    QStringList m_categories;
};

class LogFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LogFilterModel(QObject* parent = nullptr);

    // Records below this level are hidden (default QtDebugMsg: all).
    void setMinimumLevel(QtMsgType level);
    QtMsgType minimumLevel() const { return m_minimum; }
    // Only this category ("" = all).
    void setCategory(const QString& category);
    QString category() const { return m_category; }
    // Only records whose message or category contains text (case-insensitive; "" = all).
    void setSearchText(const QString& text);
    QString searchText() const { return m_search; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QtMsgType m_minimum = QtDebugMsg;
    QString m_category;
    QString m_search;
};

} // namespace ua::serverapp
