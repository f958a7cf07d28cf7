// Reading JSON objects field by field with type checks (the engine's fromJson functions): a
// missing key keeps the default, a key of the wrong type or out of range sets the first error.
// Internal to the engine.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <cstdint>

namespace ua::loadtest::json {

class Reader {
public:
    Reader(const QJsonObject& o, QString context) : m_o(o), m_context(std::move(context)) {}

    bool ok() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }
    void fail(const QString& key, const QString& what) {
        if (m_error.isEmpty()) m_error = QStringLiteral("%1.%2: %3").arg(m_context, key, what);
    }
    // Adopts a nested reader's error.
    void failWith(const QString& error) {
        if (m_error.isEmpty()) m_error = error;
    }
    bool has(const QString& key) const { return m_o.contains(key) && !m_o.value(key).isNull(); }

    void get(const QString& key, QString& out) {
        if (!has(key)) return;
        if (!m_o.value(key).isString()) return fail(key, QStringLiteral("not a string"));
        out = m_o.value(key).toString();
    }
    void get(const QString& key, bool& out) {
        if (!has(key)) return;
        if (!m_o.value(key).isBool()) return fail(key, QStringLiteral("not a boolean"));
        out = m_o.value(key).toBool();
    }
    void get(const QString& key, double& out, double min = -1e300, double max = 1e300) {
        if (!has(key)) return;
        if (!m_o.value(key).isDouble()) return fail(key, QStringLiteral("not a number"));
        const double v = m_o.value(key).toDouble();
        if (v < min || v > max) return fail(key, QStringLiteral("%1 out of range [%2, %3]").arg(v).arg(min).arg(max));
        out = v;
    }
    template <class Int>
    void getInt(const QString& key, Int& out, double min, double max) {
        double v = double(out);
        const QString before = m_error;
        get(key, v, min, max);
        if (m_error != before || !has(key)) return;
        if (v != double(qint64(v))) return fail(key, QStringLiteral("not an integer"));
        out = Int(v);
    }
    QJsonObject object(const QString& key) {
        if (!has(key)) return {};
        if (!m_o.value(key).isObject()) {
            fail(key, QStringLiteral("not an object"));
            return {};
        }
        return m_o.value(key).toObject();
    }
    QJsonArray array(const QString& key) {
        if (!has(key)) return {};
        if (!m_o.value(key).isArray()) {
            fail(key, QStringLiteral("not an array"));
            return {};
        }
        return m_o.value(key).toArray();
    }
    const QString& context() const { return m_context; }

private:
    const QJsonObject& m_o;
    QString m_context;
    QString m_error;
};

} // namespace ua::loadtest::json
