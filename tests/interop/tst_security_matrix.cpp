// The interop matrix of issue 4 with node-opcua's client (a real peer) against our server: every
// current SecurityPolicy (Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss) in Sign and
// SignAndEncrypt, each with an anonymous, a username/password and an X509 user, each doing connect,
// CreateSession/ActivateSession, Browse, Read, Write (and a read back). The client's application
// certificate is trusted explicitly (no trust-all switch), and anonymous writes are refused by Role.
#include "NodeIdentity.h"
#include "ua/pki/CertificateStore.h"
#include "ua/server/runtime/Server.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

namespace {

QJsonArray runMatrix(const QString& url, const QJsonObject& config, const QString& configPath, QString* diagnostics) {
    QFile cf(configPath);
    if (!cf.open(QIODevice::WriteOnly)) return {};
    cf.write(QJsonDocument(config).toJson());
    cf.close();
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
    node.start(QStringLiteral(UA_NODE_EXECUTABLE), {QStringLiteral("security_matrix.js"), url, configPath});
    if (!node.waitForStarted()) return {};
    QElapsedTimer t;
    t.start();
    while (node.state() != QProcess::NotRunning && t.elapsed() < 150000) QTest::qWait(50);
    if (node.state() != QProcess::NotRunning) node.kill();
    node.waitForFinished();
    const QByteArray out = node.readAllStandardOutput();
    *diagnostics = QString::fromUtf8(out.left(3000)) + QString::fromUtf8(node.readAllStandardError().right(3000));
    return QJsonDocument::fromJson(out).object().value("results").toArray();
}

} // namespace

class TestSecurityMatrix : public QObject {
    Q_OBJECT
private slots:
    void nodeOpcuaClientMatrix();
    void largeKeysAndSequenceWrap();
    void ownCertificateExpiryIsWarned();
};

void TestSecurityMatrix::nodeOpcuaClientMatrix() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string clientUri = "urn:ua-workbench:test:node-matrix-client";
    const ua::test::NodeIdentity app = ua::test::makeNodeIdentity(dir.filePath("client"), clientUri, "node matrix client");
    const ua::test::NodeIdentity user = ua::test::makeNodeIdentity(dir.filePath("user"), "urn:ua-workbench:test:user:frank", "frank");
    QVERIFY(!app.certificate.isNull() && !user.certificate.isNull());
    QVERIFY(ua::test::writeNodeIdentityPem(app, dir.filePath("client.pem"), dir.filePath("client-key.pem")));
    QVERIFY(ua::test::writeNodeIdentityPem(user, dir.filePath("user.pem"), dir.filePath("user-key.pem")));

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.users.setUser("grace", "grace-pw", roleBit(Role::Operator), 2000);
    UserRecord frank;
    frank.name = "frank";
    frank.roles = roleBit(Role::Operator);
    frank.certificateThumbprint = user.certificate.thumbprintHex();
    cfg.security.users.users.push_back(frank);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.certificateStore()->addTrusted(app.certificate));
    QVERIFY(server.userCertificateStore()->addTrusted(user.certificate));

    QJsonArray cases;
    const char* policies[] = {"Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss"};
    const char* modes[] = {"Sign", "SignAndEncrypt"};
    const QJsonObject users[] = {
        QJsonObject{{"type", "anonymous"}},
        QJsonObject{{"type", "username"}, {"userName", "grace"}, {"password", "grace-pw"}},
        QJsonObject{{"type", "x509"}, {"certificate", dir.filePath("user.pem")}, {"key", dir.filePath("user-key.pem")}},
    };
    for (const char* p : policies)
        for (const char* m : modes)
            for (const QJsonObject& u : users) cases.append(QJsonObject{{"policy", p}, {"mode", m}, {"user", u}});
    const QJsonObject config{{"clientCertificate", dir.filePath("client.pem")}, {"clientKey", dir.filePath("client-key.pem")},
                             {"applicationUri", QString::fromStdString(clientUri)}, {"pkiRoot", dir.filePath("node-pki")},
                             {"readNode", "i=2258"}, {"writeNode", "ns=1;i=1007"}, {"cases", cases}};
    QString diagnostics;
    const QJsonArray results = runMatrix(server.endpointUrl(), config, dir.filePath("matrix.json"), &diagnostics);
    QVERIFY2(results.size() == cases.size(), qPrintable(diagnostics));
    int passed = 0;
    for (const auto& v : results) {
        const QJsonObject r = v.toObject();
        const QString what = r.value("policy").toString() + " " + r.value("mode").toString() + " " + r.value("user").toString();
        QVERIFY2(r.value("ok").toBool(), qPrintable(what + ": " + r.value("error").toString() + "\n" + diagnostics));
        QCOMPARE(r.value("steps").toArray().size(), 6);
        // Anonymous Sessions may browse and read; only the Operator users may write.
        const bool anonymous = r.value("user").toString() == "anonymous";
        QVERIFY2(r.value("writeStatus").toString() == (anonymous ? "BadUserAccessDenied" : "Good"),
                 qPrintable(what + ": write " + r.value("writeStatus").toString()));
        ++passed;
    }
    QCOMPARE(passed, 18);
    // node-opcua's client certificate was trusted up front: nothing was rejected.
    QCOMPARE(server.certificateStore()->rejected().size(), std::size_t(0));
}

