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
    if (!ch || !ch->isOpen() || ch->securityMode() == MessageSecurityMode::None || !now.security) return;
    if (certificateChanged && ch->serverCertificateChain() != now.security->certificateChain) {
        c.closeWithError(status::BadSecureChannelClosed,
                         "the server's application instance certificate was replaced (ApplyChanges): open a new "
                         "SecureChannel with the new certificate");
        return;
    }
    if (trustListChanged && now.security->validateCertificate) {
        const StatusCode v = now.security->validateCertificate(ch->clientCertificateChain(), ch->securityPolicy());
        if (v.isBad())
            c.closeWithError(v, "the client certificate is not accepted by the server's new trust list (ApplyChanges)");
    }
}

} // namespace

void Server::applyPushChanges(bool certificateChanged, bool trustListChanged) {
    if (!m_store || !m_acceptContext) return;  // stopped meanwhile
    if (certificateChanged) {
        const std::shared_ptr<const ServerIdentity> before = m_identity.load(std::memory_order_acquire);
        if (!before->security) return;
        auto security = std::make_shared<ServerChannelSecurity>(*before->security);
        security->certificate = m_store->ownCertificate();
        security->certificateChain = m_store->ownCertificateChain();
        security->privateKey = m_store->ownPrivateKey();
        std::vector<EndpointDescription> endpoints = endpointsFor(security.get());
        m_identity.store(std::make_shared<const ServerIdentity>(ServerIdentity{std::move(security), std::move(endpoints)}),
                         std::memory_order_release);
        const Certificate now = m_store->ownCertificate();
        qCInfo(lcSecurity, "push management: the application instance certificate %s (SHA-1 %s, issued by %s, valid until %s) is in use",
               now.subjectName().c_str(), now.thumbprintHex().c_str(), now.issuerName().c_str(),
               qPrintable(now.notAfter().toQDateTime().toString(Qt::ISODate)));
        emit ownCertificateChanged();
    }
    const std::shared_ptr<const ServerIdentity> now = m_identity.load(std::memory_order_acquire);
    // On the listener's thread (this one, a Method worker, has no event loop), then on each I/O
    // thread; stop() ends the listener's thread before it forgets the I/O threads.
    QMetaObject::invokeMethod(m_acceptContext, [this, now, certificateChanged, trustListChanged] {
        QTimer::singleShot(kCloseAfterApplyMs, m_acceptContext, [this, now, certificateChanged, trustListChanged] {
            for (QObject* ctx : m_threadContexts)
                QMetaObject::invokeMethod(ctx, [ctx, now, certificateChanged, trustListChanged] {
                    for (ServerConnection* c : ctx->findChildren<ServerConnection*>(Qt::FindDirectChildrenOnly))
                        recheckChannel(*c, *now, certificateChanged, trustListChanged);
                }, Qt::QueuedConnection);
        });
    }, Qt::QueuedConnection);
}

} // namespace ua
