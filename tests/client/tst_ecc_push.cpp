// Push management of an ECC certificate over the wire (OPC 10000-12 7.10.5, 7.10.8, 7.10.10; issue 32
// items 2 and 3): our Server in process with RSA and ECC_nistP256 endpoints; our Client as a
// SecurityAdmin over Basic256Sha256 SignAndEncrypt reads CertificateTypes, asks for a signing request
// of the EccNistP256ApplicationCertificateType with a new key, installs the CA-signed certificate and
// applies it. The ECC endpoints then carry it (a new ECC client gets it), the channel of the old ECC
// certificate is closed, the RSA certificate and the admin's RSA channel stay; GetCertificates lists
// both types. node-opcua's push client knows RSA only (tests/interop/tst_node_push.cpp).
#include "ClientTestUtil.h"
#include "PkiTestUtil.h"
#include "TestServerConfig.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

struct EccCallOutcome {
    StatusCode status;
    std::vector<Variant> outputs;
};

const NodeId kEccPushGroup(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup);

} // namespace

class TestEccPush : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_server.reset(); }
    void eccCertificateReplacedOverTheWire();

private:
    ClientConfig clientConfig(const char* policy) const;
    EccCallOutcome call(Client& client, uint32_t method, std::vector<Variant> inputs);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
};

void TestEccPush::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
    ServerConfig cfg = securityAdminServerConfig(m_dir.filePath(QStringLiteral("server-pki")));
    cfg.security.endpoints = {
        {SecurityPolicyId::None, MessageSecurityMode::None},
        {SecurityPolicyId::Basic256Sha256, MessageSecurityMode::SignAndEncrypt},
        {SecurityPolicyId::EccNistP256, MessageSecurityMode::SignAndEncrypt},
    };
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
}

ClientConfig TestEccPush::clientConfig(const char* policy) const {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    cfg.securityPolicyUri = QString::fromLatin1(policy);
    cfg.securityMode = MessageSecurityMode::SignAndEncrypt;
    cfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    return cfg;
}

EccCallOutcome TestEccPush::call(Client& client, uint32_t method, std::vector<Variant> inputs) {
    Awaited<ServiceResult<CallResponse>> r;
    client.callMethod(NodeId(id::ServerConfiguration), NodeId(method), std::move(inputs), this, r.callback());
    if (!r.wait()) return {status::BadTimeout, {}};
    if (r->status.isBad()) return {r->status, {}};
    if (r->response.results.size() != 1) return {status::BadUnexpectedError, {}};
    const CallMethodResult& m = r->response.results[0];
    return {m.statusCode, std::vector<Variant>(m.outputArguments.begin(), m.outputArguments.end())};
}

