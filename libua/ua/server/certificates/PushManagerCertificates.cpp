// The application instance certificate's part of PushManager (OPC 10000-12 7.10.5 UpdateCertificate,
// 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest; newest 1.05 text). PushManager.h documents
// each; docs/Security.md "Push certificate management" says where we chose.
#include "ua/server/certificates/PushManager.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/pki/TrustListChecks.h"

#include <openssl/rand.h>

#include <QFileInfo>

namespace ua {

namespace {

constexpr std::size_t kMinNonceBytes = 32;  // 7.10.10: Nonce, when RegeneratePrivateKey is TRUE

bool isDefaultGroup(const NodeId& group) {
    return group.isNull() || group == NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
}

bool isOurType(const NodeId& type) { return type == NodeId(id::RsaSha256ApplicationCertificateType); }

// The key of UpdateCertificate's PrivateKeyFormat and PrivateKey (null: not one we read).
PrivateKey keyOf(const std::string& format, const ByteString& key) {
    if (format == "PEM") return PrivateKey::fromPem(key.str());
    if (format == "PFX") return PrivateKey::fromPkcs12(key.str());
    return {};
}

} // namespace

StatusCode PushManager::checkNewCertificate(const Certificate& certificate, const std::vector<ByteString>& issuers) const {
    if (!m_applicationUri.empty() && certificate.applicationUri() != m_applicationUri) return status::BadCertificateUriInvalid;
    if (m_transaction && m_transaction->trustListChanged) {
        // The issuers may come with this transaction's trust list, which the store does not hold yet:
        // the structure, chain and signature steps against it (revocation is checked at the next
        // call after ApplyChanges, as for every peer).
        TrustListContents probe = m_transaction->trustList;
        probe.trustedCertificates.push_back(certificate.der());
        for (const ByteString& b : issuers)
            probe.issuerCertificates.push_back(b.str());
        return checkTrustListCertificates(probe);
    }
    std::string chain = certificate.der();
    for (const ByteString& b : issuers)
        chain += b.str();
    ValidationOptions o;
    o.ignoreSuppressible = true;
    o.waiveTrustList = true;  // the server need not trust its own certificate
    o.recordRejected = false;
    return m_store->validate(chain, o);
}

StatusCode PushManager::updateCertificate(const Caller& c, const NodeId& group, const NodeId& type,
                                          const ByteString& certificate, const std::vector<ByteString>& issuers,
                                          const std::string& keyFormat, const ByteString& key, bool* applyChangesRequired) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (foreignTransaction(c)) return status::BadTransactionPending;
    if (!isDefaultGroup(group) || !isOurType(type)) return status::BadInvalidArgument;
    const Certificate cert = Certificate::fromDer(certificate.str());
    if (cert.isNull()) return status::BadCertificateInvalid;
    for (const ByteString& b : issuers)
        if (Certificate::fromDer(b.str()).isNull()) return status::BadCertificateInvalid;
    PrivateKey newKey;
    if (!keyFormat.empty() || !key.isEmpty()) {
        newKey = keyOf(keyFormat, key);
        if (newKey.isNull() || !newKey.matches(cert)) return status::BadNotSupported;
    } else {
        const PrivateKey pending = m_store->pendingKey();
        newKey = pending.matches(cert) ? pending : m_store->ownPrivateKey();
        if (!newKey.matches(cert)) return status::BadSecurityChecksFailed;  // 7.10.5: no key, another public key
    }
    if (const StatusCode s = checkNewCertificate(cert, issuers); s.isBad()) return s;
    beginTransaction(c);
    m_transaction->certificate = cert;
    m_transaction->certificateKey = newKey;
    *applyChangesRequired = true;
    return status::Good;
}

bool PushManager::applyCertificate(const Transaction& t, Applied* a) {
    a->oldCertificate = m_store->ownCertificate();
    std::string error;
    if (!m_store->replaceOwnCertificate(t.certificate, t.certificateKey, &error)) return false;
    a->newCertificate = t.certificate;
    a->certificateChanged = !(a->oldCertificate == a->newCertificate);
    return true;
}

StatusCode PushManager::createSigningRequest(const Caller& c, const NodeId& group, const NodeId& type,
                                             const std::string& subjectName, bool regenerateKey, const ByteString& nonce,
                                             ByteString* request) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (!isDefaultGroup(group) || !isOurType(type)) return status::BadInvalidArgument;
    if (!subjectName.empty() && subjectNameDer(subjectName).empty()) return status::BadInvalidArgument;
    const Certificate current = m_store->ownCertificate();
    PrivateKey key = m_store->ownPrivateKey();
    if (regenerateKey) {
        if (nonce.size() < kMinNonceBytes) return status::BadInvalidArgument;
        RAND_add(nonce.data(), int(nonce.size()), 0.0);  // extra input; no entropy claimed
        key = PrivateKey::generateRsa(key.isNull() ? 2048 : key.bits());
        if (key.isNull() || !m_store->savePendingKey(key)) return status::BadInternalError;
    }
    std::string error;
    const std::string der = ua::createSigningRequest(key, current, subjectName, &error);
    if (der.empty()) return status::BadInternalError;
    *request = ByteString(der);
    return status::Good;
}

StatusCode PushManager::resetToServerDefaults(const Caller& c) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    const std::string defaults = m_store->rootDir() + "/defaults";
    if (!QFileInfo(QString::fromStdString(defaults)).isDir()) return status::BadNotSupported;
    m_handles.clear();
    m_transaction.reset();
    std::string error;
    if (!m_store->resetTo(defaults, &error)) return status::BadInternalError;
    m_lastUpdate = DateTime::now();
    return status::Good;
}

StatusCode PushManager::getCertificates(const Caller& c, const NodeId& group, std::vector<NodeId>* types,
                                        std::vector<std::string>* certificates) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (!isDefaultGroup(group)) return status::BadInvalidArgument;
    types->clear();
    certificates->clear();
    const Certificate own = m_store->ownCertificate();
    if (own.isNull()) return status::Good;  // both empty: no certificate assigned
    types->push_back(NodeId(id::RsaSha256ApplicationCertificateType));
    certificates->push_back(own.der());
    return status::Good;
}

} // namespace ua
