// Roles and users (server/users): the permissions of the well-known Roles, a node's RolePermissions,
// the User... attributes and Write per Role through the Attribute service, password hashes, the
// JSON form of the user database and the failed-login lockout.
#include "ServiceTestUtil.h"

#include "ua/server/services/AttributeService.h"
#include "ua/server/users/Roles.h"
#include "ua/server/users/UserStore.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

constexpr uint32_t kFast = 1000; // PBKDF2 iterations in the tests

uint32_t perm(PermissionType p) { return uint32_t(p); }

WriteRequest writeOne(const NodeId& id, Variant v, AttributeId a = AttributeId::Value) {
    WriteRequest r;
    WriteValue w;
    w.nodeId = id;
    w.attributeId = uint32_t(a);
    w.value = DataValue(std::move(v));
    r.nodesToWrite.push_back(w);
    return r;
}

ReadRequest readOne(const NodeId& id, AttributeId a) {
    ReadRequest r;
    ReadValueId v;
    v.nodeId = id;
    v.attributeId = uint32_t(a);
    r.nodesToRead.push_back(v);
    return r;
}

} // namespace

class TestRoles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { m_fx.init(); }
    void wellKnownRoles();
    void defaultPermissionsPerRole();
    void nodeRolePermissionsOverrideTheDefaults();
    void writeFollowsTheRoles();
    void userAttributesFollowTheRoles();
    void passwordHashes();
    void databaseJsonRoundTrip();
    void databaseJsonRejectsBadInput();
    void storeFileIsOwnerOnly();
    void authenticateAndLockout();
    void replaceSwapsTheSnapshot();

private:
    template <class Req, class Resp>
    Resp call(void (*handler)(ServiceContext&, const Req&, Resp&), const Req& req, RoleSet roles) {
        const auto snapshot = m_fx.shared->snapshot();
        ServiceContext ctx{*snapshot, m_fx.shared.get(), m_fx.limits, &m_fx.session, DateTime::now()};
        ctx.roles = roles;
        ctx.permissions = defaultPermissions(roles);
        Resp resp;
        handler(ctx, req, resp);
        return resp;
    }
    ServiceFixture m_fx;
};

void TestRoles::wellKnownRoles() {
    QCOMPARE(roleNodeId(Role::Operator), NodeId(id::WellKnownRole_Operator));
    QCOMPARE(roleNodeId(Role::SecurityAdmin), NodeId(id::WellKnownRole_SecurityAdmin));
    QCOMPARE(roleFromNodeId(NodeId(id::WellKnownRole_Anonymous)), std::optional<Role>(Role::Anonymous));
    QVERIFY(!roleFromNodeId(NodeId(1, id::WellKnownRole_Anonymous)));
    QVERIFY(!roleFromNodeId(NodeId(id::Server)));
    for (int i = 0; i < kRoleCount; ++i) {
        QCOMPARE(roleFromName(roleName(Role(i))), std::optional<Role>(Role(i)));
        QCOMPARE(roleFromNodeId(roleNodeId(Role(i))), std::optional<Role>(Role(i)));
    }
    QVERIFY(!roleFromName("operator")); // case-sensitive BrowseNames
    QCOMPARE(roleNames(roleBit(Role::Operator) | roleBit(Role::Anonymous)),
             (std::vector<std::string>{"Anonymous", "Operator"}));
}

void TestRoles::defaultPermissionsPerRole() {
    const uint32_t anon = defaultPermissions(roleBit(Role::Anonymous));
    QVERIFY(anon & perm(PermissionType::Browse));
    QVERIFY(anon & perm(PermissionType::Read));
    QVERIFY(!(anon & perm(PermissionType::Write)));
    QVERIFY(!(anon & perm(PermissionType::WriteAttribute)));
    QCOMPARE(defaultPermissions(roleBit(Role::AuthenticatedUser)), anon);
    QVERIFY(defaultPermissions(roleBit(Role::Operator)) & perm(PermissionType::Write));
    QVERIFY(!(defaultPermissions(roleBit(Role::Operator)) & perm(PermissionType::WriteAttribute)));
    QVERIFY(defaultPermissions(roleBit(Role::Engineer)) & perm(PermissionType::WriteAttribute));
    QVERIFY(!(defaultPermissions(roleBit(Role::SecurityAdmin)) & perm(PermissionType::Write)));
    QVERIFY(defaultPermissions(roleBit(Role::SecurityAdmin)) & perm(PermissionType::WriteRolePermissions));
    QCOMPARE(defaultPermissions(kNoRoles), 0u);
    QCOMPARE(defaultPermissions(kUnrestricted), kAllPermissions);
    // The user's view of AccessLevel / WriteMask.
    const uint8_t rw = access::CurrentRead | access::CurrentWrite | access::StatusWrite;
    QCOMPARE(userAccessLevel(rw, anon), access::CurrentRead);
    QCOMPARE(userAccessLevel(rw, defaultPermissions(roleBit(Role::Operator))), rw);
    QCOMPARE(userAccessLevel(rw, 0), uint8_t(0));
    const uint32_t mask =
        uint32_t(AttributeWriteMask::DisplayName) | uint32_t(AttributeWriteMask::RolePermissions);
    QCOMPARE(userWriteMask(mask, anon), 0u);
    QCOMPARE(userWriteMask(mask, defaultPermissions(roleBit(Role::Engineer))),
             uint32_t(AttributeWriteMask::DisplayName));
    QCOMPARE(userWriteMask(mask, defaultPermissions(roleBit(Role::ConfigureAdmin))), mask);
}

