// The DataType and ValueRank check of a written Value (OPC 10000-4 5.10.4.2: "Bad_TypeMismatch if
// the data type of the written value is not the same type or subtype as the Attribute's DataType";
// OPC 10000-3 5.6.2 ValueRank).
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

namespace ua {

// Good when value may be the Value of node (a Variable or VariableType), else Bad_TypeMismatch:
//  - the value's built-in type is the one the DataType is encoded as (so a Double fits Duration,
//    an Int32 an Enumeration); for an abstract DataType (Number, Integer, UInteger and their
//    abstract subtypes) the value's type must be a subtype of it; BaseDataType takes anything;
//  - an ExtensionObject's structure type is the DataType or a subtype of it, and a body the server
//    keeps as bytes (a DataType imported from a NodeSet) decodes by its StructureDefinition with no
//    byte left over (StructureBodyCheck.h);
//  - a null Variant only fits BaseDataType;
//  - the number of dimensions fits the ValueRank, and a matrix's ArrayDimensions match its length.
// A ByteString is accepted where a Byte array is expected (OPC 10000-4 5.10.4.2) and converted in
// place into the array.
StatusCode checkValueType(const AddressSpace& space, const Node& node, Variant& value);
// The same against a DataType and ValueRank given apart from a node (a Method's Argument, OPC
// 10000-3 8.6).
StatusCode checkValueType(const AddressSpace& space, const NodeId& dataType, int32_t valueRank, Variant& value);

} // namespace ua
