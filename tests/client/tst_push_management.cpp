// Push certificate management over the wire (OPC 10000-12 7.8.2 TrustListType, 7.10
// ServerConfigurationType; ua/server/certificates/PushMethods.h): our Client calls the Methods of
// Server.ServerConfiguration on our Server in process over SignAndEncrypt (Basic256Sha256) as a
// SecurityAdmin user: reads the TrustList file, adds a certificate, applies the change and finds it
// in the server's store; an Operator and a Sign-only channel are refused with the status Part 12
// names; the Properties read as the text says. node-opcua's push client: tests/interop.
#include "ClientTestUtil.h"
#include "TestServerConfig.h"

#include "ua/client/Client.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

constexpr uint32_t kTrustList = id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList;

struct CallOutcome {
    StatusCode status;                 // the Method's (or the request's when that failed)
    std::vector<Variant> outputs;
};

} // namespace

class TestPushManagement : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void readTheTrustList();
    void addCertificateAndApply();
    void operatorAndSignOnlyRefused();
    void propertiesAndArgumentCount();
    // Last: the server shuts down.
    void resetToServerDefaultsShutsDown();

private:
    std::unique_ptr<Client> connect(const QString& user, const QString& password, MessageSecurityMode mode);
    CallOutcome call(Client& client, uint32_t object, uint32_t method, std::vector<Variant> inputs);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
};

void TestPushManagement::initTestCase() {
    QVERIFY(m_dir.isValid());
    ServerConfig cfg = securityAdminServerConfig(m_dir.filePath(QStringLiteral("server-pki")));
    cfg.security.users.setUser("alice", "alice-pw", roleBit(Role::Operator) | roleBit(Role::ConfigureAdmin), 1000);
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
}

std::unique_ptr<Client> TestPushManagement::connect(const QString& user, const QString& password, MessageSecurityMode mode) {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.pkiDir = m_dir.filePath(QStringLiteral("client-pki"));
    cfg.securityPolicyUri = QString::fromLatin1(kSecurityPolicyBasic256Sha256);
    cfg.securityMode = mode;
    cfg.identity = UserIdentity::fromUserName(user, password);
    cfg.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
    auto client = std::make_unique<Client>(cfg);
    const StatusCode st = connectSession(*client, urlOf(m_server->port()), this);
    if (st.isBad()) qWarning("connect as %s: %s", qPrintable(user), st.name().c_str());
    return st.isGood() ? std::move(client) : nullptr;
}

CallOutcome TestPushManagement::call(Client& client, uint32_t object, uint32_t method, std::vector<Variant> inputs) {
    Awaited<ServiceResult<CallResponse>> r;
    client.callMethod(NodeId(object), NodeId(method), std::move(inputs), this, r.callback());
    if (!r.wait()) return {status::BadTimeout, {}};
    if (r->status.isBad()) return {r->status, {}};
    if (r->response.results.size() != 1) return {status::BadUnexpectedError, {}};
    const CallMethodResult& m = r->response.results[0];
    return {m.statusCode, std::vector<Variant>(m.outputArguments.begin(), m.outputArguments.end())};
}

void TestPushManagement::readTheTrustList() {
    auto admin = connect("admin", "admin-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(admin);
    // The client's certificate is in the server's trust list: trustAllClients still copies
    // nothing there, so put one in to read it back.
    const Certificate own = m_server->certificateStore()->ownCertificate();
    QVERIFY(m_server->certificateStore()->addTrusted(own));
    const CallOutcome open = call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                                  {Variant(uint8_t(1))});
    QCOMPARE(open.status, status::Good);
    QCOMPARE(open.outputs.size(), std::size_t(1));
    const uint32_t handle = *open.outputs[0].get<uint32_t>();
    std::string file;
    for (int i = 0; i < 100; ++i) {
        const CallOutcome read = call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                                      {Variant(handle), Variant(int32_t(500))});
        QCOMPARE(read.status, status::Good);
        const ByteString* data = read.outputs.at(0).get<ByteString>();
        QVERIFY(data);
        if (data->isEmpty()) break;
        QVERIFY(data->size() <= 500);
        file += data->str();
    }
    QCOMPARE(call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close, {Variant(handle)}).status,
             status::Good);
    TrustListDataType d;
    BinaryDecoder dec(reinterpret_cast<const uint8_t*>(file.data()), file.size());
    decode(dec, d);
    QVERIFY(dec.ok() && dec.atEnd());
    QCOMPARE(d.specifiedLists, uint32_t(15));
    bool found = false;
    for (const ByteString& b : d.trustedCertificates)
        found = found || b.str() == own.der();
    QVERIFY(found);
    // The handle is gone after Close.
    QCOMPARE(call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                  {Variant(handle), Variant(int32_t(500))})
                 .status,
             status::BadInvalidArgument);
}