void TestRoles::nodeRolePermissionsOverrideTheDefaults() {
    Node n;
    const uint32_t operatorDefaults = defaultPermissions(roleBit(Role::Operator));
    QCOMPARE(userPermissions(n, roleBit(Role::Operator), operatorDefaults), operatorDefaults);
    RolePermissionType observer{NodeId(id::WellKnownRole_Observer),
                                PermissionType::Read | PermissionType::Write};
    RolePermissionType other{NodeId(1, 77), PermissionType::Call};
    n.rare.edit().rolePermissions = Array<ExtensionObject>{ExtensionObject::make(observer), ExtensionObject::make(other)};
    // Only the node's entries count: the Operator gets nothing here, the Observer may write.
    QCOMPARE(userPermissions(n, roleBit(Role::Operator), operatorDefaults), 0u);
    QCOMPARE(userPermissions(n, roleBit(Role::Observer) | roleBit(Role::Operator), operatorDefaults),
             perm(PermissionType::Read) | perm(PermissionType::Write));
    QCOMPARE(userPermissions(n, kUnrestricted, 0), kAllPermissions);
}

void TestRoles::writeFollowsTheRoles() {
    const NodeId var = m_fx.id(Int32Var);
    const RoleSet anonymous = roleBit(Role::Anonymous);
    const RoleSet op = roleBit(Role::AuthenticatedUser) | roleBit(Role::Operator);
    WriteResponse w = call(&handleWrite, writeOne(var, int32_t(7)), anonymous);
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(var, int32_t(7)), roleBit(Role::AuthenticatedUser));
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(var, int32_t(7)), roleBit(Role::SecurityAdmin));
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(var, int32_t(7)), op);
    QCOMPARE(w.results.at(0), StatusCode(status::Good));
    // Not writable stays Bad_NotWritable, whoever writes.
    w = call(&handleWrite, writeOne(m_fx.id(ReadOnly), int32_t(7)), anonymous);
    QCOMPARE(w.results.at(0), StatusCode(status::BadNotWritable));
    w = call(&handleWrite, writeOne(m_fx.id(ReadOnly), int32_t(7)), op);
    QCOMPARE(w.results.at(0), StatusCode(status::BadNotWritable));
    // Attributes: an Operator may not change the DisplayName, an Engineer may.
    const Variant name = LocalizedText{String("en"), String("Renamed")};
    w = call(&handleWrite, writeOne(m_fx.id(WritableObject), name, AttributeId::DisplayName), op);
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(m_fx.id(WritableObject), name, AttributeId::DisplayName),
             roleBit(Role::Engineer));
    QCOMPARE(w.results.at(0), StatusCode(status::Good));
    // The value of a VariableType follows Write.
    w = call(&handleWrite, writeOne(m_fx.id(WritableType), int32_t(1)), anonymous);
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(m_fx.id(WritableType), int32_t(1)), op);
    QCOMPARE(w.results.at(0), StatusCode(status::Good));
    // RolePermissions on the node: only the Observer may write it.
    QCOMPARE(m_fx.shared->update([&](AddressSpace& s) {
        RolePermissionType observer{NodeId(id::WellKnownRole_Observer),
                                    PermissionType::Read | PermissionType::Write};
        s.findMutable(var)->rare.edit().rolePermissions = Array<ExtensionObject>{ExtensionObject::make(observer)};
        return StatusCode(status::Good);
    }),
             StatusCode(status::Good));
    w = call(&handleWrite, writeOne(var, int32_t(8)), op);
    QCOMPARE(w.results.at(0), StatusCode(status::BadUserAccessDenied));
    w = call(&handleWrite, writeOne(var, int32_t(8)), roleBit(Role::Observer));
    QCOMPARE(w.results.at(0), StatusCode(status::Good));
    // Without a Session's Roles (in-process callers) nothing is restricted.
    w = call(&handleWrite, writeOne(var, int32_t(9)), kUnrestricted);
    QCOMPARE(w.results.at(0), StatusCode(status::Good));
    QCOMPARE(m_fx.shared->update([&](AddressSpace& s) {
        s.findMutable(var)->rare.edit().rolePermissions = Variant();
        return StatusCode(status::Good);
    }),
             StatusCode(status::Good));
}

