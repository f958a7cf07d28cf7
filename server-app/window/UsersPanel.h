// The users part of the Certificates page: the Server's users (UsersModel) with Add, Remove,
// Set password, Roles (also a double-click on the user: the assignable Roles as check boxes) and
// Unlock. Changes are published to the running server at once
// (UserStore::replace) and saved in the configuration file's "users" object.
#pragma once

#include "ua/server/users/UserStore.h"

#include <QWidget>
#include <functional>

class QLabel;
class QTableView;

namespace ua::serverapp {
class UsersModel;
}

namespace ua::app {

class UsersPanel : public QWidget {
    Q_OBJECT
public:
    // save: writes the database into the configuration file (false and *error on failure).
    UsersPanel(UserStore& store, std::function<bool(const UserDatabase&, QString*)> save, QWidget* parent = nullptr);
    QTableView* view() const { return m_view; }
    serverapp::UsersModel* model() const { return m_model; }

private:
    int currentRow() const;
    void report(bool ok, const QString& what);
    void addUser();
    void setPassword();
    void editRoles();

    serverapp::UsersModel* m_model;
    QTableView* m_view;
    QLabel* m_status;
};

} // namespace ua::app
