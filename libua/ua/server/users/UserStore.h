// The users a Server knows (OPC 10000-4 5.7.3 ActivateSession with a UserNameIdentityToken or an
// X509IdentityToken; OPC 10000-18 user management): names, salted password hashes, Roles
// (users/Roles.h), and the failed-login lockout.
//
// Passwords are never stored: each user has PBKDF2-HMAC-SHA256 (OpenSSL PKCS5_PBKDF2_HMAC) of the
// password with a random 16-byte salt of its own, and the iteration count stored next to the hash so
// it can be raised later without invalidating existing users.
//
// A UserDatabase is a value that loads from and saves to JSON (QJsonObject), so the server
// application's configuration file can hold it (the "users" object):
//   { "maxFailedAuthenticationAttempts": 5, "lockoutSeconds": 300,
//     "anonymousRoles": ["Anonymous"],
//     "users": [ { "name": "alice", "roles": ["Operator"],
//                  "password": { "algorithm": "PBKDF2-HMAC-SHA256", "iterations": 100000,
//                                "salt": "<base64>", "hash": "<base64>" },
//                  "certificateThumbprint": "<SHA-1 hex of an X509 user certificate, optional>" } ] }
//
// The UserStore holds the current UserDatabase as an immutable snapshot (shared_ptr<const>),
// swapped atomically when it changes: ActivateSession reads it without a lock. Only the counters of
// failed attempts are mutable, under a mutex of their own.
#pragma once

#include "ua/server/users/Roles.h"
#include "ua/types/StatusCode.h"

#include <QJsonObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ua {

struct PasswordHash {
    static constexpr const char* kAlgorithm = "PBKDF2-HMAC-SHA256";
    // The default work factor: about 50 ms on one core of the development machine. ActivateSession
    // runs it on the I/O thread of the connection (docs/SessionSecurity.md).
    static constexpr uint32_t kDefaultIterations = 100'000;

    std::string algorithm = kAlgorithm;
    uint32_t iterations = 0;
    std::string salt; // bytes (16)
    std::string hash; // bytes (32)

    bool isNull() const { return hash.empty(); }
    // A new hash of password with a fresh random salt.
    static PasswordHash make(std::string_view password, uint32_t iterations = kDefaultIterations);
    // True when password hashes to this (constant-time comparison). False for an unknown algorithm.
    bool verify(std::string_view password) const;

    friend bool operator==(const PasswordHash&, const PasswordHash&) = default;
};

struct UserRecord {
    std::string name;         // the UserNameIdentityToken's userName (UTF-8, case-sensitive)
    PasswordHash password;    // null: the user cannot log in with a password
    RoleSet roles = kNoRoles; // AuthenticatedUser is added at login whatever this holds
    // Upper-case hex SHA-1 of an X509 user certificate mapped to this user (empty: none).
    std::string certificateThumbprint;

    friend bool operator==(const UserRecord&, const UserRecord&) = default;
};

struct UserDatabase {
    std::vector<UserRecord> users;
    // Failed password logins in a row after which a user is locked out (0: never), and for how long.
    uint32_t maxFailedAuthenticationAttempts = 5;
    uint32_t lockoutSeconds = 300;
    // The Roles of an anonymous Session.
    RoleSet anonymousRoles = roleBit(Role::Anonymous);

    const UserRecord* find(std::string_view name) const;
    const UserRecord* findByThumbprint(std::string_view thumbprintHex) const;
    // Adds a user or replaces the one with that name (the password is hashed here).
    void setUser(std::string name, std::string_view password, RoleSet roles,
                 uint32_t iterations = PasswordHash::kDefaultIterations);
    bool removeUser(std::string_view name);

    QJsonObject toJson() const;
    // Reads what toJson writes; nullopt (and *error) for a malformed object or an unknown role name.
    static std::optional<UserDatabase> fromJson(const QJsonObject& json, QString* error = nullptr);

    friend bool operator==(const UserDatabase&, const UserDatabase&) = default;
};

class UserStore {
public:
    explicit UserStore(UserDatabase database = {});

    // The current database (never null); a snapshot that stays valid while held.
    std::shared_ptr<const UserDatabase> snapshot() const {
        return m_database.load(std::memory_order_acquire);
    }
    // Publishes a new database; Sessions already activated keep their Roles.
    void replace(UserDatabase database);

    // Reads / writes a JSON file holding one UserDatabase object (written with mode 0600).
    bool load(const QString& path, QString* error = nullptr);
    bool save(const QString& path, QString* error = nullptr) const;

    struct Login {
        StatusCode status; // Good, or Bad_UserAccessDenied
        RoleSet roles = kNoRoles;
    };
    // Checks a password login at nowMs (a monotonic clock, ms). Bad_UserAccessDenied for an unknown
    // user, a wrong password, a user without a password, and for every attempt (even with the right
    // password, which is not checked then) while the user is locked out. The
    // maxFailedAuthenticationAttempts-th wrong password in a row locks the user out for
    // lockoutSeconds (logged once, in category "ua.audit", with until when); a successful login
    // resets the count. An unknown name costs the same hashing as a known one. Thread-safe; the
    // hashing runs without a lock held.
    Login authenticate(std::string_view userName, std::string_view password, int64_t nowMs);
    // True while userName is locked out.
    bool isLockedOut(std::string_view userName, int64_t nowMs) const;
    // When userName's lockout ends (the monotonic clock of authenticate's nowMs, ms), 0 when it is
    // not locked out at nowMs.
    int64_t lockedOutUntilMs(std::string_view userName, int64_t nowMs) const;
    // Ends a lockout and clears the failure count (an administrator's unlock).
    void unlock(std::string_view userName);

private:
    struct Attempts {
        uint32_t failed = 0;
        int64_t lockedUntilMs = 0;
    };
    std::atomic<std::shared_ptr<const UserDatabase>> m_database;
    mutable std::mutex m_attemptsMutex;
    std::unordered_map<std::string, Attempts> m_attempts; // known users with failures only
};

} // namespace ua
