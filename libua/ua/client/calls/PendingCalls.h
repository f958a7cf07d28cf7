// The calls of a ClientCore that wait for their response (internal): the table of pending calls by
// RequestHandle (PendingTable), the calls waiting for the (re)connect, their deadlines
// (DeadlineQueues) and the timer that times them out. One thread: the Client's I/O thread.
//
// ClientCore decides where a new call goes (sent now, queued for the reconnect, failed) and what
// the Session's authenticationToken is; PendingCalls keeps the call, matches the response to it
// (by the RequestHandle of its ResponseHeader, checked against the RequestId it was sent under)
// and completes it: with the response, Bad_Timeout at its deadline, or what a lost connection or
// shutdown gives. Nothing here allocates per call in steady state (issue 9 target 10): slots,
// rings and completions are reused.
#pragma once

#include "ua/client/calls/DeadlineQueues.h"
#include "ua/client/calls/InplaceFunction.h"
#include "ua/client/calls/PendingTable.h"
#include "ua/client/channel/ClientConnection.h"
#include "ua/encoding/generated/Types.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>

class QObject;
class QTimer;

namespace ua {

class PendingCalls {
public:
    // What a call's RequestHeader gets when it is sent.
    struct HeaderFields {
        const NodeId* authenticationToken = nullptr;  // the Session's (not copied per request)
        uint32_t requestHandle = 0;
        uint32_t timeoutHint = 0;
    };
    // Encodes a queued call's request onto the connection under requestId (its copy of the request
    // is kept until then).
    using Sender = std::function<StatusCode(ClientConnection&, uint32_t requestId, const HeaderFields&)>;
    // Kept in place (no allocation per request): a call's completion holds its ServiceCallback.
    // receivedAtNs: ServiceResult::receivedAtNs (0 without a response).
    using Completion = InplaceFunction<void(StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size, int64_t receivedAtNs),
                                       sizeof(std::function<void()>)>;
    struct Call {
        Sender send;             // set only while the call is queued
        Completion done;
        uint32_t requestId = 0;  // 0 until sent on the current connection
        uint32_t timeoutMs = 0;
        uint32_t issued = 0;     // the order the calls were made in
        bool internal = false;   // the client's own (connect, activation, keep-alive): never queued
    };

    // owner: the parent of the deadline timer (the ClientCore). defaultTimeoutMs: a call's timeout
    // when it is made with 0 (ClientConfig::requestTimeoutMs).
    PendingCalls(QObject* owner, uint32_t defaultTimeoutMs);
    PendingCalls(const PendingCalls&) = delete;
    PendingCalls& operator=(const PendingCalls&) = delete;

    // Registers a call with its deadline; returns it (valid until it is completed; its completion
    // empty, for the caller to set) and sets handle (the RequestHandle). nullptr (handle 0) when
    // PendingTable::kMaxPending calls are pending already: the caller completes the call with
    // Bad_TooManyOperations.
    Call* add(uint32_t timeoutMs, bool internal, uint32_t& handle);
    static HeaderFields headerFields(const NodeId& authenticationToken, uint32_t handle, const Call& c) {
        HeaderFields h;
        h.authenticationToken = &authenticationToken;
        h.requestHandle = handle;
        h.timeoutHint = c.timeoutMs;
        return h;
    }
    static void fillHeader(RequestHeader& header, const HeaderFields& h);
    // After the send of call c under requestId: Bad s completes it (nothing was sent).
    void sent(uint32_t handle, Call& c, uint32_t requestId, StatusCode s);
    // The call (its Sender set) waits for the (re)connect; its deadline runs already.
    void queue(uint32_t handle) { m_queue.push_back(handle); }
    // Sends the queued calls in order on *connection (re-read before each: a send may lose it);
    // once it is gone or closed the rest keep waiting.
    void flushQueue(ClientConnection* const& connection, const NodeId& authenticationToken);
    void complete(uint32_t handle, StatusCode local, uint32_t typeId = 0, const uint8_t* body = nullptr, std::size_t size = 0,
                  int64_t receivedAtNs = 0);
    // A response (or a local failure of one) under requestId; receivedAtNs: when its bytes came.
    void onResponse(uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size, int64_t receivedAtNs);
    // Completes with status the calls sent on the connection (oldest first), the queued ones, or
    // every call (oldest first).
    void failSent(StatusCode status);
    void failQueued(StatusCode status);
    void failAll(StatusCode status);

    // The monotonic clock (ms) of the deadlines; precise (QElapsedTimer).
    static int64_t nowMs();

private:
    void sendQueued(ClientConnection& connection, const NodeId& authenticationToken, uint32_t handle);
    uint32_t handleOfRequestId(uint32_t requestId) const;  // 0: no call was sent under it
    // Completes, oldest first, the calls for which pick(call) is true.
    template <class Pick>
    void failInOrder(StatusCode status, Pick&& pick);
    void onDeadline();
    void armDeadlineTimer();

    uint32_t m_defaultTimeoutMs;
    PendingTable<Call> m_pending;  // by RequestHandle; slots reused: no allocation per call
    std::deque<uint32_t> m_queue;  // handles waiting for the (re)connect
    DeadlineQueues m_deadlines;    // the pending calls' deadlines
    uint32_t m_nextIssued = 0;     // Call::issued of the next call
    QTimer* m_deadlineTimer;
    int64_t m_deadlineArmedAtMs = 0;  // the deadline m_deadlineTimer fires for, while it is active
};

} // namespace ua
