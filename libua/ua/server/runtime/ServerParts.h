// The parts of a Server that its connections (ServerConnection.h) and the service dispatcher
// (ServiceDispatcher.h) use, by reference: made once by the Server (Server::parts()), so that
// neither of them includes Server.h (docs/Architecture.md "Layers"). The accessors are named as
// the Server's.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/common/SessionManager.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/runtime/AdmissionControl.h"
#include "ua/server/runtime/ServerConfig.h"
#include "ua/server/runtime/ServerIdentity.h"
#include "ua/server/runtime/ServerObject.h"

#include <atomic>
#include <memory>
#include <vector>

namespace ua {

class CertificateStore;
class EventManager;
class HistoryManager;
class UserStore;

class ServerParts {
public:
    struct Refs {
        const ServerConfig& config;
        AdmissionControl& admission;
        SessionManager& sessions;
        ServerDiagnostics& diagnostics;
        SharedAddressSpace& addressSpace;
        EventManager& events;
        UserStore& users;
        const ApplicationDescription& application;
        const SharedServerIdentity& identity;                // set by Server::start(), replaced by ApplyChanges
        const std::shared_ptr<CertificateStore>& userCertificates;  // set by Server::start()
        const ServerRuntimeState& runtime;
        std::atomic<int>& channelCount;
        std::atomic<uint32_t>& nextChannelId;
        HistoryManager* history = nullptr;  // null: no Historical Access
    };
    explicit ServerParts(Refs r) : m(r), channelCount(r.channelCount), nextChannelId(r.nextChannelId) {}

    const ServerConfig& config() const { return m.config; }
    AdmissionControl& admission() const { return m.admission; }
    SessionManager& sessions() const { return m.sessions; }
    ServerDiagnostics& diagnostics() const { return m.diagnostics; }
    SharedAddressSpace& addressSpace() const { return m.addressSpace; }
    uint64_t addressSpaceVersion() const { return m.addressSpace.version(); }
    UserStore& userStore() const { return m.users; }
    CertificateStore* userCertificateStore() const { return m.userCertificates.get(); }
    const ApplicationDescription& applicationDescription() const { return m.application; }
    // The certificate, key and endpoints now (ServerIdentity.h): keep the pointer for the request.
    std::shared_ptr<const ServerIdentity> identity() const { return m.identity.load(std::memory_order_acquire); }
    const ServerRuntimeState& runtime() const { return m.runtime; }
    HistoryManager* history() const { return m.history; }
    AuditContext audit() const { return AuditContext{m.config.auditing, m.events, m.config.applicationUri}; }

private:
    Refs m;

public:
    // The Server's counters (Server::channelCount, Server::nextChannelId).
    std::atomic<int>& channelCount;
    std::atomic<uint32_t>& nextChannelId;
};

} // namespace ua
