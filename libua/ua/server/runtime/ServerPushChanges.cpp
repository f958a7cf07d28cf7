// What the Server does after a push management ApplyChanges (OPC 10000-12 7.10.9, newest 1.05
// text): a new application instance certificate goes into use, and the SecureChannels that the
// change concerns are closed once the ApplyChanges response has gone: those that use the old
// server certificate, and those whose client certificate the new trust list no longer accepts
// (7.8.2.5, 7.10.9: "channels ... must renegotiate"). Sessions stay: their clients reconnect and
// activate them on a new channel.
#include "ua/server/runtime/Server.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/ServerConnection.h"

#include <QLoggingCategory>
#include <QTimer>

namespace ua {

Q_DECLARE_LOGGING_CATEGORY(lcSecurity)

namespace {

// Time for the ApplyChanges response to leave before its own channel may be closed (ms).
constexpr int kCloseAfterApplyMs = 500;

// On a connection's thread: closes it when the change concerns its channel.
void recheckChannel(ServerConnection& c, const ServerIdentity& now, bool certificateChanged, bool trustListChanged) {
    ServerSecureChannel* ch = c.channel();
    if (!ch || !now.security) return;
    const ServerChannelSecurity* made = ch->security();
    // An open channel of an ECC policy uses the ECC certificate of its curve, which push management
    // does not replace (it manages the RSA one): only channels of the RSA certificate are affected.
    const bool eccChannel = ch->isOpen() && ch->securityPolicy().isEcc();
    const bool oldCertificate =
        certificateChanged && made && !eccChannel && made->certificateChain != now.security->certificateChain;
    // A channel that said Hello before the change and is not open yet would open with the old
    // certificate and key: closed too (its client tries again).
    if (oldCertificate && (!ch->isOpen() || ch->securityMode() != MessageSecurityMode::None)) {
        c.closeWithError(status::BadSecureChannelClosed,
                         "the server's application instance certificate was replaced (ApplyChanges): open a new "
                         "SecureChannel with the new certificate");
        return;
    }
    if (!ch->isOpen() || ch->securityMode() == MessageSecurityMode::None) return;
    if (trustListChanged && now.security->validateCertificate) {
        const StatusCode v = now.security->validateCertificate(ch->clientCertificateChain(), ch->securityPolicy());
        if (v.isBad())
            c.closeWithError(v, "the client certificate is not accepted by the server's new trust list (ApplyChanges)");
    }
}

} // namespace

void Server::applyPushChanges(bool certificateChanged, bool trustListChanged, QObject* context) {
    if (!m_store || !context) return;
    const std::shared_ptr<const ServerIdentity> before = m_identity.load(std::memory_order_acquire);
    if (!before->security) return;
    // The certificate, its key and its chain as the store holds them now, read so that they belong
    // together (another ApplyChanges may be writing the store meanwhile; the next callback then
    // publishes its pair). The chain is read after a trust list change too: a CA may have come.
    Certificate cert;
    PrivateKey key;
    std::string chain;
    for (int attempt = 0; attempt < 5; ++attempt) {
        cert = m_store->ownCertificate();
        key = m_store->ownPrivateKey();
        chain = m_store->ownCertificateChain();
        if (key.matches(cert) && chain.compare(0, cert.der().size(), cert.der()) == 0) break;
        cert = Certificate();
    }
    if (cert.isNull()) return;
    const bool newCertificate = !(cert == before->security->certificate);
    if (newCertificate || chain != before->security->certificateChain) {
        auto security = std::make_shared<ServerChannelSecurity>(*before->security);
        security->certificate = cert;
        security->certificateChain = chain;
        security->privateKey = key;
        std::vector<EndpointDescription> endpoints = endpointsFor(security.get());
        m_identity.store(std::make_shared<const ServerIdentity>(ServerIdentity{std::move(security), std::move(endpoints)}),
                         std::memory_order_release);
    }
    if (newCertificate) {
        qCInfo(lcSecurity, "push management: the application instance certificate %s (SHA-1 %s, issued by %s, valid until %s) is in use",
               cert.subjectName().c_str(), cert.thumbprintHex().c_str(), cert.issuerName().c_str(),
               qPrintable(cert.notAfter().toQDateTime().toString(Qt::ISODate)));
        emit ownCertificateChanged();
    }
    certificateChanged = certificateChanged || newCertificate;
    const std::shared_ptr<const ServerIdentity> now = m_identity.load(std::memory_order_acquire);
    // On the listener's thread (this one, a Method worker, has no event loop), then on each I/O
    // thread; stop() ends the listener's thread before it forgets the I/O threads, and clears
    // context (m_pushLink) before that.
    QMetaObject::invokeMethod(context, [this, context, now, certificateChanged, trustListChanged] {
        QTimer::singleShot(kCloseAfterApplyMs, context, [this, now, certificateChanged, trustListChanged] {
            for (QObject* ctx : m_threadContexts)
                QMetaObject::invokeMethod(ctx, [ctx, now, certificateChanged, trustListChanged] {
                    for (ServerConnection* c : ctx->findChildren<ServerConnection*>(Qt::FindDirectChildrenOnly))
                        recheckChannel(*c, *now, certificateChanged, trustListChanged);
                }, Qt::QueuedConnection);
        });
    }, Qt::QueuedConnection);
}

} // namespace ua
