// Push management of the ECC application instance certificates (OPC 10000-12 7.8.4 certificate types,
// 7.10.5 UpdateCertificate, 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest; issue 32 items 2
// and 3): the DefaultApplicationGroup's CertificateTypes follow the pairs the store holds; a signing
// request for EccNistP256 / EccNistP384 with a new key of the curve, kept as that type's pending key;
// the CA-signed certificate installed for its type only (the RSA pair and the other curve stay);
// both types in one transaction; and every mismatch of type and key refused with Part 12's status.
// Against a real CertificateStore; the CA is OpenSSL used directly (PkiTestUtil.h). The server side
// over the wire: tests/client/tst_ecc_push.cpp.
#include "PkiTestUtil.h"
#include "PushTestUtil.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/server/certificates/PushManager.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <openssl/x509.h>

using namespace ua;

namespace {

constexpr const char* kEccServerUri = "urn:ua-workbench:test:ecc-update-server";
const NodeId kEccGroup(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
const NodeId kRsaType(id::RsaSha256ApplicationCertificateType);
const NodeId kP256Type(id::EccNistP256ApplicationCertificateType);
const NodeId kP384Type(id::EccNistP384ApplicationCertificateType);

ByteString eccNonce() { return ByteString(std::string(32, '\x33')); }

// A server's store with its RSA pair and, when asked, ECC pairs (as Server::start makes them for its
// ECC endpoints), and a trusted RSA CA that signs its requests.
struct EccFixture {
    QTemporaryDir tmp;
    PrivateKey caKey = PrivateKey::generateRsa(2048);
    std::shared_ptr<CertificateStore> store = std::make_shared<CertificateStore>(tmp.path().toStdString() + "/pki");
    Certificate ca = pkitest::issue(pkitest::caSpec("ECC Update Test CA"), caKey);
    PushManager m;

    explicit EccFixture(std::initializer_list<KeyType> types) {
        for (const KeyType type : types) {
            CertificateRequest r;
            r.applicationUri = kEccServerUri;
            r.applicationName = "ECC Update Test Server";
            r.hostNames = {"127.0.0.1"};
            r.keyType = type;
            store->ensureOwnCertificate(r);
        }
        store->addTrusted(ca);
        store->addTrustedCrl(pkitest::crl(ca, caKey));
        m.setStore(store);
        m.setApplicationUri(kEccServerUri);
    }
    // A CSR of the server for type (a new key of it when regenerate), signed by the CA.
    Certificate signedByCa(const NodeId& type, bool regenerate) {
        ByteString csr;
        if (m.createSigningRequest(pushtest::admin(), kEccGroup, type, {}, regenerate, eccNonce(), &csr).isBad()) return {};
        return signRequest(csr.str(), ca, caKey, 365);
    }
};

} // namespace

class TestEccCertificateUpdate : public QObject {
    Q_OBJECT
private slots:
    void typesFollowTheStore();
    void signingRequestOfTheCurve_data();
    void signingRequestOfTheCurve();
    void updateReplacesOnlyItsType_data() { signingRequestOfTheCurve_data(); }
    void updateReplacesOnlyItsType();
    void bothTypesInOneTransaction();
    void mismatchesAreRefused();
};

void TestEccCertificateUpdate::typesFollowTheStore() {
    EccFixture rsaOnly({KeyType::Rsa});
    QCOMPARE(rsaOnly.m.certificateTypes(), std::vector<NodeId>{kRsaType});
    std::vector<NodeId> types;
    std::vector<std::string> certificates;
    QCOMPARE_STATUS(rsaOnly.m.getCertificates(pushtest::admin(), NodeId(), &types, &certificates), status::Good);
    QCOMPARE(types, std::vector<NodeId>{kRsaType});

    EccFixture all({KeyType::Rsa, KeyType::EccNistP384, KeyType::EccNistP256});
    QCOMPARE(all.m.certificateTypes(), (std::vector<NodeId>{kRsaType, kP256Type, kP384Type}));
    QCOMPARE_STATUS(all.m.getCertificates(pushtest::admin(), kEccGroup, &types, &certificates), status::Good);
    QCOMPARE(types, (std::vector<NodeId>{kRsaType, kP256Type, kP384Type}));
    QCOMPARE(certificates, (std::vector<std::string>{all.store->ownCertificate().der(),
                                                     all.store->ownCertificate(KeyType::EccNistP256).der(),
                                                     all.store->ownCertificate(KeyType::EccNistP384).der()}));
    // The mapping both ways, and what is none.
    QCOMPARE(keyTypeOfCertificateType(kP384Type), KeyType::EccNistP384);
    QCOMPARE(keyTypeOfCertificateType(NodeId(id::EccApplicationCertificateType)), KeyType::Other);
    QVERIFY(certificateTypeOf(KeyType::Other).isNull());
    QCOMPARE(certificateTypeOf(KeyType::EccNistP256), kP256Type);
}

void TestEccCertificateUpdate::signingRequestOfTheCurve_data() {
    QTest::addColumn<int>("keyType");
    QTest::addRow("EccNistP256") << int(KeyType::EccNistP256);
    QTest::addRow("EccNistP384") << int(KeyType::EccNistP384);
}

void TestEccCertificateUpdate::signingRequestOfTheCurve() {
    QFETCH(int, keyType);
    const KeyType type = KeyType(keyType);
    EccFixture f({KeyType::Rsa, type});
    ByteString csr;
    // With the current key: the request carries the current certificate's public key.
    QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kEccGroup, certificateTypeOf(type), {}, false, {}, &csr), status::Good);
    Certificate signedCert = signRequest(csr.str(), f.ca, f.caKey, 30);
    QVERIFY(!signedCert.isNull());
    QCOMPARE(signedCert.keyType(), type);
    QVERIFY(f.store->ownPrivateKey(type).matches(signedCert));
    QVERIFY(f.store->pendingKey(type).isNull());
    // A new key: of the curve, pending for that type only; the request's own signature hash is the
    // curve's (SHA-384 for P-384).
    QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kEccGroup, certificateTypeOf(type), {}, true, eccNonce(), &csr),
                    status::Good);
    const PrivateKey pending = f.store->pendingKey(type);
    QVERIFY(!pending.isNull());
    QCOMPARE(pending.type(), type);
    QVERIFY(f.store->pendingKey(KeyType::Rsa).isNull());
    const unsigned char* p = reinterpret_cast<const unsigned char*>(csr.data());
    X509_REQ* req = d2i_X509_REQ(nullptr, &p, long(csr.size()));
    QVERIFY(req);
    const int nid = X509_REQ_get_signature_nid(req);
    X509_REQ_free(req);
    QCOMPARE(nid, type == KeyType::EccNistP384 ? NID_ecdsa_with_SHA384 : NID_ecdsa_with_SHA256);
    signedCert = signRequest(csr.str(), f.ca, f.caKey, 30);
    QVERIFY(pending.matches(signedCert));
    QVERIFY(CertificateStore(f.store->rootDir()).pendingKey(type).matches(signedCert));  // persisted
}

