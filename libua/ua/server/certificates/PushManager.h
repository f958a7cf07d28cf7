// The state behind the server's push certificate management (OPC 10000-12 7.8.2 TrustListType,
// 7.10 ServerConfigurationType, newest 1.05 text; docs/Security.md "Push certificate management"):
// the open handles of the DefaultApplicationGroup's TrustList file (OPC 10000-20 4.2 FileType) and
// the one transaction (7.10.2) that holds changes until ApplyChanges. PushMethods.h binds it to the
// ns0 nodes under Server.ServerConfiguration (i=12637).
//
// Who may call (checked first by every operation, our reading of 7.4 and of the issue): a Session
// with the SecurityAdmin Role (else Bad_UserAccessDenied) over a SignAndEncrypt SecureChannel (else
// Bad_SecurityModeInsufficient). The newest text asks only for a signed channel for some of these;
// we ask for encryption for all, as the 7.4 overview and 1.04 do.
//
// The file is the UA Binary body of a TrustListDataType (7.8.2.8, no ExtensionObject around it).
// Readers get a snapshot of the committed trust list taken at Open; a transaction's changes are seen
// by nobody until ApplyChanges writes them into the CertificateStore.
//
// Thread-safe (one mutex; the Methods run on the Method worker pool, never on the hot path).
#pragma once

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/KeyType.h"
#include "ua/pki/PrivateKey.h"
#include "ua/pki/TrustListContents.h"

#include <cstdint>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ua {

class CertificateStore;

// The certificate types of OPC 10000-12 7.8.4 and the key each holds: RsaSha256ApplicationCertificateType
// (i=12560) RSA, EccNistP256ApplicationCertificateType (i=23538) and EccNistP384ApplicationCertificateType
// (i=23539) the curve; KeyType::Other for any other NodeId, and a null NodeId for KeyType::Other.
KeyType keyTypeOfCertificateType(const NodeId& type);
NodeId certificateTypeOf(KeyType type);

struct PushManagerLimits {
    // MaxTrustListSize (ServerConfiguration, bytes): the largest TrustList file a client may write
    // and the largest trust list a transaction may build (Bad_RequestTooLarge).
    uint32_t maxTrustListSize = 1024 * 1024;
    // ActivityTimeout (ms, OPC 10000-12 7.8.2.1): the handles of a Session that called no TrustList
    // Method for this long are closed (their writes dropped) at the next call or OpenCount read. Per
    // Session, not per object as the text words it: another client's calls do not keep a silent
    // writer's lock alive.
    int64_t activityTimeoutMs = 60'000;
    // Most bytes one Read returns (the client reads again for the rest).
    int32_t maxReadBytes = 1024 * 1024;
    // Handles open at once (an Open beyond: Bad_ResourceUnavailable).
    std::size_t maxHandles = 64;
};

class PushManager {
public:
    // Who calls: the Session, its Roles (users/Roles.h RoleSet) and its channel's security mode.
    struct Caller {
        NodeId sessionId;
        uint32_t roles = 0;
        MessageSecurityMode securityMode = MessageSecurityMode::None;
    };
    // What ApplyChanges did, for the audit events and the server window.
    struct Applied {
        bool trustListChanged = false;
        TrustListContents before;
        TrustListContents after;
        // New application instance certificates (UpdateCertificate) are in the store, of these key
        // types (one per certificate type): the server now offers them and their keys
        // (Server::applyPushChanges).
        bool certificateChanged = false;
        std::vector<KeyType> certificateTypes;
    };

    explicit PushManager(PushManagerLimits limits = {});
    ~PushManager();

    // The store the trust list lives in (Server::start; null: no PKI, every call is refused with
    // Bad_SecurityModeInsufficient, as no channel can be encrypted then).
    void setStore(std::shared_ptr<CertificateStore> store);
    // The server's ApplicationUri: an UpdateCertificate certificate must name it (its subjectAltName
    // URI), or the server would not take it as its own at the next start.
    void setApplicationUri(std::string uri);
    // Called with the milliseconds of a steady clock (tests set their own).
    void setClock(std::function<int64_t()> nowMs);

