// The "Manage server certificates" model (client-app/models/ServerTrustListModel.h) against
// node-opcua's push certificate management (node-opcua-server-configuration 2.157.0 on a node-opcua
// 2.157.0 server: tests/interop/push/node_push_server.js) over SignAndEncrypt as its SecurityAdmin
// user: the trust list read, a certificate added and applied and read back, removed again; its
// Operator user refused. node-opcua's AddCertificate follows 1.04 (it changes the list at once and
// ApplyChanges is always Good), so the certificate is looked for after ApplyChanges only.
#include "ModelsTestUtil.h"

#include "PkiTestUtil.h"
#include "models/ServerCertificateModel.h"
#include "models/ServerTrustListModel.h"
#include "ua/pki/SigningRequest.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/secure/SecurityPolicy.h"

#include <QAbstractItemModelTester>
#include <QHostInfo>
#include "TestMain.h"

#include <algorithm>

using namespace ua;
using namespace ua::clientapp;

class TestServerTrustListVsNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    // First: node-opcua suspends its endpoints for a few seconds after an ApplyChanges.
    void operatorRefused();
    void manageNodeOpcuasTrustList();
    // Last: node-opcua restarts its endpoints with the new certificate.
    void renewNodeOpcuasCertificate();

private:
    std::unique_ptr<Connection> connectAs(const QString& user);
    StatusCode run(ServerTrustListModel& m, const std::function<void()>& action, QString* message = nullptr);

    QTemporaryDir m_dir;
    test::NodeServerProcess m_node;
};

void TestServerTrustListVsNode::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QVERIFY2(QFileInfo::exists(QStringLiteral(UA_INTEROP_DIR "/push/node_modules/node-opcua-server-configuration")),
             "no node-opcua-server-configuration: run ./test.sh");
    m_node.start(QStringLiteral("push/node_push_server.js"));
    QVERIFY2(m_node.waitReady(), qPrintable(m_node.error));
}

std::unique_ptr<Connection> TestServerTrustListVsNode::connectAs(const QString& user) {
    auto c = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("client-pki")));
    c->setTrustPrompt([](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; });
    ConnectionSettings s;
    // installPushCertificateManagementOnServer gives the server a certificate of its own, which
    // names this machine's host name but not 127.0.0.1.
    s.endpointUrl = QStringLiteral("opc.tcp://%1:%2").arg(QHostInfo::localHostName()).arg(m_node.port);
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    s.identityKind = UserIdentity::Kind::UserName;
    s.userName = user;
    s.password = user + QStringLiteral("-pw");
    QSignalSpy finished(c.get(), &Connection::connectFinished);
    c->connectTo(s);
    if (finished.isEmpty() && !finished.wait(30000)) return nullptr;
    const StatusCode st = finished.at(0).at(0).value<StatusCode>();
    if (st.isBad()) qWarning("connect as %s: %s", qPrintable(user), st.name().c_str());
    return st.isGood() ? std::move(c) : nullptr;
}

StatusCode TestServerTrustListVsNode::run(ServerTrustListModel& m, const std::function<void()>& action, QString* message) {
    QSignalSpy finished(&m, &ServerTrustListModel::finished);
    action();
    if (finished.isEmpty() && !finished.wait(30000)) return status::BadTimeout;
    if (!QTest::qWaitFor([&] { return !m.busy(); }, 30000)) return status::BadTimeout;  // ApplyChanges reloads after it
    if (message) *message = finished.at(0).at(2).toString();
    return finished.at(0).at(1).value<StatusCode>();
}

void TestServerTrustListVsNode::manageNodeOpcuasTrustList() {
    auto c = connectAs(QStringLiteral("admin"));
    QVERIFY(c);
    ServerTrustListModel m(c.get());
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(run(m, [&] { m.reload(); }), status::Good);
    const int before = m.rowCount();
    CertificateRequest req;
    req.applicationUri = "urn:trust-list-vs-node:device";
    req.applicationName = "Device for node-opcua";
    req.hostNames = {"device.local"};
    const Certificate device = createSelfSignedCertificate(req, PrivateKey::generateRsa(2048));
    QVERIFY(!device.isNull());
    const auto listed = [&] {
        const auto& e = m.entries();
        return std::find_if(e.begin(), e.end(), [&](const ServerTrustListModel::Entry& x) {
                   return x.thumbprint.toStdString() == device.thumbprintHex();
               }) - e.begin();
    };
    QCOMPARE(run(m, [&] { m.addCertificate(QByteArray::fromStdString(device.der())); }), status::Good);
    QCOMPARE(run(m, [&] { m.applyChanges(); }), status::Good);
    QCOMPARE(run(m, [&] { m.reload(); }), status::Good);
    QCOMPARE(m.rowCount(), before + 1);
    const auto row = listed();
    QVERIFY(row < m.rowCount());
    QCOMPARE(m.entries()[std::size_t(row)].kind, ServerTrustListModel::Kind::TrustedCertificate);
}

