#include "ua/transport/EpollEventDispatcher.h"

#include "ua/transport/DirectSocketNotifier.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QThread>
#include <QTimerEvent>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

// ThreadSanitizer builds: QThread::exit() calls interrupt() from another thread under the
// QThread's mutex, and the thread deletes its dispatcher only after it has taken the pointer away
// under the same mutex. Qt is not instrumented, so TSan does not see that edge and reports the
// eventfd's write() against its close() in the destructor; the annotations below state it (a
// release at the end of every wakeUp()/interrupt(), an acquire in the destructor). In any other
// build they are nothing.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <sanitizer/tsan_interface.h>
#define UA_TSAN_RELEASE(p) __tsan_release(p)
#define UA_TSAN_ACQUIRE(p) __tsan_acquire(p)
#endif
#endif
#ifndef UA_TSAN_RELEASE
#define UA_TSAN_RELEASE(p) ((void)0)
#define UA_TSAN_ACQUIRE(p) ((void)0)
#endif

namespace ua {

namespace {

constexpr int kEventsPerWait = 256;
constexpr std::uint64_t kWakeData = ~std::uint64_t(0);
constexpr std::uint32_t kTypeEvents[3] = {EPOLLIN, EPOLLOUT, EPOLLPRI};  // Read, Write, Exception
constexpr std::uint32_t kTypeReady[3] = {EPOLLIN | EPOLLHUP | EPOLLERR, EPOLLOUT | EPOLLHUP | EPOLLERR,
                                         EPOLLPRI | EPOLLHUP | EPOLLERR};
// poll() and epoll report readiness with the same bits on Linux: a poll's revents go through the
// same dispatch as an epoll event.
static_assert(POLLIN == EPOLLIN && POLLOUT == EPOLLOUT && POLLPRI == EPOLLPRI && POLLERR == EPOLLERR &&
              POLLHUP == EPOLLHUP);

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

constexpr std::int64_t msToNs(qint64 ms) { return ms * 1'000'000; }

std::uint32_t wantedEvents(const QSocketNotifier* const (&n)[3]) {
    std::uint32_t e = 0;
    for (int t = 0; t < 3; ++t)
        if (n[t]) e |= kTypeEvents[t];
    return e;
}

} // namespace

EpollEventDispatcher::EpollEventDispatcher(std::size_t pollUpTo, QObject* parent)
    : QAbstractEventDispatcher(parent), m_pollUpTo(pollUpTo), m_epollMode(pollUpTo == 0) {
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_epoll < 0 || m_wakeFd < 0) qFatal("EpollEventDispatcher: epoll_create1/eventfd failed: %s", std::strerror(errno));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kWakeData;
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev) != 0)
        qFatal("EpollEventDispatcher: cannot watch its eventfd: %s", std::strerror(errno));
    m_events.resize(kEventsPerWait);
    m_list.push_back(pollfd{m_wakeFd, POLLIN, 0});
}

EpollEventDispatcher::~EpollEventDispatcher() {
    UA_TSAN_ACQUIRE(this);
    ::close(m_wakeFd);
    ::close(m_epoll);
}

// --- socket notifiers ------------------------------------------------------------------------

void EpollEventDispatcher::registerSocketNotifier(QSocketNotifier* notifier) {
    const qintptr sock = notifier->socket();
    const int type = int(notifier->type());
    if (sock < 0 || type < 0 || type > 2) return;
    const auto fd = std::size_t(sock);
    if (fd >= m_descriptors.size()) m_descriptors.resize(std::max(fd + 1, m_descriptors.size() * 2));
    Descriptor& d = m_descriptors[fd];
    if (d.notifiers[type] && d.notifiers[type] != notifier)
        qWarning("EpollEventDispatcher: a second socket notifier of one type for descriptor %d replaces the first",
                 int(fd));
    d.notifiers[type] = notifier;
    const auto bit = std::uint8_t(1u << type);
    d.direct = dynamic_cast<DirectSocketNotifier*>(notifier) ? std::uint8_t(d.direct | bit) : std::uint8_t(d.direct & ~bit);
    if (!d.dirty) {
        d.dirty = true;
        m_dirty.push_back(int(fd));
    }
}

