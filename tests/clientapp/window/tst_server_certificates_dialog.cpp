// "Manage server certificates" (client-app/window/ServerCertificatesDialog.h, issue 32 item 2) as a
// user works it, offscreen, against our Server in process over SignAndEncrypt as a SecurityAdmin
// user: the list appears, a certificate file is added, Apply changes puts it into the server's
// store and the list, Remove is enabled only on a certificate row; and the server's certificate is
// renewed with a CA the user holds. With UA_SCREENSHOT_DIR set it saves
// client-12-server-certificates.png and client-13-server-certificate-request.png there (docs/screenshots).
#include "../../client/ClientTestUtil.h"
#include "PkiTestUtil.h"
#include "TestServerConfig.h"
#include "core/Connection.h"
#include "models/ServerTrustListModel.h"
#include "window/ServerCertificateBox.h"
#include "window/ServerCertificatesDialog.h"

#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <algorithm>

using namespace ua;
using namespace ua::clientapp;

class TestServerCertificatesDialog : public QObject {
    Q_OBJECT
private slots:
    void addApplyRemoveAsAUserWould();
    void renewTheServerCertificateAsAUserWould();
};

namespace {

// Connects as the SecurityAdmin "admin" over Basic256Sha256 SignAndEncrypt.
StatusCode connectAdmin(Connection& connection, quint16 port) {
    connection.setTrustPrompt([](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; });
    ConnectionSettings s;
    s.endpointUrl = test::urlOf(port);
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    s.identityKind = UserIdentity::Kind::UserName;
    s.userName = QStringLiteral("admin");
    s.password = QStringLiteral("admin-pw");
    QSignalSpy connected(&connection, &Connection::connectFinished);
    connection.connectTo(s);
    if (!connected.wait(20000)) return status::BadTimeout;
    return connected.at(0).at(0).value<StatusCode>();
}

bool writeFile(const QString& path, const std::string& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

} // namespace

void TestServerCertificatesDialog::addApplyRemoveAsAUserWould() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Server server(test::securityAdminServerConfig(dir.filePath(QStringLiteral("server-pki"))));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.certificateStore()->addTrusted(server.certificateStore()->ownCertificate()));

    Connection connection(dir.filePath(QStringLiteral("client-pki")));
    QCOMPARE(connectAdmin(connection, server.port()), status::Good);

    CertificateRequest req;
    req.applicationUri = "urn:dialog-test:plc";
    req.applicationName = "Line 3 PLC";
    req.hostNames = {"plc3.plant.local"};
    const Certificate plc = createSelfSignedCertificate(req, PrivateKey::generateRsa(2048));
    QVERIFY(!plc.isNull());
    const QString file = dir.filePath(QStringLiteral("plc3.der"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(plc.der()));
    }

    ServerCertificatesDialog dialog(&connection);
    dialog.show();
    auto* status = dialog.findChild<QLabel*>(QStringLiteral("trustListStatus"));
    auto* apply = dialog.findChild<QPushButton*>(QStringLiteral("applyChanges"));
    auto* remove = dialog.findChild<QPushButton*>(QStringLiteral("removeCertificate"));
    QVERIFY(status && apply && remove);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Read the trust list: done")), 15000);
    const int before = dialog.model()->rowCount();
    QVERIFY(before >= 1);
    QVERIFY(!remove->isEnabled());  // nothing selected

    QVERIFY(!dialog.addCertificateFile(dir.filePath(QStringLiteral("missing.der"))));
    QVERIFY(status->text().contains(QStringLiteral("holds no certificate")));
    QVERIFY(dialog.addCertificateFile(file));
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("AddCertificate: done")), 15000);
    QVERIFY(status->text().contains(QStringLiteral("wait for Apply changes")));
    QTRY_VERIFY_WITH_TIMEOUT(apply->isEnabled(), 5000);
    apply->click();
    QTRY_COMPARE_WITH_TIMEOUT(dialog.model()->rowCount(), before + 1, 15000);
    const std::vector<Certificate> trusted = server.certificateStore()->trusted();
    QVERIFY(std::find(trusted.begin(), trusted.end(), plc) != trusted.end());

    // Select the PLC's row: Remove becomes available.
    int row = -1;
    for (int i = 0; i < dialog.model()->rowCount(); ++i)
        if (dialog.model()->entries()[std::size_t(i)].thumbprint.toStdString() == plc.thumbprintHex()) row = i;
    QVERIFY(row >= 0);
    dialog.view()->selectRow(row);
    QTRY_VERIFY_WITH_TIMEOUT(remove->isEnabled(), 5000);
    if (const QByteArray shots = qgetenv("UA_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(200);
        QVERIFY(dialog.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/client-12-server-certificates.png")));
    }
    remove->click();
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("RemoveCertificate: done")), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(apply->isEnabled(), 5000);
    apply->click();
    QTRY_COMPARE_WITH_TIMEOUT(dialog.model()->rowCount(), before, 15000);
    const std::vector<Certificate> after = server.certificateStore()->trusted();
    QVERIFY(std::find(after.begin(), after.end(), plc) == after.end());
}

