// EpollEventDispatcher (libua/ua/transport/EpollEventDispatcher.h): timers in deadline order and
// never early, at most once per pass and never inside their own handler, killed from handlers and
// with their object; posted events from other threads; socket notifiers over real descriptors
// (only the ready ones dispatched, a closed and reused descriptor number, a write notifier toggled
// between two waits without a system call); QTcpServer and QTcpSocket on a thread that runs it.
// Each case runs in a QThread with the dispatcher installed; the results are checked here.
#include "ua/transport/DirectSocketNotifier.h"
#include "ua/transport/EpollEventDispatcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>
#include "TestMain.h"

#include <atomic>
#include <functional>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace ua;

namespace {

// Runs body on a thread whose event loop is an EpollEventDispatcher (waiting with poll() up to
// pollUpTo descriptors), and waits for it.
void onEpollThread(const std::function<void(EpollEventDispatcher&)>& body,
                   std::size_t pollUpTo = EpollEventDispatcher::kPollUpTo) {
    QThread thread;
    auto* dispatcher = new EpollEventDispatcher(pollUpTo);
    thread.setEventDispatcher(dispatcher);
    thread.start();
    QObject context;
    context.moveToThread(&thread);
    QMetaObject::invokeMethod(&context, [&] { body(*dispatcher); }, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(&context, [&] { context.moveToThread(QCoreApplication::instance()->thread()); },
                              Qt::BlockingQueuedConnection);
    thread.quit();
    QVERIFY(thread.wait(5000));
}

// Spins the current thread's loop until done() or the time is up.
bool spinUntil(const std::function<bool()>& done, int ms = 5000) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    }
    return true;
}

void spinFor(int ms) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, ms);
}

struct EpollTimerLog : QObject {
    struct Fired {
        int id;
        qint64 atMs;
    };
    QElapsedTimer clock;
    std::vector<Fired> fired;
    std::function<void(int)> onTimer;
    EpollTimerLog() { clock.start(); }
    void timerEvent(QTimerEvent* e) override {
        fired.push_back({e->timerId(), clock.elapsed()});
        if (onTimer) onTimer(e->timerId());
    }
    int count(int id) const {
        int n = 0;
        for (const Fired& f : fired) n += f.id == id;
        return n;
    }
};

// The socket cases run in both ways of waiting: epoll at every count, and poll() at every count.
void addWaitModes() {
    QTest::addColumn<qulonglong>("pollUpTo");
    QTest::newRow("epoll") << qulonglong(0);
    QTest::newRow("poll") << qulonglong(100000);
}

struct EpollSocketPair {
    int a = -1;
    int b = -1;
    EpollSocketPair() {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) == 0) {
            a = fds[0];
            b = fds[1];
        }
    }
    ~EpollSocketPair() {
        if (a >= 0) ::close(a);
        if (b >= 0) ::close(b);
    }
    EpollSocketPair(const EpollSocketPair&) = delete;
    EpollSocketPair& operator=(const EpollSocketPair&) = delete;
};

} // namespace

class TestEpollDispatcher : public QObject {
    Q_OBJECT
private slots:
    void timersFireInDeadlineOrderAndNeverEarly() {
        std::vector<EpollTimerLog::Fired> fired;
        int id10 = 0, id20 = 0, id30 = 0;
        onEpollThread([&](EpollEventDispatcher&) {
            EpollTimerLog log;
            id30 = log.startTimer(30, Qt::PreciseTimer);
            id10 = log.startTimer(10, Qt::PreciseTimer);
            id20 = log.startTimer(20, Qt::PreciseTimer);
            log.onTimer = [&log](int id) { log.killTimer(id); };
            spinUntil([&] { return log.fired.size() >= 3; });
            fired = log.fired;
        });
        QCOMPARE(fired.size(), std::size_t(3));
        QCOMPARE(fired[0].id, id10);
        QCOMPARE(fired[1].id, id20);
        QCOMPARE(fired[2].id, id30);
        QVERIFY2(fired[0].atMs >= 10, qPrintable(QString::number(fired[0].atMs)));
        QVERIFY2(fired[1].atMs >= 20, qPrintable(QString::number(fired[1].atMs)));
        QVERIFY2(fired[2].atMs >= 30, qPrintable(QString::number(fired[2].atMs)));
    }

