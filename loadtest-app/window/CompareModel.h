// Two runs side by side (the Compare window): one row per step of either run (compareRuns(), steps
// matched by sessions x outstanding), and for each figure compared three columns: run A, run B and
// the ratio B/A. A ratio is colored green when B is better (more requests/s, less latency or CPU),
// red when it is worse, by more than 5 %; a step only one run has shows "only in A" / "only in B".
#pragma once

#include "engine/RunComparison.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace ua::loadtest {

class CompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SessionsColumn, OutstandingColumn, FirstFigureColumn };
    enum class Side { A, B, Ratio };
    // Qt::UserRole on a ratio cell: the ratio as a double (0: none); on a figure cell: its raw value.
    // Role for the verdict of a ratio cell: +1 B better, -1 B worse, 0 within 5 % or none.
    static constexpr int VerdictRole = Qt::UserRole + 1;

    explicit CompareModel(QObject* parent = nullptr);

    void setRuns(const RunResult& a, const RunResult& b);
    const std::vector<StepComparison>& rows() const { return m_rows; }
    QString labelA() const { return m_labelA; }
    QString labelB() const { return m_labelB; }

    // The figures shown (FigureRatio::figure names), in column order.
    static const QStringList& figures();
    // Whether more of a figure is better (requests/s, values/s).
    static bool higherIsBetter(const QString& figure);
    // The column of a figure's A, B or ratio cell; -1 for an unknown figure.
    static int column(const QString& figure, Side side);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const FigureRatio* figure(const StepComparison& row, const QString& name) const;

    std::vector<StepComparison> m_rows;
    QString m_labelA, m_labelB;
};

} // namespace ua::loadtest
