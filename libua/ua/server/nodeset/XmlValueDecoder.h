// Values in the UA XML encoding (OPC 10000-6 5.3) as NodeSet2 files carry them in <Value> (F.5):
// every built-in type, ListOf<Type> arrays, <Matrix> (5.3.1.17 / 5.3.2.3), Variant, DataValue, and
// ExtensionObjects whose body is a Structure known to the address space.
//
// An ExtensionObject body is turned into the UA Binary encoding by the structure's
// StructureDefinition (the DataType reached from the TypeId, an encoding node, by its inverse
// HasEncoding; fields in order, the optional-field mask of StructureWithOptionalFields and the
// SwitchField of unions, enumerations as Int32 from their "Name_Value" text, 5.3.1.x) and then
// decoded: a namespace 0 type becomes its generated C++ structure, any other stays a Binary body
// under the DataType's Default Binary encoding. A body of a type without a definition is kept
// as an Xml body (5.2.2.15 encoding 2).
//
// Namespace indexes in the file (in NodeIds, ExpandedNodeIds, QualifiedNames) are mapped to the
// server's through namespaceMap: the file's index i becomes namespaceMap[i].
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/nodeset/XmlTree.h"

#include <QString>

#include <optional>
#include <vector>

namespace ua {

class XmlValueDecoder {
public:
    XmlValueDecoder(const AddressSpace& space, std::vector<uint16_t> namespaceMap)
        : m_space(space), m_nsMap(std::move(namespaceMap)) {}

    // The value whose element is e (<Int32>, <ListOfString>, <ExtensionObject>, <Matrix>, ...).
    // nullopt on a value that cannot be read; error() then says why.
    std::optional<Variant> decode(XmlElementView e);
    const QString& error() const { return m_error; }
    void clearError() { m_error.clear(); }

    // A NodeId text of the file ("ns=1;i=5"; 5.3.1.10) with its namespace mapped; nullopt when it
    // does not parse or names a namespace the file does not list.
    std::optional<NodeId> mapNodeId(QStringView text) const;
    std::optional<uint16_t> mapNamespace(uint32_t fileIndex) const;

private:
    friend struct XmlStructureWriter;
    std::optional<Variant> decodeScalar(BuiltInType t, XmlElementView e);
    std::optional<Variant> decodeArray(BuiltInType t, XmlElementView e);
    std::optional<Variant> decodeMatrix(XmlElementView e);
    std::optional<ExtensionObject> decodeExtensionObject(XmlElementView e);
    bool fail(QString message) { if (m_error.isEmpty()) m_error = std::move(message); return false; }

    const AddressSpace& m_space;
    std::vector<uint16_t> m_nsMap;
    QString m_error;
};

// Text of the file as a String (UTF-8): null for a null view. ASCII is copied byte by byte.
String xmlString(QStringView text);

// The built-in type named by a UA XML element name ("Int32", "LocalizedText"; 5.3.1), or Null.
BuiltInType builtInTypeFromXmlName(QStringView name);

} // namespace ua
