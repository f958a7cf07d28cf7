// The server app's configuration file: JSON round trip, the mapping onto ua::ServerConfig, bad
// values refused with a message, and command-line options over the file (ServerCommandLine).
#include "ServerCommandLine.h"
#include "ServerSettings.h"
#include "SettingLimits.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using ua::app::ServerCommandLine;
using ua::app::ServerSettings;

class TestSettingsFile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void roundTrip();
    void missingKeysKeepDefaults();
    void mapsOntoServerConfig();
    void badValues_data();
    void badValues();
    void commandLineOverridesFile();
    void secureProfile();
    void modeDecision_data();
    void modeDecision();
};

namespace {

ServerSettings nonDefault() {
    ServerSettings s;
    s.hostName = QStringLiteral("plc-7.example");
    s.port = 4855;
    s.ioThreads = 3;
    s.pkiDir = QStringLiteral("/srv/ua/pki");
    s.nodeSetFiles = {QStringLiteral("/srv/ua/models/Opc.Ua.Di.NodeSet2.xml"), QStringLiteral("plant.xml")};
    s.alarms.pollMs = 250;
    s.reverseConnect.clientUrls = {QStringLiteral("opc.tcp://scada.example:4843")};
    s.reverseConnect.helloTimeoutMs = 30'000;
    s.reverseConnect.retryMaxMs = 20'000;
    s.alarms.definitions.resize(1);
    s.alarms.definitions[0].name = QStringLiteral("Pressure");
    s.alarms.definitions[0].kind = QStringLiteral("discrete");
    s.alarms.definitions[0].input = QStringLiteral("nsu=urn:plant;s=Pressure.State");
    s.alarms.definitions[0].source = QStringLiteral("nsu=urn:plant;s=Pressure");
    s.alarms.definitions[0].value = 3.0;
    s.alarms.definitions[0].severity = 650;
    s.endpoints = {{ua::SecurityPolicyId::Aes256Sha256RsaPss, ua::MessageSecurityMode::SignAndEncrypt},
                   {ua::SecurityPolicyId::Basic256, ua::MessageSecurityMode::Sign}};
    s.allowDeprecatedPolicies = true;
    s.allowAnonymous = false;
    s.allowUserName = true;
    s.allowX509 = false;
    s.trustAllClients = true;
    s.maxSessions = 2048;
    s.maxChannels = 2100;
    s.maxSessionDiagnosticsObjects = 7;
    s.subscriptions.maxSubscriptions = 20'100;
    s.subscriptions.maxMonitoredItems = 0;
    s.subscriptions.maxSubscriptionsPerSession = 7;
    s.subscriptions.maxPublishRequestsPerSession = 33;
    s.subscriptions.maxQueueSize = 64;
    s.subscriptions.maxLifetimeCount = 9000;
    s.subscriptions.minPublishingIntervalMs = 25;
    s.subscriptions.minSamplingIntervalMs = 2;
    s.minSessionTimeoutMs = 5000;
    s.maxSessionTimeoutMs = 60000;
    s.demoNamespace = false;
    s.demoUpdateRateMs = 250;
    s.demoEventsMs = 0;
    s.shutdownDelaySeconds = 7;
    s.users.setUser("alice", "secret-1", ua::roleBit(ua::Role::Operator) | ua::roleBit(ua::Role::Engineer), 1000);
    s.users.anonymousRoles = ua::roleBit(ua::Role::Anonymous);
    s.users.maxFailedAuthenticationAttempts = 9;
    return s;
}

} // namespace

