// Server-wide admission control and memory budgets (AdmissionConfig.h): counts of handshakes and
// Session establishments in progress, the bytes of incomplete chunked requests, and the counters
// of what was refused or paused (shown with the server's diagnostics). Any thread, lock-free:
// relaxed atomics, touched per connection or per establishment, never per request.
#pragma once

#include "ua/secure/ChunkBudget.h"
#include "ua/server/runtime/AdmissionConfig.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace ua {

class AdmissionControl {
public:
    AdmissionControl(const AdmissionConfig& admission, const BackpressureConfig& backpressure)
        : m_admission(admission), m_backpressure(backpressure),
          m_chunkBudget(std::make_shared<ChunkBudget>(backpressure.chunkBudgetBytes)) {}

    // A channel starts its handshake (its Hello): false when maxHandshakes are in progress.
    bool tryBeginHandshake();
    // Its handshake ended (Session activated, channel closed or handshakeTimeoutMs passed).
    void endHandshake() { m_handshakes.fetch_sub(1, std::memory_order_relaxed); }
    int handshakes() const { return m_handshakes.load(std::memory_order_relaxed); }

    // The bytes of incomplete chunked requests of all channels (shared with every SecureChannel;
    // its refusals() are the ERR Bad_TcpNotEnoughResources it caused).
    const std::shared_ptr<ChunkBudget>& chunkBudget() const { return m_chunkBudget; }

    const AdmissionConfig& admission() const { return m_admission; }
    const BackpressureConfig& backpressure() const { return m_backpressure; }

    // Counters since start (relaxed; any thread).
    struct Counters {
        std::atomic<uint64_t> busyChannels{0};    // ERR Bad_TcpServerTooBusy sent (handshakes or maxChannels)
        std::atomic<uint64_t> busySessions{0};    // CreateSession / ActivateSession answered Bad_ServerTooBusy
        std::atomic<uint64_t> handshakeTimeouts{0};  // handshakes that ended by handshakeTimeoutMs
        std::atomic<uint64_t> helloTimeouts{0};   // connections closed without a Hello (helloTimeoutMs)
        std::atomic<uint64_t> readPauses{0};      // a connection stopped reading (too many responses queued)
        std::atomic<uint64_t> readResumes{0};
        std::atomic<uint64_t> chunkTimeouts{0};   // ERR Bad_RequestTimeout (unfinished chunked request)
    };
    Counters& counters() { return m_counters; }
    const Counters& counters() const { return m_counters; }
    static void bump(std::atomic<uint64_t>& c) { c.fetch_add(1, std::memory_order_relaxed); }

private:
    AdmissionConfig m_admission;
    BackpressureConfig m_backpressure;
    std::atomic<int> m_handshakes{0};
    std::shared_ptr<ChunkBudget> m_chunkBudget;
    Counters m_counters;
};

} // namespace ua
