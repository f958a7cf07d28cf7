// Checks that a structure's UA Binary body decodes by its DataType's StructureDefinition (OPC
// 10000-6 5.2.7: fields in order, the optional-field mask, a union's SwitchField, enumerations as
// Int32, nested structures inline, abstract and BaseDataType fields as ExtensionObject / Variant)
// and that nothing is left over, with the walker the client uses too (ua/encoding/StructureCodec.h).
// The Write check (ValueCheck.h) runs it on the opaque bodies of imported DataTypes, which the
// server keeps as bytes.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

namespace ua {

// true when the body decodes as a value of dataType (a Structure subtype with a
// StructureDefinition) and uses every byte; also true when dataType has no definition to check by.
bool structureBodyDecodes(const AddressSpace& space, NodeIndex dataType, const ByteString& body);

} // namespace ua
