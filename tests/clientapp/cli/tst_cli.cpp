// The command line (client-app/cli) as users run it: the built ua-client executable as a process
// against our server (in this process: demo namespace, users, secure endpoints) and against
// node-opcua's servers (node_server.js, node_sub_server.js). Each case checks the output and the
// documented exit code (0 ok, 1 operation failed, 2 usage, 3 connection failed, 4 user refused).
#include "ua/pki/CertificateStore.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"
#include "TestServerConfig.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"
#include <memory>

using namespace ua;

namespace {

const QString kDemo = QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.");

struct CliRun {
    int exitCode = -1;
    bool crashed = false;
    QString out, err;
    QString text() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out.left(3000), err.left(3000)); }
};

// A node-opcua server script of tests/interop running until destroyed (stdin closed).
struct NodeServer {
    QProcess process;
    QString url;
    bool start(const QString& script) {
        process.setWorkingDirectory(QStringLiteral(UA_INTEROP_DIR));
        process.start(QStringLiteral(UA_NODE_EXECUTABLE), {script, QStringLiteral("0")});
        return process.waitForStarted();
    }
    // Waits for "READY <port>".
    bool waitReady(int timeoutMs = 60000) {
        QElapsedTimer t;
        t.start();
        QByteArray out;
        static const QRegularExpression ready(QStringLiteral("READY (\\d+)"));
        while (t.elapsed() < timeoutMs && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
            const auto m = ready.match(QString::fromUtf8(out));
            if (m.hasMatch()) {
                url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m.captured(1));
                return true;
            }
        }
        qWarning("node server not ready: %s", process.readAllStandardError().right(2000).constData());
        return false;
    }
    ~NodeServer() {
        if (process.state() == QProcess::NotRunning) return;
        process.closeWriteChannel();
        if (!process.waitForFinished(5000)) process.kill();
        process.waitForFinished();
    }
};

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void usage();
    void exitCodesOfConnections();
    void discover();
    void browseOurServer();
    void readOurServer();
    void readOverReverseConnect();
    void writeThenReadOurServer_data();
    void writeThenReadOurServer();
    void writeErrors();
    void callOurServer();
    void addAndDeleteNodes();
    void exportNodeSetOfOurServer();
    void subscribeOurServer();
    void subscribeStopsOnSigterm();
    void subscribeReportsALostServer();
    void readSplitByMaxNodesPerRead();
    void readCustomStructures();
    void usersAndSecurity();
    void nodeServer();
    void nodeSubscription();

private:
    // Runs ua-client with args (and --pki of the test) and waits for it to end.
    CliRun run(QStringList args, int timeoutMs = 60000, const QProcessEnvironment& extraEnv = {});
    void startCli(QProcess& p, QStringList args, const QProcessEnvironment& extraEnv = {});

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    QString m_url;
    NodeServer m_node, m_nodeSub;
};

void TestCli::startCli(QProcess& p, QStringList args, const QProcessEnvironment& extraEnv) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    env.remove(QStringLiteral("UA_PASSWORD"));
    for (const QString& k : extraEnv.keys()) env.insert(k, extraEnv.value(k));
    p.setProcessEnvironment(env);
    if (!args.contains(QStringLiteral("--help")) && !args.contains(QStringLiteral("--version")))
        args << QStringLiteral("--pki") << m_dir.filePath(QStringLiteral("client-pki"));
    p.start(QStringLiteral(UA_CLIENT_EXECUTABLE), args);
}

CliRun TestCli::run(QStringList args, int timeoutMs, const QProcessEnvironment& extraEnv) {
    QProcess p;
    startCli(p, std::move(args), extraEnv);
    CliRun r;
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    QElapsedTimer t;
    t.start();
    // Our server lives on this thread: keep its event loop turning while the client runs.
    while (p.state() != QProcess::NotRunning && t.elapsed() < timeoutMs) QTest::qWait(20);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        r.err = QStringLiteral("(killed after %1 ms) ").arg(timeoutMs);
    }
    p.waitForFinished();
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err += QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo(QStringLiteral(UA_NODE_EXECUTABLE)).isExecutable(), "no Node.js: run ./test.sh");
    // node-opcua's servers start meanwhile (a few seconds each).
    QVERIFY(m_node.start(QStringLiteral("node_server.js")));
    QVERIFY(m_nodeSub.start(QStringLiteral("node_sub_server.js")));

    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 2;
    cfg.demoUpdateRateMs = 100;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("server-pki"));
    cfg.security.trustAllClients = true;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the demo variables are writable
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator), 1000);
    cfg.security.users.setUser("carol", "carol-pw", roleBit(Role::ConfigureAdmin), 1000);
    cfg.nodeSetFiles = {QStringLiteral(UA_NODESET_DIR "/Opc.Ua.Di.NodeSet2.xml")};  // for export-nodeset
    // dave logs in with an X509 certificate (--cert/--key): a user record with its thumbprint.
    CertificateStore daveStore(m_dir.filePath(QStringLiteral("dave")).toStdString());
    CertificateRequest request;
    request.applicationUri = "urn:ua-workbench:test:user:dave";
    request.applicationName = "dave";
    std::string error;
    QVERIFY2(daveStore.ensureOwnCertificate(request, &error), error.c_str());
    const Certificate dave = daveStore.ownCertificate();
    QFile certFile(m_dir.filePath(QStringLiteral("dave.der")));
    QVERIFY(certFile.open(QIODevice::WriteOnly));
    certFile.write(QByteArray::fromStdString(dave.der()));
    certFile.close();
    QVERIFY(daveStore.ownPrivateKey().savePem(m_dir.filePath(QStringLiteral("dave.pem")).toStdString()));
    UserRecord daveRecord;
    daveRecord.name = "dave";
    daveRecord.roles = roleBit(Role::Operator);
    daveRecord.certificateThumbprint = dave.thumbprintHex();
    cfg.security.users.users.push_back(daveRecord);
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QVERIFY(m_server->userCertificateStore() && m_server->userCertificateStore()->addTrusted(dave));
    m_url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(m_server->port());

    QVERIFY(m_node.waitReady());
    QVERIFY(m_nodeSub.waitReady());
}

