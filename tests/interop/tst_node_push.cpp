// node-opcua's push certificate management client (node-opcua-server-configuration 2.157.0, a real
// peer; push/push_client.js) against our server's ServerConfiguration (OPC 10000-12 7.8.2
// TrustListType, 7.10 ServerConfigurationType; ua/server/certificates/PushMethods.h): it reads the
// trust list, adds a device certificate and applies it, writes a new list as a file and applies that,
// and is refused as an Operator; and it renews our server's certificate (a signing request, a CA,
// UpdateCertificate, ApplyChanges). Our store is checked after each step the script reports.
#include "NodeIdentity.h"
#include "NodeScript.h"
#include "PkiTestUtil.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/pki/SigningRequest.h"
#include "ua/server/certificates/PushManager.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <algorithm>

using namespace ua;

class TestNodePush : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaPushClient();
    void nodeOpcuaRenewsTheServerCertificate();
};

void TestNodePush::nodeOpcuaPushClient() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QVERIFY2(QFileInfo::exists(QStringLiteral(UA_INTEROP_DIR "/push/node_modules/node-opcua-server-configuration")),
             "no node-opcua-server-configuration: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string clientUri = "urn:ua-workbench:test:node-push-client";
    const test::NodeIdentity app = test::makeNodeIdentity(dir.filePath("client"), clientUri, "node push client");
    QVERIFY(!app.certificate.isNull());
    QVERIFY(test::writeNodeIdentityPem(app, dir.filePath("client.pem"), dir.filePath("client-key.pem")));
    CertificateRequest req;
    req.applicationUri = "urn:push:node:device";
    req.applicationName = "Device pushed by node-opcua";
    req.hostNames = {"device.local"};
    const Certificate device = createSelfSignedCertificate(req, PrivateKey::generateRsa(2048));
    QVERIFY(!device.isNull());
    {
        QFile f(dir.filePath("device.der"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(device.der()));
    }

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::SecurityAdmin), 1000);
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 1000);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.certificateStore()->addTrusted(app.certificate));  // node-opcua's client is trusted

    const QJsonObject config{{"clientCertificate", dir.filePath("client.pem")}, {"clientKey", dir.filePath("client-key.pem")},
                             {"applicationUri", QString::fromStdString(clientUri)}, {"pkiRoot", dir.filePath("node-pki")},
                             {"deviceCertificate", dir.filePath("device.der")}};
    QFile cf(dir.filePath("push.json"));
    QVERIFY(cf.open(QIODevice::WriteOnly));
    cf.write(QJsonDocument(config).toJson());
    cf.close();
    const test::NodeScriptResult node =
        test::runNodeScript(QStringLiteral("push/push_client.js"), {server.endpointUrl(), dir.filePath("push.json")});
    test::verifyNodeChecks(node, 14);
    if (QTest::currentTestFailed()) return;
    // The store after the last ApplyChanges: node-opcua's client certificate still trusted, the
    // device (added, then written out again) not.
    const std::vector<Certificate> trusted = server.certificateStore()->trusted();
    QVERIFY(std::find(trusted.begin(), trusted.end(), app.certificate) != trusted.end());
    QVERIFY(std::find(trusted.begin(), trusted.end(), device) == trusted.end());
    QVERIFY(!server.pushManager().lastUpdateTime().isMin());
}

