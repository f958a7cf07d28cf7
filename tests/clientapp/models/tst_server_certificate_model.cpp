// The server certificate part of "Manage server certificates" (client-app/models/
// ServerCertificateModel.h; OPC 10000-12 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest,
// 7.10.5 UpdateCertificate) against our Server in process over SignAndEncrypt, the whole renewal a
// user makes: the certificate in use read, a signing request for a new key, signed here by a CA whose
// certificate and (password-protected) key files the user picks, UpdateCertificate, then
// ApplyChanges (ServerTrustListModel). The server then uses the CA-signed certificate, closes our
// channel, and our client reconnects with the new certificate and reads it. Refusals say why. On a
// server with ECC endpoints the dialog lists the EccNistP256 type too and renews that certificate
// alone, over the admin's RSA channel, which stays open.
#include "ModelsTestUtil.h"
#include "PkiTestUtil.h"
#include "TestServerConfig.h"

#include "models/ServerCertificateModel.h"
#include "models/ServerTrustListModel.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"

#include <openssl/pem.h>

#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;
using namespace ua::test;

namespace {

template <class Model>
StatusCode runAction(Model& m, const std::function<void()>& action, QString* message = nullptr) {
    QSignalSpy finished(&m, &Model::finished);
    action();
    if (finished.isEmpty() && !finished.wait(15000)) return status::BadTimeout;
    if (message) *message = finished.at(0).at(2).toString();
    return finished.at(0).at(1).value<StatusCode>();
}

// The CA's key as an encrypted PEM file (AES-256-CBC with password).
bool writeEncryptedKey(const PrivateKey& key, const QString& path, const char* password) {
    BIO* bio = BIO_new(BIO_s_mem());
    const bool ok = PEM_write_bio_PKCS8PrivateKey(bio, key.get(), EVP_aes_256_cbc(), password, int(std::strlen(password)),
                                                  nullptr, nullptr) == 1;
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    QFile f(path);
    const bool written = ok && f.open(QIODevice::WriteOnly) && f.write(data, len) == len;
    BIO_free(bio);
    return written;
}

} // namespace

class TestServerCertificateModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void renewWithTheUsersCa();
    void renewTheEccCertificate();
    void refusalsSaySo();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    PrivateKey m_caKey = PrivateKey::generateRsa(2048);
    Certificate m_ca;
};

void TestServerCertificateModel::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<Server>(securityAdminServerConfig(m_dir.filePath(QStringLiteral("server-pki"))));
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    CertificateStore* store = m_server->certificateStore();
    QVERIFY(store->addTrusted(store->ownCertificate()));
    m_ca = pkitest::issue(pkitest::caSpec("Dialog Test CA"), m_caKey);
    QVERIFY(store->addTrusted(m_ca));
    QVERIFY(store->addTrustedCrl(pkitest::crl(m_ca, m_caKey)));
    QFile ca(m_dir.filePath(QStringLiteral("ca.der")));
    QVERIFY(ca.open(QIODevice::WriteOnly));
    ca.write(QByteArray::fromStdString(m_ca.der()));
    ca.close();
    QVERIFY(writeEncryptedKey(m_caKey, m_dir.filePath(QStringLiteral("ca-key.pem")), "ca-pw"));
}

