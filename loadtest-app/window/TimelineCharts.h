// The running step's live charts (Qt Charts), one TimelineSample a second: throughput over time
// (requests/s on the left axis, values/s on the right) and latency percentiles over time (p50, p99,
// max of the requests answered in that second, ms on a log axis). Time is in seconds since the
// measured period began: the warm-up is on the left of the dashed line at 0; a sample (the second
// ending at its tS) is drawn in the middle of its second. A finished step's
// timeline (StepResult::timeline) can be shown again (setTimeline).
#pragma once

#include "engine/StepResult.h"

#include <QWidget>

class QChartView;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace ua::loadtest {

class TimelineCharts : public QWidget {
    Q_OBJECT
public:
    explicit TimelineCharts(QWidget* parent = nullptr);

    // Clears both charts for a step: the x axis from -warmupS to durationS; title e.g. "Step 2 of 6:
    // 2 sessions x 1 outstanding".
    void startStep(const QString& title, double warmupS, double durationS);
    void addSample(const TimelineSample& sample);
    void setTimeline(const QString& title, const std::vector<TimelineSample>& samples, double warmupS, double durationS);
    // Whether values/s is drawn (and its axis): not when it equals requests/s (read-1, write-1, connect).
    void setValuesShown(bool shown);
    // Open loop: the target rate (requests/s) as a dashed line on the throughput chart; 0: none.
    void setTargetRate(double perS);

    QChartView* throughputView() const { return m_throughputView; }
    QChartView* latencyView() const { return m_latencyView; }
    // Points plotted (requests/s series of the throughput chart: one per sample).
    int pointCount() const;

private:
    void fitAxes();

    QChartView* m_throughputView;
    QChartView* m_latencyView;
    QLineSeries* m_requests;
    QLineSeries* m_values;
    QLineSeries* m_p50;
    QLineSeries* m_p99;
    QLineSeries* m_max;
    QLineSeries* m_startThroughput;   // the dashed lines at t = 0
    QLineSeries* m_startLatency;
    QLineSeries* m_target;
    double m_targetRate = 0;
    QValueAxis* m_tThroughput;
    QValueAxis* m_tLatency;
    QValueAxis* m_requestsAxis;
    QValueAxis* m_valuesAxis;
    QLogValueAxis* m_latencyAxis;
    double m_warmupS = 0;
    double m_durationS = 10;
    double m_lastT = 0;
    double m_maxRequests = 0, m_maxValues = 0, m_minLatency = 0, m_maxLatency = 0;
};

} // namespace ua::loadtest
