// The Certificates page: the server's own certificate (details, days until it expires), the
// trusted and rejected client certificates (CertificatesModel) with Trust, Reject and Delete, and
// the users (UsersPanel). The lists are re-read every two seconds while the page is shown (client
// certificates are rejected into the store by the I/O threads).
#pragma once

#include "LiveServer.h"

#include <QTimer>
#include <QWidget>
#include <functional>

class QFormLayout;
class QLabel;
class QTableView;
class QVBoxLayout;

namespace ua {
struct UserDatabase;
}

namespace ua::serverapp {
class CertificatesModel;
}

namespace ua::app {

class UsersPanel;

class CertificatesPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    // saveUsers: writes the users into the configuration file.
    explicit CertificatesPage(std::function<bool(const UserDatabase&, QString*)> saveUsers, QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    serverapp::CertificatesModel* trustedModel() const { return m_trusted; }
    serverapp::CertificatesModel* rejectedModel() const { return m_rejected; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* makeList(const QString& title, const QString& objectName, serverapp::CertificatesModel* model,
                      const QStringList& actions);
    void showOwnCertificate();

    std::function<bool(const UserDatabase&, QString*)> m_saveUsers;
    LiveServer* m_live = nullptr;
    serverapp::CertificatesModel* m_trusted = nullptr;
    serverapp::CertificatesModel* m_rejected = nullptr;
    UsersPanel* m_users = nullptr;
    QLabel* m_own;
    QVBoxLayout* m_lists;
    QVBoxLayout* m_usersBox;
    QLabel* m_status;
    QTimer m_timer;
};

} // namespace ua::app
