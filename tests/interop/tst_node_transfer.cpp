// TransferSubscriptions' user rule (OPC 10000-4 5.14.7.1, Table 96) with node-opcua's clients as
// the real peers (transfer_subscriptions.js): anonymous Sessions move a Subscription only within
// one ApplicationUri and onto a signed channel; a named user only to the same ClientUserId, the one
// the owner's last ActivateSession set; a Subscription the Session owns is Bad_NothingToDo.
#include "NodeScript.h"

#include "ua/pki/CertificateStore.h"
#include "ua/server/runtime/Server.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

namespace {

constexpr uint32_t kIterations = 2000;  // PBKDF2 work in the test (the default is far higher)

// A client application's certificate (its ApplicationUri in subjectAltName) and key as PEM files.
bool writeApplication(const QString& dir, const std::string& uri, QString* cert, QString* key) {
    CertificateStore store(dir.toStdString());
    CertificateRequest r;
    r.applicationUri = uri;
    r.applicationName = uri;
    r.hostNames = {"127.0.0.1"};
    if (!store.ensureOwnCertificate(r)) return false;
    const Certificate own = store.ownCertificate();
    const std::string& der = own.der();
    QByteArray pem = "-----BEGIN CERTIFICATE-----\n";
    const QByteArray b64 = QByteArray(reinterpret_cast<const char*>(der.data()), qsizetype(der.size())).toBase64();
    for (qsizetype i = 0; i < b64.size(); i += 64) pem += b64.mid(i, 64) + '\n';
    pem += "-----END CERTIFICATE-----\n";
    *cert = dir + "/cert.pem";
    *key = dir + "/key.pem";
    QFile f(*cert);
    if (!f.open(QIODevice::WriteOnly) || f.write(pem) != pem.size()) return false;
    return store.ownPrivateKey().savePem(key->toStdString());
}

} // namespace

class TestNodeTransfer : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientsTransfer();
};

void TestNodeTransfer::nodeOpcuaClientsTransfer() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString certA, keyA, certB, keyB;
    QVERIFY(writeApplication(dir.filePath("a"), "urn:ua-workbench:test:transfer-a", &certA, &keyA));
    QVERIFY(writeApplication(dir.filePath("b"), "urn:ua-workbench:test:transfer-b", &certB, &keyB));
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.trustAllClients = true;
    cfg.security.users.setUser("alice", "alice-pw", kNoRoles, kIterations);
    cfg.security.users.setUser("bob", "bob-pw", kNoRoles, kIterations);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const test::NodeScriptResult node = test::runNodeScript(QStringLiteral("transfer_subscriptions.js"),
                                                            {server.endpointUrl(), certA, keyA, certB, keyB});
    test::verifyNodeChecks(node, 11);
}

UA_TEST_GUILESS_MAIN(TestNodeTransfer)
#include "tst_node_transfer.moc"
