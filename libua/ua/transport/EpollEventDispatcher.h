// The event loop of the stack's I/O threads: a QAbstractEventDispatcher whose cost per event does
// not grow with the number of sockets and timers it holds.
//
// Qt's UNIX dispatcher hands every registered socket to ppoll() on every wake-up and keeps its
// timers in a sorted list, so a thread holding n connections pays O(n) per request (measured: 85 %
// of the server's samples in the kernel's poll path at 3,000 Sessions; docs/Benchmarks.md, "An
// event loop per I/O thread on epoll"). This one:
//   - waits with epoll_wait() (level-triggered, like poll), one registration per descriptor that
//     changes only when a QSocketNotifier is enabled or disabled; a change of the event mask is
//     applied just before the next wait, so a write notifier switched on and off between two
//     waits costs no system call;
//   - while the thread watches few descriptors (at most pollUpTo, default kPollUpTo) it waits with
//     poll() over them instead, and goes back to epoll above that (and to poll again at half of
//     it). epoll keeps its callback on every watched socket's wait queue, so each segment that
//     arrives runs it in the sender's context, also while this thread is busy and not waiting;
//     poll's entries exist only during the wait. With few sockets and a busy thread that callback
//     was the cost that mattered (read-1 20 x 1 closed loop: 0.86x of Qt's poll loop, the load
//     tester's send() spending 5-6 % in the wait-queue lock; docs/Benchmarks.md), and a poll over
//     a handful of descriptors costs little;
//   - keeps the timers in a binary min-heap ordered by deadline: register, unregister and fire in
//     O(log n), the wait's timeout read from the top;
//   - wakes with an eventfd, written at most once between two waits (wakeUp() from any thread).
//
// A DirectSocketNotifier (DirectSocketNotifier.h) is activated by a direct call instead of a QEvent
// through QCoreApplication::sendEvent(): the connections' notifiers, whose QObject internals would
// otherwise be read on every request.
//
// Behaviour as QEventDispatcherUNIX's, which Qt's classes rely on: posted events first, then one
// wait, then the socket notifiers that are ready (Read on EPOLLIN/HUP/ERR, Write on
// EPOLLOUT/HUP/ERR, Exception on EPOLLPRI/HUP/ERR), then the timers due, each at most once per
// call and never inside its own handler (a nested loop skips it). Deadlines are kept in
// nanoseconds of the monotonic clock, intervals are milliseconds; every timer type is served as
// Qt::PreciseTimer. A timer late by more than its interval fires once and is rescheduled from now.
//
// Differences: with QEventLoop::ExcludeSocketNotifiers the sockets stay in the epoll set, so a
// waiting loop that excludes them wakes when one is ready (and does not dispatch it). epoll cannot
// watch a regular file (EPERM): a notifier on one is never activated and a warning is printed
// (poll would call it readable at every wait); sockets, pipes, eventfds and inotify work.
//
// One thread: the one whose dispatcher it is (QThread::setEventDispatcher before start()), except
// wakeUp() and interrupt(), which any thread may call.
#pragma once

#include <QAbstractEventDispatcher>

#include <atomic>
#include <cstdint>
#include <unordered_map>
#include <vector>

struct epoll_event;
struct pollfd;
class QThread;

namespace ua {

class EpollEventDispatcher final : public QAbstractEventDispatcher {
public:
    // Descriptors up to which a thread waits with poll() (see above); UA_EVENT_LOOP=epoll makes
    // installIoEventLoop() use 0, epoll at every count.
    static constexpr std::size_t kPollUpTo = 32;

    // pollUpTo: the most descriptors watched with poll(); 0: always epoll.
    explicit EpollEventDispatcher(std::size_t pollUpTo = kPollUpTo, QObject* parent = nullptr);
    ~EpollEventDispatcher() override;

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;
    void registerSocketNotifier(QSocketNotifier* notifier) override;
    void unregisterSocketNotifier(QSocketNotifier* notifier) override;
    // interval in ms.
    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject* object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject* object) override;
    QList<TimerInfo> registeredTimers(QObject* object) const override;
    // ms until the timer is due (0 when it is), -1 for an unknown id.
    int remainingTime(int timerId) override;
    void wakeUp() override;
    void interrupt() override;

