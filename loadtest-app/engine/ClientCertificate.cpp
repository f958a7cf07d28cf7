#include "engine/ClientCertificate.h"

#include "ua/pki/OwnCertificate.h"

#include <QStandardPaths>

namespace ua::loadtest {

QString effectivePkiDir(const LoadParameters& p) {
    return p.pkiDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/loadtest-pki")
                              : p.pkiDir;
}

Certificate ownCertificateIn(const QString& pkiDir) { return findOwnCertificate(pkiDir.toStdString()); }

QString untrustedCertificateHint(const QString& pkiDir) {
    const Certificate c = ownCertificateIn(pkiDir);
    const QString where = pkiDir + QStringLiteral("/own/certs");
    if (c.isNull())
        return QStringLiteral("the server has probably not trusted the load tester's certificate yet (in %1): trust it on "
                              "the server, then run again")
            .arg(where);
    QString thumbprint;
    const QString hex = QString::fromStdString(c.thumbprintHex());
    for (qsizetype i = 0; i < hex.size(); i += 2) thumbprint += (i ? QStringLiteral(":") : QString()) + hex.mid(i, 2);
    return QStringLiteral("the server has probably not trusted the load tester's certificate yet (%1, SHA-1 %2, in %3): "
                          "trust it on the server, then run again")
        .arg(QString::fromStdString(c.subjectName()), thumbprint, where);
}

QString withCertificateHint(const QString& error, const QString& pkiDir) {
    if (!error.contains(QLatin1String("Bad_SecurityChecksFailed"))) return error;
    return error + QStringLiteral("; ") + untrustedCertificateHint(pkiDir);
}

} // namespace ua::loadtest
