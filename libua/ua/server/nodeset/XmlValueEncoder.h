// Values in the UA XML encoding (OPC 10000-6 5.3), the writing side of XmlValueDecoder.h: every
// built-in type, ListOf<Type> arrays, <Matrix>, Variant, DataValue, and ExtensionObjects. A
// structure's body is written field by field from its UA Binary encoding by the DataType's
// StructureDefinition (optional-field masks, unions with their SwitchField, enumerations as
// "Name_Value"); its TypeId is the DataType's "Default XML" encoding node. An ExtensionObject kept
// as XML is written back as it came.
//
// Namespace indexes are written as the file's: fileNamespace(serverIndex).
#pragma once

#include "ua/server/addressspace/AddressSpace.h"

#include <QString>
#include <QXmlStreamWriter>

#include <functional>

namespace ua {

class XmlValueEncoder {
public:
    XmlValueEncoder(const AddressSpace& space, std::function<uint32_t(uint16_t)> fileNamespace)
        : m_space(space), m_fileNs(std::move(fileNamespace)) {}

    // Writes the value as its element (<Int32>5</Int32>, <ListOfString>..., <Matrix>...). false on
    // a value that cannot be written (a DiagnosticInfo, a body that does not decode by its type's
    // definition); error() says why.
    bool write(QXmlStreamWriter& w, const Variant& v);
    const QString& error() const { return m_error; }

    // "ns=2;i=5" with the file's namespace index (5.3.1.10).
    QString nodeIdText(const NodeId& id) const;

private:
    friend struct XmlStructureReader;
    bool writeScalarContent(QXmlStreamWriter& w, const Variant& v);
    bool writeExtensionObjectContent(QXmlStreamWriter& w, const ExtensionObject& x);
    bool fail(QString message) { if (m_error.isEmpty()) m_error = std::move(message); return false; }

    const AddressSpace& m_space;
    std::function<uint32_t(uint16_t)> m_fileNs;
    QString m_error;
};

// The encoding node of a DataType whose BrowseName is name ("Default Binary", "Default XML").
NodeIndex encodingOf(const AddressSpace& space, NodeIndex dataType, std::string_view name);

} // namespace ua
