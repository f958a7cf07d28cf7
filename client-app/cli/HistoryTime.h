// The times of `ua-client history` (--from, --to, --at): an absolute time in ValueText's DateTime
// form (ISO 8601: 2026-11-30T10:00:00.000Z, an offset +02:00, no zone = UTC, "now"), or a time
// before now: "-" with a number and a unit, -500ms, -30s, -10m, -1.5h, -2d.
#pragma once

#include "ua/types/DateTime.h"

#include <QString>
#include <optional>

namespace ua::clientapp {

// The time text means, with relative forms counted back from now; nullopt and *error for a text of
// no form above, or one before 1601-01-01 (the earliest DateTime).
std::optional<DateTime> parseHistoryTime(const QString& text, DateTime now, QString* error);

} // namespace ua::clientapp