void TestEccCertificateUpdate::updateReplacesOnlyItsType() {
    QFETCH(int, keyType);
    const KeyType type = KeyType(keyType);
    EccFixture f({KeyType::Rsa, KeyType::EccNistP256, KeyType::EccNistP384});
    const Certificate rsaBefore = f.store->ownCertificate();
    const KeyType other = type == KeyType::EccNistP256 ? KeyType::EccNistP384 : KeyType::EccNistP256;
    const Certificate otherBefore = f.store->ownCertificate(other);
    const Certificate renewed = f.signedByCa(certificateTypeOf(type), true);
    QVERIFY(!renewed.isNull());
    bool apply = false;
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, certificateTypeOf(type), ByteString(renewed.der()), {}, {},
                                          ByteString(), &apply),
                    status::Good);
    QVERIFY(apply);
    QVERIFY(!(f.store->ownCertificate(type) == renewed));  // nothing until ApplyChanges
    PushManager::Applied applied;
    QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(), &applied), status::Good);
    QVERIFY(applied.certificateChanged);
    QCOMPARE(applied.certificateTypes, std::vector<KeyType>{type});
    QVERIFY(f.store->ownCertificate(type) == renewed);
    QVERIFY(f.store->ownPrivateKey(type).matches(renewed));
    QVERIFY(f.store->pendingKey(type).isNull());  // used
    QVERIFY(f.store->ownCertificate() == rsaBefore);
    QVERIFY(f.store->ownCertificate(other) == otherBefore);
    // Kept across a restart: a new store over the same folder loads the new pair.
    CertificateStore again(f.store->rootDir());
    CertificateRequest r;
    r.applicationUri = kEccServerUri;
    r.applicationName = "ECC Update Test Server";
    r.hostNames = {"127.0.0.1"};
    r.keyType = type;
    QVERIFY(again.ensureOwnCertificate(r));
    QVERIFY(again.ownCertificate(type) == renewed);
}

