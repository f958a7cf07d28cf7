#include "ua/client/calls/PendingCalls.h"

#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

namespace ua {

namespace {

int64_t preciseNowMs() {
    static const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

// The clocks of a call's deadline and of its RequestHeader's timestamp, read once per call: the
// coarse clocks (a few ms of resolution, no time-stamp counter read; the precise ones were 7 % of
// the load tester's CPU at read-1 10x100 on this machine's virtual clock).
struct CoarseClocks {
    int64_t resolutionMs = 0;
    CoarseClocks() {
        timespec r{};
        clock_getres(CLOCK_MONOTONIC_COARSE, &r);
        resolutionMs = int64_t(r.tv_sec) * 1000 + (r.tv_nsec + 999'999) / 1'000'000;
    }
    static int64_t monotonicMs() {
        timespec t{};
        clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
        return int64_t(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
    }
    static DateTime utcNow() {
        timespec t{};
        clock_gettime(CLOCK_REALTIME_COARSE, &t);
        return DateTime{DateTime::kUnixEpochTicks + int64_t(t.tv_sec) * 10'000'000 + t.tv_nsec / 100};
    }
};
const CoarseClocks& coarseClocks() {
    static const CoarseClocks c;
    return c;
}

// nowMs() (QElapsedTimer's monotonic clock) from the coarse monotonic clock: the offset between
// them, taken once. A deadline from it lies at most the coarse resolution later than a precise
// one would, never earlier.
int64_t coarseNowMs() {
    static const int64_t offset = [] { return preciseNowMs() - CoarseClocks::monotonicMs(); }();
    return CoarseClocks::monotonicMs() + offset + coarseClocks().resolutionMs;
}

} // namespace

int64_t PendingCalls::nowMs() {
    return preciseNowMs();
}

PendingCalls::PendingCalls(QObject* owner, uint32_t defaultTimeoutMs)
    : m_defaultTimeoutMs(defaultTimeoutMs), m_deadlineTimer(new QTimer(owner)) {
    m_deadlineTimer->setSingleShot(true);
    m_deadlineTimer->setTimerType(Qt::PreciseTimer);
    QObject::connect(m_deadlineTimer, &QTimer::timeout, m_deadlineTimer, [this] { onDeadline(); });
}

PendingCalls::Call* PendingCalls::add(uint32_t timeoutMs, bool internal, uint32_t& handle) {
    Call* c = m_pending.emplace(handle);  // filled in place: no Call moved in and destroyed
    if (!c) return nullptr;               // the table is full
    c->timeoutMs = timeoutMs ? timeoutMs : m_defaultTimeoutMs;
    const int64_t deadlineMs = coarseNowMs() + c->timeoutMs;
    c->issued = m_nextIssued++;
    c->internal = internal;
    m_deadlines.add(c->timeoutMs, handle, deadlineMs, [this](uint32_t h) { return m_pending.contains(h); });
    if (!m_deadlineTimer->isActive() || deadlineMs < m_deadlineArmedAtMs) armDeadlineTimer();
    return c;
}

void PendingCalls::fillHeader(RequestHeader& header, const HeaderFields& h) {
    header.authenticationToken = *h.authenticationToken;
    header.timestamp = CoarseClocks::utcNow();  // when it was sent, to the coarse clock's few ms
    header.requestHandle = h.requestHandle;
    header.timeoutHint = h.timeoutHint;
}

void PendingCalls::sent(uint32_t handle, Call& c, uint32_t requestId, StatusCode s) {
    if (s.isBad()) {
        complete(handle, s);  // e.g. Bad_RequestTooLarge: nothing was sent
        return;
    }
    c.requestId = requestId;
}

void PendingCalls::sendQueued(ClientConnection& connection, const NodeId& authenticationToken, uint32_t handle) {
    Call* found = m_pending.find(handle);
    if (!found) return;
    Call& c = *found;
    const uint32_t requestId = connection.nextRequestId();
    const StatusCode s = c.send(connection, requestId, headerFields(authenticationToken, handle, c));
    c.send = nullptr;  // the request is on its way: its copy is not needed any more
    sent(handle, c, requestId, s);
}

void PendingCalls::flushQueue(ClientConnection* const& connection, const NodeId& authenticationToken) {
    std::deque<uint32_t> queue;
    queue.swap(m_queue);
    for (uint32_t h : queue) {
        if (!connection || !connection->isOpen()) {  // lost again while flushing: keep the rest waiting
            if (m_pending.find(h)) m_queue.push_back(h);
            continue;
        }
        sendQueued(*connection, authenticationToken, h);
    }
}

void PendingCalls::complete(uint32_t handle, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size,
                            int64_t receivedAtNs) {
    Call* c = m_pending.find(handle);
    if (!c) return;
    // Only the completion is moved out (not the whole call with its Sender): the slot is free
    // before it runs, since it may make calls or complete others.
    Completion done = std::move(c->done);
    m_pending.erase(handle);
    // Its deadline and, if queued, its handle in m_queue are dropped when they come to the front.
    if (done) done(local, typeId, body, size, receivedAtNs);
}

// The response under a RequestId must answer the call sent under it: its ResponseHeader
// (Timestamp, then RequestHandle, OPC 10000-4 7.33) names that call's handle. Another call's handle
// is a broken or hostile server: Bad_UnknownResponse, and nothing of the body is taken. A
// ServiceFault may carry 0 (a server that could not decode the RequestHeader).
void PendingCalls::onResponse(uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size,
                              int64_t receivedAtNs) {
    if (requestId == 0) return;  // never one of ours (ClientConnection counts from 1)
    uint32_t named = 0;
    const bool hasHeader = local.isGood() && size >= 12;
    if (hasHeader) {
        std::memcpy(&named, body + 8, 4);
        const Call* c = m_pending.find(named);
        if (c && c->requestId == requestId) {  // the usual case
            complete(named, local, typeId, body, size, receivedAtNs);
            return;
        }
    }
    const uint32_t handle = handleOfRequestId(requestId);
    if (!handle) return;  // timed out already, or not ours
    if (hasHeader && !(named == 0 && typeId == ServiceFault::kBinaryEncodingId)) {
        complete(handle, status::BadUnknownResponse);
        return;
    }
    complete(handle, local, typeId, body, size, receivedAtNs);
}

uint32_t PendingCalls::handleOfRequestId(uint32_t requestId) const {
    uint32_t found = 0;
    m_pending.forEach([&](uint32_t handle, const Call& c) {
        if (c.requestId == requestId) found = handle;
    });
    return found;
}

// The timer is re-armed only when a deadline comes before the one it is armed for: with requests
// answered in time (the usual case) it fires about once per timeout period and finds nothing due,
// instead of being stopped and started for every request (a timer registration each time). An
// empty set leaves it armed: firing then costs one look.
void PendingCalls::armDeadlineTimer() {
    const int64_t earliest = m_deadlines.earliest([this](uint32_t h) { return m_pending.contains(h); });
    if (earliest == DeadlineQueues::kNone) return;
    if (m_deadlineTimer->isActive() && m_deadlineArmedAtMs <= earliest) return;
    const int64_t wait = std::max<int64_t>(0, earliest - nowMs());
    m_deadlineTimer->start(int(std::min<int64_t>(wait, 0x7FFFFFFF)));
    m_deadlineArmedAtMs = earliest;
}

void PendingCalls::onDeadline() {
    std::vector<uint32_t> due;
    m_deadlines.takeDue(nowMs(), [this](uint32_t h) { return m_pending.contains(h); }, due);
    for (uint32_t h : due) complete(h, status::BadTimeout);  // a late response is dropped (unknown requestId)
    armDeadlineTimer();
}

template <class Pick>
void PendingCalls::failInOrder(StatusCode s, Pick&& pick) {
    std::vector<std::pair<uint32_t, uint32_t>> calls;  // (issued, handle)
    m_pending.forEach([&](uint32_t handle, const Call& c) {
        if (pick(c)) calls.emplace_back(c.issued - m_nextIssued, handle);  // oldest first, across a wrap too
    });
    std::sort(calls.begin(), calls.end());  // in the order they were issued
    for (const auto& [issued, h] : calls) complete(h, s);
}

void PendingCalls::failSent(StatusCode s) {
    failInOrder(s, [](const Call& c) { return c.requestId != 0; });
}

void PendingCalls::failAll(StatusCode s) {
    failInOrder(s, [](const Call&) { return true; });
}

void PendingCalls::failQueued(StatusCode s) {
    std::deque<uint32_t> queue;
    queue.swap(m_queue);
    for (uint32_t h : queue) complete(h, s);
}

} // namespace ua
