// Pieces of the benchmarks that drive a server with our ua::Client (bench_secure, bench_server_load):
// waiting while the event loop turns, opening many Sessions with a bounded number of handshakes in
// flight, the read-1 closed loop (each Client keeps one Read outstanding), medians and percentiles.
// Client callbacks run on the Clients' I/O threads (context nullptr): the counters are atomics and
// each loop slot's latencies are touched only by its Client's thread until the loop has drained.
#pragma once

#include "ua/client/Client.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ua::bench {

// Processes the calling thread's events until done() or timeoutMs; true when done() holds.
template <class F>
bool waitFor(F done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents();
        QThread::msleep(1);  // the work runs on the I/O threads: do not spin a core here
    }
    return done();
}

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The nearest-rank percentile p (0..100) of v; 0 for an empty v.
inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t rank = std::size_t(std::max(1.0, p / 100.0 * double(v.size()) + 0.5));
    return v[std::min(rank, v.size()) - 1];
}

inline int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Outcome of openSessions(): how many Sessions came up, and the failures by status name.
struct OpenResult {
    int ok = 0;
    int failed = 0;
    std::map<std::string, int> failures;
};

// connectToServer + createSession on every client, at most `window` handshakes at once (a burst of
// a thousand SYNs overflows the listen backlog and costs 1 s retransmits). progress(done, ok) is
// called about once a second from this thread. Returns when all finished or after timeoutMs.
inline OpenResult openSessions(const std::vector<Client*>& clients, const QString& url, int window, int timeoutMs,
                               const std::function<void(int, int)>& progress = {}) {
    struct Shared {
        std::atomic<int> ok{0}, failed{0}, inFlight{0};
        std::mutex mutex;
        std::map<std::string, int> failures;
        void fail(StatusCode s) {
            {
                std::lock_guard lock(mutex);
                ++failures[s.name()];
            }
            ++failed;
            --inFlight;
        }
    };
    auto sh = std::make_shared<Shared>();
    std::size_t next = 0;
    QElapsedTimer t, report;
    t.start();
    report.start();
    const int n = int(clients.size());
    while (sh->ok + sh->failed < n && t.elapsed() < timeoutMs) {
        while (next < clients.size() && sh->inFlight < window) {
            Client* c = clients[next++];
            ++sh->inFlight;
            c->connectToServer(url, nullptr, [sh, c](const ServiceResult<GetEndpointsResponse>& r) {
                if (!r.isGood()) return sh->fail(r.status);
                c->createSession(nullptr, [sh](const ServiceResult<CreateSessionResponse>& s) {
                    if (!s.isGood()) return sh->fail(s.status);
                    ++sh->ok;
                    --sh->inFlight;
                });
            });
        }
        QCoreApplication::processEvents();
        QThread::msleep(1);
        if (progress && report.elapsed() >= 1000) {
            progress(sh->ok + sh->failed, sh->ok);
            report.restart();
        }
    }
    OpenResult r;
    r.ok = sh->ok;
    r.failed = n - sh->ok;
    std::lock_guard lock(sh->mutex);
    r.failures = sh->failures;
    if (r.failed > sh->failed) r.failures["no answer"] += r.failed - sh->failed;
    return r;
}

// The read-1 closed loop: every client keeps one Read of `node` (Value) outstanding; a response
// sends the next request from the client's I/O thread. completed() counts Good responses,
// errors() the others; with latencies on, each response's round trip is kept (µs).
class ReadLoop {
public:
    ReadLoop(const std::vector<Client*>& clients, NodeId node, bool latencies)
        : m_node{std::move(node)}, m_latencies(latencies) {
        for (Client* c : clients) m_slots.push_back(std::make_unique<Slot>(Slot{c, 0, {}}));
    }
    ~ReadLoop() { stop(); }

    void start() {
        m_running = true;
        for (auto& s : m_slots) send(s.get());
    }
    // No new requests; waits (events turning) up to timeoutMs for the outstanding ones.
    bool stop(int timeoutMs = 5000) {
        m_running = false;
        return waitFor([this] { return m_inFlight.load() == 0; }, timeoutMs);
    }
    long completed() const { return m_completed.load(std::memory_order_relaxed); }
    long errors() const { return m_errors.load(std::memory_order_relaxed); }
    // Every latency recorded (µs); call after stop() returned true.
    std::vector<double> latenciesUs() const {
        std::vector<double> all;
        for (const auto& s : m_slots) all.insert(all.end(), s->latUs.begin(), s->latUs.end());
        return all;
    }

private:
    struct Slot {
        Client* client;
        int64_t sentNs;
        std::vector<double> latUs;
    };
    void send(Slot* s) {
        ++m_inFlight;
        s->sentNs = nowNs();
        s->client->readValues(m_node, nullptr, [this, s](const ServiceResult<ReadResponse>& r) {
            if (r.isGood() && !r.response.results.empty() && r.response.results[0].status.isGood()) {
                m_completed.fetch_add(1, std::memory_order_relaxed);
                if (m_latencies) s->latUs.push_back(double(nowNs() - s->sentNs) / 1000.0);
            } else {
                m_errors.fetch_add(1, std::memory_order_relaxed);
            }
            const bool again = m_running.load();
            --m_inFlight;
            if (again) send(s);
        });
    }

    std::vector<NodeId> m_node;
    bool m_latencies;
    std::vector<std::unique_ptr<Slot>> m_slots;
    std::atomic<bool> m_running{false};
    std::atomic<int> m_inFlight{0};
    std::atomic<long> m_completed{0}, m_errors{0};
};

} // namespace ua::bench
