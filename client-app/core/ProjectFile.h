// The workspace saved to and restored from a project file (issue 7 item 9): a JSON document (QJson)
//   { "format": "ua-workbench-client-project", "version": 1,
//     "server": ConnectionSettings (ConnectionSettings::toJson),
//     "subscription": { "publishingIntervalMs": 500, ... },
//     "monitoredItems": [ { "nodeId": "nsu=urn:x;s=Temp", "displayName": "Temp",
//                           "samplingIntervalMs": 250, "queueSize": 1, "deadbandType": 0,
//                           "deadbandValue": 0, "trend": true }, ... ],
//     "events": { "notifier": "i=2253", "fields": ["Time", "SourceName", ...] },
//     "layout": { "geometry": base64, "state": base64, "trendWindowS": 60 } }
// NodeIds are stored with the namespace URI (`nsu=`, NodeIdConverter) so the project survives a
// server whose namespace indexes change; namespace 0 keeps "i=...".
#pragma once

#include "core/ConnectionSettings.h"
#include "ua/client/subscriptions/ClientSubscription.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace ua::clientapp {

struct ProjectItem {
    QString nodeId;                 // persistent form: "nsu=<uri>;s=..." or "i=..."
    QString displayName;
    double samplingIntervalMs = -1; // -1: the publishing interval
    uint32_t queueSize = 1;
    uint32_t deadbandType = 0;      // DeadbandType: 0 None, 1 Absolute, 2 Percent
    double deadbandValue = 0;
    bool trend = false;             // shown in the trend plot
};

struct Project {
    ConnectionSettings server;
    SubscriptionSettings subscription;
    std::vector<ProjectItem> monitoredItems;
    QString eventNotifier = QStringLiteral("i=2253");   // persistent NodeId form
    QStringList eventFields;                            // BaseEventType field browse names
    QByteArray windowGeometry;      // QWidget::saveGeometry()
    QByteArray windowState;         // QMainWindow::saveState()
    int trendWindowSeconds = 60;
};

// Writes the project; false and *error on failure.
bool saveProject(const Project& project, const QString& path, QString* error = nullptr);
// Reads a project; nullopt and *error ("not a project file", "version 2 is newer than this
// program", a JSON parse error with its offset) on failure.
std::optional<Project> loadProject(const QString& path, QString* error = nullptr);

} // namespace ua::clientapp
