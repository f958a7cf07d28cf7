// The list of servers the user connected to, most recent first (issue 7 items 1 and 12: reconnect
// from the history in at most two clicks). Stored with QSettings (organization "ua-workbench",
// application "ua-client", key "servers") or in a given file; at most `limit` entries; an entry is
// moved to the top when used again (ConnectionSettings::sameTarget).
#pragma once

#include "core/ConnectionSettings.h"

#include <QAbstractListModel>
#include <memory>
#include <vector>

namespace ua::clientapp {

class ServerHistory : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { SettingsRole = Qt::UserRole + 1, UrlRole };
    // settingsFile empty: the user's QSettings; else that INI file (tests).
    explicit ServerHistory(const QString& settingsFile = {}, int limit = 20, QObject* parent = nullptr);

    const std::vector<ConnectionSettings>& entries() const { return m_entries; }
    // Adds or moves to the top, and saves.
    void use(const ConnectionSettings& settings);
    void remove(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;  // label(), tooltip: URL

private:
    void load();
    void save() const;
    QString m_file;
    int m_limit;
    std::vector<ConnectionSettings> m_entries;
};

} // namespace ua::clientapp