void TestSecurityMatrix::largeKeysAndSequenceWrap() {
    // 4096-bit keys on both sides (ExtraPaddingSize in every OPN, OPC 10000-6 6.7.2.5). Then a server
    // whose sequence numbers start just below the wrap point (OPC 10000-6 6.7.2.4): node-opcua
    // 2.186.4 refuses every sequence number that is not the previous + 1 (its MessageBuilder
    // #_validateSequenceNumber has no wrap), so it breaks off exactly where our numbers wrap, after
    // 4294966272 (the first number above UInt32.max - 1024) to 1. Our own client crosses the wrap in
    // tests/secure/tst_channel_security.cpp.
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string clientUri = "urn:ua-workbench:test:node-4096-client";
    const ua::test::NodeIdentity app = ua::test::makeNodeIdentity(dir.filePath("client"), clientUri, "node 4096 client", 4096);
    QCOMPARE(app.certificate.keyBits(), 4096);
    QVERIFY(ua::test::writeNodeIdentityPem(app, dir.filePath("client.pem"), dir.filePath("client-key.pem")));
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.security.keyBits = 4096;
    cfg.security.users.setUser("grace", "grace-pw", roleBit(Role::Operator), 2000);
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server.certificateStore()->ownCertificate().keyBits(), 4096);
    QVERIFY(server.certificateStore()->addTrusted(app.certificate));
    QJsonArray cases;
    for (const char* p : {"Basic256Sha256", "Aes256_Sha256_RsaPss"})
        cases.append(QJsonObject{{"policy", p}, {"mode", "SignAndEncrypt"},
                                 {"user", QJsonObject{{"type", "username"}, {"userName", "grace"}, {"password", "grace-pw"}}}});
    const QJsonObject config{{"clientCertificate", dir.filePath("client.pem")}, {"clientKey", dir.filePath("client-key.pem")},
                             {"applicationUri", QString::fromStdString(clientUri)}, {"pkiRoot", dir.filePath("node-pki")},
                             {"readNode", "i=2258"}, {"writeNode", "ns=1;i=1007"}, {"cases", cases}};
    QString diagnostics;
    const QJsonArray results = runMatrix(server.endpointUrl(), config, dir.filePath("wrap.json"), &diagnostics);
    QVERIFY2(results.size() == cases.size(), qPrintable(diagnostics));
    for (const auto& v : results) {
        const QJsonObject r = v.toObject();
        QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("policy").toString() + ": " + r.value("error").toString() + "\n" + diagnostics));
        QCOMPARE(r.value("writeStatus").toString(), QString("Good"));
    }

    ServerConfig wrapCfg = cfg;
    wrapCfg.security.keyBits = 2048;
    wrapCfg.security.pkiDir = dir.filePath("pki-wrap");
    wrapCfg.secureChannel.firstSequenceNumber = 4294966271u - 5;
    Server wrapServer(wrapCfg);
    QVERIFY2(wrapServer.start(), qPrintable(wrapServer.errorString()));
    QVERIFY(wrapServer.certificateStore()->addTrusted(app.certificate));
    QJsonObject wrapConfig = config;
    wrapConfig["cases"] = QJsonArray{cases.at(0)};
    const QJsonArray wrapped = runMatrix(wrapServer.endpointUrl(), wrapConfig, dir.filePath("wrap2.json"), &diagnostics);
    QVERIFY2(wrapped.size() == 1, qPrintable(diagnostics));
    const QString error = wrapped.at(0).toObject().value("error").toString();
    QVERIFY2(error.contains("expected 4294966273, got 1"), qPrintable(error + "\n" + diagnostics));
}

void TestSecurityMatrix::ownCertificateExpiryIsWarned() {
    // 30 days before the own certificate expires the server says so in its log (and the window asks
    // certificateExpiresInDays()); a fresh five-year certificate gives no warning.
    QTemporaryDir dir;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath("short");
    cfg.security.certificateValidityDays = 10;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("certificate expires in (9|10) days"));
    Server soon(cfg);
    QVERIFY(soon.start());
    QVERIFY(soon.certificateExpiresInDays() >= 9 && soon.certificateExpiresInDays() <= 10);
    soon.stop();
    cfg.security.pkiDir = dir.filePath("long");
    cfg.security.certificateValidityDays = 365 * 5;
    QTest::failOnWarning(QRegularExpression("certificate expires in"));
    Server later(cfg);
    QVERIFY(later.start());
    QVERIFY(later.certificateExpiresInDays() > 365 * 4);
}

UA_TEST_GUILESS_MAIN(TestSecurityMatrix)
#include "tst_security_matrix.moc"