void TestCli::cleanupTestCase() { m_server.reset(); }

void TestCli::usage() {
    CliRun r = run({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("Usage: ua-client <command>")) && r.out.contains(QStringLiteral("Exit codes")), qPrintable(r.text()));
    r = run({QStringLiteral("--version")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith(QStringLiteral("ua-client ")), qPrintable(r.text()));

    struct Case {
        QStringList args;
        const char* message;
    };
    const QString closed = QStringLiteral("opc.tcp://127.0.0.1:1");  // never contacted: usage errors come first
    const QList<Case> cases = {
        {{QStringLiteral("raed"), m_url, QStringLiteral("i=85")}, "unknown command \"raed\""},
        {{QStringLiteral("read")}, "the server URL is missing"},
        {{QStringLiteral("read"), closed}, "usage: ua-client read <url> <node>..."},
        {{QStringLiteral("write"), closed, QStringLiteral("i=85")}, "usage: ua-client write <url> <node> <value>"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--bogus")}, "unknown option --bogus"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--type"), QStringLiteral("Int32")}, "--type is an option of write, add-node only"},
        {{QStringLiteral("read"), closed, QStringLiteral("Objects")}, "\"Objects\" is not a NodeId"},
        {{QStringLiteral("read"), closed, QStringLiteral("ns=x;i=1")}, "is not a NodeId"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--attribute"), QStringLiteral("Colour")}, "unknown attribute"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--security"), QStringLiteral("max")}, "expected none, sign or signandencrypt"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--policy"), QStringLiteral("Rot13")}, "unknown SecurityPolicy"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--user"), QStringLiteral("alice")}, "--user needs --password"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--timeout"), QStringLiteral("0")}, "expected a positive number"},
        {{QStringLiteral("write"), closed, QStringLiteral("i=85"), QStringLiteral("x"), QStringLiteral("--type"), QStringLiteral("Int32")}, "\"x\" is not a Int32"},
        {{QStringLiteral("write"), closed, QStringLiteral("i=85"), QStringLiteral("1"), QStringLiteral("--type"), QStringLiteral("Int33")}, "not a built-in type"},
        {{QStringLiteral("subscribe"), closed, QStringLiteral("i=85"), QStringLiteral("--count"), QStringLiteral("-1")}, "expected a positive number"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--reverse-listen"), QStringLiteral("70000")}, "expected a TCP port"},
        {{QStringLiteral("read"), closed, QStringLiteral("i=85"), QStringLiteral("--server-uri"), QStringLiteral("urn:x")}, "--server-uri goes with --reverse-listen"},
        {{QStringLiteral("discover"), closed, QStringLiteral("--reverse-listen"), QStringLiteral("4841")}, "--reverse-listen is not an option of discover"},
    };
    for (const Case& c : cases) {
        r = run(c.args);
        QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(' ') + "\n" + r.text()));
        QVERIFY2(r.err.contains(QLatin1String(c.message)), qPrintable(c.args.join(' ') + "\n" + r.text()));
    }
}

void TestCli::exitCodesOfConnections() {
    QTcpServer probe;  // a port nobody listens on
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    CliRun r = run({QStringLiteral("read"), QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port), QStringLiteral("i=2259")});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));
    QVERIFY2(r.err.contains(QStringLiteral("cannot connect to opc.tcp://127.0.0.1:%1: Bad_").arg(port)), qPrintable(r.text()));
    r = run({QStringLiteral("read"), QStringLiteral("http://127.0.0.1:%1").arg(port), QStringLiteral("i=2259")});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));
    QVERIFY2(r.err.contains(QStringLiteral("Bad_TcpEndpointUrlInvalid")), qPrintable(r.text()));
}