    void repeatingTimerStopsWhenKilled() {
        int before = 0, after = 0;
        std::size_t timersLeft = 99;
        onEpollThread([&](EpollEventDispatcher& d) {
            EpollTimerLog log;
            const int id = log.startTimer(5, Qt::PreciseTimer);
            spinUntil([&] { return log.count(id) >= 5; });
            log.killTimer(id);
            before = log.count(id);
            spinFor(40);
            after = log.count(id);
            timersLeft = d.timerCount();
        });
        QCOMPARE(before, 5);
        QCOMPARE(after, before);
        QCOMPARE(timersLeft, std::size_t(0));
    }

    // A zero-interval timer fires once per processEvents() call, not over and over in one.
    void zeroIntervalTimerFiresOncePerPass() {
        int count = -1;
        onEpollThread([&](EpollEventDispatcher& d) {
            EpollTimerLog log;
            const int id = log.startTimer(0);
            for (int i = 0; i < 10; ++i) d.processEvents(QEventLoop::AllEvents);
            count = log.count(id);
            log.killTimer(id);
        });
        QCOMPARE(count, 10);
    }

    void handlerKillsAnotherDueTimer() {
        int firstCount = 0, secondCount = -1;
        onEpollThread([&](EpollEventDispatcher&) {
            EpollTimerLog log;
            const int first = log.startTimer(10, Qt::PreciseTimer);
            const int second = log.startTimer(10, Qt::PreciseTimer);  // due just after first
            log.onTimer = [&](int id) {
                if (id == first) {
                    log.killTimer(first);
                    log.killTimer(second);
                }
            };
            spinUntil([&] { return log.count(first) > 0; });
            spinFor(40);
            firstCount = log.count(first);
            secondCount = log.count(second);
        });
        QCOMPARE(firstCount, 1);
        QCOMPARE(secondCount, 0);
    }

    // A handler that runs a nested loop: the other timers go on, its own timer does not re-enter.
    void nestedLoopDoesNotReenterTheTimer() {
        int depthMax = 0, fired = 0, otherFired = 0;
        onEpollThread([&](EpollEventDispatcher&) {
            EpollTimerLog log;
            int depth = 0;
            const int outer = log.startTimer(5, Qt::PreciseTimer);
            const int other = log.startTimer(3, Qt::PreciseTimer);
            log.onTimer = [&](int id) {
                if (id == other) {
                    ++otherFired;
                    return;
                }
                if (id != outer) return;
                ++fired;
                depthMax = std::max(depthMax, ++depth);
                if (fired == 1) spinFor(50);  // the outer timer comes due ~10 times in here
                --depth;
            };
            spinUntil([&] { return fired >= 3; });
            log.killTimer(outer);
            log.killTimer(other);
        });
        QCOMPARE(depthMax, 1);
        QVERIFY(fired >= 3);
        QVERIFY2(otherFired >= 8, qPrintable(QString::number(otherFired)));  // ~16 in the nested 50 ms
    }

    void timersLeaveWithTheirObject() {
        QList<QAbstractEventDispatcher::TimerInfo> infos;
        std::size_t withObject = 0, afterDelete = 99;
        onEpollThread([&](EpollEventDispatcher& d) {
            auto* log = new EpollTimerLog;
            log->startTimer(100);
            log->startTimer(200, Qt::PreciseTimer);
            log->startTimer(300, Qt::VeryCoarseTimer);
            infos = d.registeredTimers(log);
            withObject = d.timerCount();
            delete log;  // QObject's destructor unregisters them
            afterDelete = d.timerCount();
        });
        QCOMPARE(infos.size(), 3);
        QList<int> intervals;
        for (const auto& i : infos) intervals.append(i.interval);
        std::sort(intervals.begin(), intervals.end());
        QCOMPARE(intervals, (QList<int>{100, 200, 300}));
        QCOMPARE(withObject, std::size_t(3));
        QCOMPARE(afterDelete, std::size_t(0));
    }

