#include "ua/server/users/AuditLog.h"

namespace ua {

Q_LOGGING_CATEGORY(lcAudit, "ua.audit", QtInfoMsg)

} // namespace ua