void TestCli::discover() {
    // Our server: every endpoint (None and the secure ones) with its user tokens; no Session needed.
    CliRun r = run({QStringLiteral("discover"), m_url});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QVERIFY2(r.out.startsWith(QStringLiteral("Server  UA Workbench Server  ")), qPrintable(r.text()));
    QVERIFY2(r.out.contains(QStringLiteral("Endpoint  opc.tcp://127.0.0.1:%1  None  None  level ").arg(m_server->port())), qPrintable(r.text()));
    QVERIFY2(r.out.contains(QStringLiteral("  Aes256_Sha256_RsaPss  SignAndEncrypt  level ")), qPrintable(r.text()));
    r = run({QStringLiteral("discover"), m_url, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray endpoints = o.value(QStringLiteral("endpoints")).toArray();
    QCOMPARE(endpoints.size(), 7);
    QStringList tokens;
    for (const QJsonValue& t : endpoints[0].toObject().value(QStringLiteral("userTokens")).toArray())
        tokens << t.toObject().value(QStringLiteral("tokenType")).toString();
    QCOMPARE(tokens, QStringList({QStringLiteral("Anonymous"), QStringLiteral("UserName"), QStringLiteral("Certificate")}));
    // node-opcua's server.
    r = run({QStringLiteral("discover"), m_node.url, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject n = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(n.value(QStringLiteral("servers")).toArray().at(0).toObject().value(QStringLiteral("applicationUri")).toString(),
             QStringLiteral("urn:ua-workbench:node-opcua-test-server"));
    QCOMPARE(n.value(QStringLiteral("endpoints")).toArray().at(0).toObject().value(QStringLiteral("securityPolicy")).toString(), QStringLiteral("None"));
    // A closed port: connection failure.
    r = run({QStringLiteral("discover"), QStringLiteral("opc.tcp://127.0.0.1:1")});
    QVERIFY2(r.exitCode == 3 && r.err.contains(QStringLiteral("cannot discover opc.tcp://127.0.0.1:1: Bad_")), qPrintable(r.text()));
}

void TestCli::browseOurServer() {
    // The default node is Objects.
    CliRun r = run({QStringLiteral("browse"), m_url, QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QVERIFY2(QRegularExpression(QStringLiteral("(?m)^Server +Object +i=2253 +Organizes$")).match(r.out).hasMatch(), qPrintable(r.text()));
    QVERIFY2(QRegularExpression(QStringLiteral("(?m)^Demo +Object +ns=\\d+;s=Demo +Organizes$")).match(r.out).hasMatch(), qPrintable(r.text()));
    // nsu= form, JSON output.
    r = run({QStringLiteral("browse"), m_url, kDemo + QStringLiteral("Scalars"), QStringLiteral("--json"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    bool found = false;
    for (const QJsonValue& v : o.value(QStringLiteral("references")).toArray()) {
        const QJsonObject ref = v.toObject();
        if (ref.value(QStringLiteral("displayName")).toString() != QLatin1String("Int32")) continue;
        found = true;
        QCOMPARE(ref.value(QStringLiteral("nodeClass")).toString(), QStringLiteral("Variable"));
        QVERIFY(ref.value(QStringLiteral("nodeId")).toString().endsWith(QStringLiteral(";s=Demo.Scalars.Int32")));
        QCOMPARE(ref.value(QStringLiteral("referenceType")).toString(), QStringLiteral("HasComponent"));
    }
    QVERIFY2(found, qPrintable(r.text()));
    // A browse path.
    r = run({QStringLiteral("browse"), m_url, QStringLiteral("/Objects/Server/ServerStatus"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("CurrentTime")), qPrintable(r.text()));
    // Unknown node: Bad_NodeIdUnknown, exit 1.
    r = run({QStringLiteral("browse"), m_url, kDemo + QStringLiteral("Nope"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_NodeIdUnknown")), qPrintable(r.text()));
}

// Structures of DataTypes the server imported (issue 29 item 3): printed field by field after their
// DataTypeDefinitions are read; --json gives the fields by path.
void TestCli::readCustomStructures() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.nodeSetFiles = {QStringLiteral(UA_INTEROP_DIR "/data/custom-types.NodeSet2.xml")};
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const QString ns = QStringLiteral("nsu=urn:ua-workbench:test:custom-types;i=");
    CliRun r = run({QStringLiteral("read"), server.endpointUrl(), ns + QStringLiteral("5003"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, QStringLiteral("Title = Bread\n"
                                   "Steps[0].Name = Knead\nSteps[0].Value = 10\nSteps[0].Mode = Manual (1)\nSteps[0].Limits = null\n"
                                   "Steps[1].Name = Bake\nSteps[1].Value = 220\nSteps[1].Mode = Auto (5)\nSteps[1].Limits[0] = 200\n"
                                   "Batch = 42\n"));
    r = run({QStringLiteral("read"), server.endpointUrl(), ns + QStringLiteral("5004"), ns + QStringLiteral("5001"), QStringLiteral("--security"),
             QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, ns + QStringLiteral("5004  Measurement\n  Level = 0.75\n") + ns + QStringLiteral("5001  5\n"));
    r = run({QStringLiteral("read"), server.endpointUrl(), ns + QStringLiteral("5002"), QStringLiteral("--json"), QStringLiteral("--security"),
             QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject setpoint = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("results")).toArray()[0].toObject();
    QCOMPARE(setpoint.value(QStringLiteral("dataType")).toString(), QStringLiteral("Setpoint"));
    const QJsonObject fields = setpoint.value(QStringLiteral("fields")).toObject();
    QCOMPARE(fields.value(QStringLiteral("Name")).toString(), QStringLiteral("Oven"));
    QCOMPARE(fields.value(QStringLiteral("Limits[1]")).toString(), QStringLiteral("250"));
    QCOMPARE(setpoint.value(QStringLiteral("text")).toString(),
             QStringLiteral("{Name: Oven, Value: 180.5, Mode: Auto (5), Limits: [50, 250]}"));
}

void TestCli::readOverReverseConnect() {
    // A server that dials the port ua-client listens on (OPC 10000-6 7.1.3), retrying every 50-200 ms
    // until ua-client is there.
    const quint16 port = test::freeLocalPort();
    Server dialling(test::reverseDialingServerConfig(port));
    QVERIFY2(dialling.start(), qPrintable(dialling.errorString()));
    const QString portText = QString::number(port);
    CliRun r = run({QStringLiteral("read"), dialling.endpointUrl(), QStringLiteral("i=2259"), QStringLiteral("i=2254"), QStringLiteral("--security"),
                    QStringLiteral("none"), QStringLiteral("--reverse-listen"), portText, QStringLiteral("--server-uri"), dialling.applicationUri()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QVERIFY2(r.out.startsWith(QStringLiteral("i=2259  0")) && r.out.contains(dialling.applicationUri()), qPrintable(r.text()));
    QVERIFY(dialling.reverseConnectStates()[0].used >= 1);
    // Another ServerUri than the server's: its ReverseHello is refused, and the connect times out.
    r = run({QStringLiteral("read"), dialling.endpointUrl(), QStringLiteral("i=2259"), QStringLiteral("--security"), QStringLiteral("none"),
             QStringLiteral("--reverse-listen"), portText, QStringLiteral("--server-uri"), QStringLiteral("urn:someone-else"),
             QStringLiteral("--timeout"), QStringLiteral("1500")});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));
    QVERIFY2(r.err.contains(QStringLiteral("Bad_Timeout")), qPrintable(r.text()));
    dialling.stop();
}

void TestCli::readOurServer() {
    // A browse path, an attribute by name, and several nodes.
    CliRun r = run({QStringLiteral("read"), m_url, QStringLiteral("/Objects/Server/ServerStatus/State"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out == QStringLiteral("0\n"), qPrintable(r.text()));  // Running
    r = run({QStringLiteral("read"), m_url, QStringLiteral("/Objects/2:Demo/2:Matrix"), QStringLiteral("--attribute"), QStringLiteral("DataType"),
             QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out == QStringLiteral("i=6 (Int32)\n"), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, QStringLiteral("i=2253"), QStringLiteral("--attribute"), QStringLiteral("DisplayName"),
             QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out.trimmed().endsWith(QStringLiteral("Server")), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, QStringLiteral("i=2253"), QStringLiteral("--attribute"), QStringLiteral("NodeClass"),
             QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out == QStringLiteral("Object\n"), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, kDemo + QStringLiteral("Matrix"), kDemo + QStringLiteral("Scalars.Boolean"), QStringLiteral("--json"),
             QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonArray results = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 2);
    const QJsonObject matrix = results[0].toObject();
    QCOMPARE(matrix.value(QStringLiteral("type")).toString(), QStringLiteral("Int32"));
    QCOMPARE(matrix.value(QStringLiteral("status")).toString(), QStringLiteral("Good"));
    QCOMPARE(matrix.value(QStringLiteral("value")).toArray().size(), 2);  // [[.,.,.], [.,.,.]]
    QVERIFY(!matrix.value(QStringLiteral("sourceTimestamp")).toString().isEmpty());
    QCOMPARE(results[1].toObject().value(QStringLiteral("type")).toString(), QStringLiteral("Boolean"));
    // One unknown node among good ones: the good ones are printed, the bad one on stderr, exit 1.
    r = run({QStringLiteral("read"), m_url, QStringLiteral("i=2259"), kDemo + QStringLiteral("Nope"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1, qPrintable(r.text()));
    QVERIFY2(r.out.startsWith(QStringLiteral("i=2259  0")), qPrintable(r.text()));
    QVERIFY2(r.err.contains(kDemo + QStringLiteral("Nope: Bad_NodeIdUnknown")), qPrintable(r.text()));
    // An unknown namespace URI, a path that matches nothing.
    r = run({QStringLiteral("read"), m_url, QStringLiteral("nsu=urn:nobody;i=1"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("the server has no namespace urn:nobody: Bad_NodeIdUnknown")), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, QStringLiteral("/Objects/Nothing"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("/Objects/Nothing: Bad_NoMatch")), qPrintable(r.text()));
}

void TestCli::writeThenReadOurServer_data() {
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("readBack");
    QTest::newRow("Int32 negative") << "Scalars.Int32" << "-12345" << "-12345";
    QTest::newRow("Byte") << "Scalars.Byte" << "255" << "255";
    QTest::newRow("Double") << "Scalars.Double" << "2.5e-3" << "0.0025";
    QTest::newRow("Boolean") << "Scalars.Boolean" << "true" << "true";
    QTest::newRow("String") << "Scalars.String" << "hello, world" << "hello, world";
    QTest::newRow("DateTime") << "Scalars.DateTime" << "2026-11-30T10:00:00.123Z" << "2026-11-30T10:00:00.123Z";
    QTest::newRow("Guid") << "Scalars.Guid" << "{c496578a-0dfe-4b8f-870a-745238c6aeae}" << "C496578A-0DFE-4B8F-870A-745238C6AEAE";
    QTest::newRow("ByteString") << "Scalars.ByteString" << "0x00ff10" << "0x00ff10";
    QTest::newRow("NodeId") << "Scalars.NodeId" << "ns=1;s=x" << "ns=1;s=x";
    QTest::newRow("LocalizedText") << "Scalars.LocalizedText" << "de|Hallo" << "de:Hallo";
    QTest::newRow("Int32 array") << "Arrays.Int32" << "[1, -2, 3]" << "[1, -2, 3]";
    QTest::newRow("String array") << "Arrays.String" << "[\"a, b\", c]" << "[\"a, b\", \"c\"]";
    QTest::newRow("matrix") << "Matrix" << "[[6, 5, 4], [3, 2, 1]]" << "[[6, 5, 4], [3, 2, 1]]";
}

void TestCli::writeThenReadOurServer() {
    QFETCH(QString, node);
    QFETCH(QString, value);
    QFETCH(QString, readBack);
    CliRun r = run({QStringLiteral("write"), m_url, kDemo + node, value, QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0 && r.out.isEmpty(), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, kDemo + node, QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, readBack + QLatin1Char('\n'));
}

void TestCli::writeErrors() {
    const QStringList none = {QStringLiteral("--security"), QStringLiteral("none")};
    // The text does not fit the node's DataType: exit 2 with ValueText's message, nothing written.
    CliRun r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.Byte"), QStringLiteral("300")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("300 is out of range for Byte (0..255) (Bad_OutOfRange)")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.Int32"), QStringLiteral("abc")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("\"abc\" is not a Int32")) && r.err.contains(QStringLiteral("Bad_TypeMismatch")),
             qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Matrix"), QStringLiteral("[1, 2]")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("expected 2 dimension(s)")), qPrintable(r.text()));
    // --type overrides the DataType: the server refuses a value of the wrong type.
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.Int32"), QStringLiteral("1.5"),
                        QStringLiteral("--type"), QStringLiteral("Double")} + none);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_TypeMismatch")), qPrintable(r.text()));
    // BaseDataType takes any type: --type says which; a structure cannot be entered.
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.Variant"), QStringLiteral("5")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("values of DataType BaseDataType cannot be entered as text; give --type")),
             qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.Variant"), QStringLiteral("5"), QStringLiteral("--type"),
                        QStringLiteral("UInt16")} + none);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("read"), m_url, kDemo + QStringLiteral("Scalars.Variant"), QStringLiteral("--json")} + none);
    QVERIFY2(r.out.contains(QStringLiteral("\"type\":\"UInt16\"")) && r.out.contains(QStringLiteral("\"value\":5")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Scalars.ExtensionObject"), QStringLiteral("{}")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("cannot be entered as text")), qPrintable(r.text()));
    // Unknown node, a node that is not writable.
    r = run(QStringList{QStringLiteral("write"), m_url, kDemo + QStringLiteral("Nope"), QStringLiteral("1")} + none);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_NodeIdUnknown")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("write"), m_url, QStringLiteral("i=2259"), QStringLiteral("1")} + none);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_NotWritable")), qPrintable(r.text()));
}

// add-node and delete-node (NodeManagement): a ConfigureAdmin adds a folder and a variable below
// it, the variable is written and read, browse lists them, an Operator is refused, delete-node
// removes them.
void TestCli::addAndDeleteNodes() {
    const QStringList carol = {QStringLiteral("--user"), QStringLiteral("carol"), QStringLiteral("--password"), QStringLiteral("carol-pw"),
                               QStringLiteral("--trust")};
    CliRun r = run(QStringList{QStringLiteral("add-node"), m_url, QStringLiteral("i=85"), QStringLiteral("Line7")} + carol);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QString folder = r.out.trimmed();
    QVERIFY2(folder.startsWith(QStringLiteral("ns=1;i=")), qPrintable(folder));
    r = run(QStringList{QStringLiteral("add-node"), m_url, folder, QStringLiteral("Speed"), QStringLiteral("--class"), QStringLiteral("variable"),
                        QStringLiteral("--type"), QStringLiteral("Float"), QStringLiteral("--json")} + carol);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QString variable = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("nodeId")).toString();
    QVERIFY2(!variable.isEmpty(), qPrintable(r.out));
    r = run(QStringList{QStringLiteral("write"), m_url, variable, QStringLiteral("2.5")} + carol);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("read"), m_url, variable, QStringLiteral("--json")} + carol);
    QVERIFY2(r.out.contains(QStringLiteral("\"type\":\"Float\"")) && r.out.contains(QStringLiteral("\"value\":2.5")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("browse"), m_url, folder} + carol);
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("Speed")), qPrintable(r.text()));
    // The same name again below the same folder, an unknown parent, an Operator.
    r = run(QStringList{QStringLiteral("add-node"), m_url, folder, QStringLiteral("Speed"), QStringLiteral("--class"), QStringLiteral("variable")} + carol);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_BrowseNameDuplicated")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("add-node"), m_url, QStringLiteral("ns=1;s=Nowhere"), QStringLiteral("X")} + carol);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_ParentNodeIdInvalid")), qPrintable(r.text()));
    r = run({QStringLiteral("add-node"), m_url, folder, QStringLiteral("Mine"), QStringLiteral("--user"), QStringLiteral("alice"),
             QStringLiteral("--password"), QStringLiteral("alice-pw"), QStringLiteral("--trust")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_UserAccessDenied")), qPrintable(r.text()));
    r = run({QStringLiteral("add-node"), m_url, folder, QStringLiteral("X"), QStringLiteral("--class"), QStringLiteral("method")});
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("expected folder, object or variable")), qPrintable(r.text()));
    // Deleted: then unknown; a namespace 0 node is not the client's to delete.
    r = run(QStringList{QStringLiteral("delete-node"), m_url, variable} + carol);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("delete-node"), m_url, folder} + carol);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("read"), m_url, variable} + carol);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_NodeIdUnknown")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("delete-node"), m_url, QStringLiteral("i=85")} + carol);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_NoDeleteRights")), qPrintable(r.text()));
}

