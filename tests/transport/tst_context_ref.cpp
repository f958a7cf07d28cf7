// ContextRef (libua/ua/transport/ContextRef.h): a result handed from a worker thread to a QObject
// of another thread runs there, in the order it was sent, and never once that object is gone,
// while the object's own thread destroys it at any moment. The last case is the race a QPointer
// checked on the worker thread loses (an event posted to freed memory): ASan and TSan run it too.
#include "ua/transport/ContextRef.h"

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <QThread>
#include "TestMain.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace ua;

namespace {

// Runs body on a new thread and waits for it.
template <class F>
void onWorker(F body) {
    std::unique_ptr<QThread> t(QThread::create(std::move(body)));
    t->start();
    QVERIFY(t->wait(30000));
}

} // namespace

class TestContextRef : public QObject {
    Q_OBJECT
private slots:
    void notSetRunsNothing() {
        ContextRef ref;
        QVERIFY(!ref.isSet());
        bool ran = false;
        ref.run([&] { ran = true; });
        ref.post([&] { ran = true; });
        QCoreApplication::processEvents();
        QVERIFY(!ran);
    }

    void runIsImmediateAtHomeAndPostIsQueued() {
        QObject context;
        const ContextRef ref(&context);
        QVERIFY(ref.isSet());
        QVERIFY(ref.isHome());
        std::vector<int> order;
        ref.post([&] { order.push_back(2); });
        ref.run([&] { order.push_back(1); });
        QCOMPARE(order, std::vector<int>{1});
        QTRY_COMPARE(order, (std::vector<int>{1, 2}));
    }

    void fromAWorkerInOrderOnTheContextsThread() {
        QObject context;
        const ContextRef ref(&context);
        QThread* const home = QThread::currentThread();
        std::vector<int> got;
        std::atomic<int> wrongThread{0};
        std::atomic<bool> homeOnWorker{true};
        onWorker([&] {
            homeOnWorker = ref.isHome();
            for (int i = 0; i < 1000; ++i)
                ref.run([&, i] {
                    if (QThread::currentThread() != home) ++wrongThread;
                    got.push_back(i);
                });
        });
        QTRY_COMPARE(got.size(), std::size_t(1000));
        QVERIFY(!homeOnWorker.load());
        QCOMPARE(wrongThread.load(), 0);
        for (int i = 0; i < 1000; ++i) QCOMPARE(got[std::size_t(i)], i);
    }

    void droppedWhenTheContextIsGoneBeforeItRuns() {
        auto* context = new QObject;
        const ContextRef ref(context);
        int ran = 0;
        onWorker([&] { ref.run([&] { ++ran; }); });  // queued: this thread has not run it yet
        delete context;
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(ran, 0);
        ref.run([&] { ++ran; });  // at home, after the end
        QCOMPARE(ran, 0);
    }

    void aContextOnAnotherThreadWithAnEventLoop() {
        QThread loop;
        loop.start();
        auto* context = new QObject;
        context->moveToThread(&loop);
        ContextRef ref;
        // Made on the context's own thread, as the header asks.
        QMetaObject::invokeMethod(context, [&] { ref = ContextRef(context); }, Qt::BlockingQueuedConnection);
        std::atomic<QThread*> ranOn{nullptr};
        ref.run([&] { ranOn = QThread::currentThread(); });
        QTRY_COMPARE(ranOn.load(), &loop);
        QMetaObject::invokeMethod(context, [context] { delete context; }, Qt::BlockingQueuedConnection);
        std::atomic<bool> ranAfter{false};
        ref.run([&] { ranAfter = true; });
        // Behind it in the same thread's queue: when this returns, the loop has passed it.
        auto* marker = new QObject;
        marker->moveToThread(&loop);
        QMetaObject::invokeMethod(marker, [marker] { delete marker; }, Qt::BlockingQueuedConnection);
        QVERIFY(!ranAfter.load());
        loop.quit();
        QVERIFY(loop.wait(10000));
    }

    // The main thread creates and destroys contexts while a worker sends to each as long as it can
    // see it: nothing runs for a destroyed context, and both outcomes happen.
    void noResultReachesADestroyedContext() {
        struct Current {
            ContextRef ref;
            int id = -1;
        };
        std::mutex mutex;
        Current current;  // under mutex
        std::atomic<bool> stop{false};
        std::set<int> alive;  // main thread only
        int delivered = 0, reachedTheDead = 0;
        std::atomic<int> sent{0};
        std::unique_ptr<QThread> worker(QThread::create([&] {
            while (!stop.load()) {
                Current c;
                {
                    std::lock_guard lock(mutex);
                    c = current;
                }
                if (c.ref.isSet()) {
                    for (int i = 0; i < 20; ++i) {
                        ++sent;
                        // Runs on the main thread, which keeps `alive`.
                        c.ref.run([&, id = c.id] {
                            if (alive.count(id)) ++delivered;
                            else ++reachedTheDead;
                        });
                    }
                }
                QThread::usleep(20);
            }
        }));
        worker->start();
        for (int id = 0; id < 400; ++id) {
            auto* context = new QObject;
            alive.insert(id);
            {
                std::lock_guard lock(mutex);
                current = {ContextRef(context), id};
            }
            QThread::usleep(100);
            QCoreApplication::processEvents();
            QThread::usleep(id % 3 * 50);
            delete context;  // while the worker may be sending to it
            alive.erase(id);
            QCoreApplication::processEvents();
        }
        {
            std::lock_guard lock(mutex);
            current = {};
        }
        stop = true;
        QVERIFY(worker->wait(30000));
        QCoreApplication::processEvents();
        QCOMPARE(reachedTheDead, 0);
        QVERIFY2(delivered > 0, "no delivery at all: the test did not exercise the live path");
        QVERIFY2(sent.load() > delivered, "every send was delivered: the test did not race a destruction");
        qInfo("%d sent, %d delivered, the rest dropped with their context", sent.load(), delivered);
    }
};

UA_TEST_GUILESS_MAIN(TestContextRef)
#include "tst_context_ref.moc"
