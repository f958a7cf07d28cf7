// The Sessions one connection has created or activated, looked up on its thread without a lock
// (the dispatcher tries them before the SessionManager). Owned by the ServerConnection; the Session
// service set adds and removes them (services/SessionService.h).
#pragma once

#include "ua/server/common/Session.h"

#include <algorithm>
#include <vector>

namespace ua {

class ChannelSessions {
public:
    void remember(const SessionPtr& s) {
        if (std::find(m_sessions.begin(), m_sessions.end(), s) == m_sessions.end()) m_sessions.push_back(s);
    }
    void forget(const SessionPtr& s) { m_sessions.erase(std::remove(m_sessions.begin(), m_sessions.end(), s), m_sessions.end()); }
    // Drops the closed ones it passes.
    SessionPtr find(const NodeId& authenticationToken) {
        for (auto it = m_sessions.begin(); it != m_sessions.end();) {
            if ((*it)->closed) { it = m_sessions.erase(it); continue; }
            if ((*it)->authenticationToken == authenticationToken) return *it;
            ++it;
        }
        return nullptr;
    }

private:
    std::vector<SessionPtr> m_sessions;
};

} // namespace ua
