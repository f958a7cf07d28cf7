#include "DemoEvents.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/events/EventManager.h"

#include <QRandomGenerator>
#include <QTimer>

namespace ua {

DemoEventSource::DemoEventSource(EventManager& events, int periodMs, QObject* parent)
    : QObject(parent), m_events(events), m_timer(new QTimer(this)) {
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &DemoEventSource::tick);
    m_timer->start(periodMs);
}

void DemoEventSource::tick() {
    ++m_count;
    if (!m_events.hasSubscribers()) return;
    const auto severity = uint16_t(QRandomGenerator::global()->bounded(1, 1001));
    const std::string message = "Demo event " + std::to_string(m_count) + " (severity " + std::to_string(severity) + ")";
    m_events.raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Demo", message, severity));
}

} // namespace ua
