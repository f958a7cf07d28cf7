// An OPC Binary type dictionary (OPC 10000-5 1.04 Annex D, the DataTypeDictionary that servers
// before 1.04 publish instead of the DataTypeDefinition attribute; deprecated since; its schema is
// OPC 10000-3 1.04 Annex C, the form of Opc.Ua.Types.bsd) turned into the DataTypeDefinitions the
// structure codec reads (StructureCodec.h):
//   <opc:StructuredType>     a StructureDefinition: opc:Bit fields named by a later field's
//                            SwitchField make it StructureWithOptionalFields (the bits must fill
//                            32: the EncodingMask UInt32); a field with SwitchField and SwitchValue
//                            makes it a Union (the switch field is the SwitchField UInt32); a
//                            LengthField makes the field an array (ValueRank 1) and the length
//                            field goes;
//   <opc:EnumeratedType>     an EnumDefinition (values of any LengthInBits are encoded as Int32 here:
//                            OPC UA enumerations are 32 bits);
//   <opc:OpaqueType>         not a structure: not listed.
// Field types: opc:Boolean .. opc:Double, opc:String/CharArray, opc:DateTime, opc:Guid,
// opc:ByteString as their built-in types (ns=0); ua:<Name> as the namespace 0 DataType of that name
// (the built-in types NodeId .. DiagnosticInfo and the structures of the stack's schema); a type of
// this dictionary (tns:<Name>) as dictionaryTypeId(targetNamespace, Name). Another dictionary's
// types are not resolved (a field of one is an error of its structure).
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <optional>

namespace ua {

struct TypeDictionary {
    QString targetNamespace;
    std::map<QString, StructureDefinition> structures;  // by type Name
    std::map<QString, EnumDefinition> enumerations;
    std::map<QString, QString> unsupported;  // type Name -> why it could not be read
};

// The dictionary in xml (the Value of a DataTypeDictionaryType variable); nullopt with *error
// when it is not an OPC Binary dictionary (not XML, another root element).
std::optional<TypeDictionary> parseTypeDictionary(const QByteArray& xml, QString* error);

// The NodeId the structure definitions above give a field whose type is this dictionary's type
// name: a String NodeId of namespace 0 ("dictionary:<targetNamespace>#<name>"), which no server
// uses (namespace 0 has numeric ids only); a client resolves it to the dictionary's definition.
NodeId dictionaryTypeId(const QString& targetNamespace, const QString& name);
// The parts of such a NodeId; false for any other.
bool splitDictionaryTypeId(const NodeId& id, QString* targetNamespace, QString* name);

} // namespace ua