void TestSettingsFile::roundTrip() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/ua-server.json"));
    const ServerSettings s = nonDefault();
    QString error;
    QVERIFY2(s.save(path, &error), qPrintable(error));
    QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFileDevice::Permissions{});

    ServerSettings loaded;
    bool existed = false;
    QVERIFY2(loaded.load(path, &error, &existed), qPrintable(error));
    QVERIFY(existed);
    QVERIFY(loaded == s);
    QVERIFY(!(loaded == ServerSettings{}));
    QCOMPARE(loaded.hostName, s.hostName);
    QCOMPARE(loaded.endpoints.size(), std::size_t(2));
    QCOMPARE(loaded.endpoints[0].policy, ua::SecurityPolicyId::Aes256Sha256RsaPss);
    QCOMPARE(loaded.endpoints[1].mode, ua::MessageSecurityMode::Sign);
    QCOMPARE(loaded.shutdownDelaySeconds, 7u);
    QVERIFY(loaded.users.find("alice"));
    QVERIFY(loaded.users.find("alice")->password.verify("secret-1"));
    QVERIFY(!loaded.users.find("alice")->password.verify("secret-2"));

    // The names in the file are the documented ones.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(json["endpoint"].toObject()["port"].toInt(), 4855);
    QCOMPARE(json["security"].toObject()["endpoints"].toArray()[0].toObject()["policy"].toString(), QStringLiteral("Aes256_Sha256_RsaPss"));
    QCOMPARE(json["security"].toObject()["userTokens"].toObject()["certificate"].toBool(), false);
    QCOMPARE(json["limits"].toObject()["maxSessions"].toInt(), 2048);
    QCOMPARE(json["subscriptions"].toObject()["maxSubscriptions"].toInt(), 20100);
    QCOMPARE(json["subscriptions"].toObject()["maxPublishRequestsPerSession"].toInt(), 33);
    QCOMPARE(json["limits"].toObject()["minSessionTimeoutMs"].toInt(), 5000);
    // Every limit of SubscriptionConfig is in the file under its own name.
    QCOMPARE(json["subscriptions"].toObject().size(), qsizetype(ua::app::subscriptionLimits().size()));
    QCOMPARE(json["demo"].toObject()["eventsMs"].toInt(), 0);
    QCOMPARE(json["nodeSets"].toArray().size(), 2);
    QCOMPARE(json["nodeSets"].toArray()[1].toString(), QStringLiteral("plant.xml"));
    QCOMPARE(loaded.toServerConfig().nodeSetFiles, s.nodeSetFiles);
    const QJsonObject reverse = json["reverseConnect"].toObject();
    QCOMPARE(reverse["clientUrls"].toArray()[0].toString(), QStringLiteral("opc.tcp://scada.example:4843"));
    QCOMPARE(reverse["helloTimeoutMs"].toInt(), 30000);
    QCOMPARE(reverse["retryMinMs"].toInt(), 1000);
    QCOMPARE(reverse["retryMaxMs"].toInt(), 20000);
    const ua::ServerConfig c = loaded.toServerConfig();
    QCOMPARE(c.reverseConnect.clientUrls, s.reverseConnect.clientUrls);
    QCOMPARE(c.reverseConnect.helloTimeoutMs, 30000u);
}

void TestSettingsFile::missingKeysKeepDefaults() {
    QString error;
    const auto s = ServerSettings::fromJson(QJsonObject{{"endpoint", QJsonObject{{"port", 5000}}}, {"future", 1}}, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->port, quint16(5000));
    ServerSettings expected;
    expected.port = 5000;
    QVERIFY(*s == expected);
    // A missing file is not an error: the defaults stay.
    ServerSettings d;
    bool existed = true;
    QVERIFY(d.load(QStringLiteral("/nonexistent/ua-server.json"), &error, &existed));
    QVERIFY(!existed);
    QVERIFY(d == ServerSettings{});
    // Room for the 1,000-session responsiveness run.
    QVERIFY(d.maxSessions > 1000 && d.maxChannels > 1000);
}