// node-opcua renews our server's certificate as a certificate manager would: CreateSigningRequest
// for a new key (push_certificate.js csr), the request signed by a CA here (a CA the server's trust
// list holds, with its CRL), then in another Session UpdateCertificate without a key, ApplyChanges
// and GetCertificates (push_certificate.js update); a new node-opcua connection then meets the new
// certificate in GetEndpoints and its SecureChannel. Our server is checked after each run.
void TestNodePush::nodeOpcuaRenewsTheServerCertificate() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string clientUri = "urn:ua-workbench:test:node-push-renewal";
    const test::NodeIdentity app = test::makeNodeIdentity(dir.filePath("client"), clientUri, "node push renewal");
    QVERIFY(!app.certificate.isNull());
    QVERIFY(test::writeNodeIdentityPem(app, dir.filePath("client.pem"), dir.filePath("client-key.pem")));
    // The CA (tests/common/PkiTestUtil.h: OpenSSL directly) signs the server's request below.
    const PrivateKey caKey = PrivateKey::generateRsa(2048);
    const Certificate ca = pkitest::issue(pkitest::caSpec("Renewal Test CA"), caKey);
    QVERIFY(!ca.isNull());

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.auditing = true;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.users.setUser("admin", "admin-pw", roleBit(Role::SecurityAdmin), 1000);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CertificateStore* store = server.certificateStore();
    QVERIFY(store->addTrusted(app.certificate));
    QVERIFY(store->addTrusted(ca));
    QVERIFY(store->addTrustedCrl(pkitest::crl(ca, caKey)));
    const Certificate before = store->ownCertificate();

    QJsonObject config{{"clientCertificate", dir.filePath("client.pem")}, {"clientKey", dir.filePath("client-key.pem")},
                       {"applicationUri", QString::fromStdString(clientUri)}, {"pkiRoot", dir.filePath("node-pki")},
                       {"newCertificate", dir.filePath("new.der")}, {"caCertificate", dir.filePath("ca.der")}};
    QFile cf(dir.filePath("renew.json"));
    QVERIFY(cf.open(QIODevice::WriteOnly));
    cf.write(QJsonDocument(config).toJson());
    cf.close();

    const test::NodeScriptResult csr =
        test::runNodeScript(QStringLiteral("push/push_certificate.js"), {server.endpointUrl(), dir.filePath("renew.json"), "csr"});
    test::verifyNodeChecks(csr, 2);
    if (QTest::currentTestFailed()) return;
    const QByteArray request = QByteArray::fromBase64(csr.result.value("csr").toString().toLatin1());
    const SigningRequestInfo info = parseSigningRequest(request.toStdString());
    QVERIFY(info.valid);
    QVERIFY2(info.subjectName.find("Renewed by node-opcua") != std::string::npos, info.subjectName.c_str());
    QCOMPARE(QString::fromStdString(info.applicationUri), server.applicationUri());
    QVERIFY(!store->pendingKey().isNull());  // kept for UpdateCertificate from another Session
    QVERIFY(store->ownCertificate() == before);

    std::string error;
    const Certificate renewed = signRequest(request.toStdString(), ca, caKey, 90, &error);
    QVERIFY2(!renewed.isNull(), error.c_str());
    for (const auto& [name, der] : {std::pair{QStringLiteral("new.der"), renewed.der()}, std::pair{QStringLiteral("ca.der"), ca.der()}}) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(der));
    }
    // node-opcua's client validates the server's new certificate: it trusts the CA and has its CRL.
    QVERIFY(QDir().mkpath(dir.filePath("node-pki/trusted/certs")));
    QVERIFY(QDir().mkpath(dir.filePath("node-pki/trusted/crl")));
    QVERIFY(QFile::copy(dir.filePath("ca.der"), dir.filePath("node-pki/trusted/certs/ca.der")));
    {
        QFile f(dir.filePath("node-pki/trusted/crl/ca.crl"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(pkitest::crl(ca, caKey)));
    }

    const test::NodeScriptResult update =
        test::runNodeScript(QStringLiteral("push/push_certificate.js"), {server.endpointUrl(), dir.filePath("renew.json"), "update"});
    test::verifyNodeChecks(update, 6);
    if (QTest::currentTestFailed()) return;
    QVERIFY(store->ownCertificate() == renewed);
    QVERIFY(store->ownPrivateKey().matches(renewed));
    QVERIFY(store->pendingKey().isNull());
    QVERIFY(server.channelSecurity()->certificate == renewed);
    QCOMPARE(QByteArray::fromStdString(server.channelSecurity()->certificateChain),
             QByteArray::fromStdString(renewed.der() + ca.der()));
    for (const EndpointDescription& e : server.endpoints())
        if (e.securityMode != MessageSecurityMode::None) QVERIFY(e.serverCertificate.str() == renewed.der());
}

UA_TEST_GUILESS_MAIN(TestNodePush)
#include "tst_node_push.moc"
