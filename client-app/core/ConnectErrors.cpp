#include "core/ConnectErrors.h"

#include "ValueText.h"
#include "ua/client/discovery/EndpointUrl.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/OwnCertificate.h"

#include <QObject>
#include <QUrl>

namespace ua::clientapp {

QString endpointUrlProblem(const QString& text) {
    const QString url = text.trimmed();
    if (url.isEmpty()) return QObject::tr("Type the server's endpoint URL, e.g. opc.tcp://localhost:4840.");
    const int schemeEnd = url.indexOf(QStringLiteral("://"));
    if (schemeEnd < 0)
        return QObject::tr("%1 has no scheme: an endpoint URL starts with opc.tcp://, e.g. opc.tcp://%1").arg(url);
    const QString scheme = url.left(schemeEnd);
    if (scheme.compare(QLatin1String("opc.tcp"), Qt::CaseInsensitive) != 0)
        return QObject::tr("%1:// is not supported: this client speaks UA-TCP, opc.tcp://host:port").arg(scheme);
    // The authority, opc.tcp://<host>[:<port>], read here: QUrl reports a bad port or host only as
    // "invalid".
    const QString rest = url.mid(schemeEnd + 3);
    const QString authority = rest.left(rest.indexOf(QLatin1Char('/')) < 0 ? rest.size() : rest.indexOf(QLatin1Char('/')));
    const int bracket = authority.lastIndexOf(QLatin1Char(']'));
    const int colon = authority.lastIndexOf(QLatin1Char(':'));
    const bool hasPort = colon >= 0 && colon > bracket && (bracket >= 0 || authority.count(QLatin1Char(':')) == 1);
    const QString host = hasPort ? authority.left(colon) : authority;
    if (host.isEmpty() || host == QLatin1String("[]")) return QObject::tr("The URL names no host: opc.tcp://host:port");
    if (hasPort) {
        bool ok = false;
        const int port = authority.mid(colon + 1).toInt(&ok);
        if (!ok || port <= 0 || port > 65535) return QObject::tr("The port must be a number from 1 to 65535.");
    }
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid()) return QObject::tr("Not a valid URL: %1").arg(parsed.errorString());
    if (!EndpointUrl::parse(url)) return QObject::tr("Not an endpoint URL: opc.tcp://host:port");
    return {};
}

QString colonHex(const QString& hex) {
    QString out;
    for (qsizetype i = 0; i < hex.size(); i += 2) {
        if (i) out += QLatin1Char(':');
        out += hex.mid(i, 2);
    }
    return out;
}

namespace {

QString hostAndPort(const QString& url) {
    const std::optional<EndpointUrl> e = EndpointUrl::parse(url);
    return e ? QStringLiteral("%1:%2").arg(e->host).arg(e->port) : url;
}

QString hostOf(const QString& url) {
    const std::optional<EndpointUrl> e = EndpointUrl::parse(url);
    return e ? e->host : url;
}

QString certificateText(const Certificate& c) {
    if (c.isNull()) return QObject::tr("this client's certificate, in the pki/own folder");
    return QObject::tr("%1, SHA-1 thumbprint %2")
        .arg(QString::fromStdString(c.subjectName()), colonHex(QString::fromStdString(c.thumbprintHex())));
}

} // namespace

QString connectFailureSentence(StatusCode status, const ConnectFailureContext& context) {
    if (status.isGood()) return {};
    const QString where = hostAndPort(context.endpointUrl);
    switch (status.code & 0xFFFF0000u) {
    case status::BadDisconnect.code:
        return QObject::tr("The connect was cancelled.");
    case status::BadTcpEndpointUrlInvalid.code:
        return QObject::tr("The endpoint URL is not valid: it must look like opc.tcp://host:port.");
    case status::BadConnectionRejected.code:
        if (context.hostResolved == false)
            return QObject::tr("The host name %1 is unknown: check its spelling, or use its IP address.").arg(hostOf(context.endpointUrl));
        if (context.hostResolved == true)
            return QObject::tr("Nothing accepted a connection at %1: no server listens on that port, or a firewall refuses it.").arg(where);
        return QObject::tr("No network connection to %1: the host is unknown or unreachable, or no server listens on that port.").arg(where);
    case status::BadTimeout.code:
        return QObject::tr("%1 did not answer in time: the host is unreachable, a firewall drops the packets, or the server is stuck.").arg(where);
    case status::BadConnectionClosed.code:
        return QObject::tr("The server closed the connection before the Session stood (it may be stopping, or refuse this client).");
    case status::BadSecurityChecksFailed.code:
        // The code is deliberately generic (OPC 10000-4 7.38): a server answers it for every
        // security failure, most often because it has not trusted the client's certificate yet.
        return QObject::tr("The server refused the secure connection. It has probably not trusted this client's "
                           "certificate yet (%1): trust it on the server (usually by moving it from the server's "
                           "rejected certificates to its trusted ones), then connect again.")
            .arg(certificateText(context.clientCertificate));
    case status::BadCertificateUntrusted.code:
        return QObject::tr("The server's certificate is not trusted by this client (the trust question was answered Reject).");
    case status::BadCertificateHostNameInvalid.code:
        return QObject::tr("The server's certificate does not name the host %1 of the URL.").arg(hostOf(context.endpointUrl));
    case status::BadCertificateUriInvalid.code:
        return QObject::tr("The server's certificate carries another application URI than the server announces.");
    case status::BadCertificateTimeInvalid.code:
        return QObject::tr("The server's certificate has expired or is not valid yet (check both machines' clocks).");
    case status::BadSecurityPolicyRejected.code:
        return QObject::tr("The server offers no endpoint with the chosen security policy and mode: Discover lists what it offers.");
    case status::BadUserAccessDenied.code:
        return QObject::tr("The server refused this user: wrong user name or password, or the user may not log in.");
    case status::BadIdentityTokenRejected.code:
    case status::BadIdentityTokenInvalid.code:
        return QObject::tr("The server does not accept this kind of login (anonymous, user name, certificate): "
                           "Discover shows the user tokens each endpoint takes.");
    case status::BadConfigurationError.code:
        return QObject::tr("This client could not read or create a certificate it needs (its own, in the pki folder, "
                           "or the user certificate and key files).");
    case status::BadResourceUnavailable.code:
        return QObject::tr("This client cannot listen on the port chosen for reverse connections: another program "
                           "uses it, or it needs privileges. Choose another port in Connect.");
    case status::BadTcpServerTooBusy.code:
    case status::BadTooManySessions.code:
        return QObject::tr("The server is too busy or has as many Sessions as it takes: try again later.");
    case status::BadServerHalted.code:
    case status::BadShutdown.code:
        return QObject::tr("The server is shutting down or has stopped: connect again when it is back.");
    default:
        break;
    }
    const char* description = status.description();
    return description && *description ? QString::fromUtf8(description) : QString();
}

QString connectFailureText(StatusCode status, const ConnectFailureContext& context) {
    if ((status.code & 0xFFFF0000u) == status::BadDisconnect.code) return QObject::tr("Connect cancelled.");
    const QString sentence = connectFailureSentence(status, context);
    return sentence.isEmpty() ? QObject::tr("Connect failed: %1").arg(app::statusName(status))
                              : QObject::tr("Connect failed: %1: %2").arg(app::statusName(status), sentence);
}

Certificate ownCertificateIn(const QString& pkiDir) { return findOwnCertificate(pkiDir.toStdString()); }

} // namespace ua::clientapp
