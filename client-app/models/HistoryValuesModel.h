// The values of the History trend's last read as a table (issue 30 item 5): one row per value of
// each series, the series in the order of HistoryTrendModel, each series' values in the server's
// order (oldest first), and the same rows as CSV for the panel's Export CSV.
//   Series            the series' name (DecorationRole: its colour)
//   Source timestamp  ISO 8601 UTC with ms (the server timestamp for a value without a source timestamp)
//   Value             as ValueText prints it; empty for a value-less entry (an interval without data)
//   Status            with the historian bits: "Good", "Good (Calculated)", "Bad_NoData"
// Rebuilt (a reset) when the series' values change; a series whose read failed has no rows (its
// status is in the series table).
#pragma once

#include <QAbstractTableModel>
#include <QPointer>
#include <vector>

namespace ua::clientapp {

class HistoryTrendModel;

class HistoryValuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeriesColumn, SourceTimestampColumn, ValueColumn, StatusColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        SeriesKeyRole = Qt::UserRole + 1,  // quint64: HistorySeries::key
        TimeMsRole,                        // qint64: ms since the epoch (the plotted time)
        StatusCodeRole,                    // quint32
    };
    Q_ENUM(Role)

    explicit HistoryValuesModel(HistoryTrendModel* series, QObject* parent = nullptr);

    // The table as CSV (RFC 4180, "\n" line ends): the header "series,sourceTimestamp,value,status",
    // then one line per row with the texts of the columns.
    QString toCsv() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    QString text(int row, int column) const;

    struct Row {
        int series;  // index into the series model's series()
        int value;   // index into its values
    };
    QPointer<HistoryTrendModel> m_series;
    std::vector<Row> m_rows;
};

} // namespace ua::clientapp
