// The Trend tab (issue 7 item 6): a live Qt Charts plot with one QLineSeries per numeric monitored
// item whose trend flag is on (the check box next to each item in the list on the left, the same
// flag as in the Data access table), over a selectable time window (10 s, 1 min, 10 min). The
// points come from a TrendBuffer that follows the MonitoredItemsModel; the chart is redrawn 4 times a
// second, not per value.
#pragma once

#include <QWidget>
#include <map>

class QComboBox;
class QListView;
class QTimer;
class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace ua::clientapp {

class MonitoredItemsModel;
class TrendBuffer;

class TrendPanel : public QWidget {
    Q_OBJECT
public:
    TrendPanel(MonitoredItemsModel* items, QWidget* parent = nullptr);

    TrendBuffer* buffer() const { return m_buffer; }
    QChartView* chartView() const { return m_view; }
    // The series of an item (nullptr when it is not plotted).
    QLineSeries* series(uint32_t clientHandle) const;
    void setWindowSeconds(int seconds);
    int windowSeconds() const;
    // Redraws now (the timer does it 4 times a second).
    void redraw();

private:
    TrendBuffer* m_buffer;
    QChart* m_chart;
    QChartView* m_view;
    QDateTimeAxis* m_x;
    QValueAxis* m_y;
    QComboBox* m_window;
    QListView* m_items;
    QTimer* m_timer;
    std::map<uint32_t, QLineSeries*> m_series;
};

} // namespace ua::clientapp
