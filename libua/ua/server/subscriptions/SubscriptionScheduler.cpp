#include "ua/server/subscriptions/SubscriptionScheduler.h"

#include "ua/server/subscriptions/SubscriptionOwner.h"

#include <QTimer>
#include <chrono>

namespace ua {

namespace {
thread_local SubscriptionScheduler* t_current = nullptr;
constexpr int64_t kHousekeepingUs = 1'000'000;
} // namespace

SubscriptionScheduler::SubscriptionScheduler(SharedAddressSpace& space, const SubscriptionConfig& config,
                                             SubscriptionRegistry& registry, bool realTime, QObject* parent)
    : SubscriptionScheduler(*new ThreadSnapshot(space), config, registry, realTime, parent) {
    m_ownSnapshot = &m_snapshot;
    m_ownSnapshot->setParent(this);
}

SubscriptionScheduler::SubscriptionScheduler(ThreadSnapshot& snapshot, const SubscriptionConfig& config,
                                             SubscriptionRegistry& registry, bool realTime, QObject* parent)
    : QObject(parent), m_snapshot(snapshot), m_config(config), m_registry(registry), m_realTime(realTime) {
    m_housekeeper.self = this;
    m_housekeeping = Timer(m_timers, &m_housekeeper);
    m_housekeeping.arm(clockUs() + kHousekeepingUs);
    if (m_realTime) {
        m_qtimer = new QTimer(this);
        m_qtimer->setSingleShot(true);
        m_qtimer->setTimerType(Qt::PreciseTimer);
        connect(m_qtimer, &QTimer::timeout, this, &SubscriptionScheduler::onQtTimer);
        reschedule();
    }
}

SubscriptionScheduler::~SubscriptionScheduler() {
    if (t_current == this) t_current = nullptr;
    // Subscriptions hold Timers of m_timers: destroy them first.
    for (auto& s : m_sessions) {
        s->removeAll();
        s->detachTimers();  // a Session may keep it alive beyond this scheduler
    }
    m_empty.clear();
    m_sessions.clear();
    m_housekeeping.reset();
}

SubscriptionScheduler* SubscriptionScheduler::current() { return t_current; }
void SubscriptionScheduler::makeCurrent() { t_current = this; }

int64_t SubscriptionScheduler::clockUs() {
    using namespace std::chrono;
    static const int64_t offset = duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() -
                                  duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
    return duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count() + offset;
}

void SubscriptionScheduler::adopt(std::shared_ptr<SubscriptionOwner> s) {
    s->homeIndex = m_sessions.size();
    SubscriptionOwner& added = *s;
    m_sessions.push_back(std::move(s));
    if (added.count() == 0) watchEmpty(added);
}

void SubscriptionScheduler::watchEmpty(SubscriptionOwner& s) {
    if (s.watchedEmpty) return;
    if (s.homeIndex >= m_sessions.size() || m_sessions[s.homeIndex].get() != &s) return;  // not adopted (yet)
    s.watchedEmpty = true;
    m_empty.push_back(&s);
}

int SubscriptionScheduler::runDue(int64_t nowUs) {
    m_lastRunUs = nowUs;
    const int n = m_timers.runDue(nowUs);
    return n;
}

void SubscriptionScheduler::reschedule() {
    if (!m_realTime) return;
    const int64_t next = m_timers.nextDue();
    if (next == TimerQueue::kNever) return;
    if (m_qtimer->isActive() && next >= m_armedForUs) return;
    const int64_t waitUs = next - clockUs();
    // Round up: a timer that fires early finds nothing due and costs a wake-up.
    const int ms = waitUs <= 0 ? 0 : int((waitUs + 999) / 1000);
    m_armedForUs = next;
    m_qtimer->start(ms);
}

void SubscriptionScheduler::onQtTimer() {
    m_armedForUs = TimerQueue::kNever;
    m_timers.runDue(clockUs());
    reschedule();
}

void SubscriptionScheduler::Housekeeper::onTimer(uint32_t, int64_t dueUs, int64_t nowUs) {
    self->m_housekeeping.arm(nextOnGrid(nowUs, kHousekeepingUs, dueUs % kHousekeepingUs));
    self->housekeeping(nowUs);
}

void SubscriptionScheduler::housekeeping(int64_t) {
    // A closed Session keeps its Subscriptions for TransferSubscriptions until their lifetime runs
    // out; then (empty and its Session gone) its SessionSubscriptions goes.
    for (std::size_t i = 0; i < m_empty.size();) {
        SubscriptionOwner& s = *m_empty[i];
        const bool keepWatching = s.count() == 0 && !s.sessionGone();
        if (keepWatching) {
            ++i;
            continue;
        }
        s.watchedEmpty = false;
        m_empty[i] = m_empty.back();
        m_empty.pop_back();
        if (s.count() != 0) continue;  // has a Subscription again
        // Its timer goes back here, on the home thread: the Session, which may hold the last
        // reference, is destroyed on another thread.
        s.detachTimers();
        const std::size_t at = s.homeIndex;  // swap with the last, then let go
        if (at + 1 != m_sessions.size()) {
            m_sessions[at] = std::move(m_sessions.back());
            m_sessions[at]->homeIndex = at;
        }
        m_sessions.pop_back();  // s may be destroyed here
    }
}

std::vector<SubscriptionDiagnosticsDataType> SubscriptionScheduler::diagnostics() const {
    std::vector<SubscriptionDiagnosticsDataType> v;
    for (const auto& s : m_sessions) {
        auto d = s->diagnostics();
        v.insert(v.end(), d.begin(), d.end());
    }
    return v;
}

} // namespace ua
