// Server.ServerDiagnostics in the address space (OPC 10000-5 6.3.3 ServerDiagnosticsType, 6.3.4
// SessionsDiagnosticsSummaryType, 6.3.5 SessionDiagnosticsObjectType, the VariableTypes of clause 7
// and the DataTypes of clause 12). Every value comes from a callback reading ServerDiagnostics:
//   - ServerDiagnosticsSummary and its 12 children: ServerDiagnostics::summary(), live;
//   - SessionDiagnosticsArray, SessionSecurityDiagnosticsArray: ServerDiagnostics::sessionsNow()
//     (counters at most 100 ms old, the list of Sessions current); Read needs the SecurityAdmin
//     Role (RolePermissions; others get Bad_UserAccessDenied);
//   - SubscriptionDiagnosticsArray, SamplingIntervalDiagnosticsArray: the latest snapshot, a new
//     one started when it is older than 500 ms (so a value is at most about a second old);
//   - EnabledFlag: ServerDiagnostics::enabled(); writable by SecurityAdmin and ConfigureAdmin
//     (others: Bad_UserAccessDenied). While false the arrays are empty and there are no
//     SessionDiagnosticsObjects; ServerDiagnosticsSummary keeps counting.
// One SessionDiagnosticsObject per open Session under SessionsDiagnosticsSummary (for at most
// ServerConfig::maxSessionDiagnosticsObjects Sessions, the first ones seen; a Session beyond gets its
// object when one of those closes: the placeholder is optional, and every Session is in
// SessionDiagnosticsArray whatever the limit), its NodeId the
// sessionId (OPC 10000-4 5.7.2), its BrowseName (ns 1) the sessionName, with SessionDiagnostics
// (and a child per field, every ServiceCounter included), SessionSecurityDiagnostics (and its
// children; SecurityAdmin only) and SubscriptionDiagnosticsArray; the child NodeIds are strings in
// ns 1, "<sessionId guid>.SessionDiagnostics.ReadCount". SessionDiagnosticsNodes adds and removes
// them in batches: one address-space copy per timer tick at most (every 250 ms), whatever the
// number of Sessions created or closed meanwhile.
#pragma once

#include "ua/server/common/Session.h"
#include "ua/types/StatusCode.h"

#include <QObject>
#include <map>
#include <vector>

class QTimer;

namespace ua {

class AddressSpace;
class ServerDiagnostics;
class SessionManager;
class SharedAddressSpace;

// Sets the callbacks, RolePermissions and AccessLevels of the namespace-0 nodes of
// Server.ServerDiagnostics. Bad_NodeIdUnknown when namespace 0 lacks them.
StatusCode installDiagnosticsNodes(AddressSpace& space, ServerDiagnostics& diagnostics);

// The per-Session objects, reconciled on a timer of the thread it lives on (the server's accept
// thread). tick() runs one reconciliation (on that thread).
class SessionDiagnosticsNodes : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 250;
    // Objects for at most maxObjects Sessions (ServerConfig::maxSessionDiagnosticsObjects), published
    // in space; all four outlive it.
    SessionDiagnosticsNodes(ServerDiagnostics& diagnostics, SessionManager& sessions, SharedAddressSpace& space,
                            int maxObjects, QObject* parent = nullptr);
    void tick();
    // Address-space updates published so far (one per tick that had something to change).
    int updates() const { return m_updates; }

private:
    ServerDiagnostics& m_diagnostics;
    SessionManager& m_sessions;
    SharedAddressSpace& m_space;
    int m_maxObjects;
    QTimer* m_timer;
    uint32_t m_version = ~0u;
    bool m_enabled = true;
    std::map<NodeId, std::vector<NodeId>> m_present;  // sessionId -> the nodes added for it
    int m_updates = 0;
};

} // namespace ua
