// EpollEventDispatcher (libua/ua/transport/EpollEventDispatcher.h): timers in deadline order and
// never early, at most once per pass and never inside their own handler, killed from handlers and
// with their object; posted events from other threads; socket notifiers over real descriptors
// (only the ready ones dispatched, a closed and reused descriptor number, a write notifier toggled
// between two waits without a system call); QTcpServer and QTcpSocket on a thread that runs it.
// Each case runs in a QThread with the dispatcher installed; the results are checked here.
#include "ua/transport/EpollEventDispatcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
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

// Runs body on a thread whose event loop is an EpollEventDispatcher, and waits for it.
void onEpollThread(const std::function<void(EpollEventDispatcher&)>& body) {
    QThread thread;
    auto* dispatcher = new EpollEventDispatcher;
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
    void onlyTheReadyDescriptorsAreDispatched() {
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
        });
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
    void closedAndReusedDescriptorNumber() {
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
        });
        QCOMPARE(reusedFd, firstFd);
        QCOMPARE(activations, 1);
        QCOMPARE(watched, std::size_t(1));
    }

    // A write notifier switched on and off between two waits (what a socket does whose send went
    // out whole) costs no epoll_ctl; switched on across a wait it does.
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
        });
        QCOMPARE(toggledBetween, std::uint64_t(0));
        QCOMPARE(toggledAcross, std::uint64_t(2));
        QCOMPARE(writableSeen, 1);
    }

    // Qt's own sockets on this loop: 1 MiB echoed over loopback TCP arrives whole and in order.
    void qtTcpSocketsEchoOverLoopback() {
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
        });
        QCOMPARE(received.size(), sent.size());
        QVERIFY(received == sent);
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

    void installHonoursTheQtOverride() {
        QThread a;
        qputenv("UA_EVENT_LOOP", "qt");
        QVERIFY(!installIoEventLoop(&a));
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
        b.quit();
        QVERIFY(b.wait(5000));
    }
};

UA_TEST_GUILESS_MAIN(TestEpollDispatcher)
#include "tst_epoll_dispatcher.moc"