void TestServerCertificateModel::renewTheEccCertificate() {
    ServerConfig cfg = securityAdminServerConfig(m_dir.filePath(QStringLiteral("ecc-server-pki")));
    cfg.security.endpoints = {
        {SecurityPolicyId::None, MessageSecurityMode::None},
        {SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::SignAndEncrypt},
    };
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CertificateStore* store = server.certificateStore();
    QVERIFY(store->addTrusted(m_ca));
    QVERIFY(store->addTrustedCrl(pkitest::crl(m_ca, m_caKey)));
    const Certificate rsaBefore = store->ownCertificate();
    const Certificate eccBefore = store->ownCertificate(KeyType::EccNistP256);

    auto c = connectAsUser(urlOf(server.port()), m_dir.filePath(QStringLiteral("ecc-client-pki")), QStringLiteral("admin"),
                           MessageSecurityMode::SignAndEncrypt);
    QVERIFY(c);
    ServerCertificateModel m(c.get());
    QCOMPARE(m.certificateTypeNames(), QStringList{QStringLiteral("RsaSha256")});  // before reading
    QCOMPARE(runAction(m, [&] { m.reload(); }), status::Good);
    QCOMPARE(m.certificateTypeNames(), (QStringList{QStringLiteral("RsaSha256"), QStringLiteral("EccNistP256")}));
    QCOMPARE(m.certificate(), QByteArray::fromStdString(rsaBefore.der()));
    QCOMPARE(runAction(m, [&] { m.createSigningRequest({}, true); }), status::Good);
    QSignalSpy changed(&m, &ServerCertificateModel::changed);
    m.setCertificateType(1);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(m.certificateTypeIndex(), 1);
    QCOMPARE(m.certificate(), QByteArray::fromStdString(eccBefore.der()));
    QVERIFY(m.signingRequest().isEmpty());  // the RSA request went with its type

    QCOMPARE(runAction(m, [&] { m.createSigningRequest({}, true); }), status::Good);
    QVERIFY(!store->pendingKey(KeyType::EccNistP256).isNull());
    QCOMPARE(runAction(m, [&] { m.installSignedBy(m_dir.filePath(QStringLiteral("ca.der")), m_dir.filePath(QStringLiteral("ca-key.pem")),
                                                  QStringLiteral("ca-pw"), 30); }),
             status::Good);
    ServerTrustListModel t(c.get());
    QSignalSpy applied(&t, &ServerTrustListModel::finished);
    t.applyChanges();
    QTRY_VERIFY_WITH_TIMEOUT(!applied.isEmpty(), 15000);
    QCOMPARE(applied.at(0).at(1).value<StatusCode>(), status::Good);
    const Certificate now = store->ownCertificate(KeyType::EccNistP256);
    QVERIFY(!(now == eccBefore));
    QCOMPARE(now.keyType(), KeyType::EccNistP256);
    QCOMPARE(QString::fromStdString(now.issuerName()), QString::fromStdString(m_ca.subjectName()));
    QVERIFY(store->ownCertificate() == rsaBefore);
    QTRY_VERIFY(server.channelSecurity()->eccNistP256.certificate == now);
    // Our RSA channel is not the replaced certificate's: it stays, and the dialog reads the new one.
    QTest::qWait(800);  // longer than the server waits before it closes concerned channels
    QCOMPARE(c->client()->state(), ClientState::Connected);
    QCOMPARE(c->client()->snapshot().reconnectCount, 0u);
    QCOMPARE(runAction(m, [&] { m.reload(); }), status::Good);
    QCOMPARE(m.certificateTypeIndex(), 1);
    QCOMPARE(m.certificate(), QByteArray::fromStdString(now.der()));
}

