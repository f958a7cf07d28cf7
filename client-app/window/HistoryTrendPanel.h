// The History tab (issue 30 item 5, as UaExpert's History Trend View): the history of several
// Variables read from the server (HistoryRead, OPC 10000-11) and drawn in one chart, each with a Y
// axis of its own, over a values table.
//   top      the range: the last N minutes (re-read every S seconds while "Update every" is ticked)
//            or From .. To; Raw values or an aggregate (the server's AggregateFunctions, else the
//            standard list) with its processing interval in ms; Read; Export CSV... / Export PNG...
//   middle   the chart (HistoryChartView): hover a line for the nearest point's value and time
//   bottom   the series (HistoryTrendModel): colour, name, values, the last read's status per series
//            (a Bad_ status in red); a drop target; Remove (also Delete) in its context menu; beside
//            them the values (HistoryValuesModel): series, source timestamp (UTC), value, status
// Series come from the address tree: a drag, or its context menu's "Add to history trend".
// Every read is asynchronous (the models' operations): nothing here waits for the server.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QWidget>

#include "ua/types/NodeId.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableView;

namespace ua::clientapp {

class Connection;
class HistoryChartView;
class HistoryTrendModel;
class HistoryValuesModel;

class HistoryTrendPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryTrendPanel(Connection* connection, QWidget* parent = nullptr);

    HistoryTrendModel* model() const { return m_model; }
    HistoryValuesModel* values() const { return m_values; }
    HistoryChartView* chartView() const { return m_chart; }
    QTableView* seriesView() const { return m_seriesView; }
    QTableView* valuesView() const { return m_valuesView; }

    // Adds series (read at once with the panel's settings).
    void addNodes(const std::vector<NodeId>& nodes);
    // The settings, as the widgets set them (the next read uses them).
    void setTimeRange(const QDateTime& start, const QDateTime& end);
    void setLastMinutes(int minutes, int updateEverySeconds);  // updateEverySeconds 0: no cyclic update
    // An aggregate by its name in the list ("Average"; "" or "Raw": raw values) and interval; false
    // when the list has no such name.
    bool setAggregate(const QString& name, double processingIntervalMs = 10000);
    // Applies the widgets' settings and reads every series.
    void read();
    // The values table as CSV / the chart as PNG; false with *error when the file was not written.
    bool exportCsv(const QString& path, QString* error = nullptr);
    bool exportPng(const QString& path, QString* error = nullptr);
    // What hovering the chart showed last (the label under the settings).
    QString hoverText() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void applySettings();
    void fillAggregates();
    void removeSelected();
    void updateEnabled();

    Connection* m_connection;
    HistoryTrendModel* m_model;
    HistoryValuesModel* m_values;
    HistoryChartView* m_chart;
    QTableView* m_seriesView;
    QTableView* m_valuesView;
    QRadioButton* m_relative;
    QRadioButton* m_absolute;
    QSpinBox* m_minutes;
    QCheckBox* m_cyclic;
    QSpinBox* m_cyclicSeconds;
    QDateTimeEdit* m_from;
    QDateTimeEdit* m_to;
    QComboBox* m_aggregate;
    QDoubleSpinBox* m_interval;
    QPushButton* m_read;
    QLabel* m_hover;
    QLabel* m_message;
    bool m_aggregatesAsked = false;
};

} // namespace ua::clientapp
