#include "core/ServerHistory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace ua::clientapp {

namespace {

const QString kKey = QStringLiteral("servers");

std::unique_ptr<QSettings> openSettings(const QString& file) {
    if (file.isEmpty()) return std::make_unique<QSettings>(QStringLiteral("ua-workbench"), QStringLiteral("ua-client"));
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}

} // namespace

ServerHistory::ServerHistory(const QString& settingsFile, int limit, QObject* parent)
    : QAbstractListModel(parent), m_file(settingsFile), m_limit(std::max(1, limit)) {
    load();
}

void ServerHistory::load() {
    // One JSON array under "servers" (a QSettings list of maps would depend on the format).
    const auto settings = openSettings(m_file);
    const QJsonArray array = QJsonDocument::fromJson(settings->value(kKey).toString().toUtf8()).array();
    for (const auto& v : array) {
        if (int(m_entries.size()) >= m_limit) break;
        ConnectionSettings s = ConnectionSettings::fromJson(v.toObject());
        if (s.endpointUrl.isEmpty()) continue;
        m_entries.push_back(std::move(s));
    }
}

void ServerHistory::save() const {
    QJsonArray array;
    for (const auto& e : m_entries) array.append(e.toJson());  // without passwords
    const auto settings = openSettings(m_file);
    settings->setValue(kKey, QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
    settings->sync();
}

void ServerHistory::use(const ConnectionSettings& settings) {
    ConnectionSettings entry = settings;
    entry.password.clear();
    const auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const auto& e) { return e.sameTarget(entry); });
    if (it != m_entries.end()) {
        const int row = int(it - m_entries.begin());
        if (row > 0) {
            beginMoveRows({}, row, row, {}, 0);
            m_entries.erase(it);
            m_entries.insert(m_entries.begin(), std::move(entry));
            endMoveRows();
        } else {
            m_entries[0] = std::move(entry);  // e.g. its displayName is known now
            emit dataChanged(index(0), index(0));
        }
    } else {
        beginInsertRows({}, 0, 0);
        m_entries.insert(m_entries.begin(), std::move(entry));
        endInsertRows();
        if (int(m_entries.size()) > m_limit) {
            beginRemoveRows({}, m_limit, int(m_entries.size()) - 1);
            m_entries.resize(std::size_t(m_limit));
            endRemoveRows();
        }
    }
    save();
}

void ServerHistory::remove(int row) {
    if (row < 0 || row >= int(m_entries.size())) return;
    beginRemoveRows({}, row, row);
    m_entries.erase(m_entries.begin() + row);
    endRemoveRows();
    save();
}

int ServerHistory::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_entries.size()); }

QVariant ServerHistory::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ConnectionSettings& e = m_entries[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return e.label();
    case Qt::ToolTipRole:
    case UrlRole: return e.endpointUrl;
    case SettingsRole: return QVariant::fromValue(e);
    default: return {};
    }
}

} // namespace ua::clientapp
