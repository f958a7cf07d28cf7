#include "ua/server/certificates/PushManager.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/TrustListChecks.h"
#include "ua/server/users/Roles.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace ua {

namespace {

constexpr uint8_t kModeRead = 0x01;
constexpr uint8_t kModeWriteErase = 0x06;

int64_t steadyNowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

Array<ByteString> toArray(const std::vector<std::string>& list) {
    std::vector<ByteString> out;
    out.reserve(list.size());
    for (const std::string& der : list)
        out.emplace_back(der);
    return Array<ByteString>(std::move(out));
}

std::vector<std::string> fromArray(const Array<ByteString>& list) {
    std::vector<std::string> out;
    out.reserve(list.size());
    for (const ByteString& b : list)
        out.push_back(b.str());
    return out;
}

// The file a reader gets: the lists of masks, the others empty (OPC 10000-12 7.8.2.3).
std::string encodeTrustList(const TrustListContents& t, uint32_t masks) {
    TrustListDataType d;
    d.specifiedLists = masks;
    if (masks & kTrustedCertificates) d.trustedCertificates = toArray(t.trustedCertificates);
    if (masks & kTrustedCrls) d.trustedCrls = toArray(t.trustedCrls);
    if (masks & kIssuerCertificates) d.issuerCertificates = toArray(t.issuerCertificates);
    if (masks & kIssuerCrls) d.issuerCrls = toArray(t.issuerCrls);
    Buffer out;
    BinaryEncoder e(out);
    encode(e, d);
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
}

std::size_t byteSize(const TrustListContents& t) {
    std::size_t n = 0;
    for (const auto* list : {&t.trustedCertificates, &t.trustedCrls, &t.issuerCertificates, &t.issuerCrls})
        for (const std::string& e : *list)
            n += e.size() + 4;
    return n + 20;
}

std::string upper(std::string s) {
    for (char& ch : s)
        ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

} // namespace

struct PushManager::Handle {
    NodeId session;
    int64_t lastActivity = 0;  // the last TrustList call of its Session (steady ms)
    bool writing = false;
    std::string bytes;     // reading: the snapshot; writing: what was written
    std::size_t position = 0;
};

PushManager::PushManager(PushManagerLimits limits) : m_limits(limits), m_nowMs(steadyNowMs) {}
PushManager::~PushManager() = default;

void PushManager::setStore(std::shared_ptr<CertificateStore> store) {
    std::lock_guard lock(m_mutex);
    m_store = std::move(store);
}

void PushManager::setClock(std::function<int64_t()> nowMs) {
    std::lock_guard lock(m_mutex);
    m_nowMs = std::move(nowMs);
}

StatusCode PushManager::check(const Caller& c) const {
    if (!(c.roles & roleBit(Role::SecurityAdmin))) return status::BadUserAccessDenied;
    if (c.securityMode != MessageSecurityMode::SignAndEncrypt || !m_store) return status::BadSecurityModeInsufficient;
    return status::Good;
}

void PushManager::expireIdle(int64_t now, const NodeId* caller) {
    if (m_limits.activityTimeoutMs > 0)
        std::erase_if(m_handles, [&](const auto& h) { return now - h.second->lastActivity > m_limits.activityTimeoutMs; });
    if (caller)
        for (auto& [id, h] : m_handles)
            if (h->session == *caller) h->lastActivity = now;
}

bool PushManager::writerOpen() const {
    return std::any_of(m_handles.begin(), m_handles.end(), [](const auto& h) { return h.second->writing; });
}

bool PushManager::foreignTransaction(const Caller& c) const { return m_transaction && m_transaction->owner != c.sessionId; }

void PushManager::beginTransaction(const Caller& c) {
    // Aggregate initialisation: clang 14 does not see the nested struct's default constructor from
    // std::optional::emplace (its default member initializers).
    if (!m_transaction) m_transaction = Transaction{c.sessionId, TrustListContents{}, false, {}};
}

void PushManager::stage(const Caller& c, TrustListContents next) {
    beginTransaction(c);
    m_transaction->trustList = std::move(next);
    m_transaction->trustListChanged = true;
}

uint32_t PushManager::addHandle(const Caller& c, bool writing, std::string bytes) {
    auto h = std::make_unique<Handle>();
    h->session = c.sessionId;
    h->lastActivity = m_nowMs();
    h->writing = writing;
    h->bytes = std::move(bytes);
    while (m_handles.count(m_nextHandle) || m_nextHandle == 0)
        ++m_nextHandle;
    const uint32_t id = m_nextHandle++;
    m_handles.emplace(id, std::move(h));
    return id;
}

PushManager::Handle* PushManager::handleOf(const Caller& c, uint32_t handle) {
    const auto it = m_handles.find(handle);
    if (it == m_handles.end() || it->second->session != c.sessionId) return nullptr;
    return it->second.get();
}

StatusCode PushManager::open(const Caller& c, uint8_t mode, uint32_t* handle) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (mode != kModeRead && mode != kModeWriteErase) return status::BadNotSupported;
    expireIdle(m_nowMs(), &c.sessionId);
    if (mode == kModeRead) {
        if (writerOpen()) return status::BadNotReadable;
    } else {
        if (foreignTransaction(c)) return status::BadTransactionPending;
        if (!m_handles.empty()) return status::BadNotWritable;
    }
    if (m_handles.size() >= m_limits.maxHandles) return status::BadResourceUnavailable;
    const bool writing = mode == kModeWriteErase;
    *handle = addHandle(c, writing, writing ? std::string() : encodeTrustList(m_store->trustList(), kTrustListAll));
    return status::Good;
}