void TestSettingsFile::mapsOntoServerConfig() {
    const ServerSettings s = nonDefault();
    const ua::ServerConfig c = s.toServerConfig();
    QCOMPARE(c.hostName, s.hostName);
    QCOMPARE(c.port, quint16(4855));
    QCOMPARE(c.ioThreads, 3);
    QCOMPARE(c.security.pkiDir, QStringLiteral("/srv/ua/pki"));
    QCOMPARE(c.security.endpoints.size(), std::size_t(2));
    QCOMPARE(c.security.endpoints[0].policy, ua::SecurityPolicyId::Aes256Sha256RsaPss);
    QCOMPARE(c.security.endpoints[0].mode, ua::MessageSecurityMode::SignAndEncrypt);
    QCOMPARE(c.security.endpoints[1].policy, ua::SecurityPolicyId::Basic256);
    QVERIFY(c.security.allowDeprecatedPolicies);
    QVERIFY(!c.security.allowAnonymous);
    QVERIFY(c.security.allowUserName);
    QVERIFY(!c.security.allowX509);
    QVERIFY(c.security.trustAllClients);
    QVERIFY(c.security.users == s.users);
    QCOMPARE(c.maxSessions, 2048);
    QCOMPARE(c.maxChannels, 2100);
    QCOMPARE(c.maxSessionDiagnosticsObjects, 7);
    QCOMPARE(c.subscriptions.maxSubscriptions, 20100u);
    QCOMPARE(c.subscriptions.maxMonitoredItems, 0u);  // no limit
    QCOMPARE(c.subscriptions.maxSubscriptionsPerSession, 7u);
    QCOMPARE(c.subscriptions.maxPublishRequestsPerSession, 33u);
    QCOMPARE(c.subscriptions.maxQueueSize, 64u);
    QCOMPARE(c.subscriptions.maxLifetimeCount, 9000u);
    QCOMPARE(c.subscriptions.minPublishingIntervalMs, 25.0);
    QCOMPARE(c.subscriptions.minSamplingIntervalMs, 2.0);
    QCOMPARE(c.minSessionTimeoutMs, 5000.0);
    QCOMPARE(c.maxSessionTimeoutMs, 60000.0);
    QVERIFY(!c.demoNamespace);
    QCOMPARE(c.demoUpdateRateMs, 250u);
    QCOMPARE(c.demoEventsMs, 0u);
    QCOMPARE(c.alarmPollMs, 250);
    QCOMPARE(c.alarms.size(), std::size_t(1));
    QCOMPARE(c.alarms[0].name, std::string("Pressure"));
    QCOMPARE(c.alarms[0].kind, ua::AlarmKind::Discrete);
    QCOMPARE(c.alarms[0].namespaceUri, std::string("urn:plant"));
    QCOMPARE(c.alarms[0].input, ua::NodeId(0, ua::String("Pressure.State")));
    QCOMPARE(c.alarms[0].source, ua::NodeId(0, ua::String("Pressure")));
    QCOMPARE(c.alarms[0].stateValue, ua::Variant(3.0));
    QCOMPARE(c.alarms[0].severity, uint16_t(650));

    // Defaults: the demo configuration of ./run.sh (anonymous may write), the PKI under the
    // application data folder.
    const ua::ServerConfig d = ServerSettings{}.toServerConfig();
    QCOMPARE(d.security.pkiDir, ServerSettings::defaultPkiDir());
    QVERIFY(d.security.pkiDir.endsWith(QStringLiteral("/pki")));
    QVERIFY(d.security.users.anonymousRoles & ua::roleBit(ua::Role::Operator));
    QCOMPARE(d.security.endpoints.size(), ua::ServerSecurityConfig{}.endpoints.size());
    QCOMPARE(d.demoEventsMs, 1000u);
    QCOMPARE(d.alarms.size(), std::size_t(3));  // the demo's: Sine, Ramp, Scalars.Boolean
    QCOMPARE(d.alarms[2].kind, ua::AlarmKind::OffNormal);
    QCOMPARE(d.alarms[2].stateValue, ua::Variant(true));
    QCOMPARE(d.subscriptions.maxSubscriptions, ua::SubscriptionConfig{}.maxSubscriptions);
    QCOMPARE(d.subscriptions.maxMonitoredItems, ua::SubscriptionConfig{}.maxMonitoredItems);
}