// export-nodeset: DI, which our server imported, read back through Browse and Read and written as
// NodeSet2: the file holds DI's 412 nodes and imports into a fresh address space, where every node
// has the NodeClass, BrowseName, DataType and DataTypeDefinition the server's has.
void TestCli::exportNodeSetOfOurServer() {
    const QString out = m_dir.filePath(QStringLiteral("di-from-client.xml"));
    CliRun r = run({QStringLiteral("export-nodeset"), m_url, QStringLiteral("http://opcfoundation.org/UA/DI/"), out,
                    QStringLiteral("--security"), QStringLiteral("none"), QStringLiteral("--json")}, 120000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), 412);
    QCOMPARE(o.value(QStringLiteral("valuesNotWritten")).toInt(), 0);
    QString error;
    auto doc = NodeSetDocument::load(out, &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->models.size(), std::size_t(1));
    AddressSpace fresh;
    Ns0NodeManager ns0;
    QVERIFY(ns0.install(fresh).isGood());
    std::vector<NodeSetDocument> docs;
    docs.push_back(std::move(*doc));
    const NodeSetImportResult imported = importNodeSets(fresh, docs);
    QVERIFY2(imported.ok(), qPrintable(imported.errors.empty() ? QString() : imported.errors.front().toString()));
    QCOMPARE(imported.nodes, std::size_t(412));
    const auto server = m_server->addressSpace().snapshot();
    const int serverNs = server->namespaceIndex("http://opcfoundation.org/UA/DI/"), freshNs = fresh.namespaceIndex("http://opcfoundation.org/UA/DI/");
    int compared = 0;
    for (const Node& n : server->nodes()) {
        if (n.nodeId.isNull() || n.nodeId.namespaceIndex() != serverNs) continue;
        NodeId id = n.nodeId;
        id.setNamespaceIndex(uint16_t(freshNs));
        const Node* m = fresh.find(id);
        QVERIFY2(m, n.nodeId.toString().c_str());
        QVERIFY2(m->nodeClass == n.nodeClass && m->browseName.name == n.browseName.name && m->displayName() == n.displayName(),
                 n.nodeId.toString().c_str());
        if (n.nodeClass == NodeClass::DataType) QVERIFY2(m->rare->dataTypeDefinition->isNull() == n.rare->dataTypeDefinition->isNull(), n.nodeId.toString().c_str());
        ++compared;
    }
    QCOMPARE(compared, 412);
    r = run({QStringLiteral("export-nodeset"), m_url, QStringLiteral("urn:nobody"), out, QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("urn:nobody")), qPrintable(r.text()));
}