void TestEccPush::eccCertificateReplacedOverTheWire() {
    // A CA the server trusts signs its request.
    const PrivateKey caKey = PrivateKey::generateRsa(2048);
    const Certificate ca = pkitest::issue(pkitest::caSpec("ECC Push Test CA"), caKey);
    QVERIFY(m_server->certificateStore()->addTrusted(ca));
    QVERIFY(m_server->certificateStore()->addTrustedCrl(pkitest::crl(ca, caKey)));
    const Certificate rsaBefore = m_server->certificateStore()->ownCertificate();
    const Certificate eccBefore = m_server->certificateStore()->ownCertificate(KeyType::EccNistP256);
    QVERIFY(!eccBefore.isNull());

    ClientConfig adminConfig = clientConfig(kSecurityPolicyBasic256Sha256);
    adminConfig.identity = UserIdentity::fromUserName(QStringLiteral("admin"), QStringLiteral("admin-pw"));
    Client admin(adminConfig);
    QCOMPARE(connectSession(admin, urlOf(m_server->port()), this), StatusCode(status::Good));
    Client eccClient(clientConfig(kSecurityPolicyEccNistP256));
    QCOMPARE(connectSession(eccClient, urlOf(m_server->port()), this), StatusCode(status::Good));
    QSignalSpy eccStates(&eccClient, &Client::stateChanged);

    // CertificateTypes: RSA and the curve of the ECC endpoints.
    Awaited<ServiceResult<ReadResponse>> read;
    admin.readValues({NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_CertificateTypes)}, this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, StatusCode(status::Good));
    const Array<NodeId>* types = read->response.results[0].value.get<Array<NodeId>>();
    QVERIFY(types);
    QCOMPARE(std::vector<NodeId>(types->begin(), types->end()),
             (std::vector<NodeId>{NodeId(id::RsaSha256ApplicationCertificateType), NodeId(id::EccNistP256ApplicationCertificateType)}));

    // CreateSigningRequest with a new P-256 key, signed by the CA.
    const EccCallOutcome csr = call(admin, id::ServerConfiguration_CreateSigningRequest,
                                    {Variant(kEccPushGroup), Variant(NodeId(id::EccNistP256ApplicationCertificateType)), Variant(String()),
                                     Variant(true), Variant(ByteString(std::string(32, '\x11')))});
    QCOMPARE(csr.status, StatusCode(status::Good));
    const ByteString* request = csr.outputs.at(0).get<ByteString>();
    QVERIFY(request);
    const Certificate renewed = signRequest(request->str(), ca, caKey, 365);
    QVERIFY(!renewed.isNull());
    QCOMPARE(renewed.keyType(), KeyType::EccNistP256);

    const EccCallOutcome update =
        call(admin, id::ServerConfiguration_UpdateCertificate,
             {Variant(kEccPushGroup), Variant(NodeId(id::EccNistP256ApplicationCertificateType)), Variant(ByteString(renewed.der())),
              Variant(Array<ByteString>::emptyArray()), Variant(String()), Variant(ByteString())});
    QCOMPARE(update.status, StatusCode(status::Good));
    QCOMPARE(*update.outputs.at(0).get<bool>(), true);
    QCOMPARE(call(admin, id::ServerConfiguration_ApplyChanges, {}).status, StatusCode(status::Good));

    // The store and the endpoints carry the new ECC certificate; the RSA one stays.
    QTRY_VERIFY(m_server->certificateStore()->ownCertificate(KeyType::EccNistP256) == renewed);
    QVERIFY(m_server->certificateStore()->ownCertificate() == rsaBefore);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const EndpointDescription& e : m_server->endpoints())
                if (e.securityPolicyUri.view() == kSecurityPolicyEccNistP256) return e.serverCertificate.str() == renewed.der();
            return false;
        }(),
        5000);
    // The channel of the old ECC certificate is closed; the admin's RSA channel is not.
    QTRY_VERIFY_WITH_TIMEOUT(!eccStates.isEmpty(), 5000);
    QCOMPARE(eccStates.first().at(0).value<ClientState>(), ClientState::Reconnecting);
    const EccCallOutcome listed = call(admin, id::ServerConfiguration_GetCertificates, {Variant(kEccPushGroup)});
    QCOMPARE(listed.status, StatusCode(status::Good));
    QCOMPARE(admin.snapshot().reconnectCount, 0u);
    const Array<ByteString>* certificates = listed.outputs.at(1).get<Array<ByteString>>();
    QVERIFY(certificates);
    QCOMPARE(certificates->size(), std::size_t(2));
    QCOMPARE((*certificates)[0].str(), rsaBefore.der());
    QCOMPARE((*certificates)[1].str(), renewed.der());

    // A new ECC client opens its channel with the new certificate (its store trusts the plant's CA,
    // as the server's clients would: the chain is checked up to it).
    CertificateStore clientStore(m_dir.filePath(QStringLiteral("client-pki")).toStdString());
    QVERIFY(clientStore.addTrusted(ca));
    QVERIFY(clientStore.addTrustedCrl(pkitest::crl(ca, caKey)));
    Client next(clientConfig(kSecurityPolicyEccNistP256));
    QCOMPARE(connectSession(next, urlOf(m_server->port()), this), StatusCode(status::Good));
    QCOMPARE(next.snapshot().endpoint.serverCertificate.str(), renewed.der());
}

UA_TEST_GUILESS_MAIN(TestEccPush)
#include "tst_ecc_push.moc"
