// The administration models of the server app: UsersModel over a UserStore (add, set password,
// set Roles, remove, lockout and unlock, saving to a file) and CertificatesModel over a real
// CertificateStore (certificates rejected by validation appear in the rejected list; trust,
// reject and remove move them between linked lists), each under QAbstractItemModelTester; then
// with node-opcua's client against our Server: a user added through the model logs in, a removed
// one cannot; a client certificate rejected on a signed channel shows in the rejected list and,
// trusted from there, connects; the LogModel shows why the channel was refused.
#include "NodeSessions.h"
#include "models/CertificatesModel.h"
#include "models/DiagnosticsPoller.h"
#include "models/LogModel.h"
#include "models/SessionsModel.h"
#include "models/UsersModel.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/server/runtime/Server.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::serverapp;

class TestAdminModels : public QObject {
    Q_OBJECT
private slots:
    void users();
    void certificates();
    void usersLiveLogin();
    void certificatesLiveTrust();
};

// The sessions page beside the administration pages: a poller feeding a SessionsModel.
struct SessionsWatch {
    explicit SessionsWatch(Server& server) : poller(server.diagnostics()) {
        QObject::connect(&poller, &DiagnosticsPoller::snapshotReady, &poller,
                         [this](const DiagnosticsSnapshotPtr& s) { sessions.update(*s); });
        poller.setInterval(100);
        poller.start();
    }
    QString cell(int column) const { return sessions.rowCount() ? sessions.index(0, column).data().toString() : QString(); }
    DiagnosticsPoller poller;
    SessionsModel sessions;
    QAbstractItemModelTester tester{&sessions, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

static ServerConfig securedConfig(const QTemporaryDir& dir) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 0;
    cfg.security.pkiDir = dir.filePath("pki");
    return cfg;
}

static QStringList column(const QAbstractItemModel& m, int c) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) out << m.index(r, c).data().toString();
    return out;
}

