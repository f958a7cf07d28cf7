#include "AlarmSettings.h"

#include "JsonFields.h"

#include <QJsonArray>

#include <cmath>

namespace ua::app {

namespace {

using json::number;
using json::text;

bool limit(const QJsonObject& o, const char* key, std::optional<double>* out, const QString& where, QString* error) {
    if (o.value(QLatin1String(key)).isUndefined() || o.value(QLatin1String(key)).isNull()) return true;
    double d = 0;
    if (!number(o, key, &d, -1e300, 1e300, where, error)) return false;
    *out = d;
    return true;
}

QString demo(const char* id) { return QStringLiteral("nsu=urn:ua-workbench:demo;s=%1").arg(QLatin1String(id)); }

Variant variantOf(const QJsonValue& v) {
    if (v.isBool()) return Variant(v.toBool());
    if (v.isDouble()) return Variant(v.toDouble());
    if (v.isString()) return Variant(String(v.toString().toStdString()));
    return Variant();
}

} // namespace

std::vector<AlarmSetting> AlarmSettings::demoAlarms() {
    AlarmSetting sine;
    sine.name = QStringLiteral("SineLevel");
    sine.input = demo("Demo.Simulation.Sine");
    sine.highHigh = 90, sine.high = 70, sine.low = -70, sine.lowLow = -90;
    sine.deadband = 2;
    AlarmSetting ramp;
    ramp.name = QStringLiteral("RampHigh");
    ramp.kind = QStringLiteral("nonExclusiveLevel");
    ramp.input = demo("Demo.Simulation.Ramp");
    ramp.high = 60, ramp.highHigh = 90;
    ramp.severity = 400;
    ramp.criticalSeverity = 700;
    AlarmSetting pump;
    pump.name = QStringLiteral("BooleanOffNormal");
    pump.kind = QStringLiteral("offNormal");
    pump.input = demo("Demo.Scalars.Boolean");
    pump.value = true;
    pump.severity = 300;
    pump.message = QStringLiteral("Demo.Scalars.Boolean is not true");
    return {sine, ramp, pump};
}

QJsonObject AlarmSettings::toJson() const {
    QJsonArray a;
    for (const AlarmSetting& s : definitions) {
        QJsonObject o{{"name", s.name}, {"kind", s.kind}, {"input", s.input}, {"deadband", s.deadband}, {"severity", s.severity},
                      {"criticalSeverity", s.criticalSeverity}};
        if (!s.source.isEmpty()) o.insert(QStringLiteral("source"), s.source);
        if (!s.message.isEmpty()) o.insert(QStringLiteral("message"), s.message);
        if (s.highHigh) o.insert(QStringLiteral("highHigh"), *s.highHigh);
        if (s.high) o.insert(QStringLiteral("high"), *s.high);
        if (s.low) o.insert(QStringLiteral("low"), *s.low);
        if (s.lowLow) o.insert(QStringLiteral("lowLow"), *s.lowLow);
        if (!s.value.isNull() && !s.value.isUndefined()) o.insert(QStringLiteral("value"), s.value);
        a.append(o);
    }
    return QJsonObject{{"pollMs", pollMs}, {"definitions", a}};
}

bool AlarmSettings::fromJson(const QJsonObject& o, AlarmSettings* out, QString* error) {
    AlarmSettings s;
    if (!number(o, "pollMs", &s.pollMs, 10, 60000, QStringLiteral("alarms"), error)) return false;
    if (const QJsonValue v = o.value(QLatin1String("definitions")); !v.isUndefined()) {
        if (!v.isArray()) {
            if (error) *error = QStringLiteral("alarms.definitions: expected an array");
            return false;
        }
        s.definitions.clear();
        for (const QJsonValue& x : v.toArray()) {
            const QJsonObject d = x.toObject();
            AlarmSetting a;
            a.name = d.value(QLatin1String("name")).toString();
            if (!x.isObject() || a.name.isEmpty()) {
                if (error) *error = QStringLiteral("alarms.definitions: each needs a name");
                return false;
            }
            const QString at = QStringLiteral("alarms.definitions[%1]").arg(a.name);
            if (!text(d, "kind", &a.kind, at, error) || !text(d, "input", &a.input, at, error) || !text(d, "source", &a.source, at, error) ||
                !text(d, "message", &a.message, at, error) || !limit(d, "highHigh", &a.highHigh, at, error) ||
                !limit(d, "high", &a.high, at, error) || !limit(d, "low", &a.low, at, error) || !limit(d, "lowLow", &a.lowLow, at, error) ||
                !number(d, "deadband", &a.deadband, 0, 1e300, at, error) || !number(d, "severity", &a.severity, 1, 1000, at, error) ||
                !number(d, "criticalSeverity", &a.criticalSeverity, 1, 1000, at, error))
                return false;
            if (!alarmKindFromName(a.kind.toStdString())) {
                if (error) *error = at + QStringLiteral(".kind: expected exclusiveLevel, nonExclusiveLevel, offNormal or discrete");
                return false;
            }
            if (!ExpandedNodeId::parse(a.input.toStdString()) || (!a.source.isEmpty() && !ExpandedNodeId::parse(a.source.toStdString()))) {
                if (error) *error = at + QStringLiteral(": input (and source) are NodeIds such as ns=2;s=Name or nsu=URI;s=Name");
                return false;
            }
            a.value = d.value(QLatin1String("value"));
            if (a.value.isUndefined()) a.value = QJsonValue();
            if (!a.value.isNull() && !a.value.isBool() && !a.value.isDouble() && !a.value.isString()) {
                if (error) *error = at + QStringLiteral(".value: expected true, false, a number or a string");
                return false;
            }
            s.definitions.push_back(std::move(a));
        }
    }
    *out = std::move(s);
    return true;
}

std::optional<AlarmDefinition> AlarmSettings::toDefinition(const AlarmSetting& a) {
    const auto kind = alarmKindFromName(a.kind.toStdString());
    const auto input = ExpandedNodeId::parse(a.input.toStdString());
    if (!kind || !input) return std::nullopt;
    AlarmDefinition d;
    d.name = a.name.toStdString();
    d.kind = *kind;
    d.input = input->nodeId;
    d.namespaceUri = input->namespaceUri.str();
    if (!a.source.isEmpty()) {
        const auto source = ExpandedNodeId::parse(a.source.toStdString());
        if (!source) return std::nullopt;
        d.source = source->nodeId;
        // One namespace URI for both: a source given with another URI keeps its index.
        if (d.namespaceUri.empty()) d.namespaceUri = source->namespaceUri.str();
    }
    d.highHigh = a.highHigh, d.high = a.high, d.low = a.low, d.lowLow = a.lowLow;
    d.deadband = a.deadband;
    d.severity = uint16_t(a.severity);
    d.criticalSeverity = uint16_t(a.criticalSeverity);
    d.message = a.message.toStdString();
    d.stateValue = variantOf(a.value);
    return d;
}

void AlarmSettings::apply(ServerConfig& c) const {
    c.alarmPollMs = int(pollMs);
    for (const AlarmSetting& a : definitions)
        if (auto d = toDefinition(a)) c.alarms.push_back(std::move(*d));
}

} // namespace ua::app
