// The chart of the History trend (issue 30 item 5): one QLineSeries per series of a
// HistoryTrendModel, each with a QValueAxis of its own in the series' colour (left, right, left, ...
// so that values of different magnitudes share the plot), over a QDateTimeAxis spanning the range
// the last read asked for. Numeric values only (Booleans as 0/1); values with a Bad status (an
// interval without data) are not plotted. A series whose read failed has no axis; its legend entry
// names the status ("Int32: Bad_HistoryOperationUnsupported").
// Hovering a line shows the value, time and status of the stored point nearest the cursor (a
// tooltip, and hoverChanged() for the panel's label). Drops of NodeIds (NodeIdMime.h) add series.
#pragma once

#include <QChartView>
#include <QString>
#include <map>
#include <vector>

class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace ua::clientapp {

class HistoryTrendModel;

class HistoryChartView : public QChartView {
    Q_OBJECT
public:
    explicit HistoryChartView(HistoryTrendModel* model, QWidget* parent = nullptr);

    // Rebuilt from the model (also on its valuesChanged()).
    void redraw();
    QLineSeries* lineSeries(quint64 key) const;
    QValueAxis* valueAxis(quint64 key) const;  // nullptr for a series without plotted values
    QDateTimeAxis* timeAxis() const { return m_x; }
    // The text of the point nearest to `value` (chart coordinates: x ms since the epoch, y the
    // series' value) on series key: "Sine = 0.5878 at 2026-11-30T10:00:00.100Z (Good)"; empty when
    // the series has no plotted point. What hovering shows.
    QString nearestPointText(quint64 key, const QPointF& value) const;
    QString hoverText() const { return m_hoverText; }

signals:
    void hoverChanged(const QString& text);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Plot {
        QLineSeries* series = nullptr;
        QValueAxis* axis = nullptr;
        std::vector<int> valueIndex;  // per point: its DataValue in the series' values
    };
    void hovered(quint64 key, const QPointF& point, bool state);
    void fitTimeTicks();

    HistoryTrendModel* m_model;
    QDateTimeAxis* m_x;
    std::map<quint64, Plot> m_plots;
    std::vector<quint64> m_keys;  // the series the plots were built for, in order
    QString m_hoverText;
};

} // namespace ua::clientapp
