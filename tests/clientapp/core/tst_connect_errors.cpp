// Connect errors in sentences (client-app/core/ConnectErrors.h, issue 27 item 4): which URLs the
// Connect dialog refuses and why; the sentence beside each failure status; and, against our Server in
// process and a closed port, the statuses the stack really returns for what a user runs into (an
// untrusted client certificate: Bad_SecurityChecksFailed, named with our certificate's subject and
// thumbprint; nothing listening and an unknown host: both Bad_ConnectionRejected).
#include "core/ConnectErrors.h"
#include "core/Connection.h"
#include "ValueText.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include "MetaTypes.h"
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestConnectErrors : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void urlProblems_data();
    void urlProblems();
    void sentences();
    void cancelledIsNotAFailure();
    void untrustedClientCertificateIsNamed();
    void closedPortAndUnknownHost();

private:
    StatusCode connectAndWait(Connection& c, const ConnectionSettings& s);
    QTemporaryDir m_dir;
};

void TestConnectErrors::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
    QVERIFY(m_dir.isValid());
}

StatusCode TestConnectErrors::connectAndWait(Connection& c, const ConnectionSettings& s) {
    QSignalSpy finished(&c, &Connection::connectFinished);
    c.connectTo(s);
    if (!finished.wait(20000)) return status::BadTimeout;
    return finished.at(0).at(0).value<StatusCode>();
}

void TestConnectErrors::urlProblems_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("problem");  // a part of the text; empty: accepted
    QTest::newRow("no scheme") << QStringLiteral("localhost:24840") << QStringLiteral("starts with opc.tcp://, e.g. opc.tcp://localhost:24840");
    QTest::newRow("host only") << QStringLiteral("plc7") << QStringLiteral("opc.tcp://plc7");
    QTest::newRow("empty") << QStringLiteral("  ") << QStringLiteral("Type the server's endpoint URL");
    QTest::newRow("http") << QStringLiteral("http://localhost:4840") << QStringLiteral("http:// is not supported");
    QTest::newRow("no host") << QStringLiteral("opc.tcp://:4840") << QStringLiteral("no host");
    QTest::newRow("port too big") << QStringLiteral("opc.tcp://localhost:70000") << QStringLiteral("1 to 65535");
    QTest::newRow("good") << QStringLiteral("opc.tcp://localhost:24840") << QString();
    QTest::newRow("good, no port") << QStringLiteral("opc.tcp://plc7") << QString();
    QTest::newRow("good, path and case") << QStringLiteral(" OPC.TCP://[::1]:4840/ua/server ") << QString();
}

void TestConnectErrors::urlProblems() {
    QFETCH(QString, url);
    QFETCH(QString, problem);
    const QString got = endpointUrlProblem(url);
    if (problem.isEmpty()) {
        QCOMPARE(got, QString());
        QVERIFY(EndpointUrl::parse(url).has_value());
    } else {
        QVERIFY2(got.contains(problem), qPrintable(got));
        QVERIFY(!EndpointUrl::parse(url).has_value());  // what the stack would refuse later
    }
}

