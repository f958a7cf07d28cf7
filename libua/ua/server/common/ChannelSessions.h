// The Sessions one connection has created or activated, looked up on its thread without a lock
// (the dispatcher tries them before the SessionManager). Owned by the ServerConnection; the Session
// service set adds and removes them (services/SessionService.h).
#pragma once

#include "ua/server/common/Session.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ua {

class ChannelSessions {
public:
    void remember(const SessionPtr& s) {
        for (const Entry& e : m_sessions)
            if (e.session == s) return;
        m_sessions.push_back(Entry{TokenKey::of(s->authenticationToken), s});
    }
    void forget(const SessionPtr& s) {
        m_sessions.erase(std::remove_if(m_sessions.begin(), m_sessions.end(), [&](const Entry& e) { return e.session == s; }),
                         m_sessions.end());
    }
    // Sessions remembered (closed ones not yet passed by find() included): tests and diagnostics.
    std::size_t size() const { return m_sessions.size(); }
    // Drops the closed ones it passes. The token is compared with the copy kept here, not with the
    // Session's (held in a block of its own: one more cold cache line per request at thousands of
    // Sessions, docs/Benchmarks.md "Cold lines per request").
    SessionPtr find(const NodeId& authenticationToken) {
        const TokenKey key = TokenKey::of(authenticationToken);
        for (auto it = m_sessions.begin(); it != m_sessions.end();) {
            if (it->session->closed) { it = m_sessions.erase(it); continue; }
            if (it->key.inlined || key.inlined ? it->key == key : it->session->authenticationToken == authenticationToken)
                return it->session;
            ++it;
        }
        return nullptr;
    }

private:
    // A Guid token (ours: 16 random bytes, SessionManager) or an opaque one of up to 32 bytes,
    // copied; any other is compared through its Session.
    struct TokenKey {
        uint8_t bytes[32];
        uint16_t ns = 0;
        uint8_t size = 0;
        NodeId::IdType type = NodeId::IdType::Numeric;
        bool inlined = false;
        static TokenKey of(const NodeId& id) {
            TokenKey k;
            if (id.idType() == NodeId::IdType::Guid) {
                static_assert(sizeof(Guid) == 16, "Guid's four fields without padding");
                std::memcpy(k.bytes, &id.guid(), sizeof(Guid));
                k.size = sizeof(Guid);
            } else if (id.idType() == NodeId::IdType::Opaque && !id.opaque().isNull() && id.opaque().size() <= sizeof k.bytes) {
                k.size = uint8_t(id.opaque().size());
                std::memcpy(k.bytes, id.opaque().data(), k.size);
            } else {
                return k;
            }
            k.inlined = true;
            k.type = id.idType();
            k.ns = id.namespaceIndex();
            return k;
        }
        bool operator==(const TokenKey& o) const {
            return inlined && o.inlined && type == o.type && ns == o.ns && size == o.size && std::memcmp(bytes, o.bytes, size) == 0;
        }
    };
    struct Entry {
        TokenKey key;
        SessionPtr session;
    };
    std::vector<Entry> m_sessions;
};

} // namespace ua
