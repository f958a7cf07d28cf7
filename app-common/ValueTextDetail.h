// Internal to ValueText*.cpp: the pieces the structure formatter shares with the Variant formatter.
#pragma once

#include "ua/types/Variant.h"

#include <QString>

namespace ua::app::detail {

// A value as an element of an array or a field of a structure: text types (String, XmlElement,
// NodeId, ..., LocalizedText) as JSON strings ("a\"b"), numbers, Booleans and StatusCodes bare,
// arrays as "[...]", structures as "{...}".
QString formatElement(const Variant& value, int maxElements);
// A JSON string literal of text: "a\"b\n".
QString quoted(const QString& text);
// "{Name: value, ...}" for a structure known to the codec (generated types of namespace 0);
// a null QString for any other body.
QString formatStructure(const ExtensionObjectBody& body, int maxElements);

} // namespace ua::app::detail
