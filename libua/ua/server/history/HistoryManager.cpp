#include "ua/server/history/HistoryManager.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <unordered_map>

namespace ua {

namespace {

constexpr int64_t kContinuationIdleMs = 10 * 60 * 1000;
constexpr int kHousekeepingMs = 1000;
constexpr int kFlushBlocksPerTurn = 200;

int64_t nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

} // namespace

struct HistoryManager::Impl {
    struct Sampled {
        NodeId node;
        int64_t series = -1;
        Reader reader;
        DataValue last;
        bool hasLast = false;
    };
    struct Group {
        QTimer* timer = nullptr;
        std::vector<Sampled> nodes;
    };
    std::map<int64_t, Group> groups;  // by sampling interval, ms
    // Where each sampled node is: its group's interval and its position there (so that adding or
    // removing one of 10,000 nodes costs no scan of the others).
    std::unordered_map<std::string, std::pair<int64_t, std::size_t>> where;
    void remove(const std::string& key) {
        const auto it = where.find(key);
        if (it == where.end()) return;
        std::vector<Sampled>& nodes = groups[it->second.first].nodes;
        const std::size_t at = it->second.second;
        if (at + 1 != nodes.size()) {
            nodes[at] = std::move(nodes.back());
            where[nodes[at].node.toString()].second = at;
        }
        nodes.pop_back();
        where.erase(it);
    }
    struct Continuation {
        uint32_t scope = 0;
        HistoryContinuation c;
        int64_t lastUsedMs = 0;
        uint64_t seq = 0;
    };
    std::map<std::string, Continuation> continuations;
    uint64_t seq = 0;
    QTimer* housekeeping = nullptr;
};

HistoryManager::HistoryManager(HistoryConfig config) : m_config(std::move(config)), m_impl(std::make_unique<Impl>()) {
    m_thread.setObjectName(QStringLiteral("ua-history"));
    setEventNotifiers(m_config.eventNotifiers);
}

void HistoryManager::setEventNotifiers(const std::vector<HistorizedNotifier>& notifiers) {
    m_eventNotifiers.clear();
    for (const HistorizedNotifier& n : notifiers) m_eventNotifiers[n.node.toString()] = n.maxAgeMs;
}

HistoryManager::~HistoryManager() { stop(); }

QString HistoryManager::start() {
    if (m_context) return {};
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    // The context and its timers go with the thread (never deleted from inside their own event).
    QObject::connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.start();
    QString error;
    QMetaObject::invokeMethod(m_context, [this, &error] {
        HistoryStore::Options o;
        o.blockValues = m_config.blockValues;
        o.durabilityMs = m_config.durabilityMs;
        m_store = std::make_unique<HistoryStore>(m_config.databasePath, o);
        if (!m_store->ok()) {
            error = m_store->error();
            m_store.reset();
            return;
        }
        m_events = std::make_unique<EventHistory>(m_store->database());
        m_impl->housekeeping = new QTimer(m_context);
        QObject::connect(m_impl->housekeeping, &QTimer::timeout, m_context, [this] { housekeeping(); });
        m_impl->housekeeping->start(kHousekeepingMs);
    }, Qt::BlockingQueuedConnection);
    if (!error.isEmpty()) {
        stop();
        return error;
    }
    // What was historized before the start begins sampling now.
    std::vector<std::pair<HistorizedNode, Reader>> wanted;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [key, w] : m_wanted) wanted.push_back(w);
    }
    for (auto& [node, reader] : wanted) historize(node, reader);
    return {};
}

void HistoryManager::stop() {
    if (!m_context) return;
    QMetaObject::invokeMethod(m_context, [this] {
        if (m_events) m_events->flush();
        m_events.reset();
        if (m_store) m_store->flush(true, nowMs());
        for (auto& [ms, g] : m_impl->groups) delete g.timer;
        m_impl->groups.clear();
        m_impl->where.clear();
        delete m_impl->housekeeping;
        m_impl->housekeeping = nullptr;
        m_impl->continuations.clear();
        m_store.reset();  // closes the database on its thread
    }, Qt::BlockingQueuedConnection);
    m_context = nullptr;
    m_thread.quit();
    m_thread.wait();
}