// The server certificate part (ServerCertificateBox): a signing request for a new key with a new
// subject, signed by the user's CA (its certificate and key files), Apply changes; the client
// reconnects to the server's new certificate and the box shows it. With UA_SCREENSHOT_DIR set it
// saves client-13-server-certificate-request.png (the request made, before it is signed).
void TestServerCertificatesDialog::renewTheServerCertificateAsAUserWould() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Server server(test::securityAdminServerConfig(dir.filePath(QStringLiteral("server-pki"))));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const PrivateKey caKey = PrivateKey::generateRsa(2048);
    const Certificate ca = pkitest::issue(pkitest::caSpec("Plant CA"), caKey);
    CertificateStore clientStore(dir.filePath(QStringLiteral("client-pki")).toStdString());
    for (CertificateStore* store : {server.certificateStore(), &clientStore}) {
        QVERIFY(store->addTrusted(ca));  // the server and the user's client trust the plant's CA
        QVERIFY(store->addTrustedCrl(pkitest::crl(ca, caKey)));
    }
    QVERIFY(writeFile(dir.filePath(QStringLiteral("ca.der")), ca.der()));
    QVERIFY(caKey.savePem(dir.filePath(QStringLiteral("ca-key.pem")).toStdString()));
    Connection connection(dir.filePath(QStringLiteral("client-pki")));
    QCOMPARE(connectAdmin(connection, server.port()), status::Good);

    ServerCertificatesDialog dialog(&connection);
    dialog.show();
    auto* status = dialog.findChild<QLabel*>(QStringLiteral("trustListStatus"));
    auto* inUse = dialog.findChild<QLabel*>(QStringLiteral("serverCertificate"));
    auto* request = dialog.findChild<QLabel*>(QStringLiteral("signingRequest"));
    auto* create = dialog.findChild<QPushButton*>(QStringLiteral("createSigningRequest"));
    auto* sign = dialog.findChild<QPushButton*>(QStringLiteral("signWithCa"));
    auto* apply = dialog.findChild<QPushButton*>(QStringLiteral("applyChanges"));
    QVERIFY(status && inUse && request && create && sign && apply);
    const std::string before = server.certificateStore()->ownCertificate().thumbprintHex();
    QTRY_VERIFY_WITH_TIMEOUT(inUse->text().contains(QString::fromStdString(before)), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Read the trust list: done")), 15000);
    QVERIFY(inUse->text().contains(QStringLiteral("self-signed")));
    QVERIFY(!sign->isEnabled());  // no request yet

    dialog.certificateBox()->subjectEdit()->setText(QStringLiteral("CN=Line 3 Server, O=Plant 7, DC=127.0.0.1"));
    QTRY_VERIFY_WITH_TIMEOUT(create->isEnabled(), 15000);
    create->click();
    QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains(QStringLiteral("CreateSigningRequest: done")), qPrintable(status->text()), 15000);
    QVERIFY2(request->text().contains(QStringLiteral("Line 3 Server")), qPrintable(request->text()));
    QVERIFY(sign->isEnabled());
    if (const QByteArray shots = qgetenv("UA_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QTest::qWait(200);
        QVERIFY(dialog.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/client-13-server-certificate-request.png")));
    }
    dialog.certificateBox()->signWithCa(dir.filePath(QStringLiteral("ca.der")), dir.filePath(QStringLiteral("ca-key.pem")), QString());
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("holds the new certificate")), 15000);
    QCOMPARE(server.certificateStore()->ownCertificate().thumbprintHex(), before);
    QTRY_VERIFY_WITH_TIMEOUT(apply->isEnabled(), 5000);
    apply->click();
    QTRY_VERIFY_WITH_TIMEOUT(server.certificateStore()->ownCertificate().thumbprintHex() != before, 15000);
    const Certificate now = server.certificateStore()->ownCertificate();
    QCOMPARE(QString::fromStdString(now.issuerName()), QString::fromStdString(ca.subjectName()));
    // Applied: the server closes the channel, the client reconnects to the new certificate, and the
    // box reads it again.
    QTRY_VERIFY_WITH_TIMEOUT(inUse->text().contains(QString::fromStdString(now.thumbprintHex())), 30000);
    QVERIFY(inUse->text().contains(QStringLiteral("Plant CA")));
}

UA_TEST_MAIN(TestServerCertificatesDialog)
#include "tst_server_certificates_dialog.moc"
