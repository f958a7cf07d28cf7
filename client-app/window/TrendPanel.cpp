#include "window/TrendPanel.h"

#include "models/MonitoredItemsModel.h"
#include "models/TrendBuffer.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListView>
#include <QSplitter>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>
#include <cmath>

namespace ua::clientapp {

TrendPanel::TrendPanel(MonitoredItemsModel* items, QWidget* parent)
    : QWidget(parent), m_buffer(new TrendBuffer(10'000, this)), m_chart(new QChart), m_x(new QDateTimeAxis),
      m_y(new QValueAxis), m_timer(new QTimer(this)) {
    setObjectName(QStringLiteral("trendPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Time window:")));
    m_window = new QComboBox;
    m_window->setObjectName(QStringLiteral("trendWindow"));
    m_window->addItem(tr("10 s"), 10);
    m_window->addItem(tr("1 min"), 60);
    m_window->addItem(tr("10 min"), 600);
    m_window->setCurrentIndex(1);
    top->addWidget(m_window);
    top->addStretch();
    auto* hint = new QLabel(tr("Numeric items ticked on the left (or in Data access) are plotted."));
    hint->setStyleSheet(QStringLiteral("color: gray"));
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a hint never widens the window
    top->addWidget(hint);
    layout->addLayout(top);

    auto* splitter = new QSplitter;
    m_items = new QListView;
    m_items->setObjectName(QStringLiteral("trendItems"));
    m_items->setModel(items);
    m_items->setModelColumn(MonitoredItemsModel::DisplayNameColumn);
    m_items->setMinimumWidth(60);
    splitter->addWidget(m_items);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_x->setTitleText(tr("time"));
    m_x->setTickCount(7);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_view = new QChartView(m_chart);
    m_view->setObjectName(QStringLiteral("trendChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(240, 200);  // the chart's own minimum would squeeze the docks (and widen the window)
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({150, 800});
    layout->addWidget(splitter, 1);

    m_buffer->setWindowSeconds(60);
    m_buffer->follow(items);
    connect(m_buffer, &TrendBuffer::seriesAdded, this, [this](uint32_t key, const QString& name) {
        if (m_series.count(key)) return;
        auto* s = new QLineSeries;
        s->setName(name);
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        m_series[key] = s;
        redraw();
    });
    connect(m_buffer, &TrendBuffer::seriesRemoved, this, [this](uint32_t key) {
        auto it = m_series.find(key);
        if (it == m_series.end()) return;
        m_chart->removeSeries(it->second);
        delete it->second;
        m_series.erase(it);
        redraw();
    });
    connect(m_window, &QComboBox::currentIndexChanged, this, [this] {
        m_buffer->setWindowSeconds(m_window->currentData().toInt());
        redraw();
    });
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isVisible()) redraw();  // a hidden tab costs nothing; shown again, the next tick catches up
    });
    m_timer->start(250);
    redraw();
}

QLineSeries* TrendPanel::series(uint32_t clientHandle) const {
    auto it = m_series.find(clientHandle);
    return it == m_series.end() ? nullptr : it->second;
}

void TrendPanel::setWindowSeconds(int seconds) {
    const int i = m_window->findData(seconds);
    if (i >= 0) m_window->setCurrentIndex(i);
    else m_buffer->setWindowSeconds(seconds);
}

int TrendPanel::windowSeconds() const {
    return m_buffer->windowSeconds();
}

void TrendPanel::redraw() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = now - qint64(m_buffer->windowSeconds()) * 1000;
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(now));
    for (auto& [key, s] : m_series) s->replace(m_buffer->points(key, now));
    if (auto range = m_buffer->valueRange(now)) {
        double lo = range->first, hi = range->second;
        const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(1.0, std::abs(hi) * 0.1);
        m_y->setRange(lo - pad, hi + pad);
    } else {
        m_y->setRange(0, 1);
    }
}

} // namespace ua::clientapp
