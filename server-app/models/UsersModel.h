// The users of a Server's UserStore (ua/server/users/UserStore.h): name, Roles, whether a password
// and an X509 certificate are set, and whether the user is locked out now. Changes (add, remove,
// set password, set Roles, unlock) copy the current UserDatabase, edit the copy and publish it with
// UserStore::replace (ActivateSession keeps reading snapshots without a lock), then save it when
// a save function is set (setFilePath: UserStore::save to that JSON file, mode 0600).
// Every change is an audit line naming the administrator and the user (setAudit, AdminAudit.h;
// never a password). Rows are keyed by user name; refresh() (after a change, or from a timer for
// the lockout column) re-reads the store.
#pragma once

#include "models/AdminAudit.h"
#include "models/KeyedTableModel.h"
#include "ua/server/users/UserStore.h"

#include <QStringList>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ua::serverapp {

struct UserRow {
    std::string name;
    RoleSet roles = kNoRoles;
    bool hasPassword = false;
    std::string certificateThumbprint;
    qint64 lockedUntilMs = 0;  // wall clock (ms since 1970 UTC, whole seconds) the lockout ends; 0: not locked out
    friend bool operator==(const UserRow&, const UserRow&) = default;
};

class UsersModel : public KeyedTableModel<UserRow, std::string> {
    Q_OBJECT
public:
    enum Column {
        Name,
        Roles,        // "Operator, Engineer" (SortRole: the RoleSet bits)
        Password,     // "set" / "" (the hash never leaves the store)
        Certificate,  // the mapped X509 user certificate's thumbprint, "" if none
        LockedOut,    // "until 14:05:09" (local time; the date too when not today) / "" (SortRole:
                      // bool; ToolTipRole: the UTC time); UserStore::lockedOutUntilMs
        ColumnCount
    };
    Q_ENUM(Column)

    explicit UsersModel(UserStore& store, QObject* parent = nullptr);

    // After a change the database is saved with save (false and *error on failure: the change
    // stays published and lastError() tells). Unset: nothing is saved.
    void setSaveFunction(std::function<bool(const UserStore& store, QString* error)> save);
    // A save function writing the store to path (UserStore::save).
    void setFilePath(const QString& path);
    // Who acts (default: the window's administrator).
    void setAudit(AdminAudit audit) { m_audit = std::move(audit); }
    // PBKDF2 iterations for new passwords (default PasswordHash::kDefaultIterations; tests lower it).
    void setPasswordIterations(uint32_t iterations) { m_iterations = iterations; }

    // Each returns false (and lastError()) when nothing was changed or saving failed. addUser and
    // setRoles take assignable Roles only (kAssignableRoles).
    bool addUser(const QString& name, const QString& password, RoleSet roles);  // a new name only
    bool removeUser(int row);
    bool setPassword(int row, const QString& password);
    bool setRoles(int row, RoleSet roles);
    bool unlock(int row);
    QString lastError() const { return m_error; }

    void refresh();
    QString userName(int row) const;

    // The Roles an administrator assigns: all but Anonymous and AuthenticatedUser, which a Session
    // gets from how it logs in (OPC 10000-3 4.9.2 well-known Roles; UserStore adds
    // AuthenticatedUser to every password or certificate login).
    static constexpr RoleSet kAssignableRoles = ~(roleBit(Role::Anonymous) | roleBit(Role::AuthenticatedUser)) &
                                                ((RoleSet(1) << kRoleCount) - 1);
    // Those Roles in Role order, for the window's check boxes.
    static std::vector<Role> assignableRoles();

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const UserRow& r) const override { return r.name; }

private:
    bool change(const std::function<bool(UserDatabase&)>& edit);

    UserStore& m_store;
    std::function<bool(const UserStore&, QString*)> m_save;
    uint32_t m_iterations = PasswordHash::kDefaultIterations;
    QString m_error;
    AdminAudit m_audit;
    // The wall-clock end of each lockout seen, by its monotonic end: the same text every refresh.
    std::unordered_map<int64_t, qint64> m_lockoutWallMs;
};

} // namespace ua::serverapp
