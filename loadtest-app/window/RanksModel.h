// The ranks of a distributed step (docs/LoadTesterCli.md "Distributed runs"): one row per rank
// (StepResult::ranks), what it drove and measured of the step shown in the results table. Latency
// in ms; an empty table for a step run in one process.
#pragma once

#include "engine/StepResult.h"

#include <QAbstractTableModel>
#include <vector>

namespace ua::loadtest {

class RanksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        HostColumn,
        SessionsColumn,
        RateColumn,          // its share of the open loop's rate ("" closed loop)
        AnsweredColumn,
        FailedColumn,        // errors + timeouts
        RequestsPerSColumn,
        P99Column,
        ClientCpuColumn,     // % of one core on its machine
        ErrorColumn,         // why its part could not run
        ColumnCount
    };

    explicit RanksModel(QObject* parent = nullptr);

    void setStep(const StepResult& step);
    void clear();
    const std::vector<RankShare>& ranks() const { return m_ranks; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RankShare> m_ranks;
};

} // namespace ua::loadtest
