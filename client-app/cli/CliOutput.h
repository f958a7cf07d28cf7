// Output of the command line: lines on stdout (flushed, so that a pipe sees each at once), errors
// on stderr, and the JSON forms of values (--json).
#pragma once

#include "ua/types/Variant.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace ua::clientapp {

void printLine(const QString& line);
void printError(const QString& line);
void printJson(const QJsonObject& object);  // one line, compact

// A Variant as JSON: Boolean as a bool, numbers as numbers (Int64/UInt64 beyond 2^53 and nan/inf
// as strings), arrays and matrices as (nested) arrays, everything else as its ValueText string.
QJsonValue variantToJson(const Variant& value);
// {value, type, status, sourceTimestamp, serverTimestamp} of a DataValue (absent fields left out).
QJsonObject dataValueToJson(const DataValue& value);
// ISO 8601 UTC with milliseconds, "" for MinValue.
QString timestampText(const DateTime& t);
// The BrowseName of a namespace-0 node ("Organizes" for i=35), or its NodeId text.
QString ns0Name(const NodeId& id);

} // namespace ua::clientapp
