// The Server page: state (from the Server object's atomics), start/stop, the endpoints offered,
// and the configuration editor with Save (the file headless mode reads too).
#pragma once

#include "LiveServer.h"
#include "ServerSettings.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace ua::app {

class SettingsEditor;

class ServerPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    ServerPage(const ServerSettings& settings, const QString& configPath, QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    // Shown when the server is not running (start failed, or stopping).
    void setStatusText(const QString& text);
    // Saves the editor's settings to the configuration file; false and *error when it cannot.
    bool save(QString* error = nullptr);
    // The users changed on the Certificates page (saved there): the editor keeps them.
    void setUsers(const UserDatabase& users);
    void setHistoryNodes(const std::vector<HistoryNodeSetting>& nodes);

signals:
    void startRequested();
    void stopRequested();
    // The editor's settings were saved (they apply at the next start).
    void settingsSaved(const ServerSettings& settings);

private:
    void refresh();
    void setNextUrl(const ServerSettings& settings);

    LiveServer* m_live = nullptr;
    QString m_configPath;
    QString m_nextUrl;  // where the next start listens (the saved settings): shown while stopped
    QLabel* m_state;
    QLabel* m_url;
    QLabel* m_counts;
    QPushButton* m_start;
    QPushButton* m_stop;
    QTreeWidget* m_endpoints;
    SettingsEditor* m_editor;
    QLabel* m_saveStatus;
    QPushButton* m_save;
    QString m_status;
};

} // namespace ua::app