void TestPushManagement::addCertificateAndApply() {
    auto admin = connect("admin", "admin-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(admin);
    CertificateRequest req;
    req.applicationUri = "urn:push:test:device";
    req.applicationName = "Pushed Device";
    req.hostNames = {"device.local"};
    const Certificate device = createSelfSignedCertificate(req, PrivateKey::generateRsa(2048));
    QVERIFY(!device.isNull());
    QCOMPARE(call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate,
                  {Variant(ByteString(device.der())), Variant(true)})
                 .status,
             status::Good);
    const auto trusted = [&] {
        const std::vector<Certificate> t = m_server->certificateStore()->trusted();
        return std::find(t.begin(), t.end(), device) != t.end();
    };
    QVERIFY(!trusted());  // held by the transaction
    // Another admin Session meanwhile: Bad_TransactionPending.
    auto other = connect("admin", "admin-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(other);
    QCOMPARE(call(*other, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                  {Variant(String(device.thumbprintHex())), Variant(true)})
                 .status,
             status::BadTransactionPending);
    QCOMPARE(call(*other, id::ServerConfiguration, id::ServerConfiguration_ApplyChanges, {}).status, status::BadSessionIdInvalid);
    QCOMPARE(call(*admin, id::ServerConfiguration, id::ServerConfiguration_ApplyChanges, {}).status, status::Good);
    QVERIFY(trusted());
    QCOMPARE(call(*admin, id::ServerConfiguration, id::ServerConfiguration_ApplyChanges, {}).status, status::BadNothingToDo);
    // LastUpdateTime moved.
    Awaited<ServiceResult<ReadResponse>> read;
    admin->readValues({NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_LastUpdateTime)}, this,
                      read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, status::Good);
    const DateTime* last = read->response.results[0].value.get<DateTime>();
    QVERIFY(last && !last->isMin());
    // And out again, by the other Session now that no transaction is open.
    QCOMPARE(call(*other, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                  {Variant(String(device.thumbprintHex())), Variant(true)})
                 .status,
             status::Good);
    QCOMPARE(call(*other, id::ServerConfiguration, id::ServerConfiguration_CancelChanges, {}).status, status::Good);
    QVERIFY(trusted());
}

