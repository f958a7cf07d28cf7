// Reading one field of a ua-server.json section with a clear error (HistorySettings, AlarmSettings):
// an absent key keeps *out; a wrong one sets *error to "<where>.<key>: expected ..." and returns false.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>

namespace ua::app::json {

inline bool number(const QJsonObject& o, const char* key, double* out, double lo, double hi, const QString& where, QString* error) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || std::isnan(d) || d < lo || d > hi) {
        if (error) *error = QStringLiteral("%1.%2: expected a number in [%3, %4]").arg(where, QLatin1String(key)).arg(lo).arg(hi);
        return false;
    }
    *out = d;
    return true;
}

inline bool boolean(const QJsonObject& o, const char* key, bool* out, const QString& where, QString* error) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isBool()) {
        if (error) *error = QStringLiteral("%1.%2: expected true or false").arg(where, QLatin1String(key));
        return false;
    }
    *out = v.toBool();
    return true;
}

inline bool text(const QJsonObject& o, const char* key, QString* out, const QString& where, QString* error) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isString()) {
        if (error) *error = QStringLiteral("%1.%2: expected a string").arg(where, QLatin1String(key));
        return false;
    }
    *out = v.toString();
    return true;
}

} // namespace ua::app::json
