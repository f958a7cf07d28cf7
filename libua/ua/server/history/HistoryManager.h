// The thread of Historical Access (OPC 10000-11): it owns the HistoryStore (the SQLite file),
// samples the historized Variables, writes their blocks in transactions and serves the history
// services' work, all off the I/O threads. The I/O threads only post work here (run()) and get
// their answers back through callbacks that post to them.
//
// Sampling: each historized node is read every samplingIntervalMs (ms, at least 10) on absolute
// deadlines, through the reader its owner gave (the node's ValueSource or its ValueCell); a value
// is stored when its SourceTimestamp is newer than the node's newest (a value without one gets
// the sampling time when it differs from the last stored). Every second the manager writes the
// blocks older than the durability window and applies the limits.
//
// Events: the events of the historized notifiers (HistoryConfig::eventNotifiers) come through
// recordEvent() from any thread and are written once a second (EventHistory.h); events older
// than a notifier's maxAgeMs are removed once a second.
//
// ContinuationPoints of HistoryRead (OPC 10000-4 7.9) are kept here too, per Session scope: at
// most maxContinuationPoints per Session (the oldest is freed for a new one, as 7.9 asks), and
// one unused for 10 minutes is freed.
#pragma once

#include "ua/server/history/EventHistory.h"
#include "ua/server/history/HistoryStore.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace ua {

// The AggregateConfiguration of a historized node (OPC 10000-13 4.2.1.2) and whether its values
// are stepped (OPC 10000-11 5.2.3 Stepped).
struct HistoricalSettings {
    bool stepped = false;
    bool treatUncertainAsBad = true;
    uint8_t percentDataBad = 100;
    uint8_t percentDataGood = 100;
    bool useSlopedExtrapolation = false;
};

struct HistorizedNode {
    NodeId node;
    std::string namespaceUri;          // when set, the namespace of node (its index is looked up)
    double samplingIntervalMs = 1000;  // ms; below 10 is 10
    HistoryLimits limits;
    HistoricalSettings settings;
};

// An Object (or View) whose events are kept (a HistoricalEventNode, OPC 10000-11 5.4): its
// EventNotifier gets the HistoryRead bit and it gets the HistoricalEventFilter Property.
struct HistorizedNotifier {
    NodeId node;
    std::string namespaceUri;                     // when set, the namespace of node
    int64_t maxAgeMs = 7LL * 24 * 3600 * 1000;    // ms; events older are removed (0: kept for ever)
};

struct HistoryConfig {
    QString databasePath;          // the SQLite file (":memory:" for tests); empty: no history
    std::vector<HistorizedNode> nodes;
    std::vector<HistorizedNotifier> eventNotifiers;
    int64_t durabilityMs = 10000;  // ms: sampled values not yet in the file at most this old
    uint32_t blockValues = 256;
    uint16_t maxContinuationPoints = 50;  // per Session (ServerCapabilities MaxHistoryContinuationPoints)
};

// What a HistoryRead leaves for its next call: the request's details and where to go on.
struct HistoryContinuation {
    NodeId node;
    ExtensionObject details;
    int64_t position = 0;  // the service's: a timestamp (ticks) or an index
    int phase = 0;
    int64_t eventId = 0;   // Read Event: the row id at position
};

class HistoryManager {
public:
    // Reads a node's current value; false when it has none.
    using Reader = std::function<bool(DataValue&)>;

    explicit HistoryManager(HistoryConfig config);
    ~HistoryManager();  // stops: the open blocks are written
    HistoryManager(const HistoryManager&) = delete;
    HistoryManager& operator=(const HistoryManager&) = delete;

    // Opens the database on the history thread; the error, empty on success.
    QString start();
    void stop();

    const HistoryConfig& config() const { return m_config; }

    // Runs work on the history thread with the store (queued; dropped when stopped).
    void run(std::function<void(HistoryStore&)> work);
    // Runs work there and waits for it (not from the history thread).
    void runAndWait(std::function<void(HistoryStore&)> work);

    // Starts (or changes) sampling a node into its history; stops it. Any thread.
    void historize(const HistorizedNode& node, Reader reader);
    void stopHistorizing(const NodeId& node);
    bool isHistorized(const NodeId& node) const;
    // The node's HistoricalSettings (the defaults when it is not historized). Any thread.
    HistoricalSettings settingsOf(const NodeId& node) const;
    std::vector<HistorizedNode> historized() const;

    // Keeps an event for the historized notifiers among `notifiers` (NodeId::toString each); any
    // thread. True when one of them is historized (the event is then recorded).
    bool recordEvent(const EventPtr& e, const std::vector<std::string>& notifiers);
    // The notifiers whose events are kept, their namespaces resolved; before start() only (the
    // constructor takes config.eventNotifiers as they are).
    void setEventNotifiers(const std::vector<HistorizedNotifier>& notifiers);
    // Whether a notifier's events are kept (NodeId::toString), any thread once started.
    bool historizesEvents(const std::string& notifier) const;
    bool historizesEvents() const { return !m_eventNotifiers.empty(); }
    // The event history; the history thread only (inside run()), nullptr when stopped.
    EventHistory* events() { return m_events.get(); }

    // ContinuationPoints; the history thread only (inside run()).
    ByteString saveContinuation(uint32_t sessionScope, HistoryContinuation c);
    // Takes it out: nullopt when unknown, of another Session, or freed.
    std::optional<HistoryContinuation> takeContinuation(uint32_t sessionScope, const ByteString& id);

    // Sampled values stored since start (any thread; a relaxed counter).
    uint64_t sampledValues() const { return m_sampled.load(std::memory_order_relaxed); }

    // The manager's QObject on the history thread (timers live there).
    QObject* context() const { return m_context; }

private:
    struct Sampled;
    void sample(int64_t intervalMs);
    void housekeeping();
    void flushSome();

    HistoryConfig m_config;
    QThread m_thread;
    QObject* m_context = nullptr;
    std::unique_ptr<HistoryStore> m_store;  // made and used on the history thread
    std::unique_ptr<EventHistory> m_events; // the same
    std::map<std::string, int64_t> m_eventNotifiers;  // NodeId::toString -> maxAgeMs; fixed before start()
    mutable std::mutex m_mutex;             // guards m_wanted
    std::map<std::string, std::pair<HistorizedNode, Reader>> m_wanted;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::atomic<uint64_t> m_sampled{0};           // the history thread's state
};

} // namespace ua
