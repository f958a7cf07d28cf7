// The Compare window (Compare menu): two runs side by side, A (the earlier or the current run) and
// B. A line per run says what it was (label, date, scenario, endpoint, machine); the table
// (CompareModel) holds each step's figures of A and B and the ratios B/A colored better or worse;
// under it both runs' requests/s and p99 against sessions (A solid, B dashed, one color per
// outstanding value). A window of its own (not modal), so a sweep can go on meanwhile.
#pragma once

#include "engine/StepResult.h"

#include <QWidget>

class QLabel;
class QSplitter;
class QTableView;

namespace ua::loadtest {

class CompareModel;
class SweepChart;

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);

    void setRuns(const RunResult& a, const RunResult& b);

    CompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    SweepChart* throughputChart() const { return m_throughput; }
    SweepChart* p99Chart() const { return m_p99; }

private:
    QLabel* m_runA;
    QLabel* m_runB;
    CompareModel* m_model;
    QTableView* m_table;
    QSplitter* m_split = nullptr;
    SweepChart* m_throughput;
    SweepChart* m_p99;
};

// "ours · read-1, closed loop · 2026-11-30 13:40 UTC · opc.tcp://... · 2 cores, AMD EPYC · 6 steps"
// (one line of plain text).
QString runSummary(const RunResult& run);

} // namespace ua::loadtest