StatusCode PushManager::openWithMasks(const Caller& c, uint32_t masks, uint32_t* handle) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (masks & ~uint32_t(kTrustListAll)) return status::BadInvalidArgument;
    expireIdle(m_nowMs(), &c.sessionId);
    if (writerOpen()) return status::BadNotReadable;
    if (m_handles.size() >= m_limits.maxHandles) return status::BadResourceUnavailable;
    *handle = addHandle(c, false, encodeTrustList(m_store->trustList(), masks));
    return status::Good;
}

StatusCode PushManager::read(const Caller& c, uint32_t handle, int32_t length, ByteString* data) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    Handle* h = handleOf(c, handle);
    if (!h || length <= 0) return status::BadInvalidArgument;
    if (h->writing) return status::BadInvalidState;
    const std::size_t n = std::min({std::size_t(length), std::size_t(m_limits.maxReadBytes), h->bytes.size() - h->position});
    *data = ByteString(h->bytes.data() + h->position, n);
    h->position += n;
    return status::Good;
}

StatusCode PushManager::write(const Caller& c, uint32_t handle, const ByteString& data) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    Handle* h = handleOf(c, handle);
    if (!h) return status::BadInvalidArgument;
    if (!h->writing) return status::BadInvalidState;
    if (data.isEmpty()) return status::Good;
    const std::size_t end = h->position + data.size();
    if (end > m_limits.maxTrustListSize) return status::BadRequestTooLarge;
    if (end > h->bytes.size()) h->bytes.resize(end);
    std::copy(data.data(), data.data() + data.size(), h->bytes.begin() + std::ptrdiff_t(h->position));
    h->position = end;
    return status::Good;
}

StatusCode PushManager::close(const Caller& c, uint32_t handle) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    if (!handleOf(c, handle)) return status::BadInvalidArgument;
    m_handles.erase(handle);
    return status::Good;
}

StatusCode PushManager::getPosition(const Caller& c, uint32_t handle, uint64_t* position) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    const Handle* h = handleOf(c, handle);
    if (!h) return status::BadInvalidArgument;
    *position = h->position;
    return status::Good;
}

StatusCode PushManager::setPosition(const Caller& c, uint32_t handle, uint64_t position) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    Handle* h = handleOf(c, handle);
    if (!h) return status::BadInvalidArgument;
    h->position = std::size_t(std::min<uint64_t>(position, h->bytes.size()));
    return status::Good;
}

