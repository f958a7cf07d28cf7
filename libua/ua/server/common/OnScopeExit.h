// Runs a function when a scope ends, on every path out of it (ServiceSessions' activation marks).
#pragma once

#include <utility>

namespace ua {

// Runs f when the scope ends (e.g. after a handler filled its response).
template <class F>
class OnScopeExit {
public:
    explicit OnScopeExit(F f) : m_f(std::move(f)) {}
    ~OnScopeExit() { m_f(); }
    OnScopeExit(const OnScopeExit&) = delete;
    OnScopeExit& operator=(const OnScopeExit&) = delete;

private:
    F m_f;
};

} // namespace ua
