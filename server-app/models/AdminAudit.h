// The administrator's actions as audit lines (issue 27 item 7): one line per action in the log
// category "ua.audit" (ua/server/users/AuditLog.h), "<who>: <what>", at info level when the action
// was done and at warning level with the reason when it was not; and, where OPC UA defines one, the
// Audit event in the server's address space (ua/server/events/AuditEvents.h): the trust list's
// TrustListUpdatedAuditEventType here, the Session's "Session/Terminated" in Server::closeSession.
// who is the administrator: "administrator <the local user>" for the window.
#pragma once

#include <QString>

namespace ua {
class Certificate;
class Server;
} // namespace ua

namespace ua::serverapp {

// The operating-system user running this process ("root"), or "unknown".
QString localUserName();
// The window's who: "administrator <localUserName()>".
QString windowAdministrator();
// A certificate as the audit lines name it: "CN=..., O=... (SHA-1 <thumbprint>)".
QString auditName(const Certificate& certificate);

struct AdminAudit {
    QString who = windowAdministrator();
    Server* server = nullptr;  // where the Audit events are raised; null: lines only

    // "<who>: <done>" (info) when ok, otherwise "<who>: <notDone>: <error>" (warning).
    void line(bool ok, const QString& done, const QString& notDone, const QString& error = {}) const;
    // A certificate went into the trust list (added) or out of it: TrustListUpdatedAuditEventType
    // (OPC 10000-12 7.8.2.13 raises it when the trust list was changed, so only after a success;
    // the line is the caller's).
    void trustListUpdated(bool added, const Certificate& certificate) const;
};

} // namespace ua::serverapp
