// The demo event source (ServerConfig::demoEventsMs; ua-server --demo-events-ms N): every period
// a BaseEventType event from the Server object with SourceName
// "Demo", a random Severity 1..1000 and the Message "Demo event <n> (severity <s>)". Nothing is
// built while no event item exists.
#pragma once

#include <QObject>

class QTimer;

namespace ua {

class EventManager;

class DemoEventSource : public QObject {
    Q_OBJECT
public:
    // Starts raising every periodMs (> 0) on the calling thread's event loop.
    DemoEventSource(EventManager& events, int periodMs, QObject* parent = nullptr);
    uint64_t raised() const { return m_count; }

private:
    void tick();

    EventManager& m_events;
    QTimer* m_timer;
    uint64_t m_count = 0;
};

} // namespace ua