void EpollEventDispatcher::unregisterSocketNotifier(QSocketNotifier* notifier) {
    const qintptr sock = notifier->socket();
    const int type = int(notifier->type());
    if (sock < 0 || std::size_t(sock) >= m_descriptors.size() || type < 0 || type > 2) return;
    Descriptor& d = m_descriptors[std::size_t(sock)];
    if (d.notifiers[type] != notifier) return;
    d.notifiers[type] = nullptr;
    d.direct = std::uint8_t(d.direct & ~(1u << type));
    if (!d.notifiers[0] && !d.notifiers[1] && !d.notifiers[2]) {
        // Out of the set now, not at the next wait: the descriptor may be closed and its number
        // reused before then, and an epoll registration cannot be told apart from a new one.
        removeFromKernel(int(sock));
        return;
    }
    if (!d.dirty) {
        d.dirty = true;
        m_dirty.push_back(int(sock));
    }
}

void EpollEventDispatcher::listAdd(int fd, std::uint32_t events) {
    m_descriptors[std::size_t(fd)].listIndex = std::uint32_t(m_list.size());
    m_list.push_back(pollfd{fd, short(events), 0});
}

void EpollEventDispatcher::listRemove(int fd) {
    const std::uint32_t i = m_descriptors[std::size_t(fd)].listIndex;
    m_list[i] = m_list.back();
    m_descriptors[std::size_t(m_list[i].fd)].listIndex = i;
    m_list.pop_back();
}

void EpollEventDispatcher::noteWatched(int fd, std::uint32_t events) {
    Descriptor& d = m_descriptors[std::size_t(fd)];
    if (d.inKernel) {
        m_list[d.listIndex].events = short(events);
    } else {
        listAdd(fd, events);
        ++m_watched;
    }
    d.inKernel = events;
}

void EpollEventDispatcher::forgetWatched(int fd) {
    Descriptor& d = m_descriptors[std::size_t(fd)];
    listRemove(fd);
    d.inKernel = 0;
    ++d.generation;  // events of this wait for the old registration are dropped
    --m_watched;
}

bool EpollEventDispatcher::epollAdd(int fd, std::uint32_t events) {
    Descriptor& d = m_descriptors[std::size_t(fd)];
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = (std::uint64_t(d.generation) << 32) | std::uint32_t(fd);
    ++m_ctlCalls;
    int rc = ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    if (rc != 0 && errno == EEXIST) rc = ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev);  // one left by a reused number
    return rc == 0;
}

bool EpollEventDispatcher::removeFromKernel(int fd) {
    Descriptor& d = m_descriptors[std::size_t(fd)];
    if (!d.inKernel) return false;
    if (m_epollMode) {
        ++m_ctlCalls;
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);  // EBADF/ENOENT: closed already, which removed it
    }
    forgetWatched(fd);
    return true;
}

void EpollEventDispatcher::applyChange(int fd) {
    Descriptor& d = m_descriptors[std::size_t(fd)];
    d.dirty = false;
    const std::uint32_t want = wantedEvents(d.notifiers);
    if (want == d.inKernel) return;
    if (!want) {
        removeFromKernel(fd);
        return;
    }
    if (!m_epollMode) return noteWatched(fd, want);
    epoll_event ev{};
    ev.events = want;
    ev.data.u64 = (std::uint64_t(d.generation) << 32) | std::uint32_t(fd);
    ++m_ctlCalls;
    int op = d.inKernel ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    int rc = ::epoll_ctl(m_epoll, op, fd, &ev);
    // A closed and reused descriptor number: the kernel dropped the old registration (MOD fails with
    // ENOENT), or one was left (ADD fails with EEXIST).
    if (rc != 0 && op == EPOLL_CTL_MOD && errno == ENOENT) rc = ::epoll_ctl(m_epoll, op = EPOLL_CTL_ADD, fd, &ev);
    else if (rc != 0 && op == EPOLL_CTL_ADD && errno == EEXIST) rc = ::epoll_ctl(m_epoll, op = EPOLL_CTL_MOD, fd, &ev);
    if (rc != 0) {
        qWarning("EpollEventDispatcher: epoll_ctl for descriptor %d failed: %s", fd, std::strerror(errno));
        if (d.inKernel) forgetWatched(fd);
        return;
    }
    noteWatched(fd, want);
}

