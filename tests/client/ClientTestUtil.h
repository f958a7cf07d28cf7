// Helpers for the Client tests: waiting for a callback's result while the test thread's event loop
// runs (the Client works on its own thread; scripted peers and proxies live in the test thread).
#pragma once

#include "ua/client/Client.h"

#include <QtTest>
#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace ua::test {

// The result of one callback: result.callback() goes to the Client, result.wait() processes events
// until it was called.
template <class T>
class Awaited {
public:
    std::function<void(const T&)> callback() {
        auto s = m_state;
        return [s](const T& v) {  // on the callback's context thread, maybe not the test's
            s->value = v;
            s->thread = QThread::currentThread();
            s->calls.fetch_add(1, std::memory_order_release);  // publishes value and thread
        };
    }
    bool wait(int timeoutMs = 15000) {
        return QTest::qWaitFor([this] { return has(); }, timeoutMs);
    }
    bool has() const { return m_state->calls.load(std::memory_order_acquire) > 0; }
    const T& operator*() const { return *m_state->value; }
    const T* operator->() const { return &*m_state->value; }
    int calls() const { return m_state->calls.load(std::memory_order_acquire); }
    QThread* thread() const { return m_state->thread; }

private:
    struct State {
        std::optional<T> value;
        std::atomic<int> calls{0};
        QThread* thread = nullptr;
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

// A numeric NodeId built without letting GCC 12 see a variant move it misreads
// (-Wmaybe-uninitialized false positive on NodeId assignments in loops).
inline NodeId numericNode(uint16_t ns, uint32_t id) {
    return *NodeId::parse("ns=" + std::to_string(ns) + ";i=" + std::to_string(id));
}

inline std::string statusName(StatusCode s) { return s.name(); }

// The endpoint URL of a Server of this process on the loopback address.
inline QString urlOf(quint16 port) { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port); }

// HEL, OPN, GetEndpoints, CreateSession, ActivateSession; Good or the first failure (Bad_Timeout
// when a step gets no answer). Callbacks run in context's thread (the test thread).
inline StatusCode connectSession(Client& client, const QString& url, QObject* context) {
    Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(url, context, c.callback());
    if (!c.wait()) return status::BadTimeout;
    if (c->status.isBad()) return c->status;
    Awaited<ServiceResult<CreateSessionResponse>> s;
    client.createSession(context, s.callback());
    if (!s.wait()) return status::BadTimeout;
    return s->status;
}

} // namespace ua::test

// QCOMPARE of StatusCodes prints their names. (Defined once: ServiceTestUtil.h and ClientTestUtil.h may meet in one unity batch.)
#ifndef UA_TEST_STATUSCODE_TO_STRING
#define UA_TEST_STATUSCODE_TO_STRING
namespace QTest {
template <>
inline char* toString(const ua::StatusCode& s) {
    return qstrdup(s.name().c_str());
}
} // namespace QTest
#endif
