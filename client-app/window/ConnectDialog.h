// The Connect dialog (issue 7 item 1): the endpoint URL with the server history, Discover
// (FindServers + GetEndpoints through Connection::discover, without blocking: the button turns into
// Stop while it runs) listing every server and each of its endpoints with SecurityPolicy, mode, user
// token types and security level, the user identity (anonymous, user name + password, certificate +
// private key files), and Connect. Choosing an endpoint fixes the policy and mode; "best available"
// leaves the choice to the client (ClientConfig). Double-clicking an endpoint connects. A URL that
// cannot work (no opc.tcp:// scheme, no host, a bad port) is refused in the dialog with the reason.
#pragma once

#include "core/ConnectionSettings.h"
#include "ua/client/discovery/Discovery.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace ua::clientapp {

class Connection;
class ServerHistory;

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    ConnectDialog(Connection* connection, ServerHistory* history, QWidget* parent = nullptr);

    // What Connect will use: URL, chosen endpoint (or best), identity with the password typed.
    ConnectionSettings settings() const;
    void setSettings(const ConnectionSettings& settings);
    // Starts discovery of the URL in the field (the Discover button).
    void discover();
    bool discovering() const { return m_discovering; }
    QTreeWidget* endpointTree() const { return m_tree; }
    // Selects the endpoint row with this policy URI and mode; false when none is listed.
    bool selectEndpoint(const QString& policyUri, MessageSecurityMode mode);
    // Why the URL in the field cannot be used (endpointUrlProblem), empty when it can. While it is
    // not empty the problem shows under the field, Connect and Discover are disabled and accept()
    // keeps the dialog open.
    QString urlProblem() const;
    void accept() override;

signals:
    void discovered(const ua::DiscoveryResult& result);

private:
    void showDiscovery(const DiscoveryResult& result, const QString& url);
    void endpointChosen();
    void identityChanged();
    void historyChosen(int index);
    void urlChanged();

    Connection* m_connection;
    ServerHistory* m_history;
    QComboBox* m_url;
    QPushButton* m_discover;
    QLabel* m_status;
    QLabel* m_urlError;
    QTreeWidget* m_tree;
    QComboBox* m_identity;
    QStackedWidget* m_identityPages;
    QLineEdit* m_user;
    QLineEdit* m_password;
    QLineEdit* m_certFile;
    QLineEdit* m_keyFile;
    QLabel* m_endpointLabel;
    QSpinBox* m_reversePort;
    QPushButton* m_connect;
    QString m_policy;
    MessageSecurityMode m_mode = MessageSecurityMode::Invalid;
    QString m_displayName;
    QString m_displayNameUrl;  // the URL m_displayName belongs to
    bool m_discovering = false;
    int m_discoveryRound = 0;
};

// Short names for lists: "Basic256Sha256", "SignAndEncrypt", "Anonymous, UserName".
QString policyShortName(const QString& policyUri);
QString modeName(MessageSecurityMode mode);
QString tokenTypeNames(const Array<UserTokenPolicy>& tokens);

} // namespace ua::clientapp
