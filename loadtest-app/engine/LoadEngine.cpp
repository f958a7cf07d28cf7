// The hot path of a step: see LoadEngine.h.
#include "LoadEngine.h"

#include "ua/encoding/generated/NodeIds.h"

#include <QThread>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

namespace ua::loadtest::detail {

int64_t steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

QString statusName(StatusCode s) {
    std::string n = s.name();
    for (const char* prefix : {"Bad", "Good", "Uncertain"}) {
        const std::size_t len = std::strlen(prefix);
        if (n.size() > len && n.compare(0, len, prefix) == 0 && std::isupper(static_cast<unsigned char>(n[len]))) {
            n.insert(len, "_");
            break;
        }
    }
    return QString::fromStdString(n);
}

qint64 currentThreadId() { return qint64(::syscall(SYS_gettid)); }

double threadCpuMs(qint64 tid) {
    if (tid <= 0) return -1;
    FILE* f = std::fopen(("/proc/self/task/" + std::to_string(tid) + "/stat").c_str(), "r");
    if (!f) return -1;
    char buf[1024] = {};
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    const char* p = std::strrchr(buf, ')');
    unsigned long long utime = 0, stime = 0;
    if (!p || std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
    return double(utime + stime) * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

std::vector<NodeId> numericNodes(uint16_t ns, uint32_t first, int count) {
    std::vector<NodeId> v;
    v.reserve(std::size_t(std::max(0, count)));
    for (int k = 0; k < count; ++k) v.emplace_back(ns, first + uint32_t(k));
    return v;
}

void Counts::merge(const Counts& o) {
    sent += o.sent;
    answered += o.answered;
    errors += o.errors;
    timeouts += o.timeouts;
    values += o.values;
    answeredInPeriod += o.answeredInPeriod;
    valuesInPeriod += o.valuesInPeriod;
    serverTooBusy += o.serverTooBusy;
    retries += o.retries;
    pacerWakeups += o.pacerWakeups;
    eventOverflows += o.eventOverflows;
    for (const auto& [k, v] : o.errorsByStatus) errorsByStatus[k] += v;
    latency.merge(o.latency);
}

namespace {

uint64_t nextRandom(uint64_t& x) {  // xorshift64
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

bool isTooBusy(StatusCode s) { return s == status::BadServerTooBusy || s == status::BadTcpServerTooBusy; }

// The Session cannot carry requests any more (no auto-reconnect): its loop stops, or it would
// spin on instant failures.
bool isLost(StatusCode s) {
    return s == status::BadConnectionClosed || s == status::BadServerNotConnected || s == status::BadNotConnected ||
           s == status::BadSecureChannelClosed || s == status::BadSessionClosed || s == status::BadSessionIdInvalid ||
           s == status::BadShutdown || s == status::BadDisconnect;
}

// Connect: retries of one cycle after Bad_TcpServerTooBusy / Bad_ServerTooBusy, and their delays:
// 50 ms doubling up to 5 s (about 30 s in all), so that a storm of 1,000 workers against a server
// that admits a few dozen handshakes at once gets through instead of failing after a second.
constexpr int kMaxBusyRetries = 12;
constexpr double kBusyFirstDelayMs = 50;
constexpr double kBusyMaxDelayMs = 5000;

} // namespace

// --- Read, Write, Browse ------------------------------------------------------------------------

void Engine::begin(Session& s) {
    if (p.scenario == Scenario::Connect) return startCycle(s);
    if (p.scenario == Scenario::Subscribe || p.scenario == Scenario::Events || openLoop) return;  // notifications / the pacer drive these
    const int64_t now = steadyNs();
    for (int i = 0; i < p.outstanding && sending.load(std::memory_order_relaxed); ++i) send(s, now);
}

int64_t Engine::intended(const Session& s, uint64_t k) const {
    // The whole schedule sends request j at loadStart + j / rate; Session i has j = k * sessions + i.
    return loadStartNs + int64_t((double(k) * double(p.sessions) + double(s.index)) * nsPerRequest);
}

void Engine::fill(Session& s, int64_t now) {
    if (s.lost) return;
    const int64_t end = measureEndNs.load(std::memory_order_relaxed);
    IoStats& io = *s.io;
    while (s.inFlight < p.outstanding) {
        const int64_t t = intended(s, s.nextK);
        if (t > now || t >= end) break;
        if (passed(io, s, s.nextK)) --io.unsent;
        ++s.nextK;
        send(s, t);
    }
    io.backlog.store(std::max<int64_t>(0, io.unsent), std::memory_order_relaxed);
}

void Engine::dropFromSchedule(Session& s) {
    if (!openLoop) return;
    IoStats& io = *s.io;
    const uint64_t passedCount = io.round + (s.pacedAt < io.cursor ? 1 : 0);
    if (passedCount > s.nextK) io.unsent -= int64_t(passedCount - s.nextK);
    io.backlog.store(std::max<int64_t>(0, io.unsent), std::memory_order_relaxed);
}

uint64_t Engine::unsentDue(const Session& s) const {
    // A lost Session stopped its schedule (the step says connectionBroken): nothing more is due.
    if (!openLoop || nsPerRequest <= 0 || s.lost) return 0;
    // k with measureStart <= intended(s, k) < measureEnd, from s.nextK on.
    // The first k with intended(s, k) >= ns, by the same arithmetic as intended() (which fill()
    // and send() compare with the period's bounds): the division estimates it, and rounding can
    // put that one entry off, which then counted as due and unsent, a timeout nothing had sent.
    auto firstK = [&](int64_t ns) {
        const double estimate = (double(ns - loadStartNs) / nsPerRequest - double(s.index)) / double(p.sessions);
        int64_t k = int64_t(std::max(0.0, std::ceil(estimate)));
        while (k > 0 && intended(s, uint64_t(k - 1)) >= ns) --k;
        while (intended(s, uint64_t(k)) < ns) ++k;
        return k;
    };
    const int64_t from = std::max<int64_t>(firstK(measureStartNs.load()), int64_t(s.nextK));
    const int64_t to = firstK(measureEndNs.load());
    return to > from ? uint64_t(to - from) : 0;
}

void Engine::startPacing(IoStats& io) {
    io.paced.clear();
    for (auto& sp : sessions)
        if (sp->io == &io) {
            sp->pacedAt = io.paced.size();
            io.paced.push_back(sp.get());
        }
    io.cursor = 0;
    io.round = 0;
    io.unsent = 0;
    pace(io);
}

void Engine::pace(IoStats& io) {
    if (!sending.load(std::memory_order_relaxed) || io.paced.empty()) return;
    ++io.measured.pacerWakeups;
    const int64_t now = steadyNs();
    const int64_t end = measureEndNs.load(std::memory_order_relaxed);
    int64_t next = kNever;
    for (;;) {
        Session& s = *io.paced[io.cursor];
        const uint64_t k = io.round;
        const int64_t t = intended(s, k);
        if (t >= end) break;
        if (t > now) {
            next = t;
            break;
        }
        if (++io.cursor == io.paced.size()) {
            io.cursor = 0;
            ++io.round;
        }
        if (s.lost) continue;
        // The entry just passed is unsent unless an answer already let the Session send it.
        if (s.nextK <= k) ++io.unsent;
        fill(s, now);
    }
    io.backlog.store(std::max<int64_t>(0, io.unsent), std::memory_order_relaxed);
    // Armed for the next entry (ms resolution: rounded up, so never early); none after the end.
    if (next != kNever && io.pacer) io.pacer->start(int((next - now + 999'999) / 1'000'000));
}

void Engine::send(Session& s, int64_t fromNs) {
    const bool counted = fromNs >= measureStartNs.load(std::memory_order_relaxed) && fromNs < measureEndNs.load(std::memory_order_relaxed);
    ++s.inFlight;
    s.io->addInFlight(1);
    if (counted) ++s.io->measured.sent;
    // The callback captures 16 bytes (the Session, and the start time with `counted` in its lowest
    // bit), so that std::function keeps it without allocating.
    Session* sp = &s;
    const int64_t tag = (fromNs & ~int64_t(1)) | int64_t(counted);
    switch (p.scenario) {
    case Scenario::Read: {
        // A different subset each time: valuesPerRequest consecutive variables from a random one.
        // The request is reused (the client encodes it in place): the thread's prebuilt one for
        // that start, or the Session's with its NodeIds set now.
        const std::size_t n = variables.size();
        const std::size_t start = std::size_t(nextRandom(s.rng) % n);
        std::vector<ReadRequest>& reads = s.io->reads;
        if (reads.empty() && n * std::size_t(p.valuesPerRequest) <= kMaxPrebuiltValues) {
            reads.resize(n);
            for (std::size_t k = 0; k < n; ++k) setReadNodes(reads[k], k);
        }
        ReadRequest& r = reads.empty() ? s.readRequest : reads[start];
        if (reads.empty()) setReadNodes(r, start);
        s.client->readInPlace(r, nullptr, [sp, tag](const ServiceResult<ReadResponse>& res) {
            StatusCode st = res.status;
            for (std::size_t i = 0; st.isGood() && i < res.response.results.size(); ++i)
                if (res.response.results[i].status.isBad()) st = res.response.results[i].status;
            sp->engine->ended(*sp, tag, st, res.response.results.size(), res.receivedAtNs);
        }, p.requestTimeoutMs);
        break;
    }
    case Scenario::Write: {
        WriteRequest w;
        w.nodesToWrite.resize(std::size_t(p.valuesPerRequest));
        const std::size_t n = variables.size();
        std::size_t k = std::size_t(nextRandom(s.rng) % n);
        for (WriteValue& v : w.nodesToWrite) {
            v.nodeId = variables[k];
            v.attributeId = uint32_t(AttributeId::Value);
            v.value = DataValue(Variant(int32_t(++s.writeValue)));
            if (++k == n) k = 0;
        }
        s.client->write(std::move(w), nullptr, [sp, tag](const ServiceResult<WriteResponse>& res) {
            StatusCode st = res.status;
            for (std::size_t i = 0; st.isGood() && i < res.response.results.size(); ++i)
                if (res.response.results[i].isBad()) st = res.response.results[i];
            sp->engine->ended(*sp, tag, st, res.response.results.size(), res.receivedAtNs);
        }, p.requestTimeoutMs);
        break;
    }
    case Scenario::Browse: {
        BrowseRequest b;
        BrowseDescription d;
        d.nodeId = browseNode;
        d.browseDirection = BrowseDirection::Both;
        d.referenceTypeId = NodeId(id::References);
        d.includeSubtypes = true;
        d.nodeClassMask = 0;
        d.resultMask = 0x3f;  // every field of the ReferenceDescription
        b.nodesToBrowse.push_back(std::move(d));
        s.client->browse(std::move(b), BrowseOptions{}, nullptr, [sp, tag](const ServiceResult<BrowseResponse>& res) {
            StatusCode st = res.status;
            uint64_t refs = 0;
            for (const BrowseResult& r : res.response.results) {
                if (st.isGood() && r.statusCode.isBad()) st = r.statusCode;
                refs += r.references.size();
            }
            sp->engine->ended(*sp, tag, st, refs, res.receivedAtNs);
        }, p.requestTimeoutMs);
        break;
    }
    case Scenario::HistoryRead: {
        // valuesPerRequest consecutive history nodes from a random one (wrapping), Read Raw forward
        // from now - span; the client releases a ContinuationPoint left (maxValues) before this
        // completes. Values count the DataValues of every node.
        std::vector<NodeId> nodes(std::size_t(p.valuesPerRequest));
        std::size_t k = std::size_t(nextRandom(s.rng) % historyNodes.size());
        for (NodeId& n : nodes) {
            n = historyNodes[k];
            if (++k == historyNodes.size()) k = 0;
        }
        ReadRawModifiedDetails d;
        d.isReadModified = false;
        d.startTime = DateTime{DateTime::now().ticks - int64_t(p.historySpanS * 1e7)};
        d.endTime = DateTime::minValue();  // not given: forward from startTime, numValuesPerNode of them
        d.numValuesPerNode = uint32_t(p.historyValuesPerNode);
        d.returnBounds = false;
        HistoryReadOptions o;
        o.maxValues = uint64_t(p.historyValuesPerNode);
        s.client->historyReadRaw(nodes, d, o, nullptr, [sp, tag](const ServiceResult<HistoryValues>& res) {
            StatusCode st = res.status;
            uint64_t values = 0;
            for (const HistoryNodeValues& n : res.response.nodes) {
                if (st.isGood() && n.status.isBad()) st = n.status;
                values += n.values.size();
            }
            sp->engine->ended(*sp, tag, st, values, res.receivedAtNs);
        }, p.requestTimeoutMs);
        break;
    }
    case Scenario::Subscribe:
    case Scenario::Connect:
    case Scenario::Events:
        break;
    }
}

void Engine::setReadNodes(ReadRequest& r, std::size_t start) const {
    if (r.nodesToRead.size() != std::size_t(p.valuesPerRequest)) {
        r.maxAge = 0;
        r.timestampsToReturn = TimestampsToReturn::Both;
        r.nodesToRead.resize(std::size_t(p.valuesPerRequest));
        for (ReadValueId& v : r.nodesToRead) v.attributeId = uint32_t(AttributeId::Value);
    }
    std::size_t k = start;
    for (ReadValueId& v : r.nodesToRead) {
        v.nodeId = variables[k];
        if (++k == variables.size()) k = 0;
    }
}

void Engine::record(IoStats& io, int64_t fromNs, int64_t now, bool counted, StatusCode status, uint64_t values) {
    const double us = double(now - fromNs) / 1000.0;
    const bool timeout = status == status::BadTimeout;
    const int bucket = LatencyHistogram::bucketIndex(us);  // once for both histograms
    if (status.isGood() && now >= measureStartNs.load(std::memory_order_relaxed) && now < measureEndNs.load(std::memory_order_relaxed)) {
        ++io.measured.answeredInPeriod;
        io.measured.valuesInPeriod += values;
    }
    for (Counts* c : {&io.second, counted ? &io.measured : nullptr}) {
        if (!c) continue;
        if (status.isGood()) {
            ++c->answered;
            c->values += values;
            c->latency.recordIn(bucket, us);
        } else if (timeout) {
            ++c->timeouts;
        } else {
            ++c->errors;
            ++c->errorsByStatus[statusName(status)];
        }
    }
}

void Engine::ended(Session& s, int64_t tag, StatusCode status, uint64_t values, int64_t receivedAtNs) {
    // The response's arrival (the client's clock read once per socket read; one read of our own
    // when the call ended without a response) is also the send time of the request that follows
    // it: no clock read per response (that was 5 % of the generator's CPU at read-1 10x100).
    const int64_t now = receivedAtNs ? receivedAtNs : steadyNs();
    record(*s.io, tag & ~int64_t(1), now, (tag & 1) != 0, status, values);
    --s.inFlight;
    s.io->addInFlight(-1);
    if (isLost(status) && !s.lost) {
        s.lost = true;
        dropFromSchedule(s);
    }
    if (!sending.load(std::memory_order_relaxed) || s.lost) return;
    if (openLoop) fill(s, now);  // a free slot: the next due request goes at once
    else if (now < measureEndNs.load(std::memory_order_relaxed)) send(s, now);
}

// --- Subscribe ----------------------------------------------------------------------------------

void Engine::notified(Session& s, const SubscriptionNotification& n) {
    const int64_t now = steadyNs();
    const bool counted = now >= measureStartNs.load(std::memory_order_relaxed) && now < measureEndNs.load(std::memory_order_relaxed);
    // Latency: from the message's PublishTime (the server's clock, on this machine the same) to
    // now (µs; a PublishTime often has ms resolution); not recorded when the server sent none or
    // one that is not within an hour of now (node-opcua 2.186 sends the null DateTime 1601-01-01).
    const int64_t nowTicks = DateTime::kUnixEpochTicks +
                             std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count() * 10;
    constexpr int64_t kHourTicks = 36'000'000'000;
    const bool timed = n.publishTime.ticks > 0 && std::abs(nowTicks - n.publishTime.ticks) < kHourTicks;
    const double us = timed ? std::max(0.0, double(nowTicks - n.publishTime.ticks) / 10.0) : 0;
    for (Counts* c : {&s.io->second, counted ? &s.io->measured : nullptr}) {
        if (!c) continue;
        if (c == &s.io->measured) {
            ++c->sent;
            ++c->answeredInPeriod;  // counted by arrival: inside the period
            c->valuesInPeriod += n.dataChanges.size();
        }
        ++c->answered;
        c->values += n.dataChanges.size();
        if (timed) c->latency.record(us);
    }
    for (const MonitoredItemNotification& m : n.dataChanges) {
        if (m.clientHandle == 0 || m.clientHandle > s.items.size()) continue;
        ItemSamples& item = s.items[m.clientHandle - 1];
        const int64_t ticks = m.value.sourceTimestamp.ticks;
        if (item.lastTicks >= 0 && ticks > item.lastTicks) s.minStepTicks = std::min(s.minStepTicks, ticks - item.lastTicks);
        if (counted) {
            if (item.received == 0) item.firstTicks = ticks;
            ++item.received;
        }
        if (counted || item.received == 0) item.lastTicks = ticks;
    }
}

// --- Events -------------------------------------------------------------------------------------

void Engine::eventsNotified(Session& s, const SubscriptionNotification& n) {
    const int64_t now = steadyNs();
    const bool counted = now >= measureStartNs.load(std::memory_order_relaxed) && now < measureEndNs.load(std::memory_order_relaxed);
    // Latency: from the event's Time (the server's clock, on this machine the same) to now, µs; not
    // recorded for a Time that is not within an hour of now (none, or a server with another clock).
    const int64_t nowTicks = DateTime::kUnixEpochTicks +
                             std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count() * 10;
    constexpr int64_t kHourTicks = 36'000'000'000;
    static const NodeId overflowType(id::EventQueueOverflowEventType);
    const uint64_t first = firstSequence.load(std::memory_order_relaxed);
    uint64_t events = 0, overflows = 0;
    uint64_t last = s.lastSequence.load(std::memory_order_relaxed);
    Counts* counts[] = {&s.io->second, counted ? &s.io->measured : nullptr};
    for (const EventFieldList& f : n.events) {
        const Array<Variant>& v = f.eventFields;
        if (v.size() < kEventFieldCount) continue;
        if (const NodeId* type = v[kEventType].get<NodeId>(); type && *type == overflowType) {
            ++overflows;
            continue;
        }
        ++events;
        if (const DateTime* t = v[kEventTime].get<DateTime>(); t && std::abs(nowTicks - t->ticks) < kHourTicks) {
            const double us = std::max(0.0, double(nowTicks - t->ticks) / 10.0);
            const int bucket = LatencyHistogram::bucketIndex(us);
            for (Counts* c : counts)
                if (c) c->latency.recordIn(bucket, us);
        }
        const uint64_t* sequence = v[kEventSequence].get<uint64_t>();
        if (!sequence || first == 0 || *sequence < first) continue;  // not of this step's load
        if (*sequence <= last) {
            ++s.eventsOutOfOrder;
            continue;
        }
        ++s.eventsReceived;
        last = *sequence;
    }
    s.lastSequence.store(last, std::memory_order_relaxed);
    for (Counts* c : counts) {
        if (!c) continue;
        if (c == &s.io->measured) {
            ++c->sent;
            ++c->answeredInPeriod;  // counted by arrival: inside the period
            c->valuesInPeriod += events;
        }
        ++c->answered;
        c->values += events;
        c->eventOverflows += overflows;
    }
}

// --- Connect ------------------------------------------------------------------------------------

void Engine::startCycle(Session& s) {
    const int64_t now = steadyNs();
    if (!sending.load(std::memory_order_relaxed) || now >= measureEndNs.load(std::memory_order_relaxed)) return;
    s.cycleStartNs = now;
    s.cycleCounted = now >= measureStartNs.load(std::memory_order_relaxed);
    s.busyAttempts = 0;
    s.io->addInFlight(1);
    if (s.cycleCounted) ++s.io->measured.sent;
    attempt(s);
}

void Engine::attempt(Session& s) {
    Session* sp = &s;
    s.client->connectToServer(p.endpointUrl, nullptr, [this, sp](const ServiceResult<GetEndpointsResponse>& r) {
        if (isTooBusy(r.status)) return busy(*sp, r.status);
        if (r.status.isBad()) return endCycle(*sp, r.status);
        sp->client->createSession(nullptr, [this, sp](const ServiceResult<CreateSessionResponse>& c) {
            if (isTooBusy(c.status)) return busy(*sp, c.status);
            if (c.status.isBad()) return endCycle(*sp, c.status);
            // CloseSession + CloseSecureChannel.
            sp->client->disconnectFromServer(nullptr, [this, sp](StatusCode closed) { endCycle(*sp, closed); });
        });
    });
}

void Engine::busy(Session& s, StatusCode status) {
    Counts* counts[] = {&s.io->second, s.cycleCounted ? &s.io->measured : nullptr};
    for (Counts* c : counts)
        if (c) ++c->serverTooBusy;
    Session* sp = &s;
    if (s.busyAttempts >= kMaxBusyRetries || !sending.load(std::memory_order_relaxed)) {
        s.client->disconnectFromServer(nullptr, [this, sp, status](StatusCode) { endCycle(*sp, status); });
        return;
    }
    for (Counts* c : counts)
        if (c) ++c->retries;
    // Back off as the server asks: 50 ms doubling per retry up to 5 s, +-20 % jitter, then the
    // whole cycle again.
    const double base = std::min(kBusyMaxDelayMs, kBusyFirstDelayMs * double(1 << s.busyAttempts++));
    const double jitter = 0.8 + 0.4 * double(nextRandom(s.rng) % 1000) / 1000.0;
    const int delayMs = int(base * jitter);
    s.client->disconnectFromServer(nullptr, [this, sp, delayMs](StatusCode) {
        QTimer::singleShot(delayMs, sp->io->anchor, [this, sp] {
            if (sending.load(std::memory_order_relaxed)) {
                attempt(*sp);
                return;
            }
            // The step is closing (its Clients may be gone already: a back-off of up to 5 s
            // outlives the drain): the cycle ends as refused without touching the Client.
            record(*sp->io, sp->cycleStartNs, steadyNs(), sp->cycleCounted, status::BadServerTooBusy, 0);
            sp->io->addInFlight(-1);
        });
    });
}

void Engine::endCycle(Session& s, StatusCode status) {
    if (status.isBad() && s.client->state() != ClientState::Disconnected) {
        Session* sp = &s;
        s.client->disconnectFromServer(nullptr, [this, sp, status](StatusCode) { endCycle(*sp, status); });
        return;
    }
    record(*s.io, s.cycleStartNs, steadyNs(), s.cycleCounted, status, status.isGood() ? 1 : 0);
    s.io->addInFlight(-1);
    startCycle(s);
}

} // namespace ua::loadtest::detail
