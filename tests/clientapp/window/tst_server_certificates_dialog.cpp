// "Manage server certificates" (client-app/window/ServerCertificatesDialog.h, issue 32 item 2) as a
// user works it, offscreen, against our Server in process over SignAndEncrypt as a SecurityAdmin
// user: the list appears, a certificate file is added, Apply changes puts it into the server's
// store and the list, Remove is enabled only on a certificate row. With UA_SCREENSHOT_DIR set it
// saves client-12-server-certificates.png there (docs/screenshots).
#include "../../client/ClientTestUtil.h"
#include "TestServerConfig.h"
#include "core/Connection.h"
#include "models/ServerTrustListModel.h"
#include "window/ServerCertificatesDialog.h"

#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QLabel>
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
};

void TestServerCertificatesDialog::addApplyRemoveAsAUserWould() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Server server(test::securityAdminServerConfig(dir.filePath(QStringLiteral("server-pki"))));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.certificateStore()->addTrusted(server.certificateStore()->ownCertificate()));

    Connection connection(dir.filePath(QStringLiteral("client-pki")));
    connection.setTrustPrompt([](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; });
    ConnectionSettings s;
    s.endpointUrl = test::urlOf(server.port());
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    s.identityKind = UserIdentity::Kind::UserName;
    s.userName = QStringLiteral("admin");
    s.password = QStringLiteral("admin-pw");
    QSignalSpy connected(&connection, &Connection::connectFinished);
    connection.connectTo(s);
    QVERIFY(connected.wait(20000));
    QCOMPARE(connected.at(0).at(0).value<StatusCode>(), status::Good);

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

UA_TEST_MAIN(TestServerCertificatesDialog)
#include "tst_server_certificates_dialog.moc"
