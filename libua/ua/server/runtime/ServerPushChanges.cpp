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

// The chains of every certificate the server sends (RSA and ECC) are the same.
bool sameChains(const ServerChannelSecurity& a, const ServerChannelSecurity& b) {
    return a.certificateChain == b.certificateChain && a.eccNistP256.certificateChain == b.eccNistP256.certificateChain &&
           a.eccNistP384.certificateChain == b.eccNistP384.certificateChain;
}

// On a connection's thread: closes it when the change concerns its channel.
void recheckChannel(ServerConnection& c, const ServerIdentity& now, bool certificateChanged, bool trustListChanged) {
    ServerSecureChannel* ch = c.channel();
    if (!ch || !now.security) return;
    const ServerChannelSecurity* made = ch->security();
    // An open channel uses the certificate of its policy's kind (RSA, or the ECC one of its curve):
    // it is concerned when that one changed. A channel that said Hello before the change and is not
    // open yet would open with an old certificate and key: closed when any changed (its client tries
    // again).
    const bool oldCertificate =
        certificateChanged && made &&
        (ch->isOpen() ? made->certificateChainFor(ch->securityPolicy()) != now.security->certificateChainFor(ch->securityPolicy())
                      : !sameChains(*made, *now.security));
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
    auto security = std::make_shared<ServerChannelSecurity>(*before->security);
    bool changed = false, newCertificate = false;
    // Each pair the server uses, as the store holds it now: RSA, and the ECC pair of each curve the
    // server has endpoints of. A trust list change re-reads the chains too: a CA may have come.
    struct Slot {
        KeyType type;
        Certificate* certificate;
        std::string* chain;
        PrivateKey* key;
    };
    const Slot held[] = {
        {KeyType::Rsa, &security->certificate, &security->certificateChain, &security->privateKey},
        {KeyType::EccNistP256, &security->eccNistP256.certificate, &security->eccNistP256.certificateChain,
         &security->eccNistP256.privateKey},
        {KeyType::EccNistP384, &security->eccNistP384.certificate, &security->eccNistP384.certificateChain,
         &security->eccNistP384.privateKey},
    };
    for (const Slot& slot : held) {
        if (slot.certificate->isNull()) continue;  // no endpoint of that kind
        // The certificate, its key and its chain read so that they belong together (another
        // ApplyChanges may be writing the store meanwhile; the next callback then publishes its pair).
        Certificate cert;
        PrivateKey key;
        std::string chain;
        for (int attempt = 0; attempt < 5; ++attempt) {
            cert = m_store->ownCertificate(slot.type);
            key = m_store->ownPrivateKey(slot.type);
            chain = m_store->ownCertificateChain(slot.type);
            if (key.matches(cert) && chain.compare(0, cert.der().size(), cert.der()) == 0) break;
            cert = Certificate();
        }
        if (cert.isNull()) continue;
        const bool replaced = !(cert == *slot.certificate);
        if (!replaced && chain == *slot.chain) continue;
        if (replaced)
            qCInfo(lcSecurity, "push management: the application instance certificate %s (SHA-1 %s, issued by %s, valid until %s) is in use",
                   cert.subjectName().c_str(), cert.thumbprintHex().c_str(), cert.issuerName().c_str(),
                   qPrintable(cert.notAfter().toQDateTime().toString(Qt::ISODate)));
        *slot.certificate = cert;
        *slot.chain = chain;
        *slot.key = key;
        changed = true;
        newCertificate = newCertificate || replaced;
    }
    if (changed) {
        std::vector<EndpointDescription> endpoints = endpointsFor(security.get());
        m_identity.store(std::make_shared<const ServerIdentity>(ServerIdentity{std::move(security), std::move(endpoints)}),
                         std::memory_order_release);
    }
    if (newCertificate) emit ownCertificateChanged();
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
