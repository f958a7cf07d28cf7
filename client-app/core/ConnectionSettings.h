// What the client app remembers about one server: the endpoint URL as typed, the endpoint chosen
// (SecurityPolicy URI and MessageSecurityMode, OPC 10000-4 7.14) and the user identity kind with its
// non-secret parts. Passwords are never stored (asked again; the window keeps one for the session).
// Stored as JSON objects in the server history (ServerHistory.h) and the project file (ProjectFile.h).
#pragma once

#include "ua/client/common/ClientConfig.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace ua::clientapp {

struct ConnectionSettings {
    QString endpointUrl;                   // "opc.tcp://host:4840[/path]"
    QString displayName;                   // the server's ApplicationName when known, else empty
    QString securityPolicyUri;             // empty: the best the server offers (ClientConfig)
    MessageSecurityMode securityMode = MessageSecurityMode::Invalid;  // Invalid: the best
    UserIdentity::Kind identityKind = UserIdentity::Kind::Anonymous;
    QString userName;                      // Kind::UserName
    QString password;                      // Kind::UserName; never written by toJson()
    QString userCertificateFile;           // Kind::Certificate: PEM or DER certificate file
    QString userKeyFile;                   //                    and its private key (PEM)
    // Reverse Connect (OPC 10000-6 7.1.3; docs/ReverseConnect.md): > 0, wait on this TCP port for
    // the server to connect, its ReverseHello naming endpointUrl, instead of dialling endpointUrl.
    quint16 reverseListenPort = 0;

    // The same server and endpoint choice (URL, policy, mode, identity kind and user name).
    bool sameTarget(const ConnectionSettings& other) const;
    // Short text for lists: "displayName (url), policy short name, mode, user".
    QString label() const;

    QJsonObject toJson() const;            // without the password
    static ConnectionSettings fromJson(const QJsonObject& json);

    // A ClientConfig for these settings: pkiDir, policy, mode and identity (the certificate
    // identity loads userCertificateFile/userKeyFile; on failure *error is set and the identity
    // left anonymous).
    ClientConfig clientConfig(const QString& pkiDir, QString* error = nullptr) const;
};

} // namespace ua::clientapp

Q_DECLARE_METATYPE(ua::clientapp::ConnectionSettings)
