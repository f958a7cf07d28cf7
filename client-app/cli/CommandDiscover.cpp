// ua-client discover <url>: FindServers and GetEndpoints on a SecurityPolicy None channel without
// a Session (ua::Client::discover, OPC 10000-4 5.4.2, 5.4.4): the servers with their URIs and
// discovery URLs, and every endpoint with its SecurityPolicy, mode, security level and user tokens.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"

#include <QJsonArray>

namespace ua::clientapp {

namespace {

QString policyName(const String& uri) {
    const QString u = uri.toQString();
    const qsizetype hash = u.lastIndexOf(QLatin1Char('#'));
    return hash >= 0 ? u.mid(hash + 1) : u;
}

QString tokenName(UserTokenType t) {
    const char* n = enumName(t);
    return n ? QLatin1String(n) : QString::number(int(t));
}

QString modeName(MessageSecurityMode m) {
    const char* n = enumName(m);
    return n ? QLatin1String(n) : QString::number(int(m));
}

} // namespace

void CliSession::discover(std::function<void(const DiscoveryResult&)> done) {
    ClientConfig c;
    c.connectTimeoutMs = m_options.timeoutMs;
    c.requestTimeoutMs = m_options.timeoutMs;
    c.autoReconnect = false;
    m_client = std::make_unique<Client>(std::move(c));
    m_client->discover(url(), this, std::move(done));
}

void runDiscover(CliSession& s) {
    s.discover([&s](const DiscoveryResult& r) {
        if (r.status.isBad()) return s.failStatus(ExitConnectionFailed, QStringLiteral("cannot discover %1").arg(s.url()), r.status);
        if (s.options().json) {
            QJsonArray servers, endpoints;
            for (const ApplicationDescription& a : r.servers) {
                QJsonArray urls;
                for (const String& u : a.discoveryUrls) urls.append(u.toQString());
                servers.append(QJsonObject{{"applicationName", a.applicationName.text.toQString()},
                                           {"applicationUri", a.applicationUri.toQString()},
                                           {"productUri", a.productUri.toQString()},
                                           {"applicationType", QLatin1String(enumName(a.applicationType))},
                                           {"discoveryUrls", urls}});
            }
            for (const EndpointDescription& e : r.endpoints) {
                QJsonArray tokens;
                for (const UserTokenPolicy& t : e.userIdentityTokens)
                    tokens.append(QJsonObject{{"policyId", t.policyId.toQString()}, {"tokenType", tokenName(t.tokenType)},
                                              {"securityPolicy", policyName(t.securityPolicyUri)}});
                endpoints.append(QJsonObject{{"endpointUrl", e.endpointUrl.toQString()},
                                             {"securityPolicy", policyName(e.securityPolicyUri)},
                                             {"securityMode", modeName(e.securityMode)},
                                             {"securityLevel", int(e.securityLevel)},
                                             {"userTokens", tokens}});
            }
            QJsonObject o{{"servers", servers}, {"endpoints", endpoints}};
            if (r.findServersStatus.isBad()) o.insert(QStringLiteral("findServersStatus"), app::statusName(r.findServersStatus));
            printJson(o);
            return s.finish(ExitOk);
        }
        if (r.findServersStatus.isBad()) printError(QStringLiteral("ua-client: FindServers: ") + app::statusName(r.findServersStatus));
        for (const ApplicationDescription& a : r.servers) {
            QStringList urls;
            for (const String& u : a.discoveryUrls) urls << u.toQString();
            printLine(QStringLiteral("Server  %1  %2  %3").arg(a.applicationName.text.toQString(), a.applicationUri.toQString(),
                                                            urls.join(QStringLiteral(" "))));
        }
        for (const EndpointDescription& e : r.endpoints) {
            QStringList tokens;
            for (const UserTokenPolicy& t : e.userIdentityTokens) tokens << tokenName(t.tokenType);
            printLine(QStringLiteral("Endpoint  %1  %2  %3  level %4  tokens: %5")
                          .arg(e.endpointUrl.toQString(), policyName(e.securityPolicyUri), modeName(e.securityMode))
                          .arg(int(e.securityLevel))
                          .arg(tokens.join(QStringLiteral(", "))));
        }
        s.finish(ExitOk);
    });
}

} // namespace ua::clientapp