StatusCode PushManager::closeAndUpdate(const Caller& c, uint32_t handle, bool* applyChangesRequired) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    Handle* h = handleOf(c, handle);
    if (!h) return status::BadInvalidArgument;
    const bool writing = h->writing;
    const std::string bytes = std::move(h->bytes);
    m_handles.erase(handle);  // closed whatever the outcome
    if (!writing) return status::BadInvalidState;
    if (foreignTransaction(c)) return status::BadTransactionPending;
    TrustListDataType d;
    BinaryDecoder dec(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    decode(dec, d);
    if (!dec.ok() || !dec.atEnd()) return status::BadDecodingError;
    if (d.specifiedLists & ~uint32_t(kTrustListAll)) return status::BadInvalidArgument;
    TrustListContents next = m_transaction ? m_transaction->trustList : m_store->trustList();
    if (d.specifiedLists & kTrustedCertificates) next.trustedCertificates = fromArray(d.trustedCertificates);
    if (d.specifiedLists & kTrustedCrls) next.trustedCrls = fromArray(d.trustedCrls);
    if (d.specifiedLists & kIssuerCertificates) next.issuerCertificates = fromArray(d.issuerCertificates);
    if (d.specifiedLists & kIssuerCrls) next.issuerCrls = fromArray(d.issuerCrls);
    for (auto* list : {&next.trustedCertificates, &next.trustedCrls, &next.issuerCertificates, &next.issuerCrls}) {
        std::sort(list->begin(), list->end());  // one entry each (the store keeps one file each)
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    if (const StatusCode s = checkTrustListCertificates(next); s.isBad()) return s;
    for (const auto* list : {&next.trustedCrls, &next.issuerCrls})
        for (const std::string& der : *list)
            if (!parsesAsCrl(der)) return status::BadCertificateInvalid;
    if (byteSize(next) > m_limits.maxTrustListSize) return status::BadRequestTooLarge;
    stage(c, std::move(next));
    *applyChangesRequired = true;
    return status::Good;
}

StatusCode PushManager::addCertificate(const Caller& c, const ByteString& der, bool isTrusted) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    const Certificate cert = Certificate::fromDer(der.str());
    if (!isTrusted || cert.isNull()) return status::BadCertificateInvalid;
    if (writerOpen()) return status::BadInvalidState;
    if (foreignTransaction(c)) return status::BadTransactionPending;
    const TrustListContents& current = m_transaction ? m_transaction->trustList : m_store->trustList();
    if (!issuedBy(cert, cert)) {
        bool issuerKnown = false;
        for (const auto* list : {&current.trustedCertificates, &current.issuerCertificates})
            for (const std::string& ca : *list)
                issuerKnown = issuerKnown || issuedBy(cert, Certificate::fromDer(ca));
        if (!issuerKnown) return status::BadCertificateChainIncomplete;
    }
    TrustListContents next = current;
    if (std::find(next.trustedCertificates.begin(), next.trustedCertificates.end(), der.str()) == next.trustedCertificates.end())
        next.trustedCertificates.push_back(der.str());
    if (byteSize(next) > m_limits.maxTrustListSize) return status::BadRequestTooLarge;
    stage(c, std::move(next));
    return status::Good;
}

StatusCode PushManager::removeCertificate(const Caller& c, const std::string& thumbprint, bool isTrusted) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    if (writerOpen()) return status::BadInvalidState;
    if (foreignTransaction(c)) return status::BadTransactionPending;
    TrustListContents next = m_transaction ? m_transaction->trustList : m_store->trustList();
    std::vector<std::string>& list = isTrusted ? next.trustedCertificates : next.issuerCertificates;
    const std::string wanted = upper(thumbprint);
    const auto it = std::find_if(list.begin(), list.end(),
                                 [&](const std::string& der) { return Certificate::fromDer(der).thumbprintHex() == wanted; });
    if (wanted.empty() || it == list.end()) return status::BadInvalidArgument;
    const Certificate removed = Certificate::fromDer(*it);
    list.erase(it);
    // A CA still needed by another certificate of the list stays (7.8.2.7).
    for (const auto* others : {&next.trustedCertificates, &next.issuerCertificates})
        for (const std::string& der : *others) {
            const Certificate other = Certificate::fromDer(der);
            if (!(other == removed) && !issuedBy(other, other) && issuedBy(other, removed))
                return status::BadCertificateChainIncomplete;
        }
    for (auto* crls : {&next.trustedCrls, &next.issuerCrls})
        std::erase_if(*crls, [&](const std::string& crl) { return crlIssuedBy(crl, removed); });
    stage(c, std::move(next));
    return status::Good;
}