void TestConnectErrors::sentences() {
    ConnectFailureContext c;
    c.endpointUrl = QStringLiteral("opc.tcp://plc7:24840");
    QCOMPARE(connectFailureSentence(StatusCode(), c), QString());
    // Every status a connect ends with has a sentence, and none is just the status's name.
    for (StatusCode s : {status::BadTcpEndpointUrlInvalid, status::BadConnectionRejected, status::BadTimeout,
                         status::BadConnectionClosed, status::BadSecurityChecksFailed, status::BadCertificateUntrusted,
                         status::BadCertificateHostNameInvalid, status::BadCertificateUriInvalid, status::BadCertificateTimeInvalid,
                         status::BadSecurityPolicyRejected, status::BadUserAccessDenied, status::BadIdentityTokenRejected,
                         status::BadIdentityTokenInvalid, status::BadConfigurationError, status::BadTcpServerTooBusy,
                         status::BadTooManySessions, status::BadServerHalted}) {
        const QString sentence = connectFailureSentence(s, c);
        QVERIFY2(sentence.size() > 20, qPrintable(ua::app::statusName(s)));
        QVERIFY(!sentence.contains(ua::app::statusName(s)));
        QCOMPARE(connectFailureText(s, c), QStringLiteral("Connect failed: %1: %2").arg(ua::app::statusName(s), sentence));
    }
    // An unknown host and a closed port share Bad_ConnectionRejected; a host lookup tells them apart.
    QVERIFY(connectFailureSentence(status::BadConnectionRejected, c).contains(QStringLiteral("plc7:24840")));
    c.hostResolved = false;
    QVERIFY(connectFailureSentence(status::BadConnectionRejected, c).contains(QStringLiteral("host name plc7 is unknown")));
    c.hostResolved = true;
    QVERIFY(connectFailureSentence(status::BadConnectionRejected, c).contains(QStringLiteral("no server listens")));
    // Without our certificate at hand the sentence still says where it is.
    QVERIFY(connectFailureSentence(status::BadSecurityChecksFailed, c).contains(QStringLiteral("probably not trusted this client's certificate")));
    QVERIFY(connectFailureSentence(status::BadSecurityChecksFailed, c).contains(QStringLiteral("pki/own")));
    // Info bits do not change the meaning.
    QCOMPARE(connectFailureSentence(StatusCode(status::BadTimeout.code | 0x400u), c), connectFailureSentence(status::BadTimeout, c));
    // A status without a sentence of its own: the specification's description.
    QCOMPARE(connectFailureSentence(status::BadNodeIdUnknown, c), QString::fromUtf8(StatusCode(status::BadNodeIdUnknown).description()));
    QCOMPARE(colonHex(QStringLiteral("0A1B2C")), QStringLiteral("0A:1B:2C"));
}

void TestConnectErrors::cancelledIsNotAFailure() {
    const QString text = connectFailureText(status::BadDisconnect, {});
    QCOMPARE(text, QStringLiteral("Connect cancelled."));
    QVERIFY(!text.contains(QStringLiteral("Bad_")));
}

// Our server with trustAllClients off refuses an unknown client certificate on a secure channel: the
// client sees Bad_SecurityChecksFailed, and the sentence names the certificate it sent.
void TestConnectErrors::untrustedClientCertificateIsNamed() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.listenAddress = QHostAddress::LocalHost;
    cfg.demoNamespace = false;
    cfg.benchmarkVariables = 1;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = false;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    const QString pki = m_dir.filePath(QStringLiteral("client-pki"));
    QVERIFY(ownCertificateIn(pki).isNull());  // none before the first secure connect
    Connection connection(pki);
    connection.setTrustPrompt([](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; });
    ConnectionSettings s;
    s.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(server.port());
    s.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    s.securityMode = MessageSecurityMode::SignAndEncrypt;
    const StatusCode result = connectAndWait(connection, s);
    QCOMPARE(result, StatusCode(status::BadSecurityChecksFailed));

    const Certificate own = ownCertificateIn(pki);
    QVERIFY(!own.isNull());
    ConnectFailureContext context;
    context.endpointUrl = s.endpointUrl;
    context.clientCertificate = own;
    const QString text = connectFailureText(result, context);
    QVERIFY2(text.startsWith(QStringLiteral("Connect failed: Bad_SecurityChecksFailed: ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("probably")), qPrintable(text));
    QVERIFY2(text.contains(QString::fromStdString(own.subjectName())), qPrintable(text));
    QVERIFY2(text.contains(colonHex(QString::fromStdString(own.thumbprintHex()))), qPrintable(text));
}

// What the stack returns when nothing listens, and for a host name that does not resolve: there is
// no "host unknown" status in OPC 10000-4, so both are Bad_ConnectionRejected (the window looks the
// host up to say which).
void TestConnectErrors::closedPortAndUnknownHost() {
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 closedPort = probe.serverPort();
    probe.close();
    Connection connection(m_dir.filePath(QStringLiteral("client-pki-2")));
    connection.setTimeouts(5000, 5000);
    ConnectionSettings s;
    s.endpointUrl = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(closedPort);
    QCOMPARE(connectAndWait(connection, s), StatusCode(status::BadConnectionRejected));

    s.endpointUrl = QStringLiteral("opc.tcp://no-such-host.invalid:4840");  // RFC 2606: never resolves
    const StatusCode unknown = connectAndWait(connection, s);
    if (unknown == StatusCode(status::BadTimeout)) QSKIP("the resolver did not answer within the connect timeout");
    QCOMPARE(unknown, StatusCode(status::BadConnectionRejected));
}

UA_TEST_MAIN(TestConnectErrors)
#include "tst_connect_errors.moc"
