// The configuration editor on the Server page: a form over ServerSettings (endpoint, security
// policies and modes, user token types, PKI folder, threads, the Session limits and every
// Subscription limit of SettingLimits.h, demo options, shutdown delay, the Reverse Connect client
// URLs).
// The users are edited on the Certificates page; they pass through unchanged here.
#pragma once

#include "ServerSettings.h"

#include "SettingLimits.h"

#include <QWidget>
#include <map>
#include <utility>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace ua::app {

class SettingsEditor : public QWidget {
    Q_OBJECT
public:
    explicit SettingsEditor(QWidget* parent = nullptr);
    void setSettings(const ServerSettings& settings);
    // The form's values over the users and other fields of the last setSettings().
    ServerSettings settings() const;
    // Why the form's values cannot be saved ("" when they can): a Reverse Connect line that is not
    // an opc.tcp://host:port URL (validReverseConnectUrl, as the file and --reverse-connect).
    QString problem() const;
    // Replaces the users passed through (the anonymous Roles check box keeps its state).
    void setUsers(const UserDatabase& users) { m_base.users = users; }
    // Replaces the historized nodes passed through (the window's Historize, saved at once).
    void setHistoryNodes(const std::vector<HistoryNodeSetting>& nodes) { m_base.history.nodes = nodes; }

signals:
    void edited();

private:
    ServerSettings m_base;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QSpinBox* m_threads;
    QLineEdit* m_pki;
    std::map<std::pair<SecurityPolicyId, MessageSecurityMode>, QCheckBox*> m_endpoints;
    QCheckBox* m_deprecated;
    QCheckBox* m_anonymous;
    QCheckBox* m_userName;
    QCheckBox* m_x509;
    QCheckBox* m_anonymousWrites;
    QPlainTextEdit* m_reverseUrls;  // reverseConnect.clientUrls, one a line
    QLabel* m_reverseProblem;       // problem(), shown under it while there is one
    QStringList reverseUrls() const;  // the non-empty lines, trimmed
    void showProblem();
    // One field per SettingLimit (a QSpinBox for counts, a QDoubleSpinBox for durations).
    struct LimitField {
        const SettingLimit* limit;
        QSpinBox* count = nullptr;
        QDoubleSpinBox* value = nullptr;
    };
    void addLimits(QFormLayout* form, const std::vector<SettingLimit>& limits);
    std::vector<LimitField> m_limits;
    QSpinBox* m_demoEvents;
    QSpinBox* m_shutdownDelay;
};

} // namespace ua::app