    void remainingTimeOfATimer() {
        int remaining = -2, unknown = 0;
        onEpollThread([&](EpollEventDispatcher& d) {
            QTimer t;
            t.setTimerType(Qt::PreciseTimer);
            t.start(1000);
            remaining = t.remainingTime();
            unknown = d.remainingTime(987654);
        });
        QVERIFY2(remaining > 900 && remaining <= 1000, qPrintable(QString::number(remaining)));
        QCOMPARE(unknown, -1);
    }

    // moveToThread takes an object's running timers from Qt's dispatcher into this one.
    void timerMovedInFromAnotherThread() {
        QThread thread;
        thread.setEventDispatcher(new EpollEventDispatcher);
        thread.start();
        auto* timer = new QTimer;
        std::atomic<int> fired{0};
        std::atomic<bool> onItsThread{false};
        connect(timer, &QTimer::timeout, timer, [&, timer] {
            onItsThread = QThread::currentThread() == timer->thread();
            ++fired;
        });
        timer->start(5);
        timer->moveToThread(&thread);
        QTRY_VERIFY(fired.load() >= 3);
        QVERIFY(onItsThread.load());
        QMetaObject::invokeMethod(timer, [timer] { delete timer; }, Qt::BlockingQueuedConnection);
        thread.quit();
        QVERIFY(thread.wait(5000));
    }

    // Events posted from another thread wake the loop; none is lost among many (the wake-up flag's
    // read-then-clear order).
    void postedEventsFromAnotherThreadAllArrive() {
        QThread thread;
        thread.setEventDispatcher(new EpollEventDispatcher);
        thread.start();
        QObject context;
        context.moveToThread(&thread);
        std::atomic<int> ran{0};
        constexpr int kPosts = 20000;
        for (int i = 0; i < kPosts; ++i) {
            QMetaObject::invokeMethod(&context, [&] { ran.fetch_add(1, std::memory_order_relaxed); });
            if (i % 1000 == 0) QThread::usleep(200);  // let it block again between bursts
        }
        QTRY_COMPARE(ran.load(), kPosts);
        // One more while it is blocked in epoll_wait with nothing else to do.
        QThread::msleep(20);
        QElapsedTimer clock;
        clock.start();
        QMetaObject::invokeMethod(&context, [&] { ran.fetch_add(1); });
        QTRY_COMPARE_WITH_TIMEOUT(ran.load(), kPosts + 1, 2000);
        QMetaObject::invokeMethod(&context, [&] { context.moveToThread(QCoreApplication::instance()->thread()); },
                                  Qt::BlockingQueuedConnection);
        thread.quit();
        QVERIFY(thread.wait(5000));
    }

