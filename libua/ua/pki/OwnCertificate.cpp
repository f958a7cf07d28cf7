#include "ua/pki/OwnCertificate.h"

#include "ua/types/DateTime.h"

#include <QDir>
#include <QFileInfo>
#include <QString>

namespace ua {

Certificate findOwnCertificate(const std::string& rootDir, KeyType type) {
    const QDir dir(QString::fromStdString(rootDir) + QStringLiteral("/own/certs"));
    const QFileInfoList files = dir.entryInfoList({QStringLiteral("*.der"), QStringLiteral("*.pem"), QStringLiteral("*.crt"),
                                                   QStringLiteral("*.cer")},
                                                  QDir::Files, QDir::Time);  // newest first
    const DateTime now = DateTime::now();
    for (const QFileInfo& f : files) {
        Certificate c = Certificate::load(f.absoluteFilePath().toStdString());
        if (!c.isNull() && c.keyType() == type && !(c.notAfter() < now)) return c;
    }
    return {};
}

} // namespace ua
