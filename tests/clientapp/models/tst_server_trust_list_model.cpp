// The "Manage server certificates" model (client-app/models/ServerTrustListModel.h; OPC 10000-12
// push certificate management) under QAbstractItemModelTester against our Server in process over
// SignAndEncrypt: the trust list read through the TrustList file, a certificate added and removed
// with ApplyChanges in between (checked in the server's store), CancelChanges, and the sentences of
// a refusal (an Operator: Bad_UserAccessDenied, a Sign-only channel: Bad_SecurityModeInsufficient).
#include "ModelsTestUtil.h"
#include "TestServerConfig.h"

#include "models/ServerTrustListModel.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

#include <algorithm>

using namespace ua;
using namespace ua::clientapp;
using namespace ua::test;

class TestServerTrustListModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void readAddApplyRemove();
    void cancelChanges();
    void refusalsSaySo();

private:
    // A Connection as `user` over Basic256Sha256 in `mode`, its server certificate accepted.
    std::unique_ptr<Connection> connectAs(const QString& user, MessageSecurityMode mode);
    // Runs an action of the model and returns the status its finished() signal carried.
    StatusCode run(ServerTrustListModel& m, const std::function<void()>& action, QString* message = nullptr);
    bool hasThumbprint(const ServerTrustListModel& m, const std::string& thumbprint) const;

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    Certificate m_device;
};

void TestServerTrustListModel::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<Server>(securityAdminServerConfig(m_dir.filePath(QStringLiteral("server-pki"))));
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QVERIFY(m_server->certificateStore()->addTrusted(m_server->certificateStore()->ownCertificate()));
    CertificateRequest req;
    req.applicationUri = "urn:trust-list-model:device";
    req.applicationName = "Model Test Device";
    req.hostNames = {"device.local"};
    m_device = createSelfSignedCertificate(req, PrivateKey::generateRsa(2048));
    QVERIFY(!m_device.isNull());
}

std::unique_ptr<Connection> TestServerTrustListModel::connectAs(const QString& user, MessageSecurityMode mode) {
    return connectAsUser(urlOf(m_server->port()), m_dir.filePath(QStringLiteral("client-pki")), user, mode);
}

StatusCode TestServerTrustListModel::run(ServerTrustListModel& m, const std::function<void()>& action, QString* message) {
    QSignalSpy finished(&m, &ServerTrustListModel::finished);
    action();
    if (finished.isEmpty() && !finished.wait(15000)) return status::BadTimeout;
    if (message) *message = finished.at(0).at(2).toString();
    return finished.at(0).at(1).value<StatusCode>();
}

bool TestServerTrustListModel::hasThumbprint(const ServerTrustListModel& m, const std::string& thumbprint) const {
    const auto& e = m.entries();
    return std::any_of(e.begin(), e.end(), [&](const ServerTrustListModel::Entry& x) { return x.thumbprint.toStdString() == thumbprint; });
}

void TestServerTrustListModel::readAddApplyRemove() {
    auto c = connectAs(QStringLiteral("admin"), MessageSecurityMode::SignAndEncrypt);
    QVERIFY(c);
    ServerTrustListModel m(c.get());
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(run(m, [&] { m.reload(); }), status::Good);
    QVERIFY(m.rowCount() >= 1);
    const std::string own = m_server->certificateStore()->ownCertificate().thumbprintHex();
    QVERIFY(hasThumbprint(m, own));
    QCOMPARE(m.data(m.index(0, ServerTrustListModel::KindColumn)).toString(), QStringLiteral("Trusted certificate"));
    QVERIFY(!m.data(m.index(0, ServerTrustListModel::ValidToColumn)).toString().isEmpty());
    QVERIFY(logCount(*c, QStringLiteral("Call")) >= 3);  // Open, Read..., Close

    QCOMPARE(run(m, [&] { m.addCertificate(QByteArray::fromStdString(m_device.der())); }), status::Good);
    QVERIFY(m.changesPending());
    const auto trusted = [&] {
        const std::vector<Certificate> t = m_server->certificateStore()->trusted();
        return std::find(t.begin(), t.end(), m_device) != t.end();
    };
    QVERIFY(!trusted());
    QSignalSpy all(&m, &ServerTrustListModel::finished);
    m.applyChanges();  // ApplyChanges, then the reload
    QTRY_COMPARE_WITH_TIMEOUT(all.size(), 2, 15000);
    QCOMPARE(all.at(0).at(1).value<StatusCode>(), status::Good);
    QCOMPARE(all.at(1).at(1).value<StatusCode>(), status::Good);
    QVERIFY(!m.changesPending());
    QVERIFY(trusted());
    QVERIFY(hasThumbprint(m, m_device.thumbprintHex()));

    int row = -1;
    for (int i = 0; i < m.rowCount(); ++i)
        if (m.entries()[std::size_t(i)].thumbprint.toStdString() == m_device.thumbprintHex()) row = i;
    QVERIFY(row >= 0);
    QCOMPARE(run(m, [&] { m.removeRow(row); }), status::Good);
    QCOMPARE(run(m, [&] { m.applyChanges(); }), status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(!m.busy(), 15000);
    QVERIFY(!trusted());
    QVERIFY(!hasThumbprint(m, m_device.thumbprintHex()));
    QCOMPARE(run(m, [&] { m.removeRow(m.rowCount() + 5); }), status::BadInvalidArgument);
}

void TestServerTrustListModel::cancelChanges() {
    auto c = connectAs(QStringLiteral("admin"), MessageSecurityMode::SignAndEncrypt);
    QVERIFY(c);
    ServerTrustListModel m(c.get());
    QCOMPARE(run(m, [&] { m.cancelChanges(); }), status::BadNothingToDo);
    QCOMPARE(run(m, [&] { m.addCertificate(QByteArray::fromStdString(m_device.der())); }), status::Good);
    QCOMPARE(run(m, [&] { m.cancelChanges(); }), status::Good);
    QVERIFY(!m.changesPending());
    QCOMPARE(run(m, [&] { m.applyChanges(); }), status::BadNothingToDo);
    const std::vector<Certificate> t = m_server->certificateStore()->trusted();
    QVERIFY(std::find(t.begin(), t.end(), m_device) == t.end());
}

void TestServerTrustListModel::refusalsSaySo() {
    auto alice = connectAs(QStringLiteral("alice"), MessageSecurityMode::SignAndEncrypt);
    QVERIFY(alice);
    ServerTrustListModel m(alice.get());
    QString message;
    QCOMPARE(run(m, [&] { m.reload(); }, &message), status::BadUserAccessDenied);
    QVERIFY2(message.contains(QStringLiteral("SecurityAdmin")), qPrintable(message));
    QCOMPARE(m.rowCount(), 0);
    auto signOnly = connectAs(QStringLiteral("admin"), MessageSecurityMode::Sign);
    QVERIFY(signOnly);
    ServerTrustListModel s(signOnly.get());
    QCOMPARE(run(s, [&] { s.addCertificate(QByteArray::fromStdString(m_device.der())); }, &message), status::BadSecurityModeInsufficient);
    QVERIFY2(message.contains(QStringLiteral("Sign & Encrypt")), qPrintable(message));
    ServerTrustListModel none(nullptr);
    QCOMPARE(run(none, [&] { none.reload(); }), status::BadServerNotConnected);
}

UA_TEST_GUILESS_MAIN(TestServerTrustListModel)
#include "tst_server_trust_list_model.moc"