    // 500 descriptors watched; one wait dispatches the 10 that are readable and no other.
    void onlyTheReadyDescriptorsAreDispatched_data() { addWaitModes(); }
    void onlyTheReadyDescriptorsAreDispatched() {
        QFETCH(qulonglong, pollUpTo);
        std::vector<int> activatedPairs;
        std::size_t watched = 0, watchedAfter = 99;
        onEpollThread([&](EpollEventDispatcher& d) {
            constexpr int kPairs = 500;
            std::vector<std::unique_ptr<EpollSocketPair>> pairs;
            std::vector<std::unique_ptr<QSocketNotifier>> notifiers;
            for (int i = 0; i < kPairs; ++i) {
                pairs.push_back(std::make_unique<EpollSocketPair>());
                auto n = std::make_unique<QSocketNotifier>(pairs.back()->a, QSocketNotifier::Read);
                QObject::connect(n.get(), &QSocketNotifier::activated, n.get(), [&activatedPairs, i, &pairs] {
                    activatedPairs.push_back(i);
                    char c[8];
                    while (::read(pairs[std::size_t(i)]->a, c, sizeof c) > 0) {}
                });
                notifiers.push_back(std::move(n));
            }
            d.processEvents(QEventLoop::AllEvents);  // registers them all
            watched = d.watchedDescriptors();
            for (int i = 7; i < kPairs; i += 50) {
                const char c = 'x';
                (void)!::write(pairs[std::size_t(i)]->b, &c, 1);
            }
            d.processEvents(QEventLoop::AllEvents);
            notifiers.clear();
            watchedAfter = d.watchedDescriptors();
        }, pollUpTo);
        QCOMPARE(watched, std::size_t(500));
        std::sort(activatedPairs.begin(), activatedPairs.end());
        std::vector<int> expected;
        for (int i = 7; i < 500; i += 50) expected.push_back(i);
        QCOMPARE(activatedPairs, expected);
        QCOMPARE(watchedAfter, std::size_t(0));
    }

    // A descriptor closed before its notifier is gone (as DescriptorStream's destructor does), and
    // its number reused at once: the new notifier is watched and the old one's events are not
    // delivered to it.
    void closedAndReusedDescriptorNumber_data() { addWaitModes(); }
    void closedAndReusedDescriptorNumber() {
        QFETCH(qulonglong, pollUpTo);
        int reusedFd = -1, firstFd = -2, activations = 0;
        std::size_t watched = 99;
        onEpollThread([&](EpollEventDispatcher& d) {
            auto first = std::make_unique<EpollSocketPair>();
            firstFd = first->a;
            auto n1 = std::make_unique<QSocketNotifier>(first->a, QSocketNotifier::Read);
            d.processEvents(QEventLoop::AllEvents);
            ::close(first->a);  // the kernel drops the registration
            first->a = -1;
            n1.reset();  // then the notifier leaves
            auto second = std::make_unique<EpollSocketPair>();  // the lowest free number: firstFd again
            reusedFd = second->a;
            QSocketNotifier n2(second->a, QSocketNotifier::Read);
            QObject::connect(&n2, &QSocketNotifier::activated, &n2, [&] {
                ++activations;
                char c[8];
                while (::read(second->a, c, sizeof c) > 0) {}
            });
            d.processEvents(QEventLoop::AllEvents);
            const char c = 'y';
            (void)!::write(second->b, &c, 1);
            spinUntil([&] { return activations > 0; }, 2000);
            watched = d.watchedDescriptors();
        }, pollUpTo);
        QCOMPARE(reusedFd, firstFd);
        QCOMPARE(activations, 1);
        QCOMPARE(watched, std::size_t(1));
    }

    // A write notifier switched on and off between two waits (what a socket does whose send went
    // out whole) costs no epoll_ctl; switched on across a wait it does (epoll at every count).
    void writeNotifierToggledBetweenWaitsCostsNoSystemCall() {
        std::uint64_t toggledBetween = 99, toggledAcross = 0;
        int writableSeen = 0;
        onEpollThread([&](EpollEventDispatcher& d) {
            EpollSocketPair pair;
            QSocketNotifier reader(pair.a, QSocketNotifier::Read);
            QSocketNotifier writer(pair.a, QSocketNotifier::Write);
            writer.setEnabled(false);
            QObject::connect(&writer, &QSocketNotifier::activated, &writer, [&] {
                ++writableSeen;
                writer.setEnabled(false);
            });
            d.processEvents(QEventLoop::AllEvents);
            const std::uint64_t start = d.epollCtlCalls();
            for (int i = 0; i < 100; ++i) {
                writer.setEnabled(true);
                writer.setEnabled(false);
                d.processEvents(QEventLoop::AllEvents);
            }
            toggledBetween = d.epollCtlCalls() - start;
            writer.setEnabled(true);
            d.processEvents(QEventLoop::AllEvents);  // MOD to IN|OUT, writable at once
            d.processEvents(QEventLoop::AllEvents);  // MOD back to IN
            toggledAcross = d.epollCtlCalls() - start - toggledBetween;
        }, 0);
        QCOMPARE(toggledBetween, std::uint64_t(0));
        QCOMPARE(toggledAcross, std::uint64_t(2));
        QCOMPARE(writableSeen, 1);
    }

