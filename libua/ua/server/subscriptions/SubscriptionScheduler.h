// The subscription engine of one I/O thread: the TimerQueue that drives publishing and sampling
// deadlines of the Sessions homed on this thread, the thread's address-space snapshot to sample
// from (addressspace/ThreadSnapshot.h, shared with the thread's connections), and the
// SessionSubscriptions it keeps alive (see SessionSubscriptions.h for the home rule).
//
// One scheduler per I/O thread, created on it by its I/O worker (runtime/IoWorker.h; current()
// finds it). In real-time
// mode a precise single-shot QTimer is armed for the earliest deadline; tests construct it with
// realTime false and call runDue() with a fake clock.
//
// Clock: clockUs() is a monotonic microsecond clock whose zero is the UTC epoch at first use, so
// sampling grids (multiples of the interval, plus a quarter interval) sit early between the
// wall-clock boundaries on which the demo signals change.
#pragma once

#include "ua/server/addressspace/ThreadSnapshot.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"
#include "ua/server/subscriptions/TimerQueue.h"

#include <QObject>
#include <memory>
#include <vector>

class QTimer;

namespace ua {

class SubscriptionOwner;
class SubscriptionRegistry;
struct SubscriptionDiagnosticsDataType;

class SubscriptionScheduler : public QObject {
    Q_OBJECT
public:
    // Samples from snapshot, the thread's (it outlives the scheduler).
    SubscriptionScheduler(ThreadSnapshot& snapshot, const SubscriptionConfig& config, SubscriptionRegistry& registry,
                          bool realTime, QObject* parent = nullptr);
    // With a snapshot of its own (unit tests).
    SubscriptionScheduler(SharedAddressSpace& space, const SubscriptionConfig& config, SubscriptionRegistry& registry,
                          bool realTime, QObject* parent = nullptr);
    ~SubscriptionScheduler() override;

    // The scheduler of the calling thread (set by makeCurrent()), or nullptr.
    static SubscriptionScheduler* current();
    void makeCurrent();
    static int64_t clockUs();
    // The time to arm a timer for "as soon as possible": clockUs() in real-time mode (deadlines
    // that passed meanwhile run first), else the time of the current / last runDue() call.
    int64_t now() const { return m_realTime ? clockUs() : m_lastRunUs; }

    TimerQueue& timers() { return m_timers; }
    const SubscriptionConfig& config() const { return m_config; }
    SubscriptionRegistry& registry() { return m_registry; }
    // The current snapshot of this thread (ThreadSnapshot::get()).
    const AddressSpace& addressSpace() { return m_snapshot.get(); }
    QThread* homeThread() const { return thread(); }

    // Keeps a SessionSubscriptions homed here alive until its Session is closed and it is empty.
    void adopt(std::shared_ptr<SubscriptionOwner> s);
    // s has no Subscription (new, or its last one left): housekeeping looks at it until it has one
    // again or its Session is gone (then it is let go).
    void watchEmpty(SubscriptionOwner& s);
    // Runs every deadline up to nowUs (tests call this with their fake clock).
    int runDue(int64_t nowUs);
    // Re-arms the QTimer after timers were armed outside runDue (real-time mode; no-op otherwise).
    void reschedule();
    // Housekeeping once a second: lets go of the empty SessionSubscriptions of closed Sessions.
    // It looks at the empty ones only (watchEmpty()), not at every Session; parked Publish
    // requests time out by a timer of their own (SessionSubscriptions::expireParked()).
    void housekeeping(int64_t nowUs);
    // SubscriptionDiagnostics of every Subscription homed here. Call on this scheduler's thread.
    std::vector<SubscriptionDiagnosticsDataType> diagnostics() const;
    std::size_t sessionCount() const { return m_sessions.size(); }
    // The SessionSubscriptions homed here (also those of closed Sessions whose Subscriptions still
    // run out their lifetime; diagnostics/ServerDiagnostics.cpp reads them). This scheduler's thread only.
    const std::vector<std::shared_ptr<SubscriptionOwner>>& sessions() const { return m_sessions; }

private:
    struct Housekeeper final : TimerQueue::Client {
        SubscriptionScheduler* self = nullptr;
        void onTimer(uint32_t, int64_t, int64_t nowUs) override;
    };
    void onQtTimer();

    ThreadSnapshot* m_ownSnapshot = nullptr;  // its child, when it has one of its own
    ThreadSnapshot& m_snapshot;
    const SubscriptionConfig& m_config;
    SubscriptionRegistry& m_registry;
    bool m_realTime;
    TimerQueue m_timers;
    QTimer* m_qtimer = nullptr;
    int64_t m_armedForUs = TimerQueue::kNever;
    int64_t m_lastRunUs = 0;
    std::vector<std::shared_ptr<SubscriptionOwner>> m_sessions;  // SessionSubscriptions::homeIndex
    std::vector<SubscriptionOwner*> m_empty;  // of m_sessions: watchEmpty()
    Housekeeper m_housekeeper;
    Timer m_housekeeping;
};

} // namespace ua