void TestAdminModels::users() {
    QTemporaryDir dir;
    UserDatabase initial;
    initial.maxFailedAuthenticationAttempts = 2;
    initial.setUser("alice", "secret1", roleBit(Role::Operator), 1000);
    UserStore store(initial);
    UsersModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPasswordIterations(1000);
    const QString file = dir.filePath("users.json");
    model.setFilePath(file);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    QCOMPARE(column(model, UsersModel::Name), QStringList{"alice"});
    QCOMPARE(model.index(0, UsersModel::Roles).data().toString(), QStringLiteral("Operator"));
    QCOMPARE(model.index(0, UsersModel::Password).data().toString(), QStringLiteral("set"));

    QVERIFY(model.addUser("bob", "pw-bob", roleBit(Role::Observer) | roleBit(Role::Engineer)));
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(column(model, UsersModel::Name), (QStringList{"alice", "bob"}));
    QCOMPARE(model.index(1, UsersModel::Roles).data().toString(), QStringLiteral("Observer, Engineer"));
    QVERIFY(store.authenticate("bob", "pw-bob", Server::monotonicMs()).status.isGood());
    QVERIFY(!model.addUser("bob", "again", kNoRoles));
    QVERIFY(!model.lastError().isEmpty());
    QVERIFY(!model.addUser("", "x", kNoRoles));

    // Saved: the file reads back as the store's database.
    UserStore reread;
    QVERIFY(reread.load(file));
    QCOMPARE(reread.snapshot()->users.size(), 2u);

    QVERIFY(model.setPassword(0, "secret2"));
    QVERIFY(store.authenticate("alice", "secret1", Server::monotonicMs()).status.isBad());
    QVERIFY(store.authenticate("alice", "secret2", Server::monotonicMs()).status.isGood());
    QVERIFY(model.setRoles(0, roleBit(Role::SecurityAdmin)));
    QCOMPARE(model.index(0, UsersModel::Roles).data().toString(), QStringLiteral("SecurityAdmin"));
    QCOMPARE(store.snapshot()->find("alice")->roles, roleBit(Role::SecurityAdmin));

    // Two wrong passwords lock bob out; unlock ends it.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    store.authenticate("bob", "wrong", Server::monotonicMs());
    store.authenticate("bob", "wrong", Server::monotonicMs());
    model.refresh();
    QCOMPARE(changed.count(), 1);
    // Says until when: lockoutSeconds (300) from now, local time, to the second.
    const QDateTime expected = QDateTime::currentDateTime().addSecs(300);
    const QString until = model.index(1, UsersModel::LockedOut).data().toString();
    QVERIFY2(until.startsWith(QStringLiteral("until ")), qPrintable(until));
    const QTime shown = QTime::fromString(until.section(QLatin1Char(' '), -1), QStringLiteral("HH:mm:ss"));
    QVERIFY2(shown.isValid(), qPrintable(until));
    QVERIFY2(std::abs(shown.secsTo(expected.time())) <= 2, qPrintable(until));
    QVERIFY(model.index(1, UsersModel::LockedOut).data(Qt::ToolTipRole).toString().contains(QStringLiteral("UTC")));
    QCOMPARE(model.index(1, UsersModel::LockedOut).data(SortRole).toBool(), true);
    model.refresh();  // the same text: no change
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.index(1, UsersModel::LockedOut).data().toString(), until);
    QVERIFY(model.unlock(1));
    QCOMPARE(model.index(1, UsersModel::LockedOut).data(SortRole).toBool(), false);

    QVERIFY(model.removeUser(0));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(column(model, UsersModel::Name), QStringList{"bob"});
    QVERIFY(!model.removeUser(5));
    QVERIFY(reread.load(file));
    QCOMPARE(reread.snapshot()->users.size(), 1u);
    // Anonymous and AuthenticatedUser come from how a Session logs in: not assignable.
    QCOMPARE(UsersModel::assignableRoles(), (std::vector<Role>{Role::Observer, Role::Operator, Role::Engineer, Role::Supervisor,
                                                               Role::ConfigureAdmin, Role::SecurityAdmin}));
    QVERIFY(!model.setRoles(0, roleBit(Role::Observer) | roleBit(Role::AuthenticatedUser)));
    QVERIFY(model.lastError().contains(QStringLiteral("AuthenticatedUser")));
    QVERIFY(!model.addUser("eve", "pw", roleBit(Role::Anonymous)));
    QVERIFY(!store.snapshot()->find("eve"));
    QCOMPARE(store.snapshot()->find("bob")->roles, roleBit(Role::Observer) | roleBit(Role::Engineer));

    // A failing save reports it and keeps the change published.
    model.setSaveFunction([](const UserStore&, QString* error) {
        *error = QStringLiteral("disk full");
        return false;
    });
    QVERIFY(!model.addUser("carol", "pw", kNoRoles));
    QCOMPARE(model.lastError(), QStringLiteral("disk full"));
    QVERIFY(store.snapshot()->find("carol"));
}

static Certificate makeClientCertificate(const std::string& name) {
    CertificateRequest request;
    request.applicationUri = "urn:test:" + name;
    request.applicationName = name;
    request.hostNames = {"localhost"};
    return createSelfSignedCertificate(request, PrivateKey::generateRsa(2048));
}