void TestCli::callOurServer() {
    const QStringList none = {QStringLiteral("--security"), QStringLiteral("none")};
    CliRun r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Scale"),
                               QStringLiteral("[1, 2.5, -3]"), QStringLiteral("2")} + none);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, QStringLiteral("Scaled = [2, 5, -6]\nSum = 1\n"));
    r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Scale"),
                        QStringLiteral("[1]"), QStringLiteral("3"), QStringLiteral("--json")} + none);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("Good"));
    const QJsonArray outputs = o.value(QStringLiteral("outputs")).toArray();
    QCOMPARE(outputs.size(), 2);
    QCOMPARE(outputs[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Scaled"));
    QCOMPARE(outputs[0].toObject().value(QStringLiteral("value")).toArray().at(0).toDouble(), 3.0);
    QCOMPARE(outputs[1].toObject().value(QStringLiteral("value")).toDouble(), 3.0);
    // Wrong argument count and text: usage errors naming the arguments.
    r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Scale"),
                        QStringLiteral("[1]")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("takes 2 argument(s): Values (Double[]), Factor (Double), 1 given")), qPrintable(r.text()));
    r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Scale"),
                        QStringLiteral("[1]"), QStringLiteral("two")} + none);
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("argument 2 Factor (Double): \"two\" is not a Double")), qPrintable(r.text()));
    // The Method refuses an input: per-argument result and exit 1.
    r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Sleep"),
                        QStringLiteral("20000")} + none);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_OutOfRange")), qPrintable(r.text()));
    // Unknown Method.
    r = run(QStringList{QStringLiteral("call"), m_url, kDemo + QStringLiteral("Methods"), kDemo + QStringLiteral("Methods.Nope")} + none);
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("Bad_")), qPrintable(r.text()));
}

