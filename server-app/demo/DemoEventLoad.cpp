#include "DemoEventLoad.h"

#include "DemoNodeManager.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/events/EventManager.h"

#include <QRandomGenerator>

#include <algorithm>
#include <chrono>
#include <pthread.h>

namespace ua {

namespace {

int64_t loadSteadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

EventLoadGenerator::EventLoadGenerator(std::weak_ptr<EventManager> events, const NodeId& eventType, std::string sequenceKey)
    : m_events(std::move(events)), m_sequenceKey(std::move(sequenceKey)) {
    // EventId: 7 random bytes of this generator, then the Sequence (8 bytes, big-endian): unique,
    // and 15 bytes, which std::string keeps without allocating.
    for (char& c : m_idPrefix) c = char(QRandomGenerator::global()->generate() & 0xff);
    auto e = std::make_shared<Event>();
    e->set("EventId", Variant(ByteString()));
    e->setEventType(eventType);
    e->set("SourceNode", Variant(NodeId(id::Server)));
    e->set("SourceName", Variant(String("GenerateEvents")));
    e->set("Time", Variant(DateTime{}));
    e->set("ReceiveTime", Variant(DateTime{}));
    e->set("Message", Variant(LocalizedText{String("en"), String("Load event")}));
    e->set("Severity", Variant(uint16_t(1)));
    e->set(m_sequenceKey, Variant(uint64_t(0)));
    m_prototype = std::move(e);
}

EventLoadGenerator::~EventLoadGenerator() {
    {
        auto lock = lockForCaller();
        m_quit = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

std::unique_lock<std::mutex> EventLoadGenerator::lockForCaller() {
    // A thread that is behind raises batch after batch: it gives the mutex up between two when a
    // caller waits (a mutex is not fair: unlocked and locked again at once, it would keep it).
    m_callers.fetch_add(1, std::memory_order_acq_rel);
    std::unique_lock lock(m_mutex);
    m_callers.fetch_sub(1, std::memory_order_acq_rel);
    return lock;
}

uint64_t EventLoadGenerator::start(uint32_t perSecond, uint32_t durationMs) {
    auto lock = lockForCaller();
    m_rate = perSecond;
    m_runStartNs = loadSteadyNs();
    m_runEndNs = m_runStartNs + int64_t(durationMs) * 1'000'000;
    m_raisedInRun = 0;
    if (!m_thread.joinable()) m_thread = std::thread([this] { run(); });
    m_wake.notify_all();
    return m_next;
}

uint64_t EventLoadGenerator::stop() {
    auto lock = lockForCaller();
    m_rate = 0;
    m_wake.notify_all();
    return m_next;
}

void EventLoadGenerator::run() {
    pthread_setname_np(pthread_self(), "ua-event-load");
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (m_rate == 0) {
            m_wake.wait(lock);
            continue;
        }
        const int64_t now = loadSteadyNs();
        if (now >= m_runEndNs) {
            m_rate = 0;
            continue;
        }
        // Event k of the run (from 0) is due at runStart + k / rate.
        const double perNs = double(m_rate) / 1e9;
        const uint64_t dueByNow = uint64_t(double(now - m_runStartNs) * perNs) + 1;
        const uint64_t batchMax = std::max<uint64_t>(1, m_rate / 200);  // 5 ms of events
        const uint64_t n = std::min(dueByNow > m_raisedInRun ? dueByNow - m_raisedInRun : 0, batchMax);
        if (n > 0) raise(n);
        if (n == batchMax && dueByNow > m_raisedInRun) {
            // Behind: the next batch at once, after a waiting start() or stop() had its turn.
            if (m_callers.load(std::memory_order_acquire) > 0) {
                lock.unlock();
                while (m_callers.load(std::memory_order_acquire) > 0) std::this_thread::yield();
                lock.lock();
            }
            continue;
        }
        // The next batch when its first event is due, at most every millisecond.
        const int64_t nextDue = m_runStartNs + int64_t(double(m_raisedInRun) / perNs);
        const int64_t wakeAt = std::min(m_runEndNs, std::max(nextDue, now + 1'000'000));
        m_wake.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(wakeAt)));
    }
}

void EventLoadGenerator::raise(uint64_t n) {
    const std::shared_ptr<EventManager> events = m_events.lock();
    if (events && events->hasSubscribers()) {
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t sequence = m_next + i;
            const auto wall = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch()).count();
            const DateTime now{DateTime::kUnixEpochTicks + wall * 10};
            auto e = std::make_shared<Event>(*m_prototype);
            char id[15];
            std::copy(std::begin(m_idPrefix), std::end(m_idPrefix), id);
            for (int b = 0; b < 8; ++b) id[7 + b] = char((sequence >> (56 - 8 * b)) & 0xff);
            e->set("EventId", Variant(ByteString(id, sizeof id)));
            e->set("Time", Variant(now));
            e->set("ReceiveTime", Variant(now));
            e->set("Severity", Variant(DemoEventLoadManager::severityOf(sequence)));
            e->set(m_sequenceKey, Variant(sequence));
            events->raise(std::move(e));
        }
    }
    m_next += n;
    m_raisedInRun += n;
}

