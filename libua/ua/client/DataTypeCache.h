// What a client knows of one server's DataTypes, for values of structures the stack has no C++
// type for (issue 29 item 3): read from the server on demand, kept for the connection, and used by
// the shared structure codec (ua/encoding/StructureCodec.h) to show such values field by field and
// to write them back.
//
// What is read (OPC 10000-3 5.8.3, 5.9; OPC 10000-5 1.04 Annex D):
//   - an ExtensionObject's TypeId is an encoding node: its DataType is the source of the inverse
//     HasEncoding reference (Browse);
//   - of each DataType: BrowseName, IsAbstract, DataTypeDefinition (StructureDefinition or
//     EnumDefinition; attribute 23, 1.04 and later) with one Read, and its supertype (inverse
//     HasSubtype) with one Browse; the supertypes and the fields' DataTypes in turn, until each
//     reaches a type the stack knows: a built-in type (i=1..25), Structure (22), Union (12756),
//     Enumeration (29), BaseDataType / Number / Integer / UInteger (a Variant), or a structure of
//     the stack's schema (DataTypeInfo.h: encoded by its C++ type);
//   - a concrete structure without a DataTypeDefinition (a server older than 1.04): its
//     DataTypeDictionary, deprecated since 1.04: Default Binary (HasEncoding) -> the
//     DataTypeDescription (HasDescription) whose Value is the type's name -> the DataTypeDictionary
//     variable (inverse HasComponent) whose Value is the Opc.Binary XML (TypeDictionary.h). Each
//     dictionary is read once; its other types are known from then on.
// Round trips: a few per level of new types (Browse and Read batch every type of a level); what is
// known is never asked again. Everything runs on the cache's thread (the callbacks of the Client
// are queued to it); the cache is not thread-safe.
#pragma once

#include "ua/client/Client.h"
#include "ua/encoding/StructureCodec.h"
#include "ua/encoding/TypeDictionary.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ua {

class DataTypeCache : public QObject, public DataTypeResolver {
    Q_OBJECT
public:
    // client: the connection whose server's types are kept (may be null; setClient() later).
    explicit DataTypeCache(Client* client = nullptr, QObject* parent = nullptr);
    ~DataTypeCache() override;

    // Another connection (or none): everything known is dropped, and so are the loads in progress
    // (their done callbacks never run).
    void setClient(Client* client);

    // Loads what decoding the opaque Binary ExtensionObjects in value needs (scalars and arrays,
    // also inside DataValues and Variant arrays); done runs on this thread when it is known (at
    // once, queued, when nothing was missing), or when it could not be loaded (decode() then says why).
    void load(const Variant& value, std::function<void()> done);
    // The same for DataTypes (the write dialog's types) and encoding ids.
    void loadDataTypes(std::vector<NodeId> dataTypes, std::function<void()> done);
    void loadEncodings(std::vector<NodeId> encodingIds, std::function<void()> done);
    // Whether value holds an opaque Binary ExtensionObject that a load() could still make readable.
    bool needsLoad(const Variant& value) const;

    // DataTypeResolver: known after a load (nullopt before, or when the type could not be loaded).
    std::optional<ResolvedDataType> resolve(const NodeId& dataType) const override;
    // The DataType of an encoding node, null when not (yet) known.
    NodeId dataTypeOfEncoding(const NodeId& encodingId) const;
    // The Default Binary encoding of a DataType (for encode()), null when not known.
    NodeId binaryEncodingOf(const NodeId& dataType) const;

    // An opaque Binary ExtensionObject as fields; nullopt with *error when its type is not known
    // (not loaded, or why it could not be: "no DataTypeDefinition and no DataTypeDictionary") or the
    // body does not decode (the codec's error: "Steps[1].Name: String truncated or malformed").
    std::optional<DynamicValue> decode(const ExtensionObject& object, QString* error = nullptr) const;
    // v (a Structure) as an ExtensionObject with a Binary body under its DataType's Default Binary
    // encoding; nullopt with *error when it does not encode.
    std::optional<ExtensionObject> encode(const DynamicValue& v, QString* error = nullptr) const;
    // A value of dataType with its fields at their defaults (StructureCodec::defaultValue).
    std::optional<DynamicValue> defaultValue(const NodeId& dataType, QString* error = nullptr) const;

    // Why a DataType or an encoding could not be loaded ("" when it could, or was not tried).
    QString failure(const NodeId& id) const;

    // Opaque Binary ExtensionObjects of namespaces other than 0 in value (their encoding ids).
    static std::vector<NodeId> opaqueEncodings(const Variant& value);

signals:
    // Something new is known (after a load's round trips): views may decode what they could not.
    void typesLoaded();

private:
    struct TypeEntry;
    struct Job;
    void step(const std::shared_ptr<Job>& job);
    void browseEncodings(const std::shared_ptr<Job>& job, std::vector<NodeId> encodings);
    void readTypes(const std::shared_ptr<Job>& job, std::vector<NodeId> types);
    void dictionaryStep(const std::shared_ptr<Job>& job, std::vector<NodeId> types);
    void finish(const std::shared_ptr<Job>& job);
    // The types a known type needs in turn (supertype, fields); missing ones go to out.
    void collectMissing(const NodeId& type, std::set<NodeId>& seen, std::vector<NodeId>& missing,
                        std::vector<NodeId>& needDictionary) const;
    // The type a chain of supertypes ends in: a known namespace 0 type (0 if not reached yet).
    uint32_t rootOf(const NodeId& type, bool* complete) const;
    bool isTerminal(const NodeId& type) const;
    void useDictionary(const NodeId& dictionaryNode, const TypeDictionary& dictionary);

    QPointer<Client> m_client;
    QObject* m_context = nullptr;  // the callbacks' context: replaced (and deleted) by setClient()
    std::map<NodeId, std::unique_ptr<TypeEntry>> m_types;
    std::map<NodeId, NodeId> m_encodingToType;
    std::map<NodeId, NodeId> m_typeToBinaryEncoding;
    std::map<NodeId, QString> m_failures;
    std::map<NodeId, TypeDictionary> m_dictionaries;  // by the DataTypeDictionary variable
    std::map<NodeId, std::unique_ptr<TypeEntry>> m_dictionaryTypes;  // by dictionaryTypeId()
};

} // namespace ua
