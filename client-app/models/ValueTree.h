// A value as a tree of rows for the attributes view (issue 7 item 3: "arrays and structures
// expanded"): the elements of an array ("[0]", "[1]", ...; a matrix by its first dimension, then the
// next: "[1][2]"), and the fields of a structure the codec decodes (the generated types of
// Opc.Ua.Types.bsd, ExtensionObjects with a known DefaultBinary encoding: DataTypeInfo.h), by their
// schema names (generated forEachField), nested structures and arrays expanded in turn; with a
// DataTypeCache, also the structures of the server's own DataTypes (opaque Binary bodies decoded by
// their DataTypeDefinition or DataTypeDictionary: ua/client/DataTypeCache.h), whose scalar fields
// carry what editing them needs (path, fieldType, enumNames).
#pragma once

#include "ua/client/DataTypeCache.h"
#include "ua/types/Variant.h"

#include <QString>
#include <QStringList>
#include <QVariantList>
#include <vector>

namespace ua::clientapp {

// A row of a custom structure (decoded by a DataTypeCache): its place in the DynamicValue of the
// nearest ExtensionObject above it (dynamicAt), and for a scalar field with a text form, its
// BuiltInType (else -1), its value as text to edit, and an enumeration's names and values. The
// value trees and the attributes view's rows carry one each. What changing the value's shape needs
// (StructureEdit.h) too: whether the field may be absent and is, whether it is an array or an
// element of one, a union's fields and choice.
struct StructureFieldRow {
    bool isStructureField = false;
    std::vector<int> path;
    int fieldType = -1;
    QString editText;
    QStringList enumNames;
    QVariantList enumValues;
    bool optional = false;    // a field that may be absent (optional, or a field of a union)
    bool present = true;      // false: shown "(absent)"
    bool inUnion = false;     // a field of a union (the one it holds)
    bool isArray = false;     // an array field (or, on the Value row, a Value array of structures)
    bool isElement = false;   // an element of an array field (or of the Value array of structures)
    QStringList unionFields;  // the row is a union: its fields' names (empty: not a union)
    int unionChoice = -1;     // a union: the field it holds, -1 none
};

struct ValueNode {
    QString name;        // "[3]", a field name ("CurrentTime")
    QString typeName;    // "Int32", "Double[]", "BuildInfo", "ServerState" (enumerations)
    QString text;        // the value as one line (formatVariant; "Running (0)" for an enumeration)
    int elementIndex = -1;  // for an element of the top-level array: its index in the flat array
    std::vector<ValueNode> children;
    StructureFieldRow field;
};

// The child rows of a value (empty for a scalar that is not a decoded structure). Arrays longer than
// maxElements show their first maxElements elements and a last row "..." (0: all).
std::vector<ValueNode> valueChildren(const Variant& value, std::size_t maxElements = 1000, const DataTypeCache* types = nullptr);
// The fields of a decoded ExtensionObject, or of an opaque Binary one types can decode (else empty).
std::vector<ValueNode> structureFields(const ExtensionObject& object, std::size_t maxElements = 1000,
                                       const DataTypeCache* types = nullptr);
// What the Value row of value needs for the shape changes (StructureFieldRow's optional .. unionChoice;
// isStructureField stays false): a scalar custom structure's union fields and choice, isArray for an
// array of custom structures; a default row otherwise.
StructureFieldRow valueRowField(const Variant& value, const DataTypeCache* types);
// The value at path (ValueNode::path) in root; null when the path does not lead anywhere.
DynamicValue* dynamicAt(DynamicValue& root, const std::vector<int>& path);
// A value as one line: formatVariant, with custom structures field by field when types decodes them.
QString valueText(const Variant& value, const DataTypeCache* types, int maxElements = 20);
// The name of a value's type: "Int32", "Double[]", the structure's name for a decoded
// ExtensionObject ("BuildInfo[]" for an array of them); "" for a null Variant.
QString valueTypeName(const Variant& value);
// The same, with the names of custom structures types knows ("Setpoint", "Setpoint[]").
QString valueTypeName(const Variant& value, const DataTypeCache* types);
// A copy of the array `array` with element `index` replaced by the scalar `element` (same built-in
// type); false when the types differ or index is out of range.
bool replaceElement(Variant& array, std::size_t index, const Variant& element);
// Element `index` of an array Variant as a scalar Variant (null when out of range).
Variant elementAt(const Variant& array, std::size_t index);

} // namespace ua::clientapp
