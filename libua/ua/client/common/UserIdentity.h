// Who the client logs in as (OPC 10000-4 7.41 UserIdentityToken) and how it decides about a server
// certificate it does not trust yet (OPC 10000-4 6.1.3). Part of ClientConfig.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"
#include "ua/types/StatusCode.h"

#include <QString>
#include <functional>

namespace ua {

// The user of the Session, sent in ActivateSession (OPC 10000-4 5.6.3):
//  - Anonymous: an AnonymousIdentityToken (7.41.3);
//  - UserName: a UserNameIdentityToken (7.41.4); the password is encrypted with the server's public
//    key by the UserTokenPolicy's SecurityPolicy (or the endpoint's when it names none), in the
//    legacy secret format of 7.41.2.2, and sent plain only when that SecurityPolicy is None;
//  - Certificate: an X509IdentityToken (7.41.5) with userTokenSignature over (serverCertificate +
//    serverNonce) made with `key`.
struct UserIdentity {
    enum class Kind { Anonymous, UserName, Certificate };
    Kind kind = Kind::Anonymous;
    QString userName;
    QString password;        // UTF-8 on the wire
    Certificate certificate; // the user's X.509 certificate (Kind::Certificate)
    PrivateKey key;          // its private key

    static UserIdentity anonymous() { return {}; }
    static UserIdentity fromUserName(QString name, QString password) {
        UserIdentity u;
        u.kind = Kind::UserName;
        u.userName = std::move(name);
        u.password = std::move(password);
        return u;
    }
    static UserIdentity fromCertificate(Certificate certificate, PrivateKey key) {
        UserIdentity u;
        u.kind = Kind::Certificate;
        u.certificate = std::move(certificate);
        u.key = std::move(key);
        return u;
    }
};

// The answer to "trust this server certificate?".
enum class TrustDecision {
    Reject,           // the connect fails with Bad_CertificateUntrusted
    AcceptOnce,       // this connection (and its reconnects) only; the certificate stays in rejected/
    TrustPermanently, // copied to the store's trusted/certs (and removed from rejected/)
};

// Asked on the client's I/O thread, while connectToServer() waits, with the server's leaf certificate
// and why it is not trusted (Bad_CertificateUntrusted: neither it nor an issuer is in trusted/). It
// may block (a window asks the user through a BlockingQueuedConnection to the GUI thread); the
// connect timeout does not run meanwhile. Other validation failures (host name, ApplicationUri,
// validity period, revocation, ...) are never asked about: the connect fails with their status.
using TrustCallback = std::function<TrustDecision(const Certificate& certificate, StatusCode reason)>;

} // namespace ua