void EpollEventDispatcher::switchToEpoll() {
    m_epollMode = true;
    for (std::size_t i = 1; i < m_list.size();) {
        const int fd = m_list[i].fd;
        if (epollAdd(fd, std::uint32_t(std::uint16_t(m_list[i].events)))) {
            ++i;
            continue;
        }
        qWarning("EpollEventDispatcher: epoll_ctl for descriptor %d failed: %s", fd, std::strerror(errno));
        forgetWatched(fd);  // the last entry comes to i
    }
}

void EpollEventDispatcher::switchToPoll() {
    m_epollMode = false;
    for (std::size_t i = 1; i < m_list.size(); ++i) {
        ++m_ctlCalls;
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_list[i].fd, nullptr);
    }
}

void EpollEventDispatcher::applyChanges() {
    // applyChange does not register notifiers, so m_dirty does not grow while it is walked.
    for (const int fd : m_dirty) applyChange(fd);
    m_dirty.clear();
    // Between the two counts the mode stays: a count that goes up and down around one of them does
    // not move every descriptor back and forth.
    if (m_pollUpTo == 0) return;
    if (!m_epollMode && m_watched > m_pollUpTo) switchToEpoll();
    else if (m_epollMode && m_watched <= m_pollUpTo / 2) switchToPoll();
}

int EpollEventDispatcher::waitWithPoll(int timeoutMs) {
    int ready = ::poll(m_list.data(), nfds_t(m_list.size()), timeoutMs);
    if (ready <= 0) return ready;
    // Collected before anything is dispatched, with each descriptor's generation: a handler may
    // change the list, or close a descriptor whose number is reused at once.
    int n = 0;
    for (std::size_t i = 0; i < m_list.size() && ready > 0; ++i) {
        pollfd& p = m_list[i];
        if (!p.revents) continue;
        --ready;
        const short revents = p.revents;
        p.revents = 0;
        if (revents & POLLNVAL) {
            // Closed while its notifier is still registered: epoll forgets such a descriptor
            // silently; poll would report it at every wait, so it is no longer watched until its
            // notifier is switched or registered again.
            qWarning("EpollEventDispatcher: descriptor %d was closed while its socket notifier is registered", p.fd);
            forgetWatched(p.fd);
            --i;  // the last entry came to i
            continue;
        }
        if (std::size_t(n) == m_events.size()) break;  // the rest at the next wait, as with epoll
        epoll_event& ev = m_events[std::size_t(n++)];
        ev.events = std::uint32_t(std::uint16_t(revents));
        if (i == 0) {
            ev.data.u64 = kWakeData;
        } else {
            const Descriptor& d = m_descriptors[std::size_t(p.fd)];
            ev.data.u64 = (std::uint64_t(d.generation) << 32) | std::uint32_t(p.fd);
        }
    }
    return n;
}

void EpollEventDispatcher::dispatchDescriptor(std::uint64_t data, std::uint32_t events) {
    const auto fd = std::size_t(std::uint32_t(data));
    const auto generation = std::uint32_t(data >> 32);
    for (int type = 0; type < 3; ++type) {
        // Looked up again for each type: the previous handler may have changed the table.
        if (fd >= m_descriptors.size()) return;
        const Descriptor& d = m_descriptors[fd];
        if (d.generation != generation) return;
        QSocketNotifier* n = d.notifiers[type];
        if (!n || !(events & kTypeReady[type])) continue;
        if (d.direct & (1u << type)) {
            static_cast<DirectSocketNotifier*>(n)->activate();
        } else {
            QEvent activated(QEvent::SockAct);
            QCoreApplication::sendEvent(n, &activated);
        }
    }
}

// --- timers --------------------------------------------------------------------------------