    // Qt's own sockets on this loop: 1 MiB echoed over loopback TCP arrives whole and in order.
    void qtTcpSocketsEchoOverLoopback_data() { addWaitModes(); }
    void qtTcpSocketsEchoOverLoopback() {
        QFETCH(qulonglong, pollUpTo);
        QByteArray received;
        QByteArray sent;
        for (int i = 0; i < (1 << 20); ++i) sent.append(char(i * 7 + (i >> 11)));
        onEpollThread([&](EpollEventDispatcher&) {
            QTcpServer server;
            if (!server.listen(QHostAddress::LocalHost, 0)) return;
            QTcpSocket* accepted = nullptr;
            QObject::connect(&server, &QTcpServer::newConnection, &server, [&] {
                accepted = server.nextPendingConnection();
                QObject::connect(accepted, &QTcpSocket::readyRead, accepted,
                                 [accepted] { accepted->write(accepted->readAll()); });
            });
            QTcpSocket client;
            QObject::connect(&client, &QTcpSocket::readyRead, &client, [&] { received += client.readAll(); });
            client.connectToHost(QHostAddress::LocalHost, server.serverPort());
            spinUntil([&] { return client.state() == QAbstractSocket::ConnectedState; });
            client.write(sent);
            spinUntil([&] { return received.size() >= sent.size(); }, 20000);
            client.disconnectFromHost();
            spinUntil([&] { return client.state() == QAbstractSocket::UnconnectedState; }, 2000);
        }, pollUpTo);
        QCOMPARE(received.size(), sent.size());
        QVERIFY(received == sent);
    }

    // With pollUpTo 4: poll() up to 4 descriptors, epoll from the 5th (each moved into the set
    // once), poll again at 2 (each taken out once); readiness is dispatched in every phase.
    void waitFollowsTheDescriptorCount() {
        bool epollAt[4] = {true, false, false, true};
        int activationsAt[3] = {0, 0, 0};
        std::uint64_t ctlToEpoll = 0, ctlInEpoll = 0, ctlToPoll = 0;
        onEpollThread([&](EpollEventDispatcher& d) {
            std::vector<std::unique_ptr<EpollSocketPair>> pairs;
            std::vector<std::unique_ptr<QSocketNotifier>> notifiers;
            int activations = 0;
            const auto add = [&] {
                pairs.push_back(std::make_unique<EpollSocketPair>());
                const int fd = pairs.back()->a;
                auto n = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
                QObject::connect(n.get(), &QSocketNotifier::activated, n.get(), [&activations, fd] {
                    ++activations;
                    char c[8];
                    while (::read(fd, c, sizeof c) > 0) {}
                });
                notifiers.push_back(std::move(n));
            };
            const auto poke = [&](std::size_t i) {
                const char c = 'p';
                (void)!::write(pairs[i]->b, &c, 1);
            };
            for (int i = 0; i < 4; ++i) add();
            d.processEvents(QEventLoop::AllEvents);
            epollAt[0] = d.waitsWithEpoll();
            poke(3);
            spinUntil([&] { return activations == 1; }, 2000);
            activationsAt[0] = activations;
            std::uint64_t before = d.epollCtlCalls();
            add();
            d.processEvents(QEventLoop::AllEvents);
            epollAt[1] = d.waitsWithEpoll();
            ctlToEpoll = d.epollCtlCalls() - before;
            poke(0);
            poke(4);
            spinUntil([&] { return activations == 3; }, 2000);
            activationsAt[1] = activations;
            before = d.epollCtlCalls();
            notifiers.pop_back();  // 4 left: 4 > 2, still epoll
            notifiers.pop_back();  // 3
            d.processEvents(QEventLoop::AllEvents);
            epollAt[2] = d.waitsWithEpoll();
            ctlInEpoll = d.epollCtlCalls() - before;
            before = d.epollCtlCalls();
            notifiers.pop_back();  // 2: back to poll
            d.processEvents(QEventLoop::AllEvents);
            epollAt[3] = d.waitsWithEpoll();
            ctlToPoll = d.epollCtlCalls() - before;
            poke(1);
            spinUntil([&] { return activations == 4; }, 2000);
            activationsAt[2] = activations;
        }, 4);
        QCOMPARE(epollAt[0], false);
        QCOMPARE(activationsAt[0], 1);
        QCOMPARE(epollAt[1], true);
        QCOMPARE(ctlToEpoll, std::uint64_t(5));
        QCOMPARE(activationsAt[1], 3);
        QCOMPARE(epollAt[2], true);
        QCOMPARE(ctlInEpoll, std::uint64_t(2));  // each removed one left the set
        QCOMPARE(epollAt[3], false);
        QCOMPARE(ctlToPoll, std::uint64_t(1 + 2));  // the third removed, then the 2 left moved out
        QCOMPARE(activationsAt[2], 4);
    }