    // ---- FileType (OPC 10000-20 4.2) and TrustListType (OPC 10000-12 7.8.2) ----
    // Open (7.8.2.2): mode 0x01 (Read) or 0x06 (Write + EraseExisting), anything else
    // Bad_NotSupported. Write: Bad_TransactionPending when another Session holds the transaction,
    // Bad_NotWritable when the file is open in any mode; Read: Bad_NotReadable while a writer has it.
    // Bad_ResourceUnavailable when maxHandles are open.
    StatusCode open(const Caller& c, uint8_t mode, uint32_t* handle);
    // OpenWithMasks (7.8.2.3): for reading, only the lists of masks (TrustListMask bits; other bits:
    // Bad_InvalidArgument).
    StatusCode openWithMasks(const Caller& c, uint32_t masks, uint32_t* handle);
    // Read: length > 0 (else Bad_InvalidArgument), returns at most min(length, maxReadBytes) bytes
    // from the position, empty at the end. Bad_InvalidArgument: the handle is not one of this
    // Session's; Bad_InvalidState: not opened for reading.
    StatusCode read(const Caller& c, uint32_t handle, int32_t length, ByteString* data);
    // Write at the position (empty data: nothing). Bad_InvalidState: not opened for writing;
    // Bad_RequestTooLarge: the file would exceed maxTrustListSize.
    StatusCode write(const Caller& c, uint32_t handle, const ByteString& data);
    StatusCode close(const Caller& c, uint32_t handle);
    StatusCode getPosition(const Caller& c, uint32_t handle, uint64_t* position);
    // A position past the end is the end (OPC 10000-20).
    StatusCode setPosition(const Caller& c, uint32_t handle, uint64_t position);
    // CloseAndUpdate (7.8.2.5): closes the handle in any case; Bad_InvalidState when it was not open
    // for writing; Bad_DecodingError when the file is not exactly one TrustListDataType;
    // Bad_InvalidArgument for SpecifiedLists bits above 15; Bad_CertificateInvalid when a certificate
    // or CRL does not parse or a certificate's signature does not verify; Bad_CertificateChainIncomplete
    // when a certificate's issuer is not in the new list (pki/TrustListChecks.h); Bad_RequestTooLarge
    // beyond maxTrustListSize. Repeated entries count once. Else the lists that
    // SpecifiedLists names replace those of the transaction (created or continued) and
    // *applyChangesRequired is true: nothing changes until ApplyChanges.
    StatusCode closeAndUpdate(const Caller& c, uint32_t handle, bool* applyChangesRequired);
    // AddCertificate (7.8.2.6): one certificate into TrustedCertificates. isTrusted false or a
    // certificate that does not parse: Bad_CertificateInvalid; a certificate that is not self-signed
    // and whose issuer is not in the (pending) trust list: Bad_CertificateChainIncomplete; the file
    // open for writing: Bad_InvalidState; another Session's transaction: Bad_TransactionPending.
    StatusCode addCertificate(const Caller& c, const ByteString& der, bool isTrusted);
    // RemoveCertificate (7.8.2.7): by SHA-1 thumbprint (hex, any case) from the trusted (true) or
    // issuer (false) certificates, with the CRLs it issued. Bad_InvalidArgument: no such certificate;
    // Bad_CertificateChainIncomplete: another certificate of the list was issued by it; the file
    // open for writing: Bad_InvalidState; another Session's transaction: Bad_TransactionPending.
    StatusCode removeCertificate(const Caller& c, const std::string& thumbprint, bool isTrusted);

    // ---- ServerConfigurationType (7.10) ----
    // ApplyChanges (7.10.9): Bad_NothingToDo without a transaction; Bad_SessionIdInvalid from a
    // Session that does not own it; Bad_InvalidState while the TrustList is open for writing (the
    // transaction stays); a staged certificate that the transaction's final trust list no longer
    // chains (a later change removed its CA): that status, and the whole transaction is discarded
    // (7.10.2); Bad_InternalError when the store could not be written (the transaction
    // ends, the store may hold part of it: *applied says what was meant).
    StatusCode applyChanges(const Caller& c, Applied* applied = nullptr);
    // CancelChanges (7.10.11): Bad_NothingToDo without a transaction, Bad_SessionIdInvalid from a
    // Session that does not own it, Bad_InvalidState while the TrustList is open for writing.
    StatusCode cancelChanges(const Caller& c);
    // The certificate types of the DefaultApplicationGroup (7.8.3 CertificateTypes, 7.8.4): those the
    // server holds a pair of, RsaSha256ApplicationCertificateType first, then
    // EccNistP256ApplicationCertificateType and EccNistP384ApplicationCertificateType when the server
    // offers ECC endpoints (Server.cpp makes their pairs then).
    std::vector<NodeId> certificateTypes() const;
    // UpdateCertificate (7.10.5), the DefaultApplicationGroup only: group null or
    // DefaultApplicationGroup (i=14156) and type one of certificateTypes(), else
    // Bad_InvalidArgument; Bad_TransactionPending for another Session's transaction. The certificate
    // must parse (Bad_CertificateInvalid), be what the type says (RsaSha256: an RSA key of 2048 to
    // 4096 bits, signed with SHA-256; EccNistP256 / EccNistP384: a key of that curve, signed with a
    // hash of at least 256 bits: Bad_CertificatePolicyCheckFailed), name the server's ApplicationUri
    // (Bad_CertificateUriInvalid) and pass OPC 10000-4 6.1.3 with the suppressible steps ignored and
    // the trust list waived (the server does not have to trust itself): structure, chain (its
    // issuers from the trust list, the transaction's when it changed it: Bad_CertificateChainIncomplete;
    // issuers is ignored, as 7.10.5 says), signatures, revocation (Bad_CertificateRevoked...).
    // keyFormat "PEM" (PKCS#8, or a traditional RSA key) or "PFX" (PKCS#12 without password) with a
    // non-empty key: the key must be the certificate's (Bad_NotSupported: unknown format, a key
    // that does not parse or is not the certificate's; a format with an empty key is no key).
    // Without a key, the certificate's public key must be the pending key's (CreateSigningRequest)
    // or the current one's of that type (Bad_SecurityChecksFailed). Staged in the caller's
    // transaction, one per type (a second call for a type replaces the first); *applyChangesRequired
    // true.
    StatusCode updateCertificate(const Caller& c, const NodeId& group, const NodeId& type, const ByteString& certificate,
                                 const std::vector<ByteString>& issuers, const std::string& keyFormat,
                                 const ByteString& key, bool* applyChangesRequired);
    // CreateSigningRequest (7.10.10): a PKCS#10 request (DER) for the DefaultApplicationGroup's
    // certificate (group and type as UpdateCertificate), subject subjectName (CN=..., O=...; empty:
    // the current certificate's; one that does not parse: Bad_InvalidArgument), the current
    // subjectAltName. regenerateKey: a new key of the type (RSA of the current key's length, or of
    // the curve), kept as the store's pending key of that type until a certificate for it is
    // applied; nonce must then hold at least 32
    // bytes (else Bad_InvalidArgument) and is added to OpenSSL's random pool. Otherwise the current
    // key signs the request.
    StatusCode createSigningRequest(const Caller& c, const NodeId& group, const NodeId& type, const std::string& subjectName,
                                    bool regenerateKey, const ByteString& nonce, ByteString* request);
    // GetCertificates (7.10.8): for group null or DefaultApplicationGroup, certificateTypes() and the
    // certificate in use of each; another group: Bad_InvalidArgument.
    StatusCode getCertificates(const Caller& c, const NodeId& group, std::vector<NodeId>* types,
                               std::vector<std::string>* certificates);
    // ResetToServerDefaults (7.10.13): the configured defaults are the folder "<pki>/defaults" (the
    // store's layout: trusted/, issuers/, own/), which the administrator or machine builder fills;
    // without it Bad_NotSupported. Every transaction and TrustList handle is dropped, then the store
    // is reset to it (CertificateStore::resetTo; Bad_InternalError on a write failure). The server
    // then shuts down (PushMethods.h), as 7.10.13 asks.
    StatusCode resetToServerDefaults(const Caller& c);
    // GetRejectedList (7.10.12, and the CertificateGroup's 7.8.3.2): the DER of each certificate in
    // the store's rejected/ folder (at most 100, CertificateStore.h).
    StatusCode getRejectedList(const Caller& c, std::vector<std::string>* certificates);

