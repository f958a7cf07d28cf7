#include "cli/HistoryTime.h"

#include "ValueText.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QRegularExpression>
#include <cmath>

namespace ua::clientapp {

std::optional<DateTime> parseHistoryTime(const QString& text, DateTime now, QString* error) {
    const QString t = text.trimmed();
    static const QRegularExpression relative(QStringLiteral(R"(^-(\d+(?:\.\d+)?)(ms|s|m|h|d)$)"));
    if (const QRegularExpressionMatch m = relative.match(t); m.hasMatch()) {
        const QString unit = m.captured(2);
        const double ticksPerUnit = unit == QLatin1String("ms") ? 1e4
                                  : unit == QLatin1String("s")  ? 1e7
                                  : unit == QLatin1String("m")  ? 6e8
                                  : unit == QLatin1String("h")  ? 3.6e10
                                                                : 8.64e11;
        const double back = m.captured(1).toDouble() * ticksPerUnit;  // digits only: finite, >= 0
        if (!(back <= double(now.ticks))) {
            *error = QStringLiteral("%1 reaches before 1601-01-01, the earliest DateTime").arg(text);
            return std::nullopt;
        }
        return DateTime{now.ticks - int64_t(std::llround(back))};
    }
    if (t.compare(QLatin1String("now"), Qt::CaseInsensitive) == 0) return now;
    const app::ParseResult p = app::parseValue(t, BuiltInType::DateTime);
    if (!p.ok()) {
        *error = p.status == status::BadOutOfRange
                     ? p.error
                     : QStringLiteral("\"%1\" is not a time (ISO 8601 such as 2026-11-30T10:00:00.000Z, now, or before now: "
                                      "-500ms, -30s, -10m, -1h, -2d)").arg(text);
        return std::nullopt;
    }
    return *p.value.get<DateTime>();
}

} // namespace ua::clientapp