StatusCode PushManager::applyChanges(const Caller& c, Applied* applied) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    expireIdle(m_nowMs(), &c.sessionId);
    if (!m_transaction) return status::BadNothingToDo;
    if (m_transaction->owner != c.sessionId) return status::BadSessionIdInvalid;
    if (writerOpen()) return status::BadInvalidState;
    // 7.10.2: the queue must be consistent as a whole, or nothing is applied.
    for (const auto& [type, staged] : m_transaction->certificates)
        if (const StatusCode s = checkNewCertificate(staged.certificate); s.isBad()) {
            m_transaction.reset();
            return s;
        }
    Transaction t = std::move(*m_transaction);
    m_transaction.reset();
    Applied a;
    bool ok = true;
    if (t.trustListChanged) {
        a.before = m_store->trustList();
        a.after = t.trustList;
        a.trustListChanged = !(a.before == a.after);
        std::string error;
        ok = m_store->replaceTrustList(t.trustList, kTrustListAll, &error);
        m_lastUpdate = DateTime::now();
    }
    // The certificate after the trust list: its issuers may have come with this transaction.
    if (ok && !t.certificates.empty()) ok = applyCertificate(t, &a);
    if (applied) *applied = std::move(a);
    return ok ? StatusCode(status::Good) : StatusCode(status::BadInternalError);
}

void PushManager::setApplicationUri(std::string uri) {
    std::lock_guard lock(m_mutex);
    m_applicationUri = std::move(uri);
}

StatusCode PushManager::cancelChanges(const Caller& c) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    if (!m_transaction) return status::BadNothingToDo;
    if (m_transaction->owner != c.sessionId) return status::BadSessionIdInvalid;
    if (writerOpen()) return status::BadInvalidState;
    m_transaction.reset();
    return status::Good;
}

StatusCode PushManager::getRejectedList(const Caller& c, std::vector<std::string>* certificates) {
    std::lock_guard lock(m_mutex);
    if (const StatusCode s = check(c); s.isBad()) return s;
    certificates->clear();
    for (const Certificate& cert : m_store->rejected())
        certificates->push_back(cert.der());
    return status::Good;
}

void PushManager::sessionClosed(const NodeId& sessionId) {
    std::lock_guard lock(m_mutex);
    std::erase_if(m_handles, [&](const auto& h) { return h.second->session == sessionId; });
    if (m_transaction && m_transaction->owner == sessionId) m_transaction.reset();
}

uint16_t PushManager::openCount() {
    // Read on I/O threads: while a Method holds the lock (ApplyChanges writing the store's folders)
    // the value last computed is returned instead of waiting.
    std::unique_lock lock(m_mutex, std::try_to_lock);
    if (!lock.owns_lock()) return m_openCountSeen.load(std::memory_order_relaxed);
    expireIdle(m_nowMs(), nullptr);
    const uint16_t n = uint16_t(std::min<std::size_t>(m_handles.size(), 0xFFFF));
    m_openCountSeen.store(n, std::memory_order_relaxed);
    return n;
}

DateTime PushManager::lastUpdateTime() const {
    std::unique_lock lock(m_mutex, std::try_to_lock);
    if (!lock.owns_lock()) return DateTime{m_lastUpdateSeen.load(std::memory_order_relaxed)};
    m_lastUpdateSeen.store(m_lastUpdate.ticks, std::memory_order_relaxed);
    return m_lastUpdate;
}

std::optional<NodeId> PushManager::transactionOwner() const {
    std::lock_guard lock(m_mutex);
    if (!m_transaction) return std::nullopt;
    return m_transaction->owner;
}

} // namespace ua
