// The audit trail in the log (issue 27 item 7): one Qt logging category, "ua.audit", for the lines
// that say who did what to the server and what it refused, so that the server app's Log page shows
// them all under one category:
//   - refusals, from libua (warning): a failed login with the user name and the client's address
//     (services/SessionService.cpp; never the password), the start of a user's lockout with until
//     when (users/UserStore.cpp), a client application certificate refused by validation with its
//     subject and SHA-1 thumbprint (runtime/Server.cpp);
//   - the administrator's actions, from libua (Server::closeSession) and the server app (info):
//     "<who>: <what>", who being the administrator (server-app/models/AdminAudit.h).
// The matching OPC UA Audit events are raised by events/AuditEvents.h. The category lives in users/,
// the lowest server layer that writes to it (the lockout), so that every layer above may use it
// (tools/check_layers.py).
#pragma once

#include <QLoggingCategory>

namespace ua {

Q_DECLARE_LOGGING_CATEGORY(lcAudit)

} // namespace ua