void TestPushManagement::operatorAndSignOnlyRefused() {
    auto alice = connect("alice", "alice-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(alice);
    QCOMPARE(call(*alice, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open, {Variant(uint8_t(1))})
                 .status,
             status::BadUserAccessDenied);
    QCOMPARE(call(*alice, id::ServerConfiguration, id::ServerConfiguration_GetRejectedList, {}).status, status::BadUserAccessDenied);
    auto signOnly = connect("admin", "admin-pw", MessageSecurityMode::Sign);
    QVERIFY(signOnly);
    QCOMPARE(call(*signOnly, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open, {Variant(uint8_t(1))})
                 .status,
             status::BadSecurityModeInsufficient);
    QCOMPARE(call(*signOnly, id::ServerConfiguration, id::ServerConfiguration_ApplyChanges, {}).status,
             status::BadSecurityModeInsufficient);
}

void TestPushManagement::propertiesAndArgumentCount() {
    auto admin = connect("admin", "admin-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(admin);
    Awaited<ServiceResult<ReadResponse>> read;
    admin->readValues({NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Size),
                       NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_OpenCount),
                       NodeId(id::ServerConfiguration_SupportedPrivateKeyFormats),
                       NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_CertificateTypes),
                       NodeId(id::ServerConfiguration_MaxTrustListSize)},
                      this, read.callback());
    QVERIFY(read.wait());
    QCOMPARE(read->status, status::Good);
    const auto& r = read->response.results;
    QCOMPARE(r.size(), std::size_t(5));
    QCOMPARE(r[0].status, status::BadNotSupported);  // Size has no meaning for a TrustList
    QCOMPARE(*r[1].value.get<uint16_t>(), uint16_t(0));
    const auto* formats = r[2].value.get<Array<String>>();
    QVERIFY(formats && formats->size() == 2 && (*formats)[0].str() == "PEM" && (*formats)[1].str() == "PFX");
    const auto* types = r[3].value.get<Array<NodeId>>();
    QVERIFY(types && types->size() == 1 && (*types)[0] == NodeId(id::RsaSha256ApplicationCertificateType));
    QVERIFY(r[4].value.get<uint32_t>() && *r[4].value.get<uint32_t>() > 0);
    // GetRejectedList answers an empty array, not a null one (node-opcua's client insists).
    const CallOutcome rejected = call(*admin, id::ServerConfiguration, id::ServerConfiguration_GetRejectedList, {});
    QCOMPARE(rejected.status, status::Good);
    QVERIFY(rejected.outputs.size() == 1 && rejected.outputs[0].get<Array<ByteString>>());
    // CloseAndUpdate takes the FileHandle only (7.8.2.5; node-opcua 2.157's client sends two).
    QCOMPARE(call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_CloseAndUpdate,
                  {Variant(uint32_t(1)), Variant(false)})
                 .status,
             status::BadTooManyArguments);
    // An Open mode Part 12 does not allow.
    QCOMPARE(call(*admin, kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open, {Variant(uint8_t(2))})
                 .status,
             status::BadNotSupported);
}

// ResetToServerDefaults (OPC 10000-12 7.10.13): Bad_NotSupported until "<pki>/defaults" configures
// the defaults; then the store takes them and the server announces its shutdown (ServerState
// Shutdown, SecondsTillShutdown) after the Call's response, and shuts down.
void TestPushManagement::resetToServerDefaultsShutsDown() {
    auto admin = connect("admin", "admin-pw", MessageSecurityMode::SignAndEncrypt);
    QVERIFY(admin);
    QCOMPARE(call(*admin, id::ServerConfiguration, id::ServerConfiguration_ResetToServerDefaults, {}).status, status::BadNotSupported);
    QVERIFY(!m_server->isShuttingDown());
    const Certificate own = m_server->certificateStore()->ownCertificate();
    CertificateStore defaults(m_dir.filePath(QStringLiteral("server-pki/defaults")).toStdString());
    QVERIFY(defaults.addTrusted(own));  // the server's own, as the only trusted one; no own pair in the defaults
    QCOMPARE(call(*admin, id::ServerConfiguration, id::ServerConfiguration_ResetToServerDefaults, {}).status, status::Good);
    QVERIFY(m_server->certificateStore()->trusted() == std::vector<Certificate>{own});
    QVERIFY(m_server->certificateStore()->ownCertificate().isNull());  // a new pair at the next start
    QTRY_VERIFY_WITH_TIMEOUT(m_server->isShuttingDown(), 5000);
    Awaited<ServiceResult<ReadResponse>> state;
    admin->readValues({NodeId(id::Server_ServerStatus_State), NodeId(id::Server_ServerStatus_SecondsTillShutdown)}, this, state.callback());
    QVERIFY(state.wait());
    QCOMPARE(state->status, status::Good);
    QCOMPARE(*state->response.results[0].value.get<int32_t>(), int32_t(ServerState::Shutdown));
    QVERIFY(*state->response.results[1].value.get<uint32_t>() <= 3);
    QSignalSpy finished(m_server.get(), &Server::shutdownFinished);
    QVERIFY(finished.wait(15000));
}

UA_TEST_GUILESS_MAIN(TestPushManagement)
#include "tst_push_management.moc"