void HistoryManager::run(std::function<void(HistoryStore&)> work) {
    if (!m_context) return;
    QMetaObject::invokeMethod(m_context, [this, work = std::move(work)] {
        if (m_store) work(*m_store);
    }, Qt::QueuedConnection);
}

void HistoryManager::runAndWait(std::function<void(HistoryStore&)> work) {
    if (!m_context) return;
    QMetaObject::invokeMethod(m_context, [this, &work] {
        if (m_store) work(*m_store);
    }, Qt::BlockingQueuedConnection);
}

bool HistoryManager::historizesEvents(const std::string& notifier) const { return m_eventNotifiers.count(notifier) != 0; }

bool HistoryManager::recordEvent(const EventPtr& e, const std::vector<std::string>& notifiers) {
    std::vector<std::string> kept;
    for (const std::string& n : notifiers)
        if (historizesEvents(n) && std::find(kept.begin(), kept.end(), n) == kept.end()) kept.push_back(n);
    if (kept.empty() || !m_context) return false;
    QMetaObject::invokeMethod(m_context, [this, e, kept = std::move(kept)] {
        if (m_events) m_events->record(e, kept);
    }, Qt::QueuedConnection);
    return true;
}

void HistoryManager::historize(const HistorizedNode& node, Reader reader) {
    {
        std::lock_guard lock(m_mutex);
        m_wanted[node.node.toString()] = {node, reader};
    }
    if (!m_context) return;
    QMetaObject::invokeMethod(m_context, [this, node, reader = std::move(reader)] {
        if (!m_store) return;
        // Out of whatever group it was in, into the one of its interval.
        const std::string key = node.node.toString();
        m_impl->remove(key);
        const int64_t interval = std::max<int64_t>(10, node.samplingIntervalMs == node.samplingIntervalMs && node.samplingIntervalMs < 86400000.0
                                                            ? int64_t(node.samplingIntervalMs) : 1000);
        Impl::Sampled s;
        s.node = node.node;
        s.series = m_store->series(node.node);
        s.reader = reader;
        m_store->setLimits(s.series, node.limits);
        Impl::Group& g = m_impl->groups[interval];
        m_impl->where[key] = {interval, g.nodes.size()};
        g.nodes.push_back(std::move(s));
        if (!g.timer) {
            g.timer = new QTimer(m_context);
            g.timer->setSingleShot(true);
            g.timer->setTimerType(Qt::PreciseTimer);
            QObject::connect(g.timer, &QTimer::timeout, m_context, [this, interval] { sample(interval); });
            g.timer->start(int(interval - nowMs() % interval));
        }
    }, Qt::QueuedConnection);
}

void HistoryManager::stopHistorizing(const NodeId& node) {
    {
        std::lock_guard lock(m_mutex);
        m_wanted.erase(node.toString());
    }
    if (!m_context) return;
    QMetaObject::invokeMethod(m_context, [this, node] {
        m_impl->remove(node.toString());
    }, Qt::QueuedConnection);
}

bool HistoryManager::isHistorized(const NodeId& node) const {
    std::lock_guard lock(m_mutex);
    return m_wanted.count(node.toString()) != 0;
}

HistoricalSettings HistoryManager::settingsOf(const NodeId& node) const {
    std::lock_guard lock(m_mutex);
    const auto it = m_wanted.find(node.toString());
    return it == m_wanted.end() ? HistoricalSettings{} : it->second.first.settings;
}

std::vector<HistorizedNode> HistoryManager::historized() const {
    std::lock_guard lock(m_mutex);
    std::vector<HistorizedNode> out;
    for (const auto& [key, w] : m_wanted) out.push_back(w.first);
    return out;
}