void TestRoles::userAttributesFollowTheRoles() {
    const NodeId var = m_fx.id(Int32Var);
    const auto byte = [](const ReadResponse& r) { return *r.results.at(0).value.get<uint8_t>(); };
    ReadResponse r = call(&handleRead, readOne(var, AttributeId::UserAccessLevel), roleBit(Role::Anonymous));
    QCOMPARE(byte(r), access::CurrentRead);
    r = call(&handleRead, readOne(var, AttributeId::UserAccessLevel), roleBit(Role::Operator));
    QCOMPARE(byte(r), uint8_t(access::CurrentRead | access::CurrentWrite));
    r = call(&handleRead, readOne(var, AttributeId::AccessLevel), roleBit(Role::Anonymous));
    QCOMPARE(byte(r), uint8_t(access::CurrentRead | access::CurrentWrite)); // AccessLevel is not per user
    // A user without any Role reads nothing.
    r = call(&handleRead, readOne(var, AttributeId::Value), kNoRoles);
    QCOMPARE(r.results.at(0).status, StatusCode(status::BadUserAccessDenied));
    r = call(&handleRead, readOne(var, AttributeId::Value), roleBit(Role::Anonymous));
    QCOMPARE(r.results.at(0).status, StatusCode(status::Good));
    const NodeId object = m_fx.id(WritableObject);
    r = call(&handleRead, readOne(object, AttributeId::UserWriteMask), roleBit(Role::Operator));
    QCOMPARE(*r.results.at(0).value.get<uint32_t>(), 0u);
    r = call(&handleRead, readOne(object, AttributeId::UserWriteMask), roleBit(Role::Engineer));
    QCOMPARE(*r.results.at(0).value.get<uint32_t>(), uint32_t(AttributeWriteMask::DisplayName));
}

void TestRoles::passwordHashes() {
    const PasswordHash h = PasswordHash::make("secret", kFast);
    QCOMPARE(h.algorithm, std::string("PBKDF2-HMAC-SHA256"));
    QCOMPARE(h.iterations, kFast);
    QCOMPARE(h.salt.size(), std::size_t(16));
    QCOMPARE(h.hash.size(), std::size_t(32));
    QVERIFY(h.verify("secret"));
    QVERIFY(!h.verify("Secret"));
    QVERIFY(!h.verify(""));
    // A fresh salt each time: the same password gives another hash.
    const PasswordHash h2 = PasswordHash::make("secret", kFast);
    QVERIFY(h2.salt != h.salt && h2.hash != h.hash);
    // Known answer (RFC 7914 11, PBKDF2-HMAC-SHA256 "passwd"/"salt", 1 iteration, first 32 bytes).
    PasswordHash known;
    known.iterations = 1;
    known.salt = "salt";
    known.hash =
        QByteArray::fromHex("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc").toStdString();
    QVERIFY(known.verify("passwd"));
    known.algorithm = "MD5";
    QVERIFY(!known.verify("passwd"));
}

void TestRoles::databaseJsonRoundTrip() {
    UserDatabase db;
    db.setUser("alice", "alice-pw", roleBit(Role::Operator) | roleBit(Role::SecurityAdmin), kFast);
    db.setUser("bob", "bob-pw", kNoRoles, kFast);
    db.users.back().certificateThumbprint = "00AB";
    db.maxFailedAuthenticationAttempts = 7;
    db.lockoutSeconds = 42;
    db.anonymousRoles = roleBit(Role::Anonymous) | roleBit(Role::Observer);
    const QByteArray json = QJsonDocument(db.toJson()).toJson();
    QVERIFY(!json.contains("alice-pw")); // never the password
    QVERIFY(json.contains("\"SecurityAdmin\""));
    const std::optional<UserDatabase> back = UserDatabase::fromJson(QJsonDocument::fromJson(json).object());
    QVERIFY(back);
    QVERIFY(*back == db);
    QVERIFY(back->find("alice")->password.verify("alice-pw"));
    QCOMPARE(back->findByThumbprint("00ab"), &back->users[1]);
    // setUser replaces, removeUser removes.
    UserDatabase copy = *back;
    copy.setUser("alice", "new", roleBit(Role::Operator), kFast);
    QCOMPARE(copy.users.size(), std::size_t(2));
    QVERIFY(copy.find("alice")->password.verify("new"));
    QVERIFY(copy.removeUser("bob"));
    QVERIFY(!copy.removeUser("bob"));
}

