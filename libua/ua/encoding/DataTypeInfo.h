// What the stack knows of each generated structured DataType of namespace 0: names and NodeIds,
// and how to decode its DefaultBinary body into an ExtensionObject. The table is generated from
// Opc.Ua.Types.bsd and NodeIds.csv (generated/DataTypes.cpp).
#pragma once

#include "ua/types/ExtensionObject.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace ua {

class BinaryDecoder;

struct DataTypeInfo {
    const char* name;            // BrowseName, e.g. "ReadRequest"
    uint32_t typeId;             // DataType NodeId (ns=0)
    uint32_t binaryEncodingId;   // <Name>_Encoding_DefaultBinary (ns=0)
    std::size_t fieldCount;      // fields in Opc.Ua.Types.bsd (length fields not counted)
    // Decodes a body of this type; the decoder's status tells whether it worked.
    std::shared_ptr<const ExtensionObjectBody> (*decodeBody)(BinaryDecoder&);
    // A default-constructed value of this type.
    std::shared_ptr<const ExtensionObjectBody> (*makeDefault)();
};

// Every structured type of Opc.Ua.Types.bsd that has a DefaultBinary encoding, sorted by
// binaryEncodingId.
std::span<const DataTypeInfo> generatedDataTypes();
const DataTypeInfo* findDataTypeByBinaryEncodingId(uint32_t encodingId);
const DataTypeInfo* findDataTypeByTypeId(uint32_t typeId);
const DataTypeInfo* findDataTypeByName(std::string_view name);

template <class T>
std::shared_ptr<const ExtensionObjectBody> decodeBodyAs(BinaryDecoder& d) {
    auto h = std::make_shared<ExtensionObjectHolder<T>>();
    decode(d, h->value);
    return h;
}
template <class T>
std::shared_ptr<const ExtensionObjectBody> makeDefaultBody() {
    return std::make_shared<ExtensionObjectHolder<T>>();
}

} // namespace ua
