// The application instance certificate's part of PushManager (OPC 10000-12 7.10.5 UpdateCertificate,
// 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest; newest 1.05 text). PushManager.h documents
// each; docs/Security.md "Push certificate management" says where we chose.
#include "ua/server/certificates/PushManager.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/pki/TrustListChecks.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>

#include <QFileInfo>

namespace ua {

namespace {

constexpr std::size_t kMinNonceBytes = 32;  // 7.10.10: Nonce, when RegeneratePrivateKey is TRUE

bool isDefaultGroup(const NodeId& group) {
    return group.isNull() || group == NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
}

constexpr KeyType kTypes[] = {KeyType::Rsa, KeyType::EccNistP256, KeyType::EccNistP384};

// The key of UpdateCertificate's PrivateKeyFormat and PrivateKey (null: not one we read).
PrivateKey keyOf(const std::string& format, const ByteString& key) {
    if (format == "PEM") return PrivateKey::fromPem(key.str());
    if (format == "PFX") return PrivateKey::fromPkcs12(key.str());
    return {};
}

// What the certificate type says of a certificate (7.8.4): RsaSha256, an RSA key of 2048 to 4096
// bits signed with SHA-256; EccNistP256 / EccNistP384, a key of that curve signed with a hash of at
// least 256 bits (the issuer's key decides the algorithm). Not a suppressible step: another key
// would end every endpoint of the type.
bool fitsType(const Certificate& cert, KeyType type) {
    if (cert.keyType() != type) return false;
    if (type == KeyType::Rsa) return cert.keyBits() >= 2048 && cert.keyBits() <= 4096 && cert.signatureHashBits() == 256;
    return cert.signatureHashBits() >= 256;
}

} // namespace

KeyType keyTypeOfCertificateType(const NodeId& type) {
    if (type == NodeId(id::RsaSha256ApplicationCertificateType)) return KeyType::Rsa;
    if (type == NodeId(id::EccNistP256ApplicationCertificateType)) return KeyType::EccNistP256;
    if (type == NodeId(id::EccNistP384ApplicationCertificateType)) return KeyType::EccNistP384;
    return KeyType::Other;
}

NodeId certificateTypeOf(KeyType type) {
    switch (type) {
    case KeyType::Rsa:
        return NodeId(id::RsaSha256ApplicationCertificateType);
    case KeyType::EccNistP256:
        return NodeId(id::EccNistP256ApplicationCertificateType);
    case KeyType::EccNistP384:
        return NodeId(id::EccNistP384ApplicationCertificateType);
    case KeyType::Other:
        break;
    }
    return {};
}

std::vector<NodeId> PushManager::certificateTypes() const {
    // Read on I/O threads (the CertificateTypes Property): while a Method holds m_mutex, the types
    // last seen.
    std::shared_ptr<CertificateStore> store;
    {
        std::unique_lock lock(m_mutex, std::try_to_lock);
        if (lock.owns_lock()) store = m_store;
    }
    uint8_t seen = m_typesSeen.load(std::memory_order_relaxed);
    if (store) {
        seen = 0;
        for (const KeyType k : kTypes)
            if (!store->ownCertificate(k).isNull()) seen |= uint8_t(1u << unsigned(k));
        m_typesSeen.store(seen, std::memory_order_relaxed);
    }
    std::vector<NodeId> types;
    for (const KeyType k : kTypes)
        if (seen & (1u << unsigned(k))) types.push_back(certificateTypeOf(k));
    return types;
}

StatusCode PushManager::checkNewCertificate(const Certificate& certificate) const {
    if (!m_applicationUri.empty() && certificate.applicationUri() != m_applicationUri) return status::BadCertificateUriInvalid;
    if (m_transaction && m_transaction->trustListChanged) {
        // The issuers may come with this transaction's trust list, which the store does not hold yet:
        // the structure, chain and signature steps against it (revocation is checked by the whole
        // validation once it is in the store, as for every peer).
        TrustListContents probe = m_transaction->trustList;
        probe.trustedCertificates.push_back(certificate.der());
        return checkTrustListCertificates(probe);
    }
    ValidationOptions o;
    o.ignoreSuppressible = true;
    o.waiveTrustList = true;  // the server need not trust its own certificate
    o.recordRejected = false;
    return m_store->validate(certificate.der(), o);
}

StatusCode PushManager::updateCertificate(const Caller& c, const NodeId& group, const NodeId& type,
                                          const ByteString& certificate, const std::vector<ByteString>& /*issuers*/,
                                          const std::string& keyFormat, const ByteString& key, bool* applyChangesRequired) {
    // The key is parsed before the lock: a PKCS#12 file can take long, and the lock is also taken
    // on I/O threads (OpenCount).
    const PrivateKey givenKey = key.isEmpty() ? PrivateKey() : keyOf(keyFormat, key);
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (foreignTransaction(c)) return status::BadTransactionPending;
    const KeyType keyType = keyTypeOfCertificateType(type);
    if (!isDefaultGroup(group) || keyType == KeyType::Other || m_store->ownCertificate(keyType).isNull())
        return status::BadInvalidArgument;
    const Certificate cert = Certificate::fromDer(certificate.str());
    if (cert.isNull()) return status::BadCertificateInvalid;
    if (!fitsType(cert, keyType)) return status::BadCertificatePolicyCheckFailed;
    PrivateKey newKey;
    if (!key.isEmpty()) {  // a format with an empty key counts as no key
        if (givenKey.isNull() || !givenKey.matches(cert)) return status::BadNotSupported;
        newKey = givenKey;
    } else {
        const PrivateKey pending = m_store->pendingKey(keyType);
        newKey = pending.matches(cert) ? pending : m_store->ownPrivateKey(keyType);
        if (!newKey.matches(cert)) return status::BadSecurityChecksFailed;  // 7.10.5: no key, another public key
    }
    // IssuerCertificates are ignored (7.10.5): the trust list must hold the issuers already.
    if (const StatusCode s = checkNewCertificate(cert); s.isBad()) return s;
    beginTransaction(c);
    m_transaction->certificates[keyType] = {cert, newKey};
    *applyChangesRequired = true;
    return status::Good;
}

bool PushManager::applyCertificate(const Transaction& t, Applied* a) {
    for (const auto& [type, staged] : t.certificates) {
        const Certificate before = m_store->ownCertificate(type);
        std::string error;
        if (!m_store->replaceOwnCertificate(staged.certificate, staged.key, &error)) return false;
        if (!(before == staged.certificate)) {
            a->certificateChanged = true;
            a->certificateTypes.push_back(type);
        }
    }
    return true;
}

StatusCode PushManager::createSigningRequest(const Caller& c, const NodeId& group, const NodeId& type,
                                             const std::string& subjectName, bool regenerateKey, const ByteString& nonce,
                                             ByteString* request) {
    {
        std::lock_guard lock(m_mutex);
        if (const StatusCode s = check(c); s.isBad()) return s;
    }
    const KeyType keyType = keyTypeOfCertificateType(type);
    if (!isDefaultGroup(group) || keyType == KeyType::Other || m_store->ownCertificate(keyType).isNull())
        return status::BadInvalidArgument;
    if (!subjectName.empty() && subjectNameDer(subjectName).empty()) return status::BadInvalidArgument;
    if (regenerateKey && nonce.size() < kMinNonceBytes) return status::BadInvalidArgument;
    // The key is made without the lock (seconds for 4096 bits; the lock is taken on I/O threads too).
    const Certificate current = m_store->ownCertificate(keyType);
    PrivateKey key = m_store->ownPrivateKey(keyType);
    if (regenerateKey) {
        RAND_add(nonce.data(), int(nonce.size()), 0.0);  // extra input; no entropy claimed
        key = keyType == KeyType::Rsa ? PrivateKey::generateRsa(std::clamp(key.bits(), 2048, 4096))
                                      : PrivateKey::generateEc(keyType);
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
    for (const KeyType k : kTypes) {
        const Certificate own = m_store->ownCertificate(k);
        if (own.isNull()) continue;  // none of any type: both empty, no certificate assigned
        types->push_back(certificateTypeOf(k));
        certificates->push_back(own.der());
    }
    return status::Good;
}

} // namespace ua