void TestServerCertificateModel::renewWithTheUsersCa() {
    auto c = connectAsUser(urlOf(m_server->port()), m_dir.filePath(QStringLiteral("client-pki")), QStringLiteral("admin"),
                           MessageSecurityMode::SignAndEncrypt);
    QVERIFY(c);
    ServerCertificateModel m(c.get());
    const Certificate before = m_server->certificateStore()->ownCertificate();
    QCOMPARE(runAction(m, [&] { m.reload(); }), status::Good);
    QCOMPARE(m.certificate(), QByteArray::fromStdString(before.der()));
    QVERIFY2(m.certificateSummary().contains(QStringLiteral("self-signed")), qPrintable(m.certificateSummary()));

    QCOMPARE(runAction(m, [&] { m.createSigningRequest(QStringLiteral("CN=Renewed From The Dialog, O=Test Plant"), true); }),
             status::Good);
    QVERIFY(!m.signingRequest().isEmpty());
    QVERIFY2(m.signingRequestSummary().contains(QStringLiteral("Renewed From The Dialog")), qPrintable(m.signingRequestSummary()));
    QVERIFY(!m_server->certificateStore()->pendingKey().isNull());
    const QString csrFile = m_dir.filePath(QStringLiteral("server.csr"));
    QVERIFY(m.saveSigningRequest(csrFile));
    QFile csr(csrFile);
    QVERIFY(csr.open(QIODevice::ReadOnly));
    QVERIFY(csr.readAll().startsWith("-----BEGIN CERTIFICATE REQUEST-----"));

    QString message;
    QCOMPARE(runAction(m, [&] { m.installSignedBy(m_dir.filePath(QStringLiteral("ca.der")), m_dir.filePath(QStringLiteral("ca-key.pem")),
                                                  QStringLiteral("wrong"), 30); },
                       &message),
             status::BadInvalidArgument);
    QVERIFY2(message.contains(QStringLiteral("password")), qPrintable(message));
    QCOMPARE(runAction(m, [&] { m.installSignedBy(m_dir.filePath(QStringLiteral("ca.der")), m_dir.filePath(QStringLiteral("ca-key.pem")),
                                                  QStringLiteral("ca-pw"), 30); },
                       &message),
             status::Good);
    QVERIFY(m.changesPending());
    QVERIFY(m_server->certificateStore()->ownCertificate() == before);  // held until ApplyChanges

    // The user's client trusts the CA (as a plant's clients trust its CA): the reconnect below
    // validates the server's new certificate through it.
    CertificateStore clientStore(m_dir.filePath(QStringLiteral("client-pki")).toStdString());
    QVERIFY(clientStore.addTrusted(m_ca));
    QVERIFY(clientStore.addTrustedCrl(pkitest::crl(m_ca, m_caKey)));

    ServerTrustListModel t(c.get());
    QSignalSpy applied(&t, &ServerTrustListModel::finished);
    t.applyChanges();
    QTRY_VERIFY_WITH_TIMEOUT(!applied.isEmpty(), 15000);
    QCOMPARE(applied.at(0).at(1).value<StatusCode>(), status::Good);
    const Certificate now = m_server->certificateStore()->ownCertificate();
    QVERIFY(!(now == before));
    QVERIFY(now.subjectName().find("Renewed From The Dialog") != std::string::npos);
    QCOMPARE(QString::fromStdString(now.issuerName()), QString::fromStdString(m_ca.subjectName()));
    QVERIFY(m_server->channelSecurity()->certificate == now);

    // The server closes our channel (it used the old certificate); the client reconnects, fetching
    // the endpoints again, and reads the new certificate.
    QTRY_VERIFY_WITH_TIMEOUT(c->client()->state() != ClientState::Connected, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(c->client()->state() == ClientState::Connected, 30000);
    QCOMPARE(runAction(m, [&] { m.reload(); }), status::Good);
    QCOMPARE(m.certificate(), QByteArray::fromStdString(now.der()));
    QVERIFY2(m.certificateSummary().contains(QStringLiteral("Dialog Test CA")), qPrintable(m.certificateSummary()));
}

void TestServerCertificateModel::refusalsSaySo() {
    auto c = connectAsUser(urlOf(m_server->port()), m_dir.filePath(QStringLiteral("client-pki")), QStringLiteral("admin"),
                           MessageSecurityMode::SignAndEncrypt);
    QVERIFY(c);
    ServerCertificateModel m(c.get());
    QString message;
    // Nothing to sign yet, files that are not what they should be.
    QCOMPARE(runAction(m, [&] { m.installSignedBy(m_dir.filePath(QStringLiteral("ca.der")), m_dir.filePath(QStringLiteral("ca-key.pem")),
                                                  QStringLiteral("ca-pw"), 30); },
                       &message),
             status::BadInvalidArgument);
    QVERIFY2(message.contains(QStringLiteral("signing request first")), qPrintable(message));
    QVERIFY(!m.saveSigningRequest(m_dir.filePath(QStringLiteral("none.csr"))));
    QCOMPARE(runAction(m, [&] { m.createSigningRequest(QStringLiteral("no subject syntax"), false); }), status::BadInvalidArgument);
    QCOMPARE(runAction(m, [&] { m.createSigningRequest(QString(), false); }), status::Good);
    QCOMPARE(runAction(m, [&] { m.installSignedBy(m_dir.filePath(QStringLiteral("ca-key.pem")), m_dir.filePath(QStringLiteral("ca-key.pem")),
                                                  QStringLiteral("ca-pw"), 30); },
                       &message),
             status::BadInvalidArgument);
    QVERIFY2(message.contains(QStringLiteral("not a certificate")), qPrintable(message));
    QCOMPARE(runAction(m, [&] { m.installCertificate(m_dir.filePath(QStringLiteral("ca.der")), {}); }, &message),
             status::BadSecurityChecksFailed);  // the CA's certificate is not for the server's key
    QCOMPARE(runAction(m, [&] { m.installCertificate(m_dir.filePath(QStringLiteral("missing.der")), {}); }), status::BadInvalidArgument);

    auto alice = connectAsUser(urlOf(m_server->port()), m_dir.filePath(QStringLiteral("client-pki")), QStringLiteral("alice"),
                               MessageSecurityMode::SignAndEncrypt);
    QVERIFY(alice);
    ServerCertificateModel a(alice.get());
    QCOMPARE(runAction(a, [&] { a.createSigningRequest(QString(), true); }, &message), status::BadUserAccessDenied);
    QVERIFY2(message.contains(QStringLiteral("SecurityAdmin")), qPrintable(message));
    ServerCertificateModel none(nullptr);
    QCOMPARE(runAction(none, [&] { none.reload(); }), status::BadServerNotConnected);
}

UA_TEST_GUILESS_MAIN(TestServerCertificateModel)
#include "tst_server_certificate_model.moc"