    // A Session ended: its handles close and its transaction is discarded (7.10.2).
    void sessionClosed(const NodeId& sessionId);

    // OpenCount of the TrustList (handles open now), LastUpdateTime (the last ApplyChanges that
    // changed it; null before), whether a transaction exists and whose. The first two never wait:
    // while a Method holds the lock (writing the store) they return what they last computed.
    uint16_t openCount();
    DateTime lastUpdateTime() const;
    std::optional<NodeId> transactionOwner() const;

private:
    struct Handle;
    StatusCode check(const Caller& c) const;
    Handle* handleOf(const Caller& c, uint32_t handle);
    // Closes the handles whose Session called no TrustList Method for activityTimeoutMs, then marks
    // the caller's (if any) active: a Session that keeps calling keeps only its own handles open.
    void expireIdle(int64_t now, const NodeId* caller);
    bool writerOpen() const;
    // Starts the caller's transaction (7.10.2) unless there is one.
    void beginTransaction(const Caller& c);
    // Puts next into the caller's transaction (started if there is none) as the trust list to apply.
    void stage(const Caller& c, TrustListContents next);
    // A new handle of the caller's Session; its id.
    uint32_t addHandle(const Caller& c, bool writing, std::string bytes);
    bool foreignTransaction(const Caller& c) const;

    PushManagerLimits m_limits;
    mutable std::mutex m_mutex;
    std::shared_ptr<CertificateStore> m_store;
    std::function<int64_t()> m_nowMs;
    std::map<uint32_t, std::unique_ptr<Handle>> m_handles;
    uint32_t m_nextHandle = 1;
    struct Transaction {
        NodeId owner;
        TrustListContents trustList;
        bool trustListChanged = false;
        // UpdateCertificate's, with their keys: at most one per key type.
        struct Staged {
            Certificate certificate;
            PrivateKey key;
        };
        std::map<KeyType, Staged> certificates;
    };
    // Checks a staged certificate as updateCertificate describes (m_mutex held).
    StatusCode checkNewCertificate(const Certificate& certificate) const;
    // Puts the staged certificates into the store (ApplyChanges; m_mutex held). False on a write failure.
    bool applyCertificate(const Transaction& t, Applied* a);
    std::string m_applicationUri;
    std::optional<Transaction> m_transaction;
    DateTime m_lastUpdate;
    // What openCount() and lastUpdateTime() last computed: returned while a Method holds m_mutex.
    std::atomic<uint16_t> m_openCountSeen{0};
    mutable std::atomic<int64_t> m_lastUpdateSeen{0};
    mutable std::atomic<uint8_t> m_typesSeen{1u << unsigned(KeyType::Rsa)};  // certificateTypes(), a bit per KeyType
};

} // namespace ua
