#include "ua/server/users/UserStore.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/users/AuditLog.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace ua {

namespace {

constexpr std::size_t kSaltBytes = 16;
constexpr std::size_t kHashBytes = 32;

bool pbkdf2(std::string_view password, const std::string& salt, uint32_t iterations, std::string& out) {
    out.assign(kHashBytes, '\0');
    return PKCS5_PBKDF2_HMAC(password.data(), int(password.size()),
                             reinterpret_cast<const unsigned char*>(salt.data()), int(salt.size()),
                             int(iterations), EVP_sha256(), int(out.size()),
                             reinterpret_cast<unsigned char*>(out.data())) == 1;
}

QString b64(const std::string& bytes) {
    return QString::fromLatin1(QByteArray(bytes.data(), qsizetype(bytes.size())).toBase64());
}

std::string unb64(const QString& text) {
    const QByteArray b = QByteArray::fromBase64(text.toLatin1());
    return std::string(b.constData(), std::size_t(b.size()));
}

QJsonArray rolesToJson(RoleSet roles) {
    QJsonArray a;
    for (const std::string& n : roleNames(roles))
        a.append(QString::fromStdString(n));
    return a;
}

bool rolesFromJson(const QJsonValue& v, RoleSet& roles, QString* error) {
    roles = kNoRoles;
    if (v.isUndefined()) return true;
    if (!v.isArray()) {
        if (error) *error = QStringLiteral("roles must be an array of role names");
        return false;
    }
    for (const QJsonValue& r : v.toArray()) {
        const std::optional<Role> role = roleFromName(r.toString().toStdString());
        if (!role) {
            if (error) *error = QStringLiteral("unknown role \"%1\"").arg(r.toString());
            return false;
        }
        roles |= roleBit(*role);
    }
    return true;
}

// The hash an unknown user name is checked against, so that the answer takes as long as for a
// known one (no user enumeration by timing).
const PasswordHash& dummyHash() {
    static const PasswordHash h = PasswordHash::make("not a password", PasswordHash::kDefaultIterations);
    return h;
}

} // namespace

PasswordHash PasswordHash::make(std::string_view password, uint32_t iterations) {
    PasswordHash h;
    h.iterations = iterations;
    h.salt.assign(kSaltBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(h.salt.data()), int(h.salt.size())) != 1 ||
        !pbkdf2(password, h.salt, iterations, h.hash))
        return {};
    return h;
}

bool PasswordHash::verify(std::string_view password) const {
    if (algorithm != kAlgorithm || iterations == 0 || hash.size() != kHashBytes) return false;
    std::string computed;
    if (!pbkdf2(password, salt, iterations, computed)) return false;
    const bool same = CRYPTO_memcmp(computed.data(), hash.data(), hash.size()) == 0;
    OPENSSL_cleanse(computed.data(), computed.size());
    return same;
}

const UserRecord* UserDatabase::find(std::string_view name) const {
    for (const UserRecord& u : users)
        if (u.name == name) return &u;
    return nullptr;
}

const UserRecord* UserDatabase::findByThumbprint(std::string_view thumbprintHex) const {
    if (thumbprintHex.empty()) return nullptr;
    for (const UserRecord& u : users)
        if (!u.certificateThumbprint.empty() &&
            QString::fromStdString(u.certificateThumbprint)
                    .compare(QString::fromUtf8(thumbprintHex.data(), qsizetype(thumbprintHex.size())),
                             Qt::CaseInsensitive) == 0)
            return &u;
    return nullptr;
}

void UserDatabase::setUser(std::string name, std::string_view password, RoleSet roles, uint32_t iterations) {
    UserRecord r;
    r.name = std::move(name);
    r.password = PasswordHash::make(password, iterations);
    r.roles = roles;
    for (UserRecord& u : users) {
        if (u.name == r.name) {
            r.certificateThumbprint = u.certificateThumbprint;
            u = std::move(r);
            return;
        }
    }
    users.push_back(std::move(r));
}

bool UserDatabase::removeUser(std::string_view name) {
    return std::erase_if(users, [&](const UserRecord& u) { return u.name == name; }) > 0;
}

QJsonObject UserDatabase::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("maxFailedAuthenticationAttempts"), qint64(maxFailedAuthenticationAttempts));
    o.insert(QStringLiteral("lockoutSeconds"), qint64(lockoutSeconds));
    o.insert(QStringLiteral("anonymousRoles"), rolesToJson(anonymousRoles));
    QJsonArray list;
    for (const UserRecord& u : users) {
        QJsonObject j;
        j.insert(QStringLiteral("name"), QString::fromStdString(u.name));
        j.insert(QStringLiteral("roles"), rolesToJson(u.roles));
        if (!u.password.isNull()) {
            QJsonObject pw;
            pw.insert(QStringLiteral("algorithm"), QString::fromStdString(u.password.algorithm));
            pw.insert(QStringLiteral("iterations"), qint64(u.password.iterations));
            pw.insert(QStringLiteral("salt"), b64(u.password.salt));
            pw.insert(QStringLiteral("hash"), b64(u.password.hash));
            j.insert(QStringLiteral("password"), pw);
        }
        if (!u.certificateThumbprint.empty())
            j.insert(QStringLiteral("certificateThumbprint"),
                     QString::fromStdString(u.certificateThumbprint));
        list.append(j);
    }
    o.insert(QStringLiteral("users"), list);
    return o;
}

