#include "StructureText.h"

#include "ValueText.h"

namespace ua::app {

QString formatDynamicScalar(const DynamicValue& value) {
    const QString text = formatVariant(value.scalar, 20);
    return value.valueName.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(value.valueName, text);
}

QString formatDynamicValue(const DynamicValue& value, int maxElements) {
    switch (value.kind) {
    case DynamicValue::Kind::Scalar:
        return formatDynamicScalar(value);
    case DynamicValue::Kind::Array: {
        if (value.arrayIsNull) return QStringLiteral("null");
        QStringList parts;
        const std::size_t n = value.elements.size();
        const std::size_t shown = maxElements > 0 ? std::min(n, std::size_t(maxElements)) : n;
        for (std::size_t i = 0; i < shown; ++i) parts << formatDynamicValue(value.elements[i], maxElements);
        if (shown < n) parts << QStringLiteral("...");
        return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    case DynamicValue::Kind::Structure: {
        QStringList parts;
        for (const DynamicField& f : value.fields)
            if (f.present) parts << QStringLiteral("%1: %2").arg(f.name, formatDynamicValue(f.value, maxElements));
        const QString body = QStringLiteral("{%1}").arg(parts.join(QStringLiteral(", ")));
        return value.valueName.isEmpty() ? body : QStringLiteral("%1 %2").arg(value.valueName, body);
    }
    }
    return {};
}

QStringList dynamicValueLines(const DynamicValue& value, const QString& prefix) {
    QStringList out;
    switch (value.kind) {
    case DynamicValue::Kind::Scalar:
        out << QStringLiteral("%1 = %2").arg(prefix, formatDynamicScalar(value));
        break;
    case DynamicValue::Kind::Array:
        if (value.arrayIsNull || value.elements.empty()) out << QStringLiteral("%1 = %2").arg(prefix, value.arrayIsNull ? QStringLiteral("null") : QStringLiteral("[]"));
        for (std::size_t i = 0; i < value.elements.size(); ++i)
            out << dynamicValueLines(value.elements[i], QStringLiteral("%1[%2]").arg(prefix).arg(i));
        break;
    case DynamicValue::Kind::Structure: {
        bool any = false;
        for (const DynamicField& f : value.fields) {
            if (!f.present) continue;
            any = true;
            out << dynamicValueLines(f.value, prefix.isEmpty() ? f.name : QStringLiteral("%1.%2").arg(prefix, f.name));
        }
        if (!any) out << QStringLiteral("%1 = {}").arg(prefix);
        break;
    }
    }
    return out;
}

} // namespace ua::app
