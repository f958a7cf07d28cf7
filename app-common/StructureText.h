// Values of custom structures (ua/encoding/StructureCodec.h DynamicValue) as text, for the client's
// views and its command line: one line ("{Name: Oven, Value: 180.5, Mode: Auto (5), Limits: [50,
// 250]}"; absent optional fields left out, a union as its one field, an empty union "{}") and a
// field-by-field listing, one line a field, nested ones indented ("Steps[1].Mode = Auto (5)").
// Scalars print as formatVariant (ValueText.h); enumerations and OptionSets by name and number.
#pragma once

#include "ua/encoding/StructureCodec.h"

#include <QString>
#include <QStringList>

namespace ua::app {

// The one-line form; arrays show at most maxElements elements (0: all), then ", ...".
QString formatDynamicValue(const DynamicValue& value, int maxElements = 20);
// The text of one scalar field (an enumeration "Auto (5)", an OptionSet "Read | Write (3)").
QString formatDynamicScalar(const DynamicValue& value);
// "<path> = <value>" for every scalar field, path from prefix ("" for the structure itself).
QStringList dynamicValueLines(const DynamicValue& value, const QString& prefix = {});

} // namespace ua::app
