#include "HistorySettings.h"

#include "JsonFields.h"

#include <QJsonArray>
#include <QStandardPaths>

#include <cmath>

namespace ua::app {

namespace {

constexpr double kWeekMs = 7.0 * 24 * 3600 * 1000;

using json::boolean;
using json::number;

} // namespace

std::vector<HistoryNodeSetting> HistorySettings::demoSignals() {
    std::vector<HistoryNodeSetting> out;
    for (const char* name : {"Sine", "Ramp", "Random"})
        out.push_back({QStringLiteral("nsu=urn:ua-workbench:demo;s=Demo.Simulation.%1").arg(QLatin1String(name)), 1000, 0, kWeekMs,
                       false});
    return out;
}

// A day: the demo raises an event a second by default (about 86,400 rows, 20 MB a day).
std::vector<HistoryEventSetting> HistorySettings::serverEvents() { return {{QStringLiteral("i=2253"), 86'400'000}}; }

QString HistorySettings::defaultDatabase() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.sqlite");
}

QJsonObject HistorySettings::toJson() const {
    QJsonArray a;
    for (const HistoryNodeSetting& n : nodes)
        a.append(QJsonObject{{"nodeId", n.nodeId}, {"samplingIntervalMs", n.samplingIntervalMs}, {"maxValues", n.maxValues},
                             {"maxAgeMs", n.maxAgeMs}, {"stepped", n.stepped}});
    QJsonArray e;
    for (const HistoryEventSetting& n : events) e.append(QJsonObject{{"notifier", n.notifier}, {"maxAgeMs", n.maxAgeMs}});
    return QJsonObject{{"enabled", enabled}, {"database", database}, {"durabilityMs", durabilityMs}, {"nodes", a}, {"events", e}};
}

bool HistorySettings::fromJson(const QJsonObject& o, HistorySettings* out, QString* error) {
    const QString where = QStringLiteral("history");
    HistorySettings s;
    if (!boolean(o, "enabled", &s.enabled, where, error) || !number(o, "durabilityMs", &s.durabilityMs, 0, 3'600'000, where, error))
        return false;
    if (const QJsonValue v = o.value(QLatin1String("database")); !v.isUndefined()) {
        if (!v.isString()) {
            if (error) *error = QStringLiteral("history.database: expected a file path");
            return false;
        }
        s.database = v.toString();
    }
    if (const QJsonValue v = o.value(QLatin1String("nodes")); !v.isUndefined()) {
        if (!v.isArray()) {
            if (error) *error = QStringLiteral("history.nodes: expected an array");
            return false;
        }
        s.nodes.clear();
        for (const QJsonValue& x : v.toArray()) {
            const QJsonObject n = x.toObject();
            HistoryNodeSetting h;
            h.nodeId = n.value(QLatin1String("nodeId")).toString();
            if (!x.isObject() || !ExpandedNodeId::parse(h.nodeId.toStdString())) {
                if (error) *error = QStringLiteral("history.nodes: each needs a nodeId (e.g. ns=2;s=Name or nsu=URI;s=Name)");
                return false;
            }
            const QString at = QStringLiteral("history.nodes[%1]").arg(h.nodeId);
            if (!number(n, "samplingIntervalMs", &h.samplingIntervalMs, 10, 86'400'000, at, error) ||
                !number(n, "maxValues", &h.maxValues, 0, 1e15, at, error) || !number(n, "maxAgeMs", &h.maxAgeMs, 0, 1e15, at, error) ||
                !boolean(n, "stepped", &h.stepped, at, error))
                return false;
            s.nodes.push_back(std::move(h));
        }
    }
    if (const QJsonValue v = o.value(QLatin1String("events")); !v.isUndefined()) {
        if (!v.isArray()) {
            if (error) *error = QStringLiteral("history.events: expected an array");
            return false;
        }
        s.events.clear();
        for (const QJsonValue& x : v.toArray()) {
            const QJsonObject n = x.toObject();
            HistoryEventSetting h;
            h.notifier = n.value(QLatin1String("notifier")).toString();
            if (!x.isObject() || !ExpandedNodeId::parse(h.notifier.toStdString())) {
                if (error) *error = QStringLiteral("history.events: each needs a notifier (e.g. i=2253 or nsu=URI;s=Name)");
                return false;
            }
            const QString at = QStringLiteral("history.events[%1]").arg(h.notifier);
            if (!number(n, "maxAgeMs", &h.maxAgeMs, 0, 1e15, at, error)) return false;
            s.events.push_back(std::move(h));
        }
    }
    *out = std::move(s);
    return true;
}

void HistorySettings::setNode(const HistoryNodeSetting& node, bool on) {
    const auto key = ExpandedNodeId::parse(node.nodeId.toStdString());
    std::erase_if(nodes, [&](const HistoryNodeSetting& n) {
        const auto other = ExpandedNodeId::parse(n.nodeId.toStdString());
        return key && other ? *key == *other : n.nodeId == node.nodeId;
    });
    if (on) nodes.push_back(node);
}

void HistorySettings::apply(ServerConfig& c) const {
    if (!enabled) return;
    c.history.databasePath = database.isEmpty() ? defaultDatabase() : database;
    c.history.durabilityMs = int64_t(durabilityMs);
    for (const HistoryNodeSetting& n : nodes) {
        const auto id = ExpandedNodeId::parse(n.nodeId.toStdString());
        if (!id) continue;
        HistorizedNode h;
        h.node = id->nodeId;
        h.namespaceUri = id->namespaceUri.str();
        h.samplingIntervalMs = n.samplingIntervalMs;
        h.limits.maxValues = uint64_t(n.maxValues);
        h.limits.maxAgeMs = int64_t(n.maxAgeMs);
        h.settings.stepped = n.stepped;
        c.history.nodes.push_back(std::move(h));
    }
    for (const HistoryEventSetting& n : events) {
        const auto id = ExpandedNodeId::parse(n.notifier.toStdString());
        if (!id) continue;
        HistorizedNotifier h;
        h.node = id->nodeId;
        h.namespaceUri = id->namespaceUri.str();
        h.maxAgeMs = int64_t(n.maxAgeMs);
        c.history.eventNotifiers.push_back(std::move(h));
    }
}

} // namespace ua::app