// The server certificate part of the dialog (ServerCertificateModel) against node-opcua's push
// management: a signing request for a new key, signed here by a CA whose certificate and key files
// the user picks, UpdateCertificate and ApplyChanges; node-opcua then holds the certificate we
// signed in its PKI folder (the READY line names it).
void TestServerTrustListVsNode::renewNodeOpcuasCertificate() {
    QVERIFY2(!m_node.info.isEmpty(), "node_push_server.js did not name its PKI folder");
    std::unique_ptr<Connection> c;
    for (int i = 0; i < 30 && !c; ++i)  // node-opcua suspends its endpoints for a while after an ApplyChanges
        if (!(c = connectAs(QStringLiteral("admin")))) QTest::qWait(1000);
    QVERIFY(c);
    ServerCertificateModel cm(c.get());
    const auto runCertificate = [&](const std::function<void()>& action, QString* message = nullptr) {
        QSignalSpy finished(&cm, &ServerCertificateModel::finished);
        action();
        if (finished.isEmpty() && !finished.wait(30000)) return StatusCode(status::BadTimeout);
        if (message) *message = finished.at(0).at(2).toString();
        return finished.at(0).at(1).value<StatusCode>();
    };
    QString message;
    const StatusCode got = runCertificate([&] { cm.reload(); }, &message);  // GetCertificates is optional (1.05)
    QVERIFY2(got.isGood() || message.contains(QStringLiteral("does not offer it")), qPrintable(message));
    QCOMPARE(runCertificate([&] { cm.createSigningRequest(QString(), true); }, &message), status::Good);
    const SigningRequestInfo request = parseSigningRequest(cm.signingRequest().toStdString());
    QVERIFY(request.valid);
    QCOMPARE(QString::fromStdString(request.applicationUri), QStringLiteral("urn:ua-workbench:node-opcua-push-test-server"));

    const PrivateKey caKey = PrivateKey::generateRsa(2048);
    const Certificate ca = pkitest::issue(pkitest::caSpec("node-opcua Renewal CA"), caKey);
    QFile caFile(m_dir.filePath(QStringLiteral("renewal-ca.der")));
    QVERIFY(caFile.open(QIODevice::WriteOnly));
    caFile.write(QByteArray::fromStdString(ca.der()));
    caFile.close();
    QVERIFY(caKey.savePem(m_dir.filePath(QStringLiteral("renewal-ca-key.pem")).toStdString()));
    QCOMPARE(runCertificate([&] { cm.installSignedBy(caFile.fileName(), m_dir.filePath(QStringLiteral("renewal-ca-key.pem")), QString(), 30); },
                            &message),
             status::Good);
    ServerTrustListModel m(c.get());
    QCOMPARE(run(m, [&] { m.applyChanges(); }), status::Good);
    // node-opcua moves the new certificate into its own/certs at ApplyChanges.
    const QString installed = m_node.info + QStringLiteral("/own/certs/certificate.der");
    const auto holdsOurs = [&] {
        QFile f(installed);
        if (!f.open(QIODevice::ReadOnly)) return false;
        const Certificate c = Certificate::fromDer(f.readAll().toStdString());
        return !c.isNull() && c.issuerName() == ca.subjectName() &&
               request.applicationUri == c.applicationUri();
    };
    QTRY_VERIFY_WITH_TIMEOUT(holdsOurs(), 30000);
}

void TestServerTrustListVsNode::operatorRefused() {
    auto c = connectAs(QStringLiteral("alice"));
    QVERIFY(c);
    ServerTrustListModel m(c.get());
    QString message;
    const StatusCode st = run(m, [&] { m.reload(); }, &message);
    QCOMPARE(st, status::BadUserAccessDenied);
    QVERIFY2(message.contains(QStringLiteral("SecurityAdmin")), qPrintable(message));
}

UA_TEST_GUILESS_MAIN(TestServerTrustListVsNode)
#include "tst_server_trust_list_vs_node.moc"
