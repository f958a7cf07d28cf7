// ServerHistory (client-app/core/ServerHistory.h) under QAbstractItemModelTester: use() adds at the
// top or moves an entry there, the limit drops the oldest, remove(), persistence in an INI file
// (read back by a new instance), and passwords never stored.
#include "core/ServerHistory.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestServerHistory : public QObject {
    Q_OBJECT
private slots:
    void addMoveLimitRemove();
    void persistsWithoutPasswords();
    void sameTarget();

private:
    static ConnectionSettings server(int n, const QString& user = {}) {
        ConnectionSettings s;
        s.endpointUrl = QStringLiteral("opc.tcp://plc%1:4840").arg(n);
        if (!user.isEmpty()) {
            s.identityKind = UserIdentity::Kind::UserName;
            s.userName = user;
            s.password = QStringLiteral("secret-%1").arg(n);
        }
        return s;
    }
    static QStringList urls(const ServerHistory& h) {
        QStringList l;
        for (int r = 0; r < h.rowCount(); ++r) l << h.index(r).data(ServerHistory::UrlRole).toString();
        return l;
    }
};

void TestServerHistory::addMoveLimitRemove() {
    QTemporaryDir dir;
    ServerHistory h(dir.filePath(QStringLiteral("history.ini")), 3);
    QAbstractItemModelTester tester(&h, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(h.rowCount(), 0);
    QSignalSpy moved(&h, &QAbstractItemModel::rowsMoved);
    QSignalSpy removed(&h, &QAbstractItemModel::rowsRemoved);
    h.use(server(1));
    h.use(server(2));
    h.use(server(3));
    QCOMPARE(urls(h), (QStringList{"opc.tcp://plc3:4840", "opc.tcp://plc2:4840", "opc.tcp://plc1:4840"}));
    h.use(server(1));  // used again: to the top, not twice
    QCOMPARE(urls(h), (QStringList{"opc.tcp://plc1:4840", "opc.tcp://plc3:4840", "opc.tcp://plc2:4840"}));
    QCOMPARE(moved.size(), 1);
    h.use(server(4));  // past the limit: the oldest goes
    QCOMPARE(urls(h), (QStringList{"opc.tcp://plc4:4840", "opc.tcp://plc1:4840", "opc.tcp://plc3:4840"}));
    QCOMPARE(removed.size(), 1);
    h.use(server(4));  // already on top: stays, no move
    QCOMPARE(moved.size(), 1);
    QCOMPARE(h.rowCount(), 3);
    // The same URL with another user is another entry.
    h.use(server(3, QStringLiteral("alice")));
    QCOMPARE(h.rowCount(), 3);
    QCOMPARE(h.index(0).data().toString(), QStringLiteral("opc.tcp://plc3:4840, best policy, best mode, alice"));
    QCOMPARE(h.index(0).data(Qt::ToolTipRole).toString(), QStringLiteral("opc.tcp://plc3:4840"));
    const auto settings = h.index(0).data(ServerHistory::SettingsRole).value<ConnectionSettings>();
    QCOMPARE(settings.userName, QStringLiteral("alice"));
    QVERIFY(settings.password.isEmpty());
    h.remove(1);
    QCOMPARE(urls(h), (QStringList{"opc.tcp://plc3:4840", "opc.tcp://plc1:4840"}));
    h.remove(5);   // out of range: nothing
    h.remove(-1);
    QCOMPARE(h.rowCount(), 2);
    QVERIFY(!h.index(5).data().isValid());
}

void TestServerHistory::persistsWithoutPasswords() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("history.ini"));
    {
        ServerHistory h(file, 5);
        ConnectionSettings s = server(1, QStringLiteral("bob"));
        s.displayName = QStringLiteral("Line 1");
        s.securityPolicyUri = QStringLiteral("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256");
        s.securityMode = MessageSecurityMode::SignAndEncrypt;
        h.use(s);
        h.use(server(2));
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("plc1"));
    QVERIFY(!text.contains("secret"));  // never the password

    ServerHistory again(file, 5);
    QAbstractItemModelTester tester(&again, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(urls(again), (QStringList{"opc.tcp://plc2:4840", "opc.tcp://plc1:4840"}));
    const ConnectionSettings& e = again.entries()[1];
    QCOMPARE(e.displayName, QStringLiteral("Line 1"));
    QCOMPARE(e.securityMode, MessageSecurityMode::SignAndEncrypt);
    QCOMPARE(e.identityKind, UserIdentity::Kind::UserName);
    QCOMPARE(e.userName, QStringLiteral("bob"));
    QVERIFY(e.password.isEmpty());
    QCOMPARE(again.index(1).data().toString(), QStringLiteral("Line 1 (opc.tcp://plc1:4840), Basic256Sha256, SignAndEncrypt, bob"));

    // A smaller limit keeps the most recent ones.
    ServerHistory small(file, 1);
    QCOMPARE(urls(small), (QStringList{"opc.tcp://plc2:4840"}));
}

void TestServerHistory::sameTarget() {
    ConnectionSettings a = server(1, QStringLiteral("alice"));
    ConnectionSettings b = a;
    b.password = QStringLiteral("other");
    b.displayName = QStringLiteral("Named later");
    QVERIFY(a.sameTarget(b));
    b.securityMode = MessageSecurityMode::Sign;
    QVERIFY(!a.sameTarget(b));
    b = a;
    b.userName = QStringLiteral("bob");
    QVERIFY(!a.sameTarget(b));
    // JSON round trip without the password.
    const ConnectionSettings c = ConnectionSettings::fromJson(a.toJson());
    QVERIFY(c.sameTarget(a));
    QVERIFY(c.password.isEmpty());
    QVERIFY(!a.toJson().contains(QStringLiteral("password")));
}

UA_TEST_GUILESS_MAIN(TestServerHistory)
#include "tst_server_history.moc"
