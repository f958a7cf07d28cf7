#include "models/AdminAudit.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/Certificate.h"
#include "ua/server/events/AuditEvents.h"
#include "ua/server/users/AuditLog.h"
#include "ua/server/runtime/Server.h"

#include <pwd.h>
#include <unistd.h>

namespace ua::serverapp {

QString localUserName() {
    if (const passwd* p = getpwuid(getuid()); p && p->pw_name && *p->pw_name) return QString::fromLocal8Bit(p->pw_name);
    for (const char* variable : {"USER", "LOGNAME"}) {
        const QString name = qEnvironmentVariable(variable);
        if (!name.isEmpty()) return name;
    }
    return QStringLiteral("unknown");
}

QString windowAdministrator() { return QStringLiteral("administrator %1").arg(localUserName()); }

QString auditName(const Certificate& c) {
    if (c.isNull()) return QStringLiteral("(no certificate)");
    return QStringLiteral("%1 (SHA-1 %2)").arg(QString::fromStdString(c.subjectName()), QString::fromStdString(c.thumbprintHex()));
}

void AdminAudit::line(bool ok, const QString& done, const QString& notDone, const QString& error) const {
    if (ok)
        qCInfo(lcAudit, "%s: %s", qPrintable(who), qPrintable(done));
    else
        qCWarning(lcAudit, "%s: %s: %s", qPrintable(who), qPrintable(notDone),
                  qPrintable(error.isEmpty() ? QStringLiteral("failed") : error));
}

void AdminAudit::trustListUpdated(bool added, const Certificate& certificate) const {
    if (!server || certificate.isNull()) return;
    auditTrustListUpdated(server->audit(), added, certificate.der(), who.toStdString(), StatusCode(status::Good));
}

} // namespace ua::serverapp
