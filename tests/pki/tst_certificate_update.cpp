// The application instance certificate's side of push certificate management (OPC 10000-12 7.10.5
// UpdateCertificate, 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest; newest 1.05 text):
//   - pki/SigningRequest.h: PKCS#10 requests (subject names, the copied subjectAltName, the
//     self-signature) and a CA that signs one;
//   - PrivateKey::fromPkcs12 / matches, CertificateStore's replaceOwnCertificate, ownCertificateChain
//     and pending key, ValidationOptions::ignoreSuppressible;
//   - PushManager's updateCertificate, createSigningRequest, getCertificates and ApplyChanges with a
//     certificate, with the exact status of each refusal.
// Against a real CertificateStore in a temporary folder; the test CA (PkiTestUtil.h) is OpenSSL used
// directly, not the code under test. Over the wire: tests/client/tst_push_management.cpp; node-opcua:
// tests/interop/tst_node_push.cpp.
#include "PkiTestUtil.h"
#include "PushTestUtil.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/server/certificates/PushManager.h"
#include "ua/server/users/Roles.h"

#include <openssl/pkcs12.h>

#include <algorithm>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;


namespace {

constexpr const char* kServerUri = "urn:ua-workbench:test:update-server";

struct UpdateKeys {
    PrivateKey ca = PrivateKey::generateRsa(2048);
    PrivateKey otherCa = PrivateKey::generateRsa(2048);
    PrivateKey external = PrivateKey::generateRsa(2048);
};
UpdateKeys* updateKeys = nullptr;


const NodeId kUpdateGroup(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
const NodeId kUpdateType(id::RsaSha256ApplicationCertificateType);

ByteString csrNonce(std::size_t n) { return ByteString(std::string(n, '\x5A')); }

// The DER of a PKCS#12 file holding key and certificate, with password (empty: none).
std::string pkcs12Of(const PrivateKey& key, const Certificate& cert, const std::string& password) {
    PKCS12* p12 = PKCS12_create(password.empty() ? nullptr : password.c_str(), "test", key.get(), cert.x509(), nullptr, 0,
                                0, 0, 0, 0);
    if (!p12) return {};
    const int len = i2d_PKCS12(p12, nullptr);
    std::string der(std::size_t(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    i2d_PKCS12(p12, &p);
    PKCS12_free(p12);
    return der;
}

std::string pemOf(const PrivateKey& key, const QString& dir) {
    const std::string path = QDir(dir).filePath(QStringLiteral("key.pem")).toStdString();
    if (!key.savePem(path)) return {};
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

// A server's store with its own self-signed certificate (as Server::start makes it) and a trusted CA
// with its CRL: the CA signs the server's requests.
struct UpdateFixture {
    QTemporaryDir tmp;
    std::shared_ptr<CertificateStore> store = std::make_shared<CertificateStore>(tmp.path().toStdString() + "/pki");
    Certificate ca = pkitest::issue(pkitest::caSpec("Update Test CA"), updateKeys->ca);
    PushManager m;

    UpdateFixture() {
        CertificateRequest r;
        r.applicationUri = kServerUri;
        r.applicationName = "Update Test Server";
        r.hostNames = {"server.local", "127.0.0.1"};
        store->ensureOwnCertificate(r);
        store->addTrusted(ca);
        store->addTrustedCrl(pkitest::crl(ca, updateKeys->ca));
        m.setStore(store);
        m.setApplicationUri(kServerUri);
    }
    // A CSR of the server (current key unless regenerate), signed by the CA.
    Certificate signedByCa(bool regenerate, const std::string& subject = {}) {
        ByteString csr;
        if (m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, subject, regenerate, csrNonce(32), &csr).isBad()) return {};
        return signRequest(csr.str(), ca, updateKeys->ca, 365);
    }
};

} // namespace

class TestCertificateUpdate : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { updateKeys = new UpdateKeys; }
    void cleanupTestCase() { delete updateKeys; }

    // Subject names as OPC 10000-12 7.6.4 writes them, and what is not one.
    void subjectNames() {
        QVERIFY(!subjectNameDer("CN=Server, O=Org, DC=host").empty());
        QVERIFY(!subjectNameDer("/CN=Server/O=Org").empty());
        QVERIFY(!subjectNameDer("CN=\"Server, Line 2\", O=Org").empty());
        // 7.6.4's own syntax: '/' between the fields, S for the state, quotes around a '/' or '='.
        QVERIFY(!subjectNameDer("CN=UA Server/O=OPC Foundation/DC=host").empty());
        QVERIFY(!subjectNameDer("CN=\"Line 3/Press\"/S=Bavaria/C=DE").empty());
        std::string error;
        UpdateFixture f;
        const std::string csr = createSigningRequest(f.store->ownPrivateKey(), f.store->ownCertificate(),
                                                     "CN=UA Server/O=OPC Foundation/DC=host", &error);
        const SigningRequestInfo info = parseSigningRequest(csr);
        QVERIFY2(info.subjectName == "CN=UA Server, O=OPC Foundation, DC=host", info.subjectName.c_str());
        for (const char* bad : {"CN=a=b", "CN=a/O=b=c", "CN=x\"y"})
            QVERIFY2(subjectNameDer(bad).empty(), bad);
        for (const char* bad : {"", "   ", "Server", "CN=", "O=Org", "XX=1, CN=a", "CN=\"open, O=Org", "CN=a,,O=b", "=x, CN=a"})
            QVERIFY2(subjectNameDer(bad).empty(), bad);
    }

    // A request carries the subject asked for (or the current one), the current subjectAltName and
    // a self-signature; a CA signs it into an application instance certificate for the same key.
    void requestAndSign() {
        UpdateFixture f;
        const Certificate own = f.store->ownCertificate();
        std::string error;
        const std::string csr = createSigningRequest(f.store->ownPrivateKey(), own, {}, &error);
        QVERIFY2(!csr.empty(), error.c_str());
        SigningRequestInfo info = parseSigningRequest(csr);
        QVERIFY(info.valid);
        QCOMPARE(QString::fromStdString(info.subjectName), QString::fromStdString(own.subjectName()));
        QCOMPARE(QString::fromStdString(info.applicationUri), QString::fromLatin1(kServerUri));
        QCOMPARE(info.keyBits, 2048);

        const std::string named = createSigningRequest(f.store->ownPrivateKey(), own, "CN=Renamed Server, O=Plant 7", &error);
        info = parseSigningRequest(named);
        QVERIFY(info.valid);
        QVERIFY2(info.subjectName.find("Renamed Server") != std::string::npos, info.subjectName.c_str());
        QVERIFY(createSigningRequest(f.store->ownPrivateKey(), own, "no name", &error).empty());
        QVERIFY2(error.rfind("subject name", 0) == 0, error.c_str());
        QVERIFY(createSigningRequest(PrivateKey(), own, {}, &error).empty());

        const Certificate issued = signRequest(named, f.ca, updateKeys->ca, 30, &error);
        QVERIFY2(!issued.isNull(), error.c_str());
        QVERIFY(f.store->ownPrivateKey().matches(issued));
        QCOMPARE(QString::fromStdString(issued.applicationUri()), QString::fromLatin1(kServerUri));
        QVERIFY(issued.dnsNames() == own.dnsNames());
        QVERIFY(issued.ipAddresses() == own.ipAddresses());
        QVERIFY(!issued.isCA());
        QVERIFY(!issued.isSelfSigned());
        QCOMPARE(QString::fromStdString(issued.issuerName()), QString::fromStdString(f.ca.subjectName()));
        QVERIFY(issued.notAfter().ticks - DateTime::now().ticks < int64_t(31) * 86400 * DateTime::kTicksPerMs * 1000);
        // The server's store validates it as a peer would: trusted through the CA, with its CRL.
        ValidationOptions o;
        o.checkKeyUsage = true;
        QCOMPARE_STATUS(f.store->validate(issued.der(), o), status::Good);
    }

    // What a CA refuses to sign.
    void signingRefusals() {
        UpdateFixture f;
        const std::string csr = createSigningRequest(f.store->ownPrivateKey(), f.store->ownCertificate(), {});
        std::string error;
        QVERIFY(signRequest("not a request", f.ca, updateKeys->ca, 30, &error).isNull());
        std::string tampered = csr;
        tampered[tampered.size() - 3] = char(tampered[tampered.size() - 3] ^ 0x10);  // in the signature
        QVERIFY(signRequest(tampered, f.ca, updateKeys->ca, 30, &error).isNull());
        QVERIFY(signRequest(csr + "x", f.ca, updateKeys->ca, 30, &error).isNull());  // trailing bytes
        QVERIFY(signRequest(csr, f.store->ownCertificate(), f.store->ownPrivateKey(), 30, &error).isNull());  // not a CA
        QVERIFY2(error.find("not a CA") != std::string::npos, error.c_str());
        QVERIFY(signRequest(csr, f.ca, updateKeys->otherCa, 30, &error).isNull());  // another key
        QVERIFY(signRequest(csr, f.ca, updateKeys->ca, 0, &error).isNull());
        QVERIFY(signRequest(csr, f.ca, updateKeys->ca, -5, &error).isNull());
        QVERIFY(!signRequest(csr, f.ca, updateKeys->ca, 1, &error).isNull());
    }

    // PKCS#12 keys, and whether a key is a certificate's.
    void pkcs12Keys() {
        UpdateFixture f;
        const Certificate cert = pkitest::issue({.cn = "External", .uri = kServerUri}, updateKeys->external, f.ca, updateKeys->ca);
        const PrivateKey plain = PrivateKey::fromPkcs12(pkcs12Of(updateKeys->external, cert, {}));
        QVERIFY(!plain.isNull());
        QVERIFY(plain.matches(cert));
        QVERIFY(!plain.matches(f.store->ownCertificate()));
        QVERIFY(!plain.matches(Certificate()));
        QVERIFY(!PrivateKey().matches(cert));
        const std::string locked = pkcs12Of(updateKeys->external, cert, "secret");
        QVERIFY(PrivateKey::fromPkcs12(locked, "wrong").isNull());
        QVERIFY(PrivateKey::fromPkcs12(locked, "secret").matches(cert));
        QVERIFY(PrivateKey::fromPkcs12("garbage").isNull());
    }

    // replaceOwnCertificate writes the new pair and removes the old; a key that is not the
    // certificate's changes nothing. ownCertificateChain adds the CA from trusted/.
    void storeReplacesItsCertificate() {
        UpdateFixture f;
        const Certificate old = f.store->ownCertificate();
        QCOMPARE(QString::fromStdString(f.store->ownCertificateChain()).size(), QString::fromStdString(old.der()).size());
        const Certificate cert = pkitest::issue({.cn = "External", .uri = kServerUri}, updateKeys->external, f.ca, updateKeys->ca);
        std::string error;
        QVERIFY(!f.store->replaceOwnCertificate(cert, f.store->ownPrivateKey(), &error));
        QVERIFY(!error.empty());
        QVERIFY(f.store->ownCertificate() == old);
        QVERIFY2(f.store->replaceOwnCertificate(cert, updateKeys->external, &error), error.c_str());
        QVERIFY(f.store->ownCertificate() == cert);
        QVERIFY(f.store->ownCertificateChain() == cert.der() + f.ca.der());
        const QString root = QString::fromStdString(f.store->rootDir());
        QCOMPARE(QDir(root + "/own/certs").entryList(QDir::Files).size(), 1);
        QCOMPARE(QDir(root + "/own/private").entryList(QDir::Files).size(), 1);
        // A new store on the folder (a restart) takes the installed pair, not a new self-signed one.
        CertificateStore reopened(f.store->rootDir());
        CertificateRequest r;
        r.applicationUri = kServerUri;
        r.hostNames = {"server.local"};
        QVERIFY(reopened.ensureOwnCertificate(r));
        QVERIFY(reopened.ownCertificate() == cert);
        QVERIFY(reopened.ownPrivateKey().matches(cert));
    }

    // The suppressible steps of Table 106 can be ignored; the others cannot.
    void ignoreSuppressible() {
        UpdateFixture f;
        const Certificate expired = pkitest::issue({.cn = "Expired", .uri = kServerUri, .notBeforeDays = -30, .notAfterDays = -1},
                                                   updateKeys->external, f.ca, updateKeys->ca);
        ValidationOptions o;
        o.recordRejected = false;
        QCOMPARE_STATUS(f.store->validate(expired.der(), o), status::BadCertificateTimeInvalid);
        o.ignoreSuppressible = true;
        QCOMPARE_STATUS(f.store->validate(expired.der(), o), status::Good);
        const Certificate revoked = pkitest::issue({.cn = "Revoked", .uri = kServerUri}, updateKeys->external, f.ca, updateKeys->ca);
        f.store->addTrustedCrl(pkitest::crl(f.ca, updateKeys->ca, {revoked}));
        QCOMPARE_STATUS(f.store->validate(revoked.der(), o), status::BadCertificateRevoked);
        QCOMPARE_STATUS(f.store->validate(pkitest::tampered(revoked), o), status::BadCertificateInvalid);
        // recordRejected false: an untrusted certificate is not copied to rejected/.
        const Certificate stranger = pkitest::issue({.cn = "Stranger"}, updateKeys->external);
        QCOMPARE_STATUS(f.store->validate(stranger.der(), o), status::BadCertificateUntrusted);
        QVERIFY(f.store->rejected().empty());
    }

    // CreateSigningRequest (7.10.10): the current key, or a new pending one kept across stores.
    void createSigningRequestKeys() {
        UpdateFixture f;
        ByteString csr;
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), NodeId(), kUpdateType, {}, false, ByteString(), &csr), status::Good);
        QVERIFY(parseSigningRequest(csr.str()).valid);
        QVERIFY(f.store->pendingKey().isNull());
        const Certificate same = signRequest(csr.str(), f.ca, updateKeys->ca, 30);
        QVERIFY(f.store->ownPrivateKey().matches(same));

        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, {}, true, csrNonce(31), &csr), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, {}, true, ByteString(), &csr), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, {}, true, csrNonce(32), &csr), status::Good);
        const PrivateKey pending = f.store->pendingKey();
        QVERIFY(!pending.isNull());
        const Certificate renewed = signRequest(csr.str(), f.ca, updateKeys->ca, 30);
        QVERIFY(pending.matches(renewed));
        QVERIFY(!f.store->ownPrivateKey().matches(renewed));
        QVERIFY(CertificateStore(f.store->rootDir()).pendingKey().matches(renewed));  // persisted

        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), NodeId(id::ServerConfiguration_CertificateGroups_DefaultUserTokenGroup),
                                                 kUpdateType, {}, false, ByteString(), &csr),
                        status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, NodeId(id::RsaMinApplicationCertificateType), {}, false,
                                                 ByteString(), &csr),
                        status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, "not a name", false, ByteString(), &csr),
                        status::BadInvalidArgument);
        PushManager::Caller op = pushtest::admin();
        op.roles = roleBit(Role::ConfigureAdmin);
        QCOMPARE_STATUS(f.m.createSigningRequest(op, kUpdateGroup, kUpdateType, {}, false, ByteString(), &csr), status::BadUserAccessDenied);
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(1, MessageSecurityMode::Sign), kUpdateGroup, kUpdateType, {}, false, ByteString(), &csr),
                        status::BadSecurityModeInsufficient);
    }

    // UpdateCertificate with the pending key (the CSR workflow of 7.10.10), held until ApplyChanges.
    void updateWithThePendingKey() {
        UpdateFixture f;
        const Certificate old = f.store->ownCertificate();
        const Certificate renewed = f.signedByCa(true, "CN=Renewed Server, O=Plant 7");
        QVERIFY(!renewed.isNull());
        bool apply = false;
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(renewed.der()), {}, {}, ByteString(), &apply),
                        status::Good);
        QVERIFY(apply);
        QVERIFY(f.store->ownCertificate() == old);  // nothing until ApplyChanges
        // Another Session meanwhile: the transaction is not its own.
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(2), kUpdateGroup, kUpdateType, ByteString(renewed.der()), {}, {}, ByteString(), &apply),
                        status::BadTransactionPending);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(2)), status::BadSessionIdInvalid);
        PushManager::Applied applied;
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(), &applied), status::Good);
        QVERIFY(applied.certificateChanged);
        QVERIFY(!applied.trustListChanged);
        QCOMPARE(applied.certificateTypes, std::vector<KeyType>{KeyType::Rsa});
        QVERIFY(f.store->ownCertificate() == renewed);
        QVERIFY(f.store->ownPrivateKey().matches(renewed));
        QVERIFY(f.store->pendingKey().isNull());  // used
        std::vector<NodeId> types;
        std::vector<std::string> certificates;
        QCOMPARE_STATUS(f.m.getCertificates(pushtest::admin(2), NodeId(), &types, &certificates), status::Good);
        QCOMPARE(types.size(), std::size_t(1));
        QVERIFY(types[0] == kUpdateType);
        QVERIFY(certificates == std::vector<std::string>{renewed.der()});
        QCOMPARE_STATUS(f.m.getCertificates(pushtest::admin(2), NodeId(id::ServerConfiguration_CertificateGroups_DefaultHttpsGroup),
                                            &types, &certificates),
                        status::BadInvalidArgument);
    }

    // UpdateCertificate with a key made elsewhere (PEM and PFX), and each refusal (7.10.5).
    void updateWithAnExternalKey() {
        UpdateFixture f;
        const Certificate cert = pkitest::issue({.cn = "External", .uri = kServerUri, .dns = {"server.local"}}, updateKeys->external,
                                                f.ca, updateKeys->ca);
        const ByteString der(cert.der());
        const ByteString keyPem(pemOf(updateKeys->external, f.tmp.path()));
        QVERIFY(!keyPem.isEmpty());
        bool apply = false;
        auto update = [&](const ByteString& c, const std::vector<ByteString>& issuers, const std::string& format, const ByteString& key) {
            return f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, c, issuers, format, key, &apply);
        };
        // Without a key: neither the current nor a pending key is this certificate's.
        QCOMPARE_STATUS(update(der, {}, {}, ByteString()), status::BadSecurityChecksFailed);
        QCOMPARE_STATUS(update(der, {}, "DER", keyPem), status::BadNotSupported);
        QCOMPARE_STATUS(update(der, {}, "PEM", ByteString("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")),
                        status::BadNotSupported);
        QCOMPARE_STATUS(update(der, {}, "PEM", ByteString(pemOf(updateKeys->otherCa, f.tmp.path()))), status::BadNotSupported);
        QCOMPARE_STATUS(update(ByteString("not a certificate"), {}, "PEM", keyPem), status::BadCertificateInvalid);
        QCOMPARE_STATUS(update(der, {}, "PEM", ByteString()), status::BadSecurityChecksFailed);  // a format without a key: no key
        // Not what RsaSha256ApplicationCertificateType is: a 1024-bit key, a SHA-1 signature.
        const PrivateKey shortKey = PrivateKey::generateRsa(1024);
        const Certificate weak = pkitest::issue({.cn = "Weak", .uri = kServerUri}, shortKey, f.ca, updateKeys->ca);
        QCOMPARE_STATUS(update(ByteString(weak.der()), {}, "PEM", ByteString(pemOf(shortKey, f.tmp.path()))),
                        status::BadCertificatePolicyCheckFailed);
        const Certificate sha1 = pkitest::issue({.cn = "Sha1", .uri = kServerUri, .md = EVP_sha1()}, updateKeys->external, f.ca,
                                                updateKeys->ca);
        QCOMPARE_STATUS(update(ByteString(sha1.der()), {}, "PEM", keyPem), status::BadCertificatePolicyCheckFailed);
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), NodeId(uint16_t(0), uint32_t(85)), kUpdateType, der, {}, "PEM", keyPem, &apply),
                        status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, NodeId(), der, {}, "PEM", keyPem, &apply), status::BadInvalidArgument);
        // Another ApplicationUri: the server would not take it as its own at the next start.
        const Certificate foreign = pkitest::issue({.cn = "Foreign", .uri = "urn:someone:else"}, updateKeys->external, f.ca, updateKeys->ca);
        QCOMPARE_STATUS(update(ByteString(foreign.der()), {}, "PEM", keyPem), status::BadCertificateUriInvalid);
        // Issued by a CA the trust list does not hold, and not sent along: the chain is incomplete.
        const Certificate otherCa = pkitest::issue(pkitest::caSpec("Other CA"), updateKeys->otherCa);
        const Certificate orphan = pkitest::issue({.cn = "Orphan", .uri = kServerUri}, updateKeys->external, otherCa, updateKeys->otherCa);
        QCOMPARE_STATUS(update(ByteString(orphan.der()), {}, "PEM", keyPem), status::BadCertificateChainIncomplete);
        // Revoked by its CA: not suppressible.
        const Certificate revoked = pkitest::issue({.cn = "Revoked", .uri = kServerUri}, updateKeys->external, f.ca, updateKeys->ca);
        f.store->addTrustedCrl(pkitest::crl(f.ca, updateKeys->ca, {revoked}));
        QCOMPARE_STATUS(update(ByteString(revoked.der()), {}, "PEM", keyPem), status::BadCertificateRevoked);
        QVERIFY(!f.m.transactionOwner());  // no refusal started a transaction
        // Expired: suppressible, so installed (as 7.10.5 asks).
        const Certificate expired = pkitest::issue({.cn = "Late", .uri = kServerUri, .notBeforeDays = -30, .notAfterDays = -1},
                                                   updateKeys->external, f.ca, updateKeys->ca);
        QCOMPARE_STATUS(update(ByteString(expired.der()), {}, "PEM", keyPem), status::Good);
        // A second UpdateCertificate in the transaction replaces the first: PFX this time.
        QCOMPARE_STATUS(update(der, {}, "PFX", ByteString(pkcs12Of(updateKeys->external, cert, {}))), status::Good);
        QCOMPARE_STATUS(update(der, {ByteString("junk")}, "PEM", keyPem), status::Good);  // IssuerCertificates are ignored (7.10.5)
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::Good);
        QVERIFY(f.store->ownCertificate() == cert);
        QVERIFY(f.store->ownPrivateKey().matches(cert));
    }

    // The CA of the new certificate comes in the same transaction's trust list: checked against it.
    void issuerFromTheSameTransaction() {
        UpdateFixture f;
        const Certificate otherCa = pkitest::issue(pkitest::caSpec("Other CA"), updateKeys->otherCa);
        const Certificate cert = pkitest::issue({.cn = "Via Other CA", .uri = kServerUri}, updateKeys->external, otherCa, updateKeys->otherCa);
        const ByteString keyPem(pemOf(updateKeys->external, f.tmp.path()));
        bool apply = false;
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(cert.der()), {}, "PEM", keyPem, &apply),
                        status::BadCertificateChainIncomplete);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(otherCa.der()), true), status::Good);
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(cert.der()), {}, "PEM", keyPem, &apply),
                        status::Good);
        PushManager::Applied applied;
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(), &applied), status::Good);
        QVERIFY(applied.trustListChanged);
        QVERIFY(applied.certificateChanged);
        QVERIFY(f.store->ownCertificate() == cert);
        QVERIFY(f.store->ownCertificateChain() == cert.der() + otherCa.der());
    }

    // ResetToServerDefaults (7.10.13): "<pki>/defaults" replaces the trust list and the own pair.
    void resetToServerDefaults() {
        UpdateFixture f;
        const QString root = QString::fromStdString(f.store->rootDir());
        QCOMPARE_STATUS(f.m.resetToServerDefaults(pushtest::admin()), status::BadNotSupported);  // no defaults configured
        PushManager::Caller op = pushtest::admin();
        op.roles = roleBit(Role::ConfigureAdmin);
        QCOMPARE_STATUS(f.m.resetToServerDefaults(op), status::BadUserAccessDenied);
        QCOMPARE_STATUS(f.m.resetToServerDefaults(pushtest::admin(1, MessageSecurityMode::Sign)), status::BadSecurityModeInsufficient);

        // Defaults without an own pair: one trusted device; the server makes a new pair at its start.
        const Certificate device = pkitest::issue({.cn = "Default Device"}, updateKeys->external);
        {
            CertificateStore defaults(f.store->rootDir() + "/defaults");
            QVERIFY(defaults.addTrusted(device));
        }
        ByteString csr;
        QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kUpdateGroup, kUpdateType, {}, true, csrNonce(32), &csr), status::Good);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(2), ByteString(pkitest::issue({.cn = "Pending"}, updateKeys->otherCa).der()), true),
                        status::Good);  // Session 2's transaction: dropped by the reset
        QVERIFY(f.store->reject(pkitest::issue({.cn = "Rejected Once"}, updateKeys->otherCa)));
        QCOMPARE_STATUS(f.m.resetToServerDefaults(pushtest::admin()), status::Good);
        QVERIFY(!f.m.transactionOwner());
        QVERIFY(f.store->rejected().empty());
        QVERIFY(f.store->trusted() == std::vector<Certificate>{device});
        QVERIFY(f.store->trustList().trustedCrls.empty());  // the CA's CRL went with the CA
        QVERIFY(f.store->pendingKey().isNull());
        QCOMPARE(QDir(root + "/own/certs").entryList(QDir::Files).size(), 0);
        CertificateRequest r;
        r.applicationUri = kServerUri;
        r.hostNames = {"server.local"};
        CertificateStore restarted(f.store->rootDir());
        QVERIFY(restarted.ensureOwnCertificate(r));
        QVERIFY(restarted.ownCertificate().isSelfSigned());

        // Defaults with an own pair: it becomes the server's.
        const Certificate preset = pkitest::issue({.cn = "Preset", .uri = kServerUri}, updateKeys->external, f.ca, updateKeys->ca);
        QVERIFY(CertificateStore(f.store->rootDir() + "/defaults").replaceOwnCertificate(preset, updateKeys->external));
        QCOMPARE_STATUS(f.m.resetToServerDefaults(pushtest::admin()), status::Good);
        QVERIFY(f.store->ownCertificate() == preset);
        QVERIFY(f.store->ownPrivateKey().matches(preset));
    }

    // ApplyChanges checks the transaction as a whole (7.10.2): a certificate whose CA a later change
    // removed is not installed, and nothing of the transaction is applied.
    void applyChangesChecksTheWhole() {
        UpdateFixture f;
        const Certificate old = f.store->ownCertificate();
        const Certificate otherCa = pkitest::issue(pkitest::caSpec("Other CA"), updateKeys->otherCa);
        const Certificate cert = pkitest::issue({.cn = "Via Other CA", .uri = kServerUri}, updateKeys->external, otherCa, updateKeys->otherCa);
        const ByteString keyPem(pemOf(updateKeys->external, f.tmp.path()));
        bool apply = false;
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(otherCa.der()), true), status::Good);
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(cert.der()), {}, "PEM", keyPem, &apply),
                        status::Good);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), otherCa.thumbprintHex(), true), status::Good);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadCertificateChainIncomplete);
        QVERIFY(f.store->ownCertificate() == old);
        const std::vector<Certificate> trusted = f.store->trusted();
        QVERIFY(std::find(trusted.begin(), trusted.end(), otherCa) == trusted.end());
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadNothingToDo);  // discarded
    }

    // CancelChanges and a closed Session drop a staged certificate.
    void cancelDropsTheCertificate() {
        UpdateFixture f;
        const Certificate old = f.store->ownCertificate();
        const Certificate renewed = f.signedByCa(false);
        bool apply = false;
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(renewed.der()), {}, {}, ByteString(), &apply),
                        status::Good);
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin()), status::Good);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadNothingToDo);
        QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kUpdateGroup, kUpdateType, ByteString(renewed.der()), {}, {}, ByteString(), &apply),
                        status::Good);
        f.m.sessionClosed(pushtest::admin().sessionId);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadNothingToDo);
        QVERIFY(f.store->ownCertificate() == old);
    }
};

UA_TEST_GUILESS_MAIN(TestCertificateUpdate)
#include "tst_certificate_update.moc"
