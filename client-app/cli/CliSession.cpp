#include "cli/CliSession.h"

#include "cli/CliOutput.h"
#include "ValueText.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/secure/SecurityPolicy.h"

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTimer>

namespace ua::clientapp {

std::optional<NodeArgument> parseNodeArgument(const QString& text, QString* error) {
    const std::string s = text.trimmed().toStdString();
    if (text.startsWith(QLatin1String("nsu=")) || text.startsWith(QLatin1String("svr="))) {
        if (auto x = ExpandedNodeId::parse(s)) return NodeArgument{text, *x};
    } else if (text.startsWith(QLatin1Char('/')) || text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('<'))) {
        if (auto p = makeBrowsePath(NodeId(id::RootFolder), s)) return NodeArgument{text, *p};
        *error = QStringLiteral("\"%1\" is not a browse path (e.g. /Objects/Server or /Objects/2:Demo/2:Scalars)").arg(text);
        return std::nullopt;
    } else if (auto n = NodeId::parse(s)) {
        return NodeArgument{text, *n};
    }
    *error = QStringLiteral("\"%1\" is not a NodeId (i=85, ns=2;s=Name, nsu=<uri>;s=Name) or a browse path (/Objects/Server)").arg(text);
    return std::nullopt;
}

CliSession::CliSession(CliOptions options, QObject* parent) : QObject(parent), m_options(std::move(options)) {}

CliSession::~CliSession() = default;

ClientConfig CliSession::makeConfig(QString* error) {
    ClientConfig c;
    c.connectTimeoutMs = m_options.timeoutMs;
    c.requestTimeoutMs = m_options.timeoutMs;
    c.sessionName = QStringLiteral("ua-client %1").arg(m_options.command);
    c.pkiDir = m_options.pkiDir.isEmpty()
                   ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/pki")
                   : m_options.pkiDir;
    c.securityMode = m_options.securityMode;
    c.securityPolicyUri = m_options.securityPolicyUri;
    if (c.securityMode == MessageSecurityMode::None && c.securityPolicyUri.isEmpty())
        c.securityPolicyUri = QLatin1String(kSecurityPolicyNone);
    if (c.securityPolicyUri == QLatin1String(kSecurityPolicyNone) && c.securityMode == MessageSecurityMode::Invalid)
        c.securityMode = MessageSecurityMode::None;
    c.allowDeprecatedPolicies = c.securityPolicyUri == QLatin1String(kSecurityPolicyBasic128Rsa15) ||
                                c.securityPolicyUri == QLatin1String(kSecurityPolicyBasic256);
    if (!m_options.userName.isEmpty()) {
        c.identity = UserIdentity::fromUserName(m_options.userName, m_options.password);
    } else if (!m_options.userCertificateFile.isEmpty()) {
        Certificate cert = Certificate::load(m_options.userCertificateFile.toStdString());
        PrivateKey key = PrivateKey::load(m_options.userKeyFile.toStdString());
        if (cert.isNull()) *error = QStringLiteral("cannot read the certificate %1 (PEM or DER)").arg(m_options.userCertificateFile);
        else if (key.isNull()) *error = QStringLiteral("cannot read the private key %1 (PEM)").arg(m_options.userKeyFile);
        else c.identity = UserIdentity::fromCertificate(std::move(cert), std::move(key));
    }
    // Asked on the I/O thread; the answer comes from --trust, never from a prompt.
    c.trustCallback = [record = m_trust, accept = m_options.trust](const Certificate& cert, StatusCode) {
        record->asked = true;
        record->subject = QString::fromStdString(cert.subjectName());
        record->thumbprint = QString::fromStdString(cert.thumbprintHex());
        return accept ? TrustDecision::AcceptOnce : TrustDecision::Reject;
    };
    // subscribe keeps running across a lost connection; a one-shot command fails instead.
    c.autoReconnect = m_options.command == QLatin1String("subscribe");
    return c;
}

void CliSession::open(std::function<void()> ready) {
    QString error;
    ClientConfig config = makeConfig(&error);
    if (!error.isEmpty()) return fail(ExitUsage, error);
    const QString pki = config.pkiDir;
    if (m_options.reverseListenPort) {
        m_reverse = std::make_unique<ReverseListener>();
        if (!m_reverse->listen(QHostAddress::Any, m_options.reverseListenPort))
            return fail(ExitConnectionFailed, QStringLiteral("cannot listen for reverse connections on port %1: %2")
                                                  .arg(m_options.reverseListenPort).arg(m_reverse->errorString()));
        config.reverseListener = m_reverse.get();
        config.reverseServerUri = m_options.serverUri;
    }
    m_client = std::make_unique<Client>(std::move(config));
    m_client->connectToServer(url(), this, [this, ready, pki](const ServiceResult<GetEndpointsResponse>& r) {
        if (!r.isGood()) {
            if (r.status == status::BadCertificateUntrusted && m_trust->asked) {
                return fail(ExitConnectionFailed,
                            QStringLiteral("cannot connect to %1: Bad_CertificateUntrusted: the server's certificate is not trusted\n"
                                           "  subject: %2\n  thumbprint: %3\n"
                                           "Run again with --trust to accept it for this run, or trust it for good: move it from\n"
                                           "%4/rejected/certs to %4/trusted/certs.")
                                .arg(url(), m_trust->subject, m_trust->thumbprint, pki));
            }
            if (r.status == status::BadSecurityChecksFailed)  // most often: the server does not trust us (yet)
                return failStatus(ExitConnectionFailed,
                                  QStringLiteral("cannot connect to %1 (the server may not trust this client's certificate, "
                                                 "%2/own/certs: trust it on the server, e.g. move it from the server's "
                                                 "rejected/ to its trusted/ folder)").arg(url(), pki),
                                  r.status);
            return failStatus(ExitConnectionFailed, QStringLiteral("cannot connect to %1").arg(url()), r.status);
        }
        m_client->createSession(this, [this, ready](const ServiceResult<CreateSessionResponse>& s) {
            if (s.isGood()) return ready();
            const uint32_t b = s.status.base();
            const bool userRefused = b == status::BadUserAccessDenied.code || b == status::BadIdentityTokenRejected.code ||
                                     b == status::BadIdentityTokenInvalid.code || b == status::BadUserSignatureInvalid.code;
            failStatus(userRefused ? ExitAccessDenied : ExitConnectionFailed,
                       QStringLiteral("cannot open a Session on %1").arg(url()), s.status);
        });
    });
}

