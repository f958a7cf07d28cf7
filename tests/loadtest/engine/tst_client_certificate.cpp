// A secure step against a server that has not trusted the load tester's certificate (issue 27 item
// 13): our Server with trustAllClients off refuses it, the step fails with Bad_SecurityChecksFailed,
// and its error says that the server has probably not trusted the load tester's certificate yet,
// naming the certificate (subject, SHA-1 thumbprint, folder) the step used.
#include "engine/ClientCertificate.h"
#include "engine/LoadRunner.h"

#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::loadtest;

class TestClientCertificate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<StepResult>();
        qRegisterMetaType<TimelineSample>();
    }
    void refusedCertificateIsNamed();
    void otherErrorsAreLeftAlone();
};

void TestClientCertificate::refusedCertificateIsNamed() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.ioThreads = 1;
    cfg.benchmarkVariables = 10;
    cfg.security.pkiDir = dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = false;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    LoadParameters p;
    p.endpointUrl = server.endpointUrl();
    p.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    p.securityMode = MessageSecurityMode::SignAndEncrypt;
    p.pkiDir = dir.filePath(QStringLiteral("loadtest-pki"));
    p.durationS = 0.5;
    p.warmupS = 0;
    p.variableCount = 10;
    QVERIFY(ownCertificateIn(p.pkiDir).isNull());
    LoadRunner runner;
    QSignalSpy finished(&runner, &LoadRunner::finished);
    runner.start(p);
    QVERIFY(finished.wait(30000));
    const StepResult r = finished.at(0).at(0).value<StepResult>();
    qInfo("error: %s", qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("Bad_SecurityChecksFailed")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("probably not trusted the load tester's certificate")), qPrintable(r.error));
    const Certificate own = ownCertificateIn(p.pkiDir);  // created by the step's client
    QVERIFY(!own.isNull());
    QVERIFY2(r.error.contains(QString::fromStdString(own.subjectName())), qPrintable(r.error));
    QString thumbprint = QString::fromStdString(own.thumbprintHex());
    for (qsizetype i = thumbprint.size() - 2; i > 0; i -= 2) thumbprint.insert(i, QLatin1Char(':'));
    QVERIFY2(r.error.contains(thumbprint), qPrintable(r.error));
    QVERIFY(r.error.contains(p.pkiDir + QStringLiteral("/own/certs")));
}

void TestClientCertificate::otherErrorsAreLeftAlone() {
    const QString error = QStringLiteral("connect to opc.tcp://127.0.0.1:1: Bad_ConnectionRejected");
    QCOMPARE(withCertificateHint(error, QStringLiteral("/nowhere")), error);
    QVERIFY(withCertificateHint(QStringLiteral("session: Bad_SecurityChecksFailed"), QStringLiteral("/nowhere"))
                .endsWith(QStringLiteral("(in /nowhere/own/certs): trust it on the server, then run again")));
}

UA_TEST_MAIN(TestClientCertificate)
#include "tst_client_certificate.moc"