std::optional<UserDatabase> UserDatabase::fromJson(const QJsonObject& o, QString* error) {
    UserDatabase db;
    const auto count = [&](const char* key, uint32_t& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) return true;
        if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() > 4294967295.0) {
            if (error) *error = QStringLiteral("%1 must be a non-negative number").arg(QLatin1String(key));
            return false;
        }
        out = uint32_t(v.toDouble());
        return true;
    };
    if (!count("maxFailedAuthenticationAttempts", db.maxFailedAuthenticationAttempts)) return std::nullopt;
    if (!count("lockoutSeconds", db.lockoutSeconds)) return std::nullopt;
    if (o.contains(QStringLiteral("anonymousRoles")) &&
        !rolesFromJson(o.value(QStringLiteral("anonymousRoles")), db.anonymousRoles, error))
        return std::nullopt;
    for (const QJsonValue& v : o.value(QStringLiteral("users")).toArray()) {
        const QJsonObject j = v.toObject();
        UserRecord u;
        u.name = j.value(QStringLiteral("name")).toString().toStdString();
        if (u.name.empty()) {
            if (error) *error = QStringLiteral("a user without a name");
            return std::nullopt;
        }
        if (db.find(u.name)) {
            if (error)
                *error = QStringLiteral("user \"%1\" is listed twice").arg(QString::fromStdString(u.name));
            return std::nullopt;
        }
        if (!rolesFromJson(j.value(QStringLiteral("roles")), u.roles, error)) return std::nullopt;
        if (j.contains(QStringLiteral("password"))) {
            const QJsonObject pw = j.value(QStringLiteral("password")).toObject();
            u.password.algorithm = pw.value(QStringLiteral("algorithm")).toString().toStdString();
            u.password.iterations = uint32_t(pw.value(QStringLiteral("iterations")).toDouble());
            u.password.salt = unb64(pw.value(QStringLiteral("salt")).toString());
            u.password.hash = unb64(pw.value(QStringLiteral("hash")).toString());
            if (u.password.algorithm != PasswordHash::kAlgorithm || u.password.iterations == 0 ||
                u.password.hash.size() != kHashBytes || u.password.salt.empty()) {
                if (error)
                    *error = QStringLiteral("user \"%1\": unusable password hash")
                                 .arg(QString::fromStdString(u.name));
                return std::nullopt;
            }
        }
        u.certificateThumbprint =
            j.value(QStringLiteral("certificateThumbprint")).toString().toUpper().toStdString();
        db.users.push_back(std::move(u));
    }
    return db;
}

UserStore::UserStore(UserDatabase database)
    : m_database(std::make_shared<const UserDatabase>(std::move(database))) {}

void UserStore::replace(UserDatabase database) {
    m_database.store(std::make_shared<const UserDatabase>(std::move(database)), std::memory_order_release);
}

bool UserStore::load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = f.errorString();
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        if (error) *error = pe.errorString();
        return false;
    }
    std::optional<UserDatabase> db = UserDatabase::fromJson(doc.object(), error);
    if (!db) return false;
    replace(std::move(*db));
    return true;
}

bool UserStore::save(const QString& path, QString* error) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error) *error = f.errorString();
        return false;
    }
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(QJsonDocument(snapshot()->toJson()).toJson());
    if (!f.commit()) {
        if (error) *error = f.errorString();
        return false;
    }
    return true;
}

UserStore::Login UserStore::authenticate(std::string_view userName, std::string_view password,
                                         int64_t nowMs) {
    const std::shared_ptr<const UserDatabase> db = snapshot();
    const UserRecord* user = db->find(userName);
    if (!user || user->password.isNull()) {
        (void)dummyHash().verify(password);
        return {status::BadUserAccessDenied};
    }
    const std::string key(userName);
    {
        std::lock_guard lock(m_attemptsMutex);
        auto it = m_attempts.find(key);
        if (it != m_attempts.end() && it->second.lockedUntilMs > nowMs) return {status::BadUserAccessDenied};
    }
    const bool ok = user->password.verify(password);
    std::unique_lock lock(m_attemptsMutex);
    if (ok) {
        m_attempts.erase(key);
        return {status::Good, user->roles | roleBit(Role::AuthenticatedUser)};
    }
    Attempts& a = m_attempts[key];
    if (a.lockedUntilMs > nowMs) return {status::BadUserAccessDenied}; // locked out meanwhile
    ++a.failed;
    if (db->maxFailedAuthenticationAttempts && a.failed >= db->maxFailedAuthenticationAttempts) {
        a.lockedUntilMs = nowMs + int64_t(db->lockoutSeconds) * 1000;
        a.failed = 0;
        lock.unlock();
        // Once, when the lockout starts (the attempts refused during it log as failed logins).
        qCWarning(lcAudit, "user '%s' locked out for %u s, until %s, after %u failed logins in a row", key.c_str(),
                  db->lockoutSeconds,
                  qPrintable(QDateTime::currentDateTimeUtc().addSecs(db->lockoutSeconds).toString(Qt::ISODate)),
                  db->maxFailedAuthenticationAttempts);
    }
    return {status::BadUserAccessDenied};
}

bool UserStore::isLockedOut(std::string_view userName, int64_t nowMs) const {
    return lockedOutUntilMs(userName, nowMs) != 0;
}

int64_t UserStore::lockedOutUntilMs(std::string_view userName, int64_t nowMs) const {
    std::lock_guard lock(m_attemptsMutex);
    auto it = m_attempts.find(std::string(userName));
    return it != m_attempts.end() && it->second.lockedUntilMs > nowMs ? it->second.lockedUntilMs : 0;
}

void UserStore::unlock(std::string_view userName) {
    std::lock_guard lock(m_attemptsMutex);
    m_attempts.erase(std::string(userName));
}

} // namespace ua