void TestAdminModels::certificates() {
    QTemporaryDir dir;
    CertificateStore store(dir.filePath("pki").toStdString());
    CertificateRequest own;
    own.applicationUri = "urn:ua-workbench:test-server";
    own.applicationName = "Test Server";
    own.hostNames = {"localhost"};
    QVERIFY(store.ensureOwnCertificate(own));

    CertificatesModel trusted(&store, CertificatesModel::List::Trusted);
    CertificatesModel rejected(&store, CertificatesModel::List::Rejected);
    trusted.link(rejected);
    QAbstractItemModelTester t1(&trusted, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&rejected, QAbstractItemModelTester::FailureReportingMode::QtTest);

    const CertificateDetails mine = trusted.ownCertificate();
    QVERIFY(mine.valid);
    QCOMPARE(mine.applicationUri, QStringLiteral("urn:ua-workbench:test-server"));
    QCOMPARE(mine.commonName, QStringLiteral("Test Server"));
    QVERIFY(mine.notBefore < QDateTime::currentDateTimeUtc() && QDateTime::currentDateTimeUtc() < mine.notAfter);
    QCOMPARE(mine.thumbprint.size(), 40);
    QCOMPARE(mine.keyBits, 2048);
    QCOMPARE(mine.keyKind, QStringLiteral("RSA 2048 bits"));
    QVERIFY(mine.hostNames.contains("localhost"));
    QVERIFY(!CertificatesModel(nullptr, CertificatesModel::List::Trusted).ownCertificate().valid);
    // An ECC certificate beside it (what an ECC endpoint makes), described by its curve.
    QVERIFY(!trusted.ownCertificate(KeyType::EccNistP256).valid);
    CertificateRequest ecc = own;
    ecc.keyType = KeyType::EccNistP256;
    QVERIFY(store.ensureOwnCertificate(ecc));
    const CertificateDetails p256 = trusted.ownCertificate(KeyType::EccNistP256);
    QVERIFY(p256.valid);
    QCOMPARE(p256.keyKind, QStringLiteral("ECC nistP256"));
    QVERIFY(p256.thumbprint != mine.thumbprint);
    QCOMPARE(trusted.ownCertificate().thumbprint, mine.thumbprint);

    // Two clients knock: validation rejects them as untrusted and copies them to rejected/.
    const Certificate a = makeClientCertificate("client-a"), b = makeClientCertificate("client-b");
    QCOMPARE(store.validate(a.der()), ua::status::BadCertificateUntrusted);
    QCOMPARE(store.validate(b.der()), ua::status::BadCertificateUntrusted);
    QCOMPARE(rejected.rowCount(), 0);  // until reloaded
    QSignalSpy inserted(&rejected, &QAbstractItemModel::rowsInserted);
    rejected.reload();
    QCOMPARE(rejected.rowCount(), 2);
    QCOMPARE(inserted.count(), 1);
    rejected.reload();  // nothing changed: no signal
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(trusted.rowCount(), 0);
    const QStringList names = column(rejected, CertificatesModel::Name);
    QVERIFY(names.contains("client-a") && names.contains("client-b"));
    const int rowA = rejected.rowOfKey(a.thumbprintHex());
    QVERIFY(rowA >= 0);
    QCOMPARE(rejected.index(rowA, CertificatesModel::ApplicationUri).data().toString(), QStringLiteral("urn:test:client-a"));
    QCOMPARE(rejected.index(rowA, CertificatesModel::Issuer).data().toString(), QStringLiteral("self-signed"));
    QCOMPARE(rejected.index(rowA, CertificatesModel::Thumbprint).data().toString(), QString::fromStdString(a.thumbprintHex()));
    QVERIFY(rejected.index(rowA, CertificatesModel::ValidTo).data(SortRole).toDateTime() > QDateTime::currentDateTimeUtc());
    QCOMPARE(rejected.details(rowA).commonName, QStringLiteral("client-a"));

    // Trust a: it moves to the trusted list (both models follow) and validates.
    QVERIFY(rejected.trust(rowA));
    QCOMPARE(column(trusted, CertificatesModel::Name), QStringList{"client-a"});
    QCOMPARE(column(rejected, CertificatesModel::Name), QStringList{"client-b"});
    QVERIFY(store.validate(a.der()).isGood());

    // Reject it again from the trusted list, then delete b.
    QVERIFY(trusted.reject(0));
    QCOMPARE(trusted.rowCount(), 0);
    QCOMPARE(rejected.rowCount(), 2);
    QCOMPARE(store.validate(a.der()), ua::status::BadCertificateUntrusted);
    QVERIFY(rejected.remove(rejected.rowOfKey(b.thumbprintHex())));
    QCOMPARE(column(rejected, CertificatesModel::Name), QStringList{"client-a"});
    QVERIFY(!rejected.trust(9));
}

