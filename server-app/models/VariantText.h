// One line of text for a Variant or a DataValue, as the server app's address space tree shows a
// Value: scalars as themselves, DateTimes in local time, StatusCodes by name, ExtensionObjects by
// type name, arrays as "[n] a, b, c, ..." (the first maxElements elements).
#pragma once

#include "ua/types/Variant.h"

#include <QString>

namespace ua::serverapp {

QString variantText(const Variant& value, int maxElements = 8);
// The value's text; for a Bad or Uncertain status, the status name (and the value, if any).
QString dataValueText(const DataValue& value);

} // namespace ua::serverapp