void EpollEventDispatcher::siftUp(std::size_t i) {
    const HeapEntry e = m_heap[i];
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (!before(e, m_heap[parent])) break;
        place(i, m_heap[parent]);
        i = parent;
    }
    place(i, e);
}

void EpollEventDispatcher::siftDown(std::size_t i) {
    const HeapEntry e = m_heap[i];
    const std::size_t n = m_heap.size();
    for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(m_heap[child + 1], m_heap[child])) ++child;
        if (!before(m_heap[child], e)) break;
        place(i, m_heap[child]);
        i = child;
    }
    place(i, e);
}

void EpollEventDispatcher::heapPush(Timer* t, std::int64_t deadlineNs) {
    m_heap.push_back(HeapEntry{deadlineNs, ++m_order, t});
    siftUp(m_heap.size() - 1);
}

void EpollEventDispatcher::heapRemove(Timer* t) {
    const std::size_t i = t->heapIndex;
    const HeapEntry last = m_heap.back();
    m_heap.pop_back();
    if (i < m_heap.size()) {
        place(i, last);
        siftDown(i);
        siftUp(last.timer->heapIndex);
    }
}

void EpollEventDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject* object) {
    if (timerId <= 0 || interval < 0 || !object) {
        qWarning("EpollEventDispatcher::registerTimer: invalid arguments (id %d, interval %lld ms)", timerId,
                 static_cast<long long>(interval));
        return;
    }
    auto [it, inserted] = m_timers.try_emplace(timerId);
    if (!inserted) {
        qWarning("EpollEventDispatcher::registerTimer: timer id %d is registered already", timerId);
        return;
    }
    Timer& t = it->second;
    t = Timer{timerId, interval, timerType, object, 0, m_round, false};
    heapPush(&t, nowNs() + msToNs(interval));
    m_timersOf[object].push_back(timerId);
}

void EpollEventDispatcher::forgetTimer(std::unordered_map<int, Timer>::iterator it) {
    Timer& t = it->second;
    heapRemove(&t);
    auto of = m_timersOf.find(t.object);
    if (of != m_timersOf.end()) {
        std::vector<int>& ids = of->second;
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (ids[i] == t.id) {
                ids[i] = ids.back();
                ids.pop_back();
                break;
            }
        if (ids.empty()) m_timersOf.erase(of);
    }
    m_timers.erase(it);
}

bool EpollEventDispatcher::unregisterTimer(int timerId) {
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end()) return false;
    forgetTimer(it);
    return true;
}