void TestAdminModels::usersLiveLogin() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    QTemporaryDir dir;
    Server server(securedConfig(dir));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    UsersModel model(server.userStore());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPasswordIterations(1000);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.addUser("dora", "dora-pw", roleBit(Role::Operator)));

    {
        // On the None endpoint node-opcua encrypts the password with the UserTokenPolicy's policy.
        SessionsWatch watch(server);
        test::NodeSessions node;
        node.start(server.endpointUrl(), {{"user", "dora"}, {"password", "dora-pw"}, {"prefix", "dora-"}});
        const QJsonObject ready = node.waitReady();
        QVERIFY2(ready.value("ready").toBool(), qPrintable(ready.value("error").toString() + node.stderrTail()));
        QTRY_COMPARE(watch.cell(SessionsModel::User), QStringLiteral("dora"));  // the sessions page shows who
        QCOMPARE(watch.cell(SessionsModel::Name), QStringLiteral("dora-1"));
        QVERIFY(node.close());
        QTRY_COMPARE(watch.sessions.rowCount(), 0);
    }
    QVERIFY(model.removeUser(model.rowOfKey("dora")));
    QCOMPARE(model.rowCount(), 0);
    {
        test::NodeSessions node;
        node.start(server.endpointUrl(), {{"user", "dora"}, {"password", "dora-pw"}});
        const QJsonObject answer = node.waitReady();
        QVERIFY2(!answer.value("ready").toBool(), "a removed user logged in");
        QVERIFY2(answer.value("error").toString().contains("BadUserAccessDenied") ||
                     answer.value("error").toString().contains("UserAccessDenied"),
                 qPrintable(answer.value("error").toString().left(400)));
        QCOMPARE(node.waitExit(), 1);
    }
}

void TestAdminModels::certificatesLiveTrust() {
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    // The log page sees why the channel was refused (logged on the server's I/O thread).
    LogCapture capture;
    LogModel log;
    LogFilterModel logFilter;
    logFilter.setSourceModel(&log);
    QAbstractItemModelTester t3(&logFilter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    log.attach(&capture);
    QTemporaryDir dir;
    Server server(securedConfig(dir));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.certificateStore());
    CertificatesModel trusted(server.certificateStore(), CertificatesModel::List::Trusted);
    CertificatesModel rejected(server.certificateStore(), CertificatesModel::List::Rejected);
    trusted.link(rejected);
    QAbstractItemModelTester t1(&trusted, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&rejected, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(trusted.ownCertificate().applicationUri, server.applicationDescription().applicationUri.toQString());
    QCOMPARE(rejected.rowCount(), 0);
    const QJsonObject sign{{"mode", "Sign"}, {"policy", "Basic256Sha256"}, {"prefix", "signed-"}};
    {
        test::NodeSessions node;
        node.start(server.endpointUrl(), sign);
        QVERIFY(!node.waitReady().value("ready").toBool());  // its certificate is not trusted yet
        QCOMPARE(node.waitExit(), 1);
    }
    rejected.reload();
    QCOMPARE(rejected.rowCount(), 1);
    logFilter.setCategory("ua.server.channel");
    logFilter.setSearchText("certificateuntrusted");
    QTRY_VERIFY(logFilter.rowCount() >= 1);
    QVERIFY(log.categories().contains("ua.server.channel"));
    QVERIFY2(rejected.index(0, CertificatesModel::ApplicationUri).data().toString().startsWith("urn:"),
             qPrintable(rejected.index(0, CertificatesModel::ApplicationUri).data().toString()));
    QVERIFY(rejected.trust(0));
    QCOMPARE(rejected.rowCount(), 0);
    QCOMPARE(trusted.rowCount(), 1);
    {
        SessionsWatch watch(server);
        test::NodeSessions node;
        node.start(server.endpointUrl(), sign);
        const QJsonObject ready = node.waitReady();
        QVERIFY2(ready.value("ready").toBool(), qPrintable(ready.value("error").toString() + node.stderrTail()));
        QTRY_COMPARE(watch.cell(SessionsModel::Security), QStringLiteral("Sign Basic256Sha256"));
        QVERIFY(node.close());
    }
    // Deleted from the trusted list, it is gone from both.
    QVERIFY(trusted.remove(0));
    QCOMPARE(trusted.rowCount(), 0);
    QCOMPARE(rejected.rowCount(), 0);
}

UA_TEST_GUILESS_MAIN(TestAdminModels)
#include "tst_admin_models.moc"
