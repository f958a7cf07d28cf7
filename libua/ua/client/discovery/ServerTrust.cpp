#include "ua/client/discovery/ServerTrust.h"

#include "ua/client/session/SessionSecurity.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QHostAddress>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcClient)

namespace ua {

namespace {

ValidationOptions optionsFor(const ServerCertificateExpectations& expected) {
    ValidationOptions o;
    o.expectedApplicationUri = expected.applicationUri;
    o.expectedHostName = expected.hostName.toStdString();
    if (expected.policy && expected.policy->id != SecurityPolicyId::None) {
        o.minKeyBits = int(expected.policy->minAsymmetricKeyBits);
        o.maxKeyBits = int(expected.policy->maxAsymmetricKeyBits);
        o.allowSha1Signature = expected.policy->minCertificateSignatureHash == HashAlgorithm::Sha1;
    }
    return o;
}

} // namespace

bool certificateNamesHost(const Certificate& certificate, const QString& host) {
    const QHostAddress address(host);
    if (!address.isNull()) {
        for (const auto& ip : certificate.ipAddresses())
            if (QHostAddress(QString::fromStdString(ip)).isEqual(address, QHostAddress::StrictConversion))
                return true;
        return false;
    }
    for (const auto& dns : certificate.dnsNames())
        if (QString::fromStdString(dns).compare(host, Qt::CaseInsensitive) == 0) return true;
    return false;
}

StatusCode checkAcceptedCertificate(const Certificate& leaf, const ServerCertificateExpectations& expected) {
    if (leaf.isNull()) return status::BadCertificateInvalid;
    const DateTime now = DateTime::now();
    if (now < leaf.notBefore() || leaf.notAfter() < now) return status::BadCertificateTimeInvalid;
    const ValidationOptions o = optionsFor(expected);
    if (leaf.keyBits() < o.minKeyBits || leaf.keyBits() > o.maxKeyBits)
        return status::BadCertificatePolicyCheckFailed;
    const int hash = leaf.signatureHashBits();
    if (hash == 0 || (hash == 1 && !o.allowSha1Signature)) return status::BadCertificatePolicyCheckFailed;
    if (!expected.hostName.isEmpty() && !certificateNamesHost(leaf, expected.hostName))
        return status::BadCertificateHostNameInvalid;
    if (!expected.applicationUri.empty() && leaf.applicationUri() != expected.applicationUri)
        return status::BadCertificateUriInvalid;
    return status::Good;
}

StatusCode checkServerCertificate(CertificateStore& store, std::string_view chainDer,
                                  const ServerCertificateExpectations& expected, const TrustCallback& trust) {
    if (chainDer.empty()) return status::BadCertificateInvalid;
    const ValidationOptions options = optionsFor(expected);
    const std::string chain(chainDer);
    StatusCode s = store.validate(chain, options);
    if (s != StatusCode(status::BadCertificateUntrusted)) return s;
    const Certificate leaf = Certificate::fromDer(leafCertificateDer(chainDer));
    if (leaf.isNull()) return status::BadCertificateInvalid;
    const TrustDecision decision = trust ? trust(leaf, s) : TrustDecision::Reject;
    switch (decision) {
    case TrustDecision::Reject:
        qCInfo(lcClient) << "server certificate rejected:" << QString::fromStdString(leaf.subjectName());
        return status::BadCertificateUntrusted;
    case TrustDecision::TrustPermanently:
        if (!store.addTrusted(leaf)) {
            qCWarning(lcClient) << "could not write the server certificate to"
                                << QString::fromStdString(store.rootDir()) << "trusted/";
            return status::BadCertificateUntrusted;
        }
        return store.validate(chain, options);
    case TrustDecision::AcceptOnce:
        return checkAcceptedCertificate(leaf, expected);
    }
    return status::BadCertificateUntrusted;
}

} // namespace ua