void HistoryManager::sample(int64_t intervalMs) {
    const auto it = m_impl->groups.find(intervalMs);
    if (it == m_impl->groups.end() || !m_store) return;
    Impl::Group& g = it->second;
    const int64_t now = nowMs();
    const DateTime sampledAt = DateTime::fromUnixMs(now);
    DataValue v;
    uint64_t stored = 0;
    for (Impl::Sampled& s : g.nodes) {
        if (!s.reader || !s.reader(v)) continue;
        if (!v.hasSourceTimestamp) {
            // No SourceTimestamp: a change is stored with the time it was seen.
            if (s.hasLast && v.value == s.last.value && v.status == s.last.status) continue;
            v.setSourceTimestamp(sampledAt);
        }
        if (!v.hasServerTimestamp) v.setServerTimestamp(sampledAt);
        if (m_store->append(s.series, v)) {
            s.last = v;
            s.hasLast = true;
            ++stored;
        }
    }
    m_sampled.fetch_add(stored, std::memory_order_relaxed);
    if (g.nodes.empty()) {
        g.timer->deleteLater();
        m_impl->groups.erase(it);
        return;
    }
    // The next absolute deadline after now (a late tick skips the deadlines it missed).
    const int64_t after = nowMs();
    g.timer->start(int(intervalMs - after % intervalMs));
}

void HistoryManager::flushSome() {
    // A few hundred blocks per turn of the event loop (tens of ms), then the sampling ticks due
    // meanwhile run before the next few hundred: 10,000 nodes due at once would otherwise hold
    // the thread for seconds and their samples would be missed.
    if (!m_store || m_store->flush(false, nowMs(), kFlushBlocksPerTurn) < kFlushBlocksPerTurn) return;
    QTimer::singleShot(0, m_context, [this] { flushSome(); });
}

void HistoryManager::housekeeping() {
    if (!m_store) return;
    const int64_t now = nowMs();
    flushSome();
    m_store->trim(DateTime::fromUnixMs(now).ticks);
    if (m_events) {
        m_events->flush();
        for (const auto& [notifier, maxAgeMs] : m_eventNotifiers)
            if (maxAgeMs > 0) m_events->trim(notifier, DateTime::fromUnixMs(now - maxAgeMs).ticks);
    }
    for (auto it = m_impl->continuations.begin(); it != m_impl->continuations.end();) {
        if (now - it->second.lastUsedMs > kContinuationIdleMs) it = m_impl->continuations.erase(it);
        else ++it;
    }
}

ByteString HistoryManager::saveContinuation(uint32_t sessionScope, HistoryContinuation c) {
    // At most maxContinuationPoints per Session: the oldest of this Session goes first.
    std::size_t ofSession = 0;
    auto oldest = m_impl->continuations.end();
    for (auto it = m_impl->continuations.begin(); it != m_impl->continuations.end(); ++it) {
        if (it->second.scope != sessionScope) continue;
        ++ofSession;
        if (oldest == m_impl->continuations.end() || it->second.seq < oldest->second.seq) oldest = it;
    }
    if (ofSession >= std::max<uint16_t>(m_config.maxContinuationPoints, 1) && oldest != m_impl->continuations.end())
        m_impl->continuations.erase(oldest);
    std::string id(16, '\0');
    QRandomGenerator::system()->fillRange(reinterpret_cast<uint32_t*>(id.data()), 4);
    Impl::Continuation& e = m_impl->continuations[id];
    e.scope = sessionScope;
    e.c = std::move(c);
    e.lastUsedMs = nowMs();
    e.seq = ++m_impl->seq;
    return ByteString(id);
}

std::optional<HistoryContinuation> HistoryManager::takeContinuation(uint32_t sessionScope, const ByteString& id) {
    const auto it = m_impl->continuations.find(std::string(id.view()));
    if (it == m_impl->continuations.end() || it->second.scope != sessionScope) return std::nullopt;
    HistoryContinuation c = std::move(it->second.c);
    m_impl->continuations.erase(it);
    return c;
}

} // namespace ua