void TestEccCertificateUpdate::bothTypesInOneTransaction() {
    EccFixture f({KeyType::Rsa, KeyType::EccNistP256});
    // Both requests regenerate: the two pending keys live side by side.
    const Certificate rsa = f.signedByCa(kRsaType, true);
    const Certificate p256 = f.signedByCa(kP256Type, true);
    QVERIFY(!rsa.isNull() && !p256.isNull());
    bool apply = false;
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP256Type, ByteString(p256.der()), {}, {}, {}, &apply), status::Good);
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kRsaType, ByteString(rsa.der()), {}, {}, {}, &apply), status::Good);
    PushManager::Applied applied;
    QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(), &applied), status::Good);
    QCOMPARE(applied.certificateTypes, (std::vector<KeyType>{KeyType::Rsa, KeyType::EccNistP256}));
    QVERIFY(f.store->ownCertificate() == rsa);
    QVERIFY(f.store->ownCertificate(KeyType::EccNistP256) == p256);
    std::vector<NodeId> types;
    std::vector<std::string> certificates;
    QCOMPARE_STATUS(f.m.getCertificates(pushtest::admin(), NodeId(), &types, &certificates), status::Good);
    QCOMPARE(certificates, (std::vector<std::string>{rsa.der(), p256.der()}));
}

void TestEccCertificateUpdate::mismatchesAreRefused() {
    EccFixture f({KeyType::Rsa, KeyType::EccNistP256});
    const Certificate p256 = f.signedByCa(kP256Type, false);
    const Certificate rsa = f.signedByCa(kRsaType, false);
    QVERIFY(!p256.isNull() && !rsa.isNull());
    bool apply = false;
    // A certificate of another key for the type.
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kRsaType, ByteString(p256.der()), {}, {}, {}, &apply),
                    status::BadCertificatePolicyCheckFailed);
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP256Type, ByteString(rsa.der()), {}, {}, {}, &apply),
                    status::BadCertificatePolicyCheckFailed);
    // A P-384 certificate (its key made here) for the P-256 type.
    const PrivateKey p384Key = PrivateKey::generateEc(KeyType::EccNistP384);
    const Certificate p384 = pkitest::issue({.cn = "P-384", .uri = kEccServerUri, .dns = {"127.0.0.1"}}, p384Key, f.ca, f.caKey);
    QVERIFY(!p384.isNull());
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP256Type, ByteString(p384.der()), {}, {}, {}, &apply),
                    status::BadCertificatePolicyCheckFailed);
    // A type the server holds no pair of (no ECC_nistP384 endpoints), and the abstract ECC type.
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP384Type, ByteString(p384.der()), {}, {}, {}, &apply),
                    status::BadInvalidArgument);
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, NodeId(id::EccApplicationCertificateType), ByteString(p256.der()),
                                          {}, {}, {}, &apply),
                    status::BadInvalidArgument);
    ByteString csr;
    QCOMPARE_STATUS(f.m.createSigningRequest(pushtest::admin(), kEccGroup, kP384Type, {}, false, {}, &csr), status::BadInvalidArgument);
    // Without a key: the ECC certificate's public key must be the pending or current key of its type.
    const PrivateKey strangerKey = PrivateKey::generateEc(KeyType::EccNistP256);
    const Certificate stranger =
        pkitest::issue({.cn = "Stranger", .uri = kEccServerUri, .dns = {"127.0.0.1"}}, strangerKey, f.ca, f.caKey);
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP256Type, ByteString(stranger.der()), {}, {}, {}, &apply),
                    status::BadSecurityChecksFailed);
    // With its key in PEM it is taken.
    QTemporaryDir keyDir;
    const QString keyPath = keyDir.filePath(QStringLiteral("k.pem"));
    QVERIFY(strangerKey.savePem(keyPath.toStdString()));
    QFile keyFile(keyPath);
    QVERIFY(keyFile.open(QIODevice::ReadOnly));
    const ByteString pem(keyFile.readAll().toStdString());
    QCOMPARE_STATUS(f.m.updateCertificate(pushtest::admin(), kEccGroup, kP256Type, ByteString(stranger.der()), {}, "PEM", pem, &apply),
                    status::Good);
    // Nothing of the refusals was staged: ApplyChanges installs the one good certificate.
    PushManager::Applied applied;
    QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(), &applied), status::Good);
    QCOMPARE(applied.certificateTypes, std::vector<KeyType>{KeyType::EccNistP256});
    QVERIFY(f.store->ownCertificate(KeyType::EccNistP256) == stranger);
}

UA_TEST_GUILESS_MAIN(TestEccCertificateUpdate)
#include "tst_ecc_certificate_update.moc"
