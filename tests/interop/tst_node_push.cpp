// node-opcua's push certificate management client (node-opcua-server-configuration 2.157.0, a real
// peer; push/push_client.js) against our server's ServerConfiguration (OPC 10000-12 7.8.2
// TrustListType, 7.10 ServerConfigurationType; ua/server/certificates/PushMethods.h): it reads the
// trust list, adds a device certificate and applies it, writes a new list as a file and applies that,
// and is refused as an Operator. Our store is checked after each step the script reports.
#include "NodeIdentity.h"
#include "NodeScript.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/server/certificates/PushManager.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

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

UA_TEST_GUILESS_MAIN(TestNodePush)
#include "tst_node_push.moc"
