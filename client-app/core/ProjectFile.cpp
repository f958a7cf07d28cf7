#include "core/ProjectFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace ua::clientapp {

namespace {

const QString kFormat = QStringLiteral("ua-workbench-client-project");
constexpr int kVersion = 1;

QJsonObject itemToJson(const ProjectItem& i) {
    return QJsonObject{{QStringLiteral("nodeId"), i.nodeId},
                       {QStringLiteral("displayName"), i.displayName},
                       {QStringLiteral("samplingIntervalMs"), i.samplingIntervalMs},
                       {QStringLiteral("queueSize"), qint64(i.queueSize)},
                       {QStringLiteral("deadbandType"), qint64(i.deadbandType)},
                       {QStringLiteral("deadbandValue"), i.deadbandValue},
                       {QStringLiteral("trend"), i.trend}};
}

ProjectItem itemFromJson(const QJsonObject& o) {
    ProjectItem i;
    i.nodeId = o.value(QStringLiteral("nodeId")).toString();
    i.displayName = o.value(QStringLiteral("displayName")).toString();
    i.samplingIntervalMs = o.value(QStringLiteral("samplingIntervalMs")).toDouble(-1);
    i.queueSize = uint32_t(o.value(QStringLiteral("queueSize")).toInteger(1));
    i.deadbandType = uint32_t(o.value(QStringLiteral("deadbandType")).toInteger(0));
    i.deadbandValue = o.value(QStringLiteral("deadbandValue")).toDouble(0);
    i.trend = o.value(QStringLiteral("trend")).toBool(false);
    return i;
}

QString base64(const QByteArray& b) { return QString::fromLatin1(b.toBase64()); }
QByteArray fromBase64(const QJsonValue& v) { return QByteArray::fromBase64(v.toString().toLatin1()); }

} // namespace

bool saveProject(const Project& p, const QString& path, QString* error) {
    QJsonObject sub{{QStringLiteral("publishingIntervalMs"), p.subscription.publishingIntervalMs},
                    {QStringLiteral("lifetimeCount"), qint64(p.subscription.lifetimeCount)},
                    {QStringLiteral("maxKeepAliveCount"), qint64(p.subscription.maxKeepAliveCount)},
                    {QStringLiteral("maxNotificationsPerPublish"), qint64(p.subscription.maxNotificationsPerPublish)},
                    {QStringLiteral("publishingEnabled"), p.subscription.publishingEnabled},
                    {QStringLiteral("priority"), int(p.subscription.priority)}};
    QJsonArray items;
    for (const auto& i : p.monitoredItems) items.append(itemToJson(i));
    QJsonObject root{{QStringLiteral("format"), kFormat},
                     {QStringLiteral("version"), kVersion},
                     {QStringLiteral("server"), p.server.toJson()},
                     {QStringLiteral("subscription"), sub},
                     {QStringLiteral("monitoredItems"), items},
                     {QStringLiteral("events"), QJsonObject{{QStringLiteral("notifier"), p.eventNotifier},
                                                            {QStringLiteral("fields"), QJsonArray::fromStringList(p.eventFields)}}},
                     {QStringLiteral("layout"), QJsonObject{{QStringLiteral("geometry"), base64(p.windowGeometry)},
                                                            {QStringLiteral("state"), base64(p.windowState)},
                                                            {QStringLiteral("trendWindowS"), p.trendWindowSeconds}}}};
    QSaveFile f(path);  // written whole or not at all
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(root).toJson()) < 0 || !f.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

std::optional<Project> loadProject(const QString& path, QString* error) {
    auto fail = [error](QString message) -> std::optional<Project> {
        if (error) *error = std::move(message);
        return std::nullopt;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return fail(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("%1: JSON error at offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString()));
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QStringLiteral("format")).toString() != kFormat)
        return fail(QStringLiteral("%1 is not a project file").arg(path));
    const int version = root.value(QStringLiteral("version")).toInt(0);
    if (version > kVersion)
        return fail(QStringLiteral("%1: version %2 is newer than this program").arg(path).arg(version));
    if (version < 1) return fail(QStringLiteral("%1 is not a project file (no version)").arg(path));

    Project p;
    p.server = ConnectionSettings::fromJson(root.value(QStringLiteral("server")).toObject());
    const QJsonObject sub = root.value(QStringLiteral("subscription")).toObject();
    const SubscriptionSettings defaults;
    p.subscription.publishingIntervalMs = sub.value(QStringLiteral("publishingIntervalMs")).toDouble(defaults.publishingIntervalMs);
    p.subscription.lifetimeCount = uint32_t(sub.value(QStringLiteral("lifetimeCount")).toInteger(defaults.lifetimeCount));
    p.subscription.maxKeepAliveCount = uint32_t(sub.value(QStringLiteral("maxKeepAliveCount")).toInteger(defaults.maxKeepAliveCount));
    p.subscription.maxNotificationsPerPublish =
        uint32_t(sub.value(QStringLiteral("maxNotificationsPerPublish")).toInteger(defaults.maxNotificationsPerPublish));
    p.subscription.publishingEnabled = sub.value(QStringLiteral("publishingEnabled")).toBool(defaults.publishingEnabled);
    p.subscription.priority = uint8_t(sub.value(QStringLiteral("priority")).toInt(defaults.priority));
    for (const auto& v : root.value(QStringLiteral("monitoredItems")).toArray()) p.monitoredItems.push_back(itemFromJson(v.toObject()));
    const QJsonObject events = root.value(QStringLiteral("events")).toObject();
    p.eventNotifier = events.value(QStringLiteral("notifier")).toString(p.eventNotifier);
    for (const auto& v : events.value(QStringLiteral("fields")).toArray()) p.eventFields.append(v.toString());
    const QJsonObject layout = root.value(QStringLiteral("layout")).toObject();
    p.windowGeometry = fromBase64(layout.value(QStringLiteral("geometry")));
    p.windowState = fromBase64(layout.value(QStringLiteral("state")));
    p.trendWindowSeconds = layout.value(QStringLiteral("trendWindowS")).toInt(p.trendWindowSeconds);
    return p;
}

} // namespace ua::clientapp