void TestCli::subscribeOurServer() {
    CliRun r = run({QStringLiteral("subscribe"), m_url, kDemo + QStringLiteral("Simulation.Ramp"), QStringLiteral("--count"), QStringLiteral("3"),
                    QStringLiteral("--interval"), QStringLiteral("100"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    static const QRegularExpression line(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z  nsu=urn:ua-workbench:demo;s=Demo.Simulation.Ramp  (\\S+)  Good$"));
    QStringList values;
    for (const QString& l : lines) {
        const auto m = line.match(l);
        QVERIFY2(m.hasMatch(), qPrintable(l));
        values << m.captured(1);
    }
    QVERIFY2(values.removeDuplicates() == 0, qPrintable(r.out));  // three different values: changes
    // --seconds ends it too; an unknown item is reported (exit 1) while the good one runs.
    QElapsedTimer t;
    t.start();
    r = run({QStringLiteral("subscribe"), m_url, kDemo + QStringLiteral("Simulation.Sine"), kDemo + QStringLiteral("Nope"), QStringLiteral("--seconds"),
             QStringLiteral("1.5"), QStringLiteral("--interval"), QStringLiteral("100"), QStringLiteral("--json"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(kDemo + QStringLiteral("Nope: Bad_NodeIdUnknown")), qPrintable(r.text()));
    QVERIFY2(t.elapsed() >= 1400 && t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
    const QStringList json = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(json.size() >= 3, qPrintable(r.text()));
    const QJsonObject first = QJsonDocument::fromJson(json[0].toUtf8()).object();
    QCOMPARE(first.value(QStringLiteral("type")).toString(), QStringLiteral("Double"));
    QVERIFY(first.value(QStringLiteral("value")).isDouble());
    QVERIFY(!first.value(QStringLiteral("time")).toString().isEmpty());
}

void TestCli::subscribeStopsOnSigterm() {
    QProcess p;
    startCli(p, {QStringLiteral("subscribe"), m_url, kDemo + QStringLiteral("Simulation.Sine"), QStringLiteral("--interval"), QStringLiteral("100"),
                 QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY(p.waitForStarted());
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (out.count('\n') < 2 && p.state() == QProcess::Running && t.elapsed() < 30000) {
        QTest::qWait(20);
        out += p.readAllStandardOutput();
    }
    QVERIFY2(out.count('\n') >= 2, out.constData());
    p.terminate();  // SIGTERM: DeleteSubscriptions, CloseSession, exit 0
    t.restart();
    while (p.state() != QProcess::NotRunning && t.elapsed() < 10000) QTest::qWait(20);
    QCOMPARE(p.state(), QProcess::NotRunning);
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
}

// A server that goes away under subscribe: the loss is said on stderr, --seconds still ends the run
// on time (no wait for the dead server), and the exit code is 1 (documented: a subscription lost).
void TestCli::subscribeReportsALostServer() {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.demoUpdateRateMs = 100;
    cfg.security.pkiDir = m_dir.filePath(QStringLiteral("lost-server-pki"));
    auto server = std::make_unique<Server>(cfg);
    QVERIFY2(server->start(), qPrintable(server->errorString()));
    const QString url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(server->port());
    QProcess p;
    startCli(p, {QStringLiteral("subscribe"), url, kDemo + QStringLiteral("Simulation.Sine"), QStringLiteral("--interval"), QStringLiteral("100"),
                 QStringLiteral("--seconds"), QStringLiteral("4"), QStringLiteral("--timeout"), QStringLiteral("3000"),
                 QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY(p.waitForStarted());
    QElapsedTimer t;
    t.start();
    QByteArray out;
    while (out.count('\n') < 2 && p.state() == QProcess::Running && t.elapsed() < 30000) {
        QTest::qWait(20);
        out += p.readAllStandardOutput();
    }
    QVERIFY2(out.count('\n') >= 2, out.constData());
    server.reset();  // gone, and it stays gone
    while (p.state() != QProcess::NotRunning && t.elapsed() < 30000) QTest::qWait(20);
    QCOMPARE(p.state(), QProcess::NotRunning);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(t.elapsed() < 4000 + 2500, qPrintable(QString::number(t.elapsed())));  // --seconds, plus at most the 1 s close
    QVERIFY2(err.contains(QStringLiteral("connection lost")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("not restored")), qPrintable(err));
    QCOMPARE(p.exitCode(), 1);
}

// More nodes than the server's MaxNodesPerRead (2500 by default): the whole Read is refused with
// Bad_TooManyOperations, so ua-client reads the limit and splits the request.
void TestCli::readSplitByMaxNodesPerRead() {
    CliRun limit = run({QStringLiteral("read"), m_url, QStringLiteral("i=11705"), QStringLiteral("--security"), QStringLiteral("none")});
    QVERIFY2(limit.exitCode == 0, qPrintable(limit.text()));
    const int max = limit.out.trimmed().toInt();
    QVERIFY2(max > 0 && max < 10000, qPrintable(limit.out));
    QStringList args{QStringLiteral("read"), m_url, QStringLiteral("--security"), QStringLiteral("none"), QStringLiteral("--json")};
    const int count = max + 10;
    for (int i = 0; i < count; ++i) args << (i % 2 ? QStringLiteral("i=2259") : QStringLiteral("i=2255"));
    CliRun r = run(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text().left(2000)));
    const QJsonArray results = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), count);
    QCOMPARE(results.last().toObject().value(QStringLiteral("nodeId")).toString(), QStringLiteral("i=2259"));
}

void TestCli::usersAndSecurity() {
    const QString node = kDemo + QStringLiteral("Scalars.Int32");
    // A secure endpoint with the server's certificate not trusted: refused with advice, exit 3.
    CliRun r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--security"), QStringLiteral("signandencrypt")});
    QVERIFY2(r.exitCode == 3, qPrintable(r.text()));
    QVERIFY2(r.err.contains(QStringLiteral("Bad_CertificateUntrusted")) && r.err.contains(QStringLiteral("--trust")), qPrintable(r.text()));
    // --trust accepts it for this run.
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--security"), QStringLiteral("signandencrypt"), QStringLiteral("--policy"),
             QStringLiteral("Aes256_Sha256_RsaPss"), QStringLiteral("--trust")});
    QVERIFY2(r.exitCode == 0 && !r.out.isEmpty(), qPrintable(r.text()));
    // A user: the wrong password is Bad_UserAccessDenied, exit 4; the right one (from UA_PASSWORD) works.
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--password"),
             QStringLiteral("wrong"), QStringLiteral("--trust")});
    QVERIFY2(r.exitCode == 4 && r.err.contains(QStringLiteral("Bad_UserAccessDenied")), qPrintable(r.text()));
    QProcessEnvironment env;
    env.insert(QStringLiteral("UA_PASSWORD"), QStringLiteral("alice-pw"));
    r = run({QStringLiteral("write"), m_url, node, QStringLiteral("77"), QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--trust"),
             QStringLiteral("--security"), QStringLiteral("sign")}, 60000, env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--security"), QStringLiteral("none")});
    QCOMPARE(r.out, QStringLiteral("77\n"));
    // An X509 user (--cert DER, --key PEM); a key file that is not a key is a usage error.
    r = run({QStringLiteral("write"), m_url, node, QStringLiteral("78"), QStringLiteral("--cert"), m_dir.filePath(QStringLiteral("dave.der")),
             QStringLiteral("--key"), m_dir.filePath(QStringLiteral("dave.pem")), QStringLiteral("--trust")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--security"), QStringLiteral("none")});
    QCOMPARE(r.out, QStringLiteral("78\n"));
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--cert"), m_dir.filePath(QStringLiteral("dave.der")),
             QStringLiteral("--key"), m_dir.filePath(QStringLiteral("dave.der"))});
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("cannot read the private key")), qPrintable(r.text()));
    r = run({QStringLiteral("read"), m_url, node, QStringLiteral("--cert"), m_dir.filePath(QStringLiteral("dave.der"))});
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("--cert and --key go together")), qPrintable(r.text()));
}

void TestCli::nodeServer() {
    const QString url = m_node.url;
    CliRun r = run({QStringLiteral("browse"), url, QStringLiteral("ns=1;s=Bench")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QVERIFY2(QRegularExpression(QStringLiteral("(?m)^Int32_1000 +Variable +ns=1;i=1000 +HasComponent$")).match(r.out).hasMatch(), qPrintable(r.text()));
    r = run({QStringLiteral("read"), url, QStringLiteral("ns=1;i=1000"), QStringLiteral("ns=1;s=Double")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, QStringLiteral("ns=1;i=1000  1000\nns=1;s=Double  3.25\n"));
    // write then read back: the type comes from the node's DataType (Int32), an array too.
    r = run({QStringLiteral("write"), url, QStringLiteral("ns=1;i=1001"), QStringLiteral("-77")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run({QStringLiteral("read"), url, QStringLiteral("ns=1;i=1001")});
    QCOMPARE(r.out, QStringLiteral("-77\n"));
    r = run({QStringLiteral("write"), url, QStringLiteral("ns=1;s=Int32Array"), QStringLiteral("[7, 8]")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    r = run({QStringLiteral("read"), url, QStringLiteral("ns=1;s=Int32Array")});
    QCOMPARE(r.out, QStringLiteral("[7, 8]\n"));
    r = run({QStringLiteral("write"), url, QStringLiteral("ns=1;i=1002"), QStringLiteral("2147483648")});
    QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("out of range for Int32")), qPrintable(r.text()));
    // call with its outputs.
    r = run({QStringLiteral("call"), url, QStringLiteral("ns=1;s=Calculator"), QStringLiteral("ns=1;s=Calculator.Multiply"),
             QStringLiteral("[1, 2, 3]"), QStringLiteral("3")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    QCOMPARE(r.out, QStringLiteral("Products = [3, 6, 9]\n"));
    // A structure in JSON: an object with the fields of ServerStatusDataType, enumerations by name.
    r = run({QStringLiteral("read"), url, QStringLiteral("i=2256"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QJsonObject status = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("results")).toArray().at(0)
                                   .toObject().value(QStringLiteral("value")).toObject();
    QCOMPARE(status.value(QStringLiteral("State")).toString(), QStringLiteral("Running"));
    QCOMPARE(status.value(QStringLiteral("BuildInfo")).toObject().value(QStringLiteral("ProductName")).toString(), QStringLiteral("NodeOPCUA-Server"));
    QVERIFY(status.value(QStringLiteral("SecondsTillShutdown")).isDouble());
    // Unknown node.
    r = run({QStringLiteral("read"), url, QStringLiteral("ns=1;i=99999")});
    QVERIFY2(r.exitCode == 1 && r.err.contains(QStringLiteral("ns=1;i=99999: Bad_NodeIdUnknown")), qPrintable(r.text()));
}

void TestCli::nodeSubscription() {
    CliRun r = run({QStringLiteral("subscribe"), m_nodeSub.url, QStringLiteral("ns=1;s=Counter"), QStringLiteral("--count"), QStringLiteral("3"),
                    QStringLiteral("--interval"), QStringLiteral("100"), QStringLiteral("--sampling"), QStringLiteral("50")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QList<int> values;
    for (const QString& l : lines) {
        const QStringList parts = l.split(QStringLiteral("  "));
        QCOMPARE(parts.size(), 4);
        QCOMPARE(parts[1], QStringLiteral("ns=1;s=Counter"));
        QCOMPARE(parts[3], QStringLiteral("Good"));
        values << parts[2].toInt();
    }
    QVERIFY2(values[0] < values[1] && values[1] < values[2], qPrintable(r.out));  // the counter counts up
}

UA_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