bool EpollEventDispatcher::unregisterTimers(QObject* object) {
    const auto of = m_timersOf.find(object);
    if (of == m_timersOf.end()) return false;
    const std::vector<int> ids = std::move(of->second);
    m_timersOf.erase(of);
    for (const int id : ids) {
        const auto it = m_timers.find(id);
        if (it == m_timers.end()) continue;
        heapRemove(&it->second);
        m_timers.erase(it);
    }
    return true;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollEventDispatcher::registeredTimers(QObject* object) const {
    QList<TimerInfo> list;
    const auto of = m_timersOf.find(object);
    if (of == m_timersOf.end()) return list;
    for (const int id : of->second) {
        const Timer& t = m_timers.at(id);
        list.append(TimerInfo(t.id, int(t.intervalMs), t.type));
    }
    return list;
}

int EpollEventDispatcher::remainingTime(int timerId) {
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end()) return -1;
    const std::int64_t left = m_heap[it->second.heapIndex].deadlineNs - nowNs();
    if (left <= 0) return 0;
    return int((left + 999'999) / 1'000'000);
}

int EpollEventDispatcher::activateTimers() {
    if (m_heap.empty()) return 0;
    const std::int64_t now = nowNs();
    const std::uint64_t round = ++m_round;
    int fired = 0;
    while (!m_heap.empty()) {
        if (m_heap.front().deadlineNs > now) break;
        Timer* t = m_heap.front().timer;
        // Timers registered or fired in this round wait for the next one (a zero interval fires
        // once per call, as Qt's).
        if (t->round == round) break;
        t->round = round;
        const std::int64_t interval = msToNs(t->intervalMs);
        HeapEntry& top = m_heap.front();
        top.deadlineNs += interval;
        if (top.deadlineNs <= now) top.deadlineNs = now + (interval > 0 ? interval : 1);
        top.order = ++m_order;
        siftDown(0);
        if (t->firing) continue;  // its handler runs a nested loop: not again inside itself
        const int id = t->id;
        t->firing = true;
        QTimerEvent e(id);
        QCoreApplication::sendEvent(t->object, &e);
        ++fired;
        const auto it = m_timers.find(id);  // the handler may have killed it
        if (it != m_timers.end()) it->second.firing = false;
    }
    return fired;
}

int EpollEventDispatcher::waitTimeoutMs() const {
    if (m_heap.empty()) return -1;
    const std::int64_t left = m_heap.front().deadlineNs - nowNs();
    if (left <= 0) return 0;
    const std::int64_t ms = (left + 999'999) / 1'000'000;  // never early: a wake before the deadline fires nothing
    return ms > INT32_MAX ? INT32_MAX : int(ms);
}

// --- the loop ------------------------------------------------------------------------------

void EpollEventDispatcher::wakeUp() {
    if (!m_wakePending.exchange(true, std::memory_order_acq_rel)) {
        const std::uint64_t one = 1;
        while (::write(m_wakeFd, &one, sizeof one) < 0 && errno == EINTR) {}
    }
    UA_TSAN_RELEASE(this);
}

void EpollEventDispatcher::interrupt() {
    m_interrupted.store(true, std::memory_order_release);
    wakeUp();
}

bool EpollEventDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags) {
    m_interrupted.store(false, std::memory_order_relaxed);
    emit awake();
    QCoreApplication::sendPostedEvents();

    const bool includeTimers = !(flags & QEventLoop::X11ExcludeTimers);
    const bool includeNotifiers = !(flags & QEventLoop::ExcludeSocketNotifiers);
    const bool canWait = (flags & QEventLoop::WaitForMoreEvents) && !m_interrupted.load(std::memory_order_acquire);
    if (canWait) emit aboutToBlock();
    if (m_interrupted.load(std::memory_order_acquire)) return false;

    int timeout = 0;
    if (canWait) timeout = includeTimers ? waitTimeoutMs() : -1;
    applyChanges();
    int n = m_epollMode ? ::epoll_wait(m_epoll, m_events.data(), int(m_events.size()), timeout)
                        : waitWithPoll(timeout);
    if (n < 0) {
        if (errno != EINTR)
            qWarning("EpollEventDispatcher: %s failed: %s", m_epollMode ? "epoll_wait" : "poll", std::strerror(errno));
        n = 0;
    }
    const std::uint64_t wait = ++m_waits;
    int handled = 0;
    for (int i = 0; i < n; ++i) {
        // A handler that ran a nested loop has waited again into m_events: the rest of this
        // wait's entries are gone, and (level-triggered) still ready ones come again.
        if (m_waits != wait) break;
        const epoll_event& ev = m_events[std::size_t(i)];
        if (ev.data.u64 == kWakeData) {
            // Read first, then clear: a wakeUp() between the two finds the flag set and does not
            // write, and its posted event is sent at the start of the next call.
            std::uint64_t count;
            while (::read(m_wakeFd, &count, sizeof count) < 0 && errno == EINTR) {}
            m_wakePending.store(false, std::memory_order_release);
            ++handled;
            continue;
        }
        if (!includeNotifiers) continue;
        dispatchDescriptor(ev.data.u64, ev.events);
        ++handled;
    }
    if (includeTimers) handled += activateTimers();
    return handled > 0;
}

bool installIoEventLoop(QThread* thread) {
    const QString loop = qEnvironmentVariable("UA_EVENT_LOOP");
    if (loop == QLatin1String("qt")) return false;
    thread->setEventDispatcher(
        new EpollEventDispatcher(loop == QLatin1String("epoll") ? 0 : EpollEventDispatcher::kPollUpTo));
    return true;
}

} // namespace ua
