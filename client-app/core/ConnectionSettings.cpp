#include "core/ConnectionSettings.h"

#include "ua/secure/SecurityPolicy.h"


namespace ua::clientapp {

namespace {

QString kindName(UserIdentity::Kind k) {
    switch (k) {
    case UserIdentity::Kind::Anonymous: return QStringLiteral("anonymous");
    case UserIdentity::Kind::UserName: return QStringLiteral("username");
    case UserIdentity::Kind::Certificate: return QStringLiteral("certificate");
    }
    return QStringLiteral("anonymous");
}

UserIdentity::Kind kindFromName(const QString& s) {
    if (s == QLatin1String("username")) return UserIdentity::Kind::UserName;
    if (s == QLatin1String("certificate")) return UserIdentity::Kind::Certificate;
    return UserIdentity::Kind::Anonymous;
}

QString modeName(MessageSecurityMode m) {
    switch (m) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    case MessageSecurityMode::Invalid: break;
    }
    return {};
}

MessageSecurityMode modeFromName(const QString& s) {
    if (s == QLatin1String("None")) return MessageSecurityMode::None;
    if (s == QLatin1String("Sign")) return MessageSecurityMode::Sign;
    if (s == QLatin1String("SignAndEncrypt")) return MessageSecurityMode::SignAndEncrypt;
    return MessageSecurityMode::Invalid;
}

} // namespace

bool ConnectionSettings::sameTarget(const ConnectionSettings& o) const {
    return endpointUrl.trimmed() == o.endpointUrl.trimmed() && securityPolicyUri == o.securityPolicyUri &&
           securityMode == o.securityMode && identityKind == o.identityKind && reverseListenPort == o.reverseListenPort &&
           (identityKind != UserIdentity::Kind::UserName || userName == o.userName) &&
           (identityKind != UserIdentity::Kind::Certificate || userCertificateFile == o.userCertificateFile);
}

QString ConnectionSettings::label() const {
    QString s = displayName.isEmpty() ? endpointUrl : QStringLiteral("%1 (%2)").arg(displayName, endpointUrl);
    const int hash = securityPolicyUri.lastIndexOf(QLatin1Char('#'));
    s += QStringLiteral(", ") + (securityPolicyUri.isEmpty() ? QStringLiteral("best policy") : securityPolicyUri.mid(hash + 1));
    s += QStringLiteral(", ") + (securityMode == MessageSecurityMode::Invalid ? QStringLiteral("best mode") : modeName(securityMode));
    switch (identityKind) {
    case UserIdentity::Kind::Anonymous: s += QStringLiteral(", anonymous"); break;
    case UserIdentity::Kind::UserName: s += QStringLiteral(", ") + userName; break;
    case UserIdentity::Kind::Certificate: s += QStringLiteral(", certificate user"); break;
    }
    if (reverseListenPort) s += QStringLiteral(", reverse on port %1").arg(reverseListenPort);
    return s;
}

QJsonObject ConnectionSettings::toJson() const {
    QJsonObject o;
    o[QStringLiteral("endpointUrl")] = endpointUrl;
    if (!displayName.isEmpty()) o[QStringLiteral("displayName")] = displayName;
    if (!securityPolicyUri.isEmpty()) o[QStringLiteral("securityPolicyUri")] = securityPolicyUri;
    if (securityMode != MessageSecurityMode::Invalid) o[QStringLiteral("securityMode")] = modeName(securityMode);
    o[QStringLiteral("identity")] = kindName(identityKind);
    if (identityKind == UserIdentity::Kind::UserName) o[QStringLiteral("userName")] = userName;
    if (identityKind == UserIdentity::Kind::Certificate) {
        o[QStringLiteral("userCertificateFile")] = userCertificateFile;
        o[QStringLiteral("userKeyFile")] = userKeyFile;
    }
    if (reverseListenPort) o[QStringLiteral("reverseListenPort")] = int(reverseListenPort);
    return o;  // never the password
}

ConnectionSettings ConnectionSettings::fromJson(const QJsonObject& o) {
    ConnectionSettings s;
    s.endpointUrl = o.value(QStringLiteral("endpointUrl")).toString();
    s.displayName = o.value(QStringLiteral("displayName")).toString();
    s.securityPolicyUri = o.value(QStringLiteral("securityPolicyUri")).toString();
    s.securityMode = modeFromName(o.value(QStringLiteral("securityMode")).toString());
    s.identityKind = kindFromName(o.value(QStringLiteral("identity")).toString());
    s.userName = o.value(QStringLiteral("userName")).toString();
    s.userCertificateFile = o.value(QStringLiteral("userCertificateFile")).toString();
    s.userKeyFile = o.value(QStringLiteral("userKeyFile")).toString();
    const int port = o.value(QStringLiteral("reverseListenPort")).toInt(0);
    s.reverseListenPort = port > 0 && port <= 65535 ? quint16(port) : 0;
    return s;
}

ClientConfig ConnectionSettings::clientConfig(const QString& pkiDir, QString* error) const {
    ClientConfig cfg;
    cfg.pkiDir = pkiDir;
    cfg.securityPolicyUri = securityPolicyUri;
    cfg.securityMode = securityMode;
    switch (identityKind) {
    case UserIdentity::Kind::Anonymous: break;
    case UserIdentity::Kind::UserName: cfg.identity = UserIdentity::fromUserName(userName, password); break;
    case UserIdentity::Kind::Certificate: {
        // Certificate::load reads DER or PEM; the key is PEM (an encrypted key is not supported).
        Certificate cert = Certificate::load(userCertificateFile.toStdString());
        PrivateKey key = PrivateKey::load(userKeyFile.toStdString());
        if (cert.isNull() || key.isNull()) {
            if (error)
                *error = cert.isNull() ? QStringLiteral("cannot read the user certificate %1").arg(userCertificateFile)
                                       : QStringLiteral("cannot read the user's private key %1").arg(userKeyFile);
            break;
        }
        cfg.identity = UserIdentity::fromCertificate(std::move(cert), std::move(key));
        break;
    }
    }
    return cfg;
}

} // namespace ua::clientapp
