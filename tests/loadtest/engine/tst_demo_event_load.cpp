// The demo's event load (server-app/demo/DemoEventLoad.h), which the load tester's events scenario
// drives, through our Client against our Server in process: every value of GenerateEvents'
// arguments has its outcome (Bad_InvalidArgument with Bad_OutOfRange on the argument out of range,
// 0 events a second stops, DurationMs not looked at then), the events an item on the Server object
// receives are DemoLoadEventType with consecutive Sequences and Severity 1 + (617 x Sequence mod 1000),
// a stop returns the next Sequence and nothing is raised after it, a run ends by itself, and a
// second start goes on with the Sequence. The generator alone: a stop while its thread is behind
// (raising batch after batch) returns at once, not when the run ends.
#include "DemoEventLoad.h"
#include "DemoNodeManager.h"
#include "../../client/ClientTestUtil.h"

#include "ua/client/Client.h"
#include "ua/server/events/EventManager.h"
#include "ua/server/runtime/Server.h"

#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <chrono>
#include <future>
#include <memory>
#include <mutex>

using namespace ua;
using namespace ua::test;

namespace {

// An item's events as the test thread sees them (the Client delivers them on its I/O thread).
struct ReceivedLoadEvents {
    std::mutex mutex;
    std::vector<Array<Variant>> fields;  // EventType, Severity, Sequence
    std::size_t size() {
        std::lock_guard lock(mutex);
        return fields.size();
    }
};

} // namespace

class TestDemoEventLoad : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Client> m_client;
    uint16_t m_ns = 0;

    NodeId demo(const char* s) const { return NodeId(m_ns, String(s)); }

    // GenerateEvents(perSecond, durationMs), with any Variants for the arguments.
    CallMethodResult generate(Variant perSecond, Variant durationMs) {
        Awaited<ServiceResult<CallResponse>> r;
        m_client->callMethod(demo("Demo.Events"), demo("Demo.Events.GenerateEvents"), {std::move(perSecond), std::move(durationMs)},
                             this, r.callback());
        if (!r.wait()) {
            CallMethodResult timeout;
            timeout.statusCode = status::BadTimeout;
            return timeout;
        }
        if (r->status.isBad() || r->response.results.size() != 1) {
            CallMethodResult failed;
            failed.statusCode = r->status.isBad() ? r->status : StatusCode(status::BadUnexpectedError);
            return failed;
        }
        return r->response.results[0];
    }
    // The NextSequence of a Good call; 0 when the call failed (Sequences start at 1).
    uint64_t next(const CallMethodResult& r) {
        if (r.statusCode.isBad() || r.outputArguments.size() != 1) return 0;
        const uint64_t* n = r.outputArguments[0].get<uint64_t>();
        return n ? *n : 0;
    }
    uint64_t generate(uint32_t perSecond, uint32_t durationMs) { return next(generate(Variant(perSecond), Variant(durationMs))); }

    // A Subscription with an event item on the Server object selecting EventType, Severity and
    // DemoLoadEventType's Sequence (queue 10,000: nothing overflows in these tests).
    std::shared_ptr<ReceivedLoadEvents> subscribe() {
        auto received = std::make_shared<ReceivedLoadEvents>();
        SubscriptionSettings settings;
        settings.publishingIntervalMs = 20;
        Awaited<SubscriptionInfo> info;
        m_client->createSubscription(settings, this, SubscriptionHandlers{}, info.callback());
        if (!info.wait() || info->status.isBad()) return nullptr;
        EventFilter filter = makeEventFilter({"EventType", "Severity"});
        SimpleAttributeOperand sequence;
        sequence.typeDefinitionId = demo(DemoEventLoadManager::kEventType);
        sequence.browsePath = Array<QualifiedName>{QualifiedName{m_ns, String(DemoEventLoadManager::kSequence)}};
        sequence.attributeId = uint32_t(AttributeId::Value);
        filter.selectClauses.push_back(sequence);
        MonitoredItemSpec item;
        item.nodeId = NodeId(id::Server);
        item.attributeId = uint32_t(AttributeId::EventNotifier);
        item.settings.samplingIntervalMs = 0;
        item.settings.queueSize = 10000;
        item.settings.eventFilter = filter;
        item.onEvent = [received](const Array<Variant>& fields) {
            std::lock_guard lock(received->mutex);
            received->fields.push_back(fields);
        };
        Awaited<MonitoredItemsResult> items;
        m_client->createMonitoredItems(info->handle, {item}, this, items.callback());
        if (!items.wait() || items->status.isBad() || items->items.size() != 1 || items->items[0].statusCode.isBad()) return nullptr;
        // Every select clause compiled (the type and its Sequence are in the address space).
        if (const auto* r = items->items[0].filterResult.get<EventFilterResult>())
            for (StatusCode s : r->selectClauseResults)
                if (s.isBad()) return nullptr;
        return received;
    }

