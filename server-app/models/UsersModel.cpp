#include "models/UsersModel.h"

#include "ua/server/runtime/Server.h"

#include <QDateTime>

namespace ua::serverapp {

namespace {

QString notAssignable() {
    return UsersModel::tr("Anonymous and AuthenticatedUser are not assigned: a Session gets them from how it logs in");
}

} // namespace

UsersModel::UsersModel(UserStore& store, QObject* parent) : KeyedTableModel(parent), m_store(store) { refresh(); }

void UsersModel::setSaveFunction(std::function<bool(const UserStore&, QString*)> save) { m_save = std::move(save); }

void UsersModel::setFilePath(const QString& path) {
    if (path.isEmpty()) {
        m_save = nullptr;
        return;
    }
    m_save = [path](const UserStore& store, QString* error) { return store.save(path, error); };
}

std::vector<Role> UsersModel::assignableRoles() {
    std::vector<Role> out;
    for (int r = 0; r < kRoleCount; ++r)
        if (kAssignableRoles & roleBit(Role(r))) out.push_back(Role(r));
    return out;
}

void UsersModel::refresh() {
    const auto db = m_store.snapshot();
    const int64_t now = Server::monotonicMs();
    std::vector<UserRow> rows;
    rows.reserve(db->users.size());
    std::unordered_map<int64_t, qint64> wall;
    for (const UserRecord& u : db->users) {
        qint64 until = 0;
        if (const int64_t end = m_store.lockedOutUntilMs(u.name, now)) {
            auto it = m_lockoutWallMs.find(end);
            // Rounded up to the second the lockout is over by.
            until = it != m_lockoutWallMs.end() ? it->second
                                                : (QDateTime::currentMSecsSinceEpoch() + (end - now) + 999) / 1000 * 1000;
            wall[end] = until;
        }
        rows.push_back({u.name, u.roles, !u.password.isNull(), u.certificateThumbprint, until});
    }
    m_lockoutWallMs = std::move(wall);
    replaceRows(std::move(rows));
}

QString UsersModel::userName(int row) const {
    return row >= 0 && row < rowCount() ? QString::fromStdString(rowAt(row).name) : QString();
}

bool UsersModel::change(const std::function<bool(UserDatabase&)>& edit) {
    m_error.clear();
    UserDatabase db = *m_store.snapshot();
    if (!edit(db)) {
        refresh();
        return false;
    }
    m_store.replace(std::move(db));
    refresh();
    if (m_save && !m_save(m_store, &m_error)) {
        if (m_error.isEmpty()) m_error = tr("cannot save the users");
        return false;
    }
    return true;
}

namespace {
QString usersRoleList(RoleSet roles) {
    QStringList names;
    for (const std::string& n : ua::roleNames(roles)) names << QString::fromStdString(n);
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}
} // namespace

bool UsersModel::addUser(const QString& name, const QString& password, RoleSet roles) {
    const std::string n = name.toStdString();
    const bool ok = change([&](UserDatabase& db) {
        if (roles & ~kAssignableRoles) {
            m_error = notAssignable();
            return false;
        }
        if (n.empty()) {
            m_error = tr("a user needs a name");
            return false;
        }
        if (db.find(n)) {
            m_error = tr("user %1 exists").arg(name);
            return false;
        }
        db.setUser(n, password.toStdString(), roles, m_iterations);
        return true;
    });
    m_audit.line(ok, tr("added user '%1' (Roles: %2)").arg(name, usersRoleList(roles)), tr("could not add user '%1'").arg(name),
                 m_error);
    return ok;
}

bool UsersModel::removeUser(int row) {
    const QString name = userName(row);
    const std::string n = name.toStdString();
    const bool ok = change([&](UserDatabase& db) {
        if (n.empty() || !db.removeUser(n)) {
            m_error = tr("no such user");
            return false;
        }
        return true;
    });
    m_audit.line(ok, tr("removed user '%1'").arg(name), tr("could not remove user '%1'").arg(name), m_error);
    return ok;
}

bool UsersModel::setPassword(int row, const QString& password) {
    const QString name = userName(row);
    const std::string n = name.toStdString();
    const bool ok = change([&](UserDatabase& db) {
        const UserRecord* u = n.empty() ? nullptr : db.find(n);
        if (!u) {
            m_error = tr("no such user");
            return false;
        }
        db.setUser(n, password.toStdString(), u->roles, m_iterations);  // keeps the certificate mapping
        return true;
    });
    m_audit.line(ok, tr("set the password of user '%1'").arg(name), tr("could not set the password of user '%1'").arg(name),
                 m_error);
    return ok;
}

bool UsersModel::setRoles(int row, RoleSet roles) {
    const QString name = userName(row);
    const std::string n = name.toStdString();
    const bool ok = change([&](UserDatabase& db) {
        if (roles & ~kAssignableRoles) {
            m_error = notAssignable();
            return false;
        }
        for (UserRecord& u : db.users)
            if (!n.empty() && u.name == n) {
                u.roles = roles;
                return true;
            }
        m_error = tr("no such user");
        return false;
    });
    m_audit.line(ok, tr("set the Roles of user '%1' to %2").arg(name, usersRoleList(roles)),
                 tr("could not set the Roles of user '%1'").arg(name), m_error);
    return ok;
}

bool UsersModel::unlock(int row) {
    const QString name = userName(row);
    const std::string n = name.toStdString();
    m_error.clear();
    if (n.empty()) {
        m_error = tr("no such user");
        m_audit.line(false, {}, tr("could not unlock a user"), m_error);
        return false;
    }
    const bool wasLockedOut = m_store.isLockedOut(n, Server::monotonicMs());
    m_store.unlock(n);
    refresh();
    m_audit.line(true, wasLockedOut ? tr("unlocked user '%1' (was locked out)").arg(name)
                                    : tr("unlocked user '%1' (was not locked out; its failed logins are forgotten)").arg(name),
                 {});
    return true;
}

QVariant UsersModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const UserRow& u = rowAt(index.row());
    if (role == Qt::ToolTipRole && index.column() == LockedOut && u.lockedUntilMs)
        return tr("Locked out after too many wrong passwords, until %1 UTC (Unlock ends it now)")
            .arg(QDateTime::fromMSecsSinceEpoch(u.lockedUntilMs, Qt::UTC).toString(Qt::ISODate));
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (Column(index.column())) {
    case Name: return QString::fromStdString(u.name);
    case Roles: {
        if (sort) return qulonglong(u.roles);
        QStringList names;
        for (const std::string& n : ua::roleNames(u.roles)) names << QString::fromStdString(n);
        return names.join(QStringLiteral(", "));
    }
    case Password: return sort ? QVariant(u.hasPassword) : QVariant(u.hasPassword ? tr("set") : QString());
    case Certificate: return QString::fromStdString(u.certificateThumbprint);
    case LockedOut: {
        if (sort) return u.lockedUntilMs != 0;
        if (!u.lockedUntilMs) return QString();
        const QDateTime until = QDateTime::fromMSecsSinceEpoch(u.lockedUntilMs).toLocalTime();
        return until.date() == QDate::currentDate() ? tr("until %1").arg(until.toString(QStringLiteral("HH:mm:ss")))
                                                     : tr("until %1").arg(until.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    }
    case ColumnCount: break;
    }
    return {};
}

QVariant UsersModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Name: return tr("User");
    case Roles: return tr("Roles");
    case Password: return tr("Password");
    case Certificate: return tr("Certificate");
    case LockedOut: return tr("Locked out");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::serverapp