void TestSettingsFile::badValues_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("port range") << QByteArray(R"({"endpoint":{"port":70000}})") << "endpoint.port";
    QTest::newRow("port type") << QByteArray(R"({"endpoint":{"port":"4840"}})") << "endpoint.port";
    QTest::newRow("port fraction") << QByteArray(R"({"endpoint":{"port":48.5}})") << "endpoint.port";
    QTest::newRow("unknown policy") << QByteArray(R"({"security":{"endpoints":[{"policy":"Basic512","mode":"Sign"}]}})") << "Basic512";
    QTest::newRow("None with Sign") << QByteArray(R"({"security":{"endpoints":[{"policy":"None","mode":"Sign"}]}})") << "security.endpoints";
    QTest::newRow("endpoints not array") << QByteArray(R"({"security":{"endpoints":{}}})") << "security.endpoints";
    QTest::newRow("no endpoint") << QByteArray(R"({"security":{"endpoints":[]}})") << "security.endpoints";
    QTest::newRow("no user token") << QByteArray(R"({"security":{"userTokens":{"anonymous":false,"userName":false,"certificate":false}}})")
                                   << "security.userTokens";
    QTest::newRow("token not bool") << QByteArray(R"({"security":{"userTokens":{"anonymous":1}}})") << "security.userTokens.anonymous";
    QTest::newRow("sessions zero") << QByteArray(R"({"limits":{"maxSessions":0}})") << "limits.maxSessions";
    QTest::newRow("diagnostics objects negative") << QByteArray(R"({"limits":{"maxSessionDiagnosticsObjects":-1}})")
                                                  << "limits.maxSessionDiagnosticsObjects";
    QTest::newRow("subscriptions negative") << QByteArray(R"({"limits":{"maxSubscriptions":-1}})") << "limits.maxSubscriptions";
    QTest::newRow("monitored items fraction") << QByteArray(R"({"limits":{"maxMonitoredItems":1.5}})") << "limits.maxMonitoredItems";
    QTest::newRow("publish queue zero") << QByteArray(R"({"subscriptions":{"maxPublishRequestsPerSession":0}})")
                                        << "subscriptions.maxPublishRequestsPerSession";
    QTest::newRow("queue size fraction") << QByteArray(R"({"subscriptions":{"maxQueueSize":2.5}})") << "subscriptions.maxQueueSize";
    QTest::newRow("publishing interval zero") << QByteArray(R"({"subscriptions":{"minPublishingIntervalMs":0}})")
                                              << "subscriptions.minPublishingIntervalMs";
    QTest::newRow("sampling intervals crossed")
        << QByteArray(R"({"subscriptions":{"minSamplingIntervalMs":500,"maxSamplingIntervalMs":100}})") << "minSamplingIntervalMs";
    QTest::newRow("subscriptions not object") << QByteArray(R"({"subscriptions":3})") << "subscriptions";
    QTest::newRow("timeouts crossed") << QByteArray(R"({"limits":{"minSessionTimeoutMs":9000,"maxSessionTimeoutMs":10}})") << "minSessionTimeoutMs";
    QTest::newRow("hello timeout over two minutes") << QByteArray(R"({"admission":{"helloTimeoutMs":120001}})")
                                                    << "admission.helloTimeoutMs";
    QTest::newRow("section not object") << QByteArray(R"({"demo":[]})") << "demo";
    QTest::newRow("unknown role") << QByteArray(R"({"users":{"anonymousRoles":["Emperor"]}})") << "users";
    QTest::newRow("version") << QByteArray(R"({"version":2})") << "version";
    QTest::newRow("nodeSets not array") << QByteArray(R"({"nodeSets":"DI.xml"})") << "nodeSets";
    QTest::newRow("nodeSets not paths") << QByteArray(R"({"nodeSets":["DI.xml", 3]})") << "nodeSets";
    QTest::newRow("not JSON") << QByteArray("{port: 1") << "not a JSON object";
    QTest::newRow("alarm poll zero") << QByteArray(R"({"alarms":{"pollMs":0}})") << "alarms.pollMs";
    QTest::newRow("alarm without name") << QByteArray(R"({"alarms":{"definitions":[{"input":"i=2258"}]}})") << "alarms.definitions";
    QTest::newRow("alarm kind") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","kind":"loud","input":"i=2258"}]}})")
                                << "alarms.definitions[A].kind";
    QTest::newRow("alarm input") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","input":"tank"}]}})") << "alarms.definitions[A]";
    QTest::newRow("alarm severity") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","input":"i=2258","severity":0}]}})")
                                    << "alarms.definitions[A].severity";
    QTest::newRow("alarm deadband") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","input":"i=2258","deadband":-1}]}})")
                                    << "alarms.definitions[A].deadband";
    QTest::newRow("alarm limit") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","input":"i=2258","high":"90"}]}})")
                                 << "alarms.definitions[A].high";
    QTest::newRow("reverse url") << QByteArray(R"({"reverseConnect":{"clientUrls":["http://scada:80"]}})")
                                 << "reverseConnect.clientUrls";
    QTest::newRow("reverse urls type") << QByteArray(R"({"reverseConnect":{"clientUrls":"opc.tcp://scada:4843"}})")
                                       << "reverseConnect.clientUrls";
    QTest::newRow("reverse hello timeout") << QByteArray(R"({"reverseConnect":{"helloTimeoutMs":120001}})")
                                           << "reverseConnect.helloTimeoutMs";
    QTest::newRow("reverse retry order") << QByteArray(R"({"reverseConnect":{"retryMinMs":5000,"retryMaxMs":100}})")
                                         << "retryMaxMs is below retryMinMs";
    QTest::newRow("alarm value") << QByteArray(R"({"alarms":{"definitions":[{"name":"A","input":"i=2258","value":[1]}]}})")
                                 << "alarms.definitions[A].value";
}

void TestSettingsFile::badValues() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(json);
    f.close();
    ServerSettings s;
    s.port = 1234;
    QString error;
    QVERIFY(!s.load(path, &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
    QVERIFY2(error.startsWith(path), qPrintable(error));
    QCOMPARE(s.port, quint16(1234)); // unchanged
    // The command line reports it and does not run.
    const auto cl = ServerCommandLine::parse({QStringLiteral("ua-server"), QStringLiteral("--config"), path}, {});
    QCOMPARE(cl.action, ServerCommandLine::Action::Error);
    QVERIFY(cl.message.contains(mentions));
}

void TestSettingsFile::commandLineOverridesFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ua-server.json"));
    const ServerSettings saved = nonDefault();
    QVERIFY(saved.save(path));
    auto cl = ServerCommandLine::parse({QStringLiteral("ua-server"), QStringLiteral("--config"), path}, {});
    QCOMPARE(cl.action, ServerCommandLine::Action::Run);
    QVERIFY(cl.configExisted);
    QCOMPARE(cl.configPath, path);
    QVERIFY(cl.settings == saved);

    cl = ServerCommandLine::parse({QStringLiteral("ua-server"), QStringLiteral("--config"), path, QStringLiteral("--port"),
                                   QStringLiteral("0"), QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                                   QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--pki"), QStringLiteral("/tmp/p"),
                                   QStringLiteral("--demo-events-ms"), QStringLiteral("250"), QStringLiteral("--max-sessions"),
                                   QStringLiteral("3000"), QStringLiteral("--max-channels"), QStringLiteral("3001"),
                                   QStringLiteral("--max-subscriptions"), QStringLiteral("25000"),
                                   QStringLiteral("--shutdown-delay"), QStringLiteral("0"), QStringLiteral("--hello-timeout"),
                                   QStringLiteral("2500"), QStringLiteral("--nodeset"), QStringLiteral("a.xml"),
                                   QStringLiteral("--nodeset"), QStringLiteral("b.xml"), QStringLiteral("--reverse-connect"),
                                   QStringLiteral("opc.tcp://10.0.0.9:4844")},
                                  {});
    QCOMPARE(cl.action, ServerCommandLine::Action::Run);
    QCOMPARE(cl.settings.port, quint16(0));
    QCOMPARE(cl.settings.hostName, QStringLiteral("127.0.0.1"));
    QCOMPARE(cl.settings.ioThreads, 2);
    QCOMPARE(cl.settings.pkiDir, QStringLiteral("/tmp/p"));
    QCOMPARE(cl.settings.demoEventsMs, 250u);
    QCOMPARE(cl.settings.maxSessions, 3000);
    QCOMPARE(cl.settings.maxChannels, 3001);
    QCOMPARE(cl.settings.subscriptions.maxSubscriptions, 25000u);
    QCOMPARE(cl.settings.toServerConfig().subscriptions.maxSubscriptions, 25000u);
    QCOMPARE(cl.settings.shutdownDelaySeconds, 0u);
    QCOMPARE(cl.settings.reverseConnect.clientUrls,
             QStringList({QStringLiteral("opc.tcp://scada.example:4843"), QStringLiteral("opc.tcp://10.0.0.9:4844")}));
    const auto badUrl = ServerCommandLine::parse({QStringLiteral("ua-server"), QStringLiteral("--config"), path,
                                                  QStringLiteral("--reverse-connect"), QStringLiteral("scada:4843")}, {});
    QCOMPARE(badUrl.action, ServerCommandLine::Action::Error);
    QVERIFY2(badUrl.message.contains(QStringLiteral("--reverse-connect")), qPrintable(badUrl.message));
    QCOMPARE(cl.settings.admission.helloTimeoutMs, 2500u);
    QCOMPARE(cl.settings.toServerConfig().admission.helloTimeoutMs, 2500u);
    // --nodeset adds to the file's list.
    QCOMPARE(cl.settings.nodeSetFiles, (QStringList{saved.nodeSetFiles[0], saved.nodeSetFiles[1], QStringLiteral("a.xml"), QStringLiteral("b.xml")}));
    // What was not overridden stays as the file says.
    QCOMPARE(cl.settings.endpoints.size(), std::size_t(2));
    QVERIFY(!cl.settings.allowAnonymous);
    QVERIFY(cl.settings.users.find("alice"));

    for (const QStringList& bad : {QStringList{QStringLiteral("--port"), QStringLiteral("65536")},
                                   QStringList{QStringLiteral("--shutdown-delay"), QStringLiteral("-1")},
                                   QStringList{QStringLiteral("--threads"), QStringLiteral("two")},
                                   QStringList{QStringLiteral("--max-subscriptions"), QStringLiteral("-5")},
                                   QStringList{QStringLiteral("--hello-timeout"), QStringLiteral("0")},
                                   QStringList{QStringLiteral("--hello-timeout"), QStringLiteral("120001")},
                                   QStringList{QStringLiteral("--no-such-option")},
                                   QStringList{QStringLiteral("stray")}}) {
        cl = ServerCommandLine::parse(QStringList{QStringLiteral("ua-server"), QStringLiteral("--config"), path} + bad, {});
        QVERIFY2(cl.action == ServerCommandLine::Action::Error, qPrintable(bad.join(' ')));
        QVERIFY(!cl.message.isEmpty());
    }
}

void TestSettingsFile::secureProfile() {
    const auto cl = ServerCommandLine::parse({QStringLiteral("ua-server"), QStringLiteral("--config"),
                                              QStringLiteral("/nonexistent/x.json"), QStringLiteral("--secure")},
                                             {});
    QCOMPARE(cl.action, ServerCommandLine::Action::Run);
    QVERIFY(!cl.configExisted);
    QVERIFY(!cl.settings.allowAnonymous);
    QVERIFY(!cl.settings.endpoints.empty());
    for (const auto& e : cl.settings.endpoints) QVERIFY(e.policy != ua::SecurityPolicyId::None);
}

void TestSettingsFile::modeDecision_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("wayland");
    QTest::addColumn<QString>("platform");
    QTest::addColumn<bool>("headless");
    QTest::newRow("X display") << QStringList{} << ":0" << "" << "" << false;
    QTest::newRow("Wayland") << QStringList{} << "" << "wayland-0" << "" << false;
    QTest::newRow("no display") << QStringList{} << "" << "" << "" << true;
    QTest::newRow("--headless") << QStringList{"--headless"} << ":0" << "" << "" << true;
    QTest::newRow("offscreen") << QStringList{} << ":0" << "" << "offscreen" << true;
    QTest::newRow("minimal") << QStringList{} << ":0" << "" << "minimal" << true;
    QTest::newRow("-platform offscreen") << QStringList{"-platform", "offscreen"} << ":0" << "" << "" << true;
    QTest::newRow("--window offscreen") << QStringList{"--window"} << "" << "" << "offscreen" << false;
    QTest::newRow("lag report wants window") << QStringList{"--gui-lag-report", "3"} << "" << "" << "offscreen" << false;
}

void TestSettingsFile::modeDecision() {
    QFETCH(QStringList, args);
    QFETCH(QString, display);
    QFETCH(QString, wayland);
    QFETCH(QString, platform);
    QFETCH(bool, headless);
    const auto cl = ServerCommandLine::parse(QStringList{QStringLiteral("ua-server"), QStringLiteral("--config"),
                                                         QStringLiteral("/nonexistent/x.json")} + args,
                                             {display, wayland, platform});
    QCOMPARE(cl.action, ServerCommandLine::Action::Run);
    QCOMPARE(cl.headless, headless);
}

UA_TEST_GUILESS_MAIN(TestSettingsFile)
#include "tst_settings_file.moc"