private slots:
    void initTestCase() {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));
        QVERIFY(m_dir.isValid());
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        cfg.demoNamespace = true;
        cfg.demoEventsMs = 0;  // no periodic demo events: only the load's
        cfg.security.pkiDir = m_dir.filePath(QStringLiteral("pki"));
        cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // Operator may call Methods
        m_server = std::make_unique<Server>(cfg);
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
        m_client = std::make_unique<Client>(ClientConfig{});
        QCOMPARE(connectSession(*m_client, urlOf(m_server->port()), this), StatusCode(status::Good));
        const int ns = m_client->nodeIdConverter().indexOf(DemoNodeManager::kUri);
        QVERIFY(ns > 0);
        m_ns = uint16_t(ns);
    }
    void cleanupTestCase() {
        if (m_client) generate(0, 0);
        m_client.reset();
        m_server.reset();
    }

    // Out of range: Bad_InvalidArgument, the argument's entry Bad_OutOfRange, the other Good.
    void argumentsOutOfRange() {
        const uint32_t maxRate = DemoEventLoadManager::kMaxEventsPerSecond, maxMs = DemoEventLoadManager::kMaxDurationMs;
        const struct {
            uint32_t perSecond, durationMs;
            std::size_t bad;
        } cases[] = {{maxRate + 1, 1000, 0}, {0xFFFFFFFFu, 1000, 0}, {0xFFFFFFFFu, 0, 0}, {100, 0, 1}, {100, maxMs + 1, 1},
                     {1, 0xFFFFFFFFu, 1}};
        for (const auto& c : cases) {
            const CallMethodResult r = generate(Variant(c.perSecond), Variant(c.durationMs));
            QCOMPARE(r.statusCode, StatusCode(status::BadInvalidArgument));
            Array<StatusCode> expected{status::Good, status::Good};
            expected[c.bad] = status::BadOutOfRange;
            QCOMPARE(r.inputArgumentResults, expected);
            QVERIFY(r.outputArguments.empty());
        }
        // Arguments of another type: the Call service refuses them before the Method runs.
        const CallMethodResult wrongType = generate(Variant(int32_t(100)), Variant(uint32_t(1000)));
        QCOMPARE(wrongType.statusCode, StatusCode(status::BadInvalidArgument));
        QCOMPARE(wrongType.inputArgumentResults, (Array<StatusCode>{status::BadTypeMismatch, status::Good}));
    }

    // 0 stops (also when nothing runs), whatever DurationMs; the limits themselves are accepted.
    void stopAndLimits() {
        const uint64_t first = generate(0, 0);
        QVERIFY(first >= 1);
        QCOMPARE(generate(0, 0xFFFFFFFFu), first);
        // No item, no history: the Sequence goes on without events being built.
        QVERIFY(generate(DemoEventLoadManager::kMaxEventsPerSecond, 1) >= first);
        QVERIFY(generate(1, DemoEventLoadManager::kMaxDurationMs) >= first);
        QVERIFY(generate(0, 0) >= first);
    }

    // An item on the Server object receives every event of a run, in order: DemoLoadEventType,
    // Sequences from the start's NextSequence on without a gap, Severity 1 + (617 x Sequence mod 1000);
    // the stop's NextSequence follows the last one, and nothing comes after it.
    void eventsOfARun() {
        const auto received = subscribe();
        QVERIFY(received);
        const uint64_t first = generate(2000, 60'000);
        QVERIFY(first >= 1);
        QVERIFY(QTest::qWaitFor([&] { return received->size() >= 300; }, 15000));
        const uint64_t end = generate(0, 0);
        QVERIFY(end > first);
        // Everything raised arrives; then wait as long again: nothing more may come.
        QVERIFY2(QTest::qWaitFor([&] { return received->size() >= end - first; }, 15000),
                 qPrintable(QStringLiteral("%1 of %2").arg(received->size()).arg(end - first)));
        QTest::qWait(200);
        QCOMPARE(generate(0, 0), end);
        std::lock_guard lock(received->mutex);
        QCOMPARE(uint64_t(received->fields.size()), end - first);
        for (std::size_t i = 0; i < received->fields.size(); ++i) {
            const Array<Variant>& f = received->fields[i];
            QCOMPARE(f.size(), std::size_t(3));
            QCOMPARE(f[0], Variant(demo(DemoEventLoadManager::kEventType)));
            const uint64_t* sequence = f[2].get<uint64_t>();
            QVERIFY(sequence);
            QCOMPARE(*sequence, first + i);
            QCOMPARE(f[1], Variant(DemoEventLoadManager::severityOf(*sequence)));
        }
    }

    // A run ends by itself after DurationMs (at most rate x duration events), and a second start
    // goes on with the Sequence; a start during a run replaces it.
    void runEndsAndSequenceGoesOn() {
        const uint64_t first = generate(1000, 100);
        QVERIFY(first >= 1);
        QTest::qWait(400);
        const uint64_t afterRun = generate(0, 0);
        QVERIFY2(afterRun > first && afterRun - first <= 100, qPrintable(QStringLiteral("%1 events").arg(afterRun - first)));
        QTest::qWait(100);
        const uint64_t again = generate(500, 60'000);
        QCOMPARE(again, afterRun);
        const uint64_t replaced = generate(100, 60'000);
        QVERIFY(replaced >= again);
        QVERIFY(generate(0, 0) >= replaced);
    }

    // A generator far behind its rate (each event costs its only taker, a slow history sink, 20 µs:
    // 50,000 a second at most of the 1,000,000 asked for) still lets stop() in between two batches:
    // it returns long before the run's minute is over, and nothing is raised after it.
    void stopWhileBehind() {
        auto manager = std::make_shared<EventManager>();
        auto taken = std::make_shared<std::atomic<uint64_t>>(0);
        manager->setHistorySink([taken](const EventPtr&) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
            while (std::chrono::steady_clock::now() < until) {
            }
            taken->fetch_add(1, std::memory_order_relaxed);
        });
        EventLoadGenerator generator(manager, NodeId(id::BaseEventType), "1:Sequence");
        const uint64_t first = generator.start(DemoEventLoadManager::kMaxEventsPerSecond, 60'000);
        QVERIFY(QTest::qWaitFor([&] { return taken->load() >= 2000; }, 15000));
        auto stopped = std::async(std::launch::async, [&generator] { return generator.stop(); });
        QVERIFY2(stopped.wait_for(std::chrono::seconds(15)) == std::future_status::ready, "stop() waited for the run's end");
        const uint64_t next = stopped.get();
        const uint64_t raised = taken->load();
        QCOMPARE(next - first, raised);
        QTest::qWait(100);
        QCOMPARE(taken->load(), raised);
        QCOMPARE(generator.stop(), next);
        manager->setHistorySink({});
    }

    // The type in the address space: a subtype of BaseEventType with its Sequence Property.
    void typeInTheAddressSpace() {
        Awaited<ServiceResult<ReadResponse>> r;
        const NodeId sequence = demo("DemoLoadEventType.Sequence");
        m_client->readValues({sequence}, this, r.callback());
        QVERIFY(r.wait());
        QCOMPARE(r->status, StatusCode(status::Good));
        QCOMPARE(r->response.results.size(), std::size_t(1));
        QCOMPARE(r->response.results[0].status, StatusCode(status::Good));
        QVERIFY(r->response.results[0].value.get<uint64_t>());
    }
};

UA_TEST_GUILESS_MAIN(TestDemoEventLoad)
#include "tst_demo_event_load.moc"