void CliSession::resolve(const std::vector<NodeArgument>& nodes, std::function<void(std::vector<NodeId>)> done) {
    auto ids = std::make_shared<std::vector<NodeId>>(nodes.size());
    std::vector<BrowsePath> paths;
    std::vector<std::size_t> pathIndex;
    const NodeIdConverter converter = m_client->nodeIdConverter();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const NodeArgument& n = nodes[i];
        if (const auto* id = std::get_if<NodeId>(&n.id)) {
            (*ids)[i] = *id;
        } else if (const auto* x = std::get_if<ExpandedNodeId>(&n.id)) {
            const auto id = converter.toNodeId(*x);
            if (!id) {
                return failStatus(ExitOperationFailed,
                                  QStringLiteral("%1: the server has no namespace %2").arg(n.text, x->namespaceUri.toQString()),
                                  status::BadNodeIdUnknown);
            }
            (*ids)[i] = *id;
        } else {
            paths.push_back(std::get<BrowsePath>(n.id));
            pathIndex.push_back(i);
        }
    }
    if (paths.empty()) return done(std::move(*ids));
    m_client->translateBrowsePaths(std::move(paths), this, [this, ids, pathIndex, nodes, done](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) {
        if (!r.isGood()) return failStatus(ExitOperationFailed, QStringLiteral("TranslateBrowsePathsToNodeIds"), r.status);
        const NodeIdConverter converter = m_client->nodeIdConverter();
        for (std::size_t k = 0; k < pathIndex.size(); ++k) {
            const QString& text = nodes[pathIndex[k]].text;
            if (k >= r.response.results.size()) return failStatus(ExitOperationFailed, text, status::BadUnexpectedError);
            const BrowsePathResult& p = r.response.results[k];
            if (p.statusCode.isBad()) return failStatus(ExitOperationFailed, text, p.statusCode);
            std::optional<NodeId> id;
            for (const BrowsePathTarget& t : p.targets) {
                if (t.remainingPathIndex != 0xFFFFFFFFu) continue;  // only a part of the path was followed
                id = t.targetId.namespaceUri.isNull() && t.targetId.isLocal() ? std::optional<NodeId>(t.targetId.nodeId)
                                                                              : converter.toNodeId(t.targetId);
                if (id) break;
            }
            if (!id) return failStatus(ExitOperationFailed, text, status::BadNoMatch);
            (*ids)[pathIndex[k]] = *id;
        }
        done(std::move(*ids));
    });
}

void CliSession::resolveBuiltInType(const NodeId& dataType, std::function<void(std::optional<BuiltInType>)> done, int depth) {
    if (auto t = app::builtInTypeOf(dataType)) return done(t);
    if (dataType.namespaceIndex() == 0 || depth > 10) return done(std::nullopt);
    BrowseRequest req;
    BrowseDescription d;
    d.nodeId = dataType;
    d.browseDirection = BrowseDirection::Inverse;
    d.referenceTypeId = NodeId(id::HasSubtype);
    d.includeSubtypes = false;
    d.resultMask = 0;
    req.nodesToBrowse = Array<BrowseDescription>({d});
    m_client->browse(std::move(req), BrowseOptions{}, this, [this, done, depth](const ServiceResult<BrowseResponse>& r) {
        if (!r.isGood() || r.response.results.empty() || r.response.results[0].references.empty()) return done(std::nullopt);
        const ExpandedNodeId& parent = r.response.results[0].references[0].nodeId;
        if (!parent.isLocal() || !parent.namespaceUri.isNull()) return done(std::nullopt);
        resolveBuiltInType(parent.nodeId, done, depth + 1);
    });
}

void CliSession::fail(int code, const QString& message) {
    // Once the run is ending (e.g. SIGTERM while connecting), what fails next is its consequence
    // (Bad_Disconnect of the connect in progress), not news for the user.
    if (m_finishing) return;
    printError(QStringLiteral("ua-client: ") + message);
    finish(code);
}

void CliSession::failStatus(int code, const QString& what, StatusCode status) {
    fail(code, what + QStringLiteral(": ") + describedStatus(status));
}

QString describedStatus(StatusCode status) {
    const QString description = QString::fromUtf8(status.description());
    return app::statusName(status) + (description.isEmpty() ? QString() : QStringLiteral(" (") + description + QLatin1Char(')'));
}

void CliSession::finish(int code) {
    if (m_finishing) return;
    m_finishing = true;
    auto quit = [code] { QCoreApplication::exit(code); };
    if (!m_client || m_client->state() == ClientState::Disconnected) {
        QTimer::singleShot(0, qApp, quit);
        return;
    }
    QTimer::singleShot(2000, qApp, quit);  // a server that does not answer CloseSession does not hold us
    m_client->disconnectFromServer(this, [quit](StatusCode) { quit(); });
}

} // namespace ua::clientapp