DemoEventLoadManager::DemoEventLoadManager(std::weak_ptr<EventManager> events)
    : NodeManager(DemoNodeManager::kUri), m_events(std::move(events)) {}

DemoEventLoadManager::~DemoEventLoadManager() = default;

StatusCode DemoEventLoadManager::populate(AddressSpace& space) {
    // The event type: BaseEventType --HasSubtype--> DemoLoadEventType --HasProperty--> Sequence.
    const NodeId type = makeId(kEventType);
    Node t;
    t.nodeId = type;
    t.nodeClass = NodeClass::ObjectType;
    t.browseName = {namespaceIndex(), String(kEventType)};
    t.setDisplayName(LocalizedText{String(), String(kEventType)});
    t.rare.edit().description = LocalizedText{String("en"), String("The events of Demo/Events/GenerateEvents: Severity = 1 + (617 x Sequence mod 1000)")};
    StatusCode s = space.addNode(std::move(t));
    if (s.isGood()) s = space.addReference(NodeId(id::BaseEventType), NodeId(id::HasSubtype), type);
    const NodeId sequence = makeId(std::string(kEventType) + "." + kSequence);
    VariableOptions prop;
    prop.referenceType = NodeId(id::HasProperty);
    prop.typeDefinition = NodeId(id::PropertyType);
    prop.accessLevel = access::CurrentRead;
    prop.description = LocalizedText{String("en"), String("The event's number: 1, 2, 3, ... over the server's life")};
    if (s.isGood()) s = addVariable(space, sequence, kSequence, type, NodeId(id::UInt64), Variant(uint64_t(0)), prop);
    if (s.isGood()) s = space.addReference(sequence, NodeId(id::HasModellingRule), NodeId(id::ModellingRule_Mandatory));

    // Objects/Demo/Events with GenerateEvents.
    const NodeId object = makeId("Demo.Events");
    if (s.isGood()) s = addObject(space, object, "Events", makeId("Demo"), NodeId(id::Organizes));
    auto generator = std::make_shared<EventLoadGenerator>(
        m_events, type, eventFieldKey(Array<QualifiedName>{QualifiedName{namespaceIndex(), String(kSequence)}}));
    const auto arg = [](const char* name, uint32_t dataType, const char* description) {
        ArgumentDeclaration a;
        a.name = name;
        a.dataType = NodeId(dataType);
        a.description = LocalizedText{String("en"), String(description)};
        return a;
    };
    MethodDeclaration m;
    m.description = LocalizedText{String("en"), String("Raises EventsPerSecond DemoLoadEventType events a second from the "
                                                       "Server object for DurationMs (0 events a second: stop); returns the "
                                                       "Sequence of the next event")};
    m.inputs = {arg("EventsPerSecond", id::UInt32, "Events a second, 1 .. 1000000; 0 stops the running generation"),
                arg("DurationMs", id::UInt32, "How long, ms (1 .. 86400000); not looked at when EventsPerSecond is 0")};
    m.outputs = {arg("NextSequence", id::UInt64, "The Sequence of the next event raised")};
    m.handler.execution = MethodHandler::Execution::Worker;  // it may wait for a batch being raised
    m.handler.run = [generator](const MethodCall& call, CallMethodResult& r) -> StatusCode {
        const uint32_t perSecond = *call.inputs[0].get<uint32_t>();
        const uint32_t durationMs = *call.inputs[1].get<uint32_t>();
        if (perSecond > kMaxEventsPerSecond) return rejectArgument(call, r, 0, status::BadOutOfRange);
        uint64_t next = 0;
        if (perSecond == 0) {
            next = generator->stop();
        } else {
            if (durationMs == 0 || durationMs > kMaxDurationMs) return rejectArgument(call, r, 1, status::BadOutOfRange);
            next = generator->start(perSecond, durationMs);
        }
        r.outputArguments = Array<Variant>{Variant(next)};
        return status::Good;
    };
    if (s.isGood()) s = addMethod(space, makeId("Demo.Events.GenerateEvents"), "GenerateEvents", object, std::move(m));
    return s;
}

} // namespace ua