void TestRoles::databaseJsonRejectsBadInput() {
    // True when the text parses; a refusal must say why.
    const auto parse = [](const char* text) -> bool {
        QString error;
        auto db = UserDatabase::fromJson(QJsonDocument::fromJson(text).object(), &error);
        return db.has_value() || error.isEmpty();
    };
    QVERIFY(parse(R"({"users": []})"));
    QVERIFY(!parse(R"({"users": [{"name": "x", "roles": ["King"]}]})"));
    QVERIFY(!parse(R"({"users": [{"roles": []}]})"));
    QVERIFY(!parse(R"({"users": [{"name": "x"}, {"name": "x"}]})"));
    QVERIFY(
        !parse(R"({"users": [{"name": "x", "password": {"algorithm": "plain", "hash": "cGFzc3dvcmQ="}}]})"));
    QVERIFY(!parse(R"({"maxFailedAuthenticationAttempts": -1})"));
}

void TestRoles::storeFileIsOwnerOnly() {
    QTemporaryDir dir;
    UserDatabase db;
    db.setUser("alice", "pw", roleBit(Role::Operator), kFast);
    UserStore store(db);
    const QString path = dir.filePath("users.json");
    QString error;
    QVERIFY2(store.save(path, &error), qPrintable(error));
    QVERIFY(!(QFile(path).permissions() &
              (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteOther)));
    UserStore loaded;
    QVERIFY(loaded.snapshot()->users.empty());
    QVERIFY2(loaded.load(path, &error), qPrintable(error));
    QVERIFY(*loaded.snapshot() == db);
    QVERIFY(!loaded.load(dir.filePath("missing.json"), &error));
}

void TestRoles::authenticateAndLockout() {
    UserDatabase db;
    db.setUser("alice", "alice-pw", roleBit(Role::Operator), kFast);
    db.setUser("carol", "carol-pw", kNoRoles, kFast);
    db.users.push_back(UserRecord{"nopassword", {}, roleBit(Role::Operator), "AB"});
    db.maxFailedAuthenticationAttempts = 3;
    db.lockoutSeconds = 10;
    UserStore store(db);
    int64_t now = 1000;
    UserStore::Login ok = store.authenticate("alice", "alice-pw", now);
    QCOMPARE(ok.status, StatusCode(status::Good));
    QCOMPARE(ok.roles, roleBit(Role::Operator) | roleBit(Role::AuthenticatedUser));
    QCOMPARE(store.authenticate("mallory", "x", now).status, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("nopassword", "", now).status, StatusCode(status::BadUserAccessDenied));
    // Two failures, then a success: the count starts again.
    QCOMPARE(store.authenticate("carol", "a", now).status, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("carol", "b", now).status, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("carol", "carol-pw", now).status, StatusCode(status::Good));
    QCOMPARE(store.authenticate("carol", "a", now).status, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("carol", "b", now).status, StatusCode(status::BadUserAccessDenied));
    QVERIFY(!store.isLockedOut("carol", now));
    QCOMPARE(store.authenticate("carol", "c", now).status, StatusCode(status::BadUserAccessDenied));
    QVERIFY(store.isLockedOut("carol", now));
    // Locked out: the right password is refused too, for lockoutSeconds; others are not affected.
    QCOMPARE(store.authenticate("carol", "carol-pw", now + 5000).status,
             StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("carol", "carol-pw", now + 9999).status,
             StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("alice", "alice-pw", now + 5000).status, StatusCode(status::Good));
    QCOMPARE(store.authenticate("carol", "carol-pw", now + 10000).status, StatusCode(status::Good));
    // An administrator's unlock.
    for (int i = 0; i < 3; ++i)
        store.authenticate("carol", "x", now);
    QVERIFY(store.isLockedOut("carol", now));
    store.unlock("carol");
    QCOMPARE(store.authenticate("carol", "carol-pw", now).status, StatusCode(status::Good));
    // maxFailedAuthenticationAttempts 0: never locked out.
    db.maxFailedAuthenticationAttempts = 0;
    UserStore lenient(db);
    for (int i = 0; i < 10; ++i)
        lenient.authenticate("carol", "x", now);
    QCOMPARE(lenient.authenticate("carol", "carol-pw", now).status, StatusCode(status::Good));
}

void TestRoles::replaceSwapsTheSnapshot() {
    UserDatabase db;
    db.setUser("alice", "one", roleBit(Role::Operator), kFast);
    UserStore store(db);
    const std::shared_ptr<const UserDatabase> before = store.snapshot();
    db.setUser("alice", "two", roleBit(Role::Operator), kFast);
    store.replace(db);
    QVERIFY(before->find("alice")->password.verify("one")); // a held snapshot does not change
    QCOMPARE(store.authenticate("alice", "one", 0).status, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(store.authenticate("alice", "two", 0).status, StatusCode(status::Good));
}

UA_TEST_GUILESS_MAIN(TestRoles)
#include "tst_roles.moc"
