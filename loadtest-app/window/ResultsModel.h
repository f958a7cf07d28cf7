// The results table of the load tester's window: one row per finished step (StepResult), in the
// order the steps ran. Latencies are shown in ms (the StepResult holds µs), server RSS in MB.
// The Notes column holds why the step beat the server and the engine's warnings (e.g. the load
// generator saturated); such a row gets a warning icon, and a step that could not run at all is red.
// Qt::UserRole on any cell: the step's row index; Qt::ToolTipRole: the notes and errors by status.
#pragma once

#include "engine/StepResult.h"

#include <QAbstractTableModel>
#include <vector>

namespace ua::loadtest {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SessionsColumn,
        OutstandingColumn,
        RequestsPerSColumn,
        ValuesPerSColumn,
        P50Column,
        P90Column,
        P99Column,
        P999Column,
        MaxColumn,
        ErrorsColumn,
        TimeoutsColumn,
        ClientCpuColumn,     // ms per operation
        ServerCpuColumn,     // ms per operation ("" when the server pid is unknown)
        ServerRssColumn,     // MB
        NotesColumn,         // beaten by, warnings, the step's error
        ColumnCount
    };

    explicit ResultsModel(QObject* parent = nullptr);

    void clear();
    void addStep(const StepResult& step);
    void setSteps(std::vector<StepResult> steps);
    const std::vector<StepResult>& steps() const { return m_steps; }
    const StepResult& step(int row) const { return m_steps.at(std::size_t(row)); }

    // "beaten: errors 3.2 % > 1 %; generator saturated" (empty when nothing to say).
    static QString notes(const StepResult& step);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<StepResult> m_steps;
};

// Figures as the window shows them: "12,345" for rates, "0.123" ms for latencies, "" for unknown (-1).
QString formatRate(double perS);
QString formatMs(double us);
QString formatCpuMs(double ms);

} // namespace ua::loadtest