    // poll() reports a descriptor closed under its registered notifier at every wait (POLLNVAL):
    // it is dropped with a warning, the loop does not spin on it, and the others are still served.
    void descriptorClosedUnderItsNotifierIsDroppedInPollMode() {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("descriptor \\d+ was closed while its socket notifier"));
        std::size_t watchedBefore = 0, watchedAfter = 99;
        int activations = 0;
        bool idleWaitReturned = false;
        int passes = 0;
        onEpollThread([&](EpollEventDispatcher& d) {
            auto doomed = std::make_unique<EpollSocketPair>();
            EpollSocketPair alive;
            QSocketNotifier gone(doomed->a, QSocketNotifier::Read);
            QSocketNotifier served(alive.a, QSocketNotifier::Read);
            QObject::connect(&served, &QSocketNotifier::activated, &served, [&] {
                ++activations;
                char c[8];
                while (::read(alive.a, c, sizeof c) > 0) {}
            });
            d.processEvents(QEventLoop::AllEvents);
            watchedBefore = d.watchedDescriptors();
            ::close(doomed->a);
            doomed->a = -1;
            d.processEvents(QEventLoop::AllEvents);  // POLLNVAL: dropped
            watchedAfter = d.watchedDescriptors();
            // Nothing ready now but a timer 50 ms away: the waits block until it (each would return
            // at once on a POLLNVAL left in the list).
            QTimer::singleShot(50, [&] { idleWaitReturned = true; });
            while (!idleWaitReturned && passes < 100000) {
                d.processEvents(QEventLoop::WaitForMoreEvents);
                ++passes;
            }
            const char c = 'z';
            (void)!::write(alive.b, &c, 1);
            spinUntil([&] { return activations > 0; }, 2000);
        }, 100000);
        QCOMPARE(watchedBefore, std::size_t(2));
        QCOMPARE(watchedAfter, std::size_t(1));
        QVERIFY(idleWaitReturned);
        QVERIFY2(passes <= 5, qPrintable(QString::number(passes)));
        QCOMPARE(activations, 1);
    }

    // A notifier's handler runs a nested loop, which waits again and serves the other ready
    // descriptors: the outer pass does not serve them a second time from its overwritten list.
    void nestedLoopInANotifierServesEachOnce_data() { addWaitModes(); }
    void nestedLoopInANotifierServesEachOnce() {
        QFETCH(qulonglong, pollUpTo);
        int counts[3] = {0, 0, 0};
        onEpollThread([&](EpollEventDispatcher& d) {
            EpollSocketPair pairs[3];
            std::vector<std::unique_ptr<QSocketNotifier>> notifiers;
            bool nested = false;
            for (int i = 0; i < 3; ++i) {
                auto n = std::make_unique<QSocketNotifier>(pairs[i].a, QSocketNotifier::Read);
                QObject::connect(n.get(), &QSocketNotifier::activated, n.get(), [&, i] {
                    ++counts[i];
                    char c[8];
                    while (::read(pairs[i].a, c, sizeof c) > 0) {}
                    if (!nested) {
                        nested = true;
                        d.processEvents(QEventLoop::AllEvents);
                    }
                });
                notifiers.push_back(std::move(n));
            }
            d.processEvents(QEventLoop::AllEvents);
            for (auto& p : pairs) {
                const char c = 'n';
                (void)!::write(p.b, &c, 1);
            }
            d.processEvents(QEventLoop::AllEvents);
            d.processEvents(QEventLoop::AllEvents);
        }, pollUpTo);
        QCOMPARE(counts[0], 1);
        QCOMPARE(counts[1], 1);
        QCOMPARE(counts[2], 1);
    }

    void quitWakesABlockedLoop() {
        QThread thread;
        thread.setEventDispatcher(new EpollEventDispatcher);
        thread.start();
        QThread::msleep(50);  // blocked in epoll_wait with nothing registered
        QElapsedTimer clock;
        clock.start();
        thread.quit();
        QVERIFY(thread.wait(5000));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    }

    // A DirectSocketNotifier is activated by a call, with no QEvent through sendEvent() (an event
    // filter on it sees none), once per readiness as any notifier; under Qt's own dispatcher (this
    // test's main thread) the same notifier gets its QEvent and makes the same call. And an object
    // the call deleteLater()s from a thread's running loop is deleted once the loop turns: Qt counts
    // a DeferredDelete posted outside sendEvent() as posted at scope level 1.
    void directNotifierIsCalledWithoutAnEvent_data() { addWaitModes(); }
    void directNotifierIsCalledWithoutAnEvent() {
        QFETCH(qulonglong, pollUpTo);
        struct Counts : QObject {
            int events = 0;
            bool eventFilter(QObject*, QEvent* e) override {
                if (e->type() == QEvent::SockAct) ++events;
                return false;
            }
        };
        struct Reader {
            int fd;
            int calls = 0;
            static void call(void* self) {
                auto* r = static_cast<Reader*>(self);
                ++r->calls;
                char c[8];
                while (::read(r->fd, c, sizeof c) > 0) {}
            }
        };
        EpollSocketPair pair;
        Reader reader{pair.a};
        Counts counts;
        int callsOnEpoll = -1, eventsOnEpoll = -1, eventsSent = -1;
        onEpollThread([&](EpollEventDispatcher& d) {
            Counts filter;  // of this thread: a filter must live in its object's thread
            DirectSocketNotifier n(pair.a, QSocketNotifier::Read, &Reader::call, &reader);
            n.installEventFilter(&filter);
            d.processEvents(QEventLoop::AllEvents);  // registered, nothing ready
            const char c = 'x';
            (void)!::write(pair.b, &c, 1);
            d.processEvents(QEventLoop::AllEvents);
            d.processEvents(QEventLoop::AllEvents);  // read empty: not again
            callsOnEpoll = reader.calls;
            eventsOnEpoll = filter.events;
            // The filter works here: an event sent the Qt way reaches it.
            QEvent sent(QEvent::SockAct);
            QCoreApplication::sendEvent(&n, &sent);
            eventsSent = filter.events - eventsOnEpoll;
        }, pollUpTo);
        QCOMPARE(eventsSent, 1);
        QCOMPARE(callsOnEpoll, 1);
        QCOMPARE(eventsOnEpoll, 0);

        reader.calls = 0;
        {
            QVERIFY(dynamic_cast<EpollEventDispatcher*>(QAbstractEventDispatcher::instance()) == nullptr);
            DirectSocketNotifier n(pair.a, QSocketNotifier::Read, &Reader::call, &reader);
            n.installEventFilter(&counts);
            const char c = 'y';
            (void)!::write(pair.b, &c, 1);
            QVERIFY(spinUntil([&] { return reader.calls == 1; }));
            QCOMPARE(counts.events, 1);
        }

        // deleteLater() from the call, on a thread running its loop.
        QThread thread;
        thread.setEventDispatcher(new EpollEventDispatcher(std::size_t(pollUpTo)));
        thread.start();
        std::atomic<bool> deleted{false};
        struct Victim : QObject {
            std::atomic<bool>* flag;
            explicit Victim(std::atomic<bool>* f) : flag(f) {}
            ~Victim() override { *flag = true; }
        };
        struct Deleter {
            int fd;
            QObject* victim;
            static void call(void* self) {
                auto* d = static_cast<Deleter*>(self);
                char c[8];
                while (::read(d->fd, c, sizeof c) > 0) {}
                if (d->victim) d->victim->deleteLater();
                d->victim = nullptr;
            }
        };
        Deleter deleter{pair.a, nullptr};
        DirectSocketNotifier* notifier = nullptr;
        QObject context;
        context.moveToThread(&thread);
        QMetaObject::invokeMethod(&context, [&] {
            deleter.victim = new Victim(&deleted);
            notifier = new DirectSocketNotifier(pair.a, QSocketNotifier::Read, &Deleter::call, &deleter);
        }, Qt::BlockingQueuedConnection);
        const char c = 'z';
        (void)!::write(pair.b, &c, 1);
        QElapsedTimer clock;
        clock.start();
        while (!deleted && clock.elapsed() < 5000) QThread::msleep(5);
        const bool deletedInTime = deleted;
        QMetaObject::invokeMethod(&context, [&] {  // torn down first, whatever the outcome
            delete notifier;
            delete deleter.victim;  // still there only if the deferred delete never ran
            context.moveToThread(QCoreApplication::instance()->thread());
        }, Qt::BlockingQueuedConnection);
        thread.quit();
        QVERIFY(thread.wait(5000));
        QVERIFY(deletedInTime);
    }

    void installHonoursTheQtOverride() {
        QThread a;
        qputenv("UA_EVENT_LOOP", "qt");
        QVERIFY(!installIoEventLoop(&a));
        qputenv("UA_EVENT_LOOP", "epoll");
        QThread e;
        QVERIFY(installIoEventLoop(&e));
        QVERIFY(static_cast<EpollEventDispatcher*>(e.eventDispatcher())->waitsWithEpoll());
        e.start();  // a thread that never ran does not delete its dispatcher
        e.quit();
        QVERIFY(e.wait(5000));
        qunsetenv("UA_EVENT_LOOP");
        QThread b;
        QVERIFY(installIoEventLoop(&b));
        b.start();
        QAbstractEventDispatcher* used = nullptr;
        QObject context;
        context.moveToThread(&b);
        QMetaObject::invokeMethod(&context, [&] {
            used = QAbstractEventDispatcher::instance();
            context.moveToThread(QCoreApplication::instance()->thread());
        }, Qt::BlockingQueuedConnection);
        QVERIFY(dynamic_cast<EpollEventDispatcher*>(used) != nullptr);
        QVERIFY(!static_cast<EpollEventDispatcher*>(used)->waitsWithEpoll());  // no descriptor yet: poll
        b.quit();
        QVERIFY(b.wait(5000));
    }
};

UA_TEST_GUILESS_MAIN(TestEpollDispatcher)
#include "tst_epoll_dispatcher.moc"