    // For tests and diagnostics: descriptors in the epoll set (the wake-up eventfd not counted),
    // timers registered, system calls epoll_ctl() made so far.
    std::size_t watchedDescriptors() const { return m_watched; }
    // Whether the next wait is an epoll_wait() (true) or a poll() (false).
    bool waitsWithEpoll() const { return m_epollMode; }
    std::size_t timerCount() const { return m_timers.size(); }
    std::uint64_t epollCtlCalls() const { return m_ctlCalls; }

private:
    struct Descriptor {
        QSocketNotifier* notifiers[3] = {nullptr, nullptr, nullptr};  // by QSocketNotifier::Type
        std::uint32_t inKernel = 0;  // the event mask watched (in the epoll set or the poll list), 0 when not
        std::uint32_t generation = 0;  // bumped when the descriptor leaves the set
        std::uint32_t listIndex = 0;   // its entry in m_list while watched
        bool dirty = false;
        std::uint8_t direct = 0;  // bit t: notifiers[t] is a DirectSocketNotifier, activated by a call
    };
    struct Timer {
        int id;
        qint64 intervalMs;
        Qt::TimerType type;
        QObject* object;
        std::size_t heapIndex;  // its entry in m_heap, which holds its deadline
        std::uint64_t round;  // the activation round that fired or registered it
        bool firing;
    };

    void applyChanges();
    void applyChange(int fd);
    bool removeFromKernel(int fd);
    bool epollAdd(int fd, std::uint32_t events);
    void listAdd(int fd, std::uint32_t events);
    void listRemove(int fd);
    void noteWatched(int fd, std::uint32_t events);  // watched with these events (in the list; the kernel is the caller's)
    void forgetWatched(int fd);  // no longer watched: out of the list, a new generation
    void switchToEpoll();
    void switchToPoll();
    int waitWithPoll(int timeoutMs);
    void dispatchDescriptor(std::uint64_t data, std::uint32_t events);
    int activateTimers();
    int waitTimeoutMs() const;

    void heapPush(Timer* t, std::int64_t deadlineNs);
    void heapRemove(Timer* t);
    void siftUp(std::size_t i);
    void siftDown(std::size_t i);
    // The heap holds each timer's key beside its pointer: sifting compares without reading the
    // timers (10,000 timers: the pointer chase was 12 % of the server's samples).
    struct HeapEntry {
        std::int64_t deadlineNs;
        std::uint64_t order;  // FIFO among equal deadlines
        Timer* timer;
    };
    static bool before(const HeapEntry& a, const HeapEntry& b) {
        return a.deadlineNs < b.deadlineNs || (a.deadlineNs == b.deadlineNs && a.order < b.order);
    }
    void place(std::size_t i, const HeapEntry& e) {
        m_heap[i] = e;
        e.timer->heapIndex = i;
    }
    void forgetTimer(std::unordered_map<int, Timer>::iterator it);

    int m_epoll = -1;
    int m_wakeFd = -1;
    std::atomic<bool> m_wakePending{false};
    std::atomic<bool> m_interrupted{false};
    std::vector<Descriptor> m_descriptors;  // by descriptor number
    std::vector<int> m_dirty;               // descriptors whose event mask changed since the last wait
    std::vector<epoll_event> m_events;      // what one wait returns (a poll()'s ready ones as well)
    // Every watched descriptor with its event mask, in either mode; entry 0 is the wake-up eventfd.
    // It is what poll() is given; in epoll mode it is the list to move back from.
    std::vector<pollfd> m_list;
    std::size_t m_pollUpTo;
    bool m_epollMode = false;
    std::size_t m_watched = 0;
    std::uint64_t m_ctlCalls = 0;
    std::uint64_t m_waits = 0;

    std::unordered_map<int, Timer> m_timers;  // by timer id; nodes stay put, the heap points at them
    std::unordered_map<QObject*, std::vector<int>> m_timersOf;
    std::vector<HeapEntry> m_heap;
    std::uint64_t m_order = 0;
    std::uint64_t m_round = 0;
};

// Installs an EpollEventDispatcher as thread's event loop; call before thread->start(). With the
// environment variable UA_EVENT_LOOP=qt the thread keeps Qt's own dispatcher, with
// UA_EVENT_LOOP=epoll it waits with epoll at every descriptor count (both for A/B benchmarks).
// Returns whether it was installed.
bool installIoEventLoop(QThread* thread);

} // namespace ua
