// The data behind the trend plot (issue 7 item 6): one bounded time series per numeric monitored
// item, and the points of a selectable time window for drawing (the window draws them with Qt
// Charts; nothing here needs Charts). A point is (x = ms since the Unix epoch, UTC, of the value's
// SourceTimestamp, else its ServerTimestamp, else the arrival time; y = the value as double).
// Values that are not numeric scalars (Boolean counts as 0/1) and Bad values are not plotted.
//
//   TrendBuffer trend;
//   trend.follow(&monitoredItems);          // series for the items whose trend flag is on
//   trend.setWindowSeconds(60);
//   const QList<QPointF> pts = trend.points(handle, QDateTime::currentMSecsSinceEpoch());
#pragma once

#include "ua/types/Variant.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace ua::clientapp {

class MonitoredItemsModel;

class TrendBuffer : public QObject {
    Q_OBJECT
public:
    // capacity: points kept per series (the oldest dropped first).
    explicit TrendBuffer(int capacity = 10'000, QObject* parent = nullptr);

    // The visible time window in seconds (at least 1).
    void setWindowSeconds(int seconds);
    int windowSeconds() const { return m_windowSeconds; }

    // Series are named by a key (MonitoredItemsModel's clientHandle).
    void addSeries(uint32_t key, const QString& name);
    void removeSeries(uint32_t key);
    void clear();
    std::vector<uint32_t> keys() const;
    QString name(uint32_t key) const;
    bool hasSeries(uint32_t key) const { return m_series.count(key) != 0; }

    // Appends a DataValue (ignored unless numeric and not Bad; see above); false when ignored.
    bool append(uint32_t key, const ua::DataValue& value);
    bool append(uint32_t key, qint64 msSinceEpoch, double value);
    // Every point of a series (oldest first).
    int pointCount(uint32_t key) const;
    // The points with x in [nowMs - window, nowMs], oldest first, plus the last point before the
    // window (so the line enters the plot from its left edge).
    QList<QPointF> points(uint32_t key, qint64 nowMs) const;
    // The smallest and largest y of points(key, nowMs) over every series; nullopt without points.
    std::optional<std::pair<double, double>> valueRange(qint64 nowMs) const;

    // The numeric value of a Variant (integers, Float, Double, Boolean), else nullopt.
    static std::optional<double> numericValue(const ua::Variant& value);

    // Keeps series for model's rows whose trend flag is on and appends their values (trendChanged
    // and valueChanged); call once.
    void follow(MonitoredItemsModel* model);

signals:
    void seriesAdded(uint32_t key, const QString& name);
    void seriesRemoved(uint32_t key);
    // A point was appended to a series (the window repaints on a timer rather than per point).
    void appended(uint32_t key);
    void windowChanged(int seconds);

private:
    struct Series {
        QString name;
        std::deque<QPointF> points;
    };
    int m_capacity;
    int m_windowSeconds = 60;
    std::map<uint32_t, Series> m_series;
};

} // namespace ua::clientapp
