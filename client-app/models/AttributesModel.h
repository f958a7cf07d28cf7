// All attributes of one node (issue 7 items 3, 4, 12), for the window's attributes view: one Read
// (OPC 10000-4 5.10.2; TimestampsToReturn Both, maxAge 0) of every AttributeId 1..27 (OPC 10000-3
// 5.9, Table 1: NodeId .. AccessLevelEx); attributes the node does not have (Bad_AttributeIdInvalid)
// are not shown, other failures are shown with their status. refresh() reads again.
//
// The Value row shows the value with the name of its DataType (the DataType attribute: "Int32",
// "ServerStatusDataType"; DataTypeNames) and, below it, child rows for arrays (one per element,
// "[i]"; matrices as nested rows per dimension) and structures (ExtensionObjects the codec decodes:
// one row per field of the generated type, named as in the schema, nested structures and arrays
// expanded in turn); other attributes' arrays and structures (DataTypeDefinition, RolePermissions,
// ArrayDimensions) are expanded the same way, read-only. Attributes with enumerated or bit-mask values are shown by name: NodeClass
// "Variable", ValueRank "-1 (Scalar)", AccessLevel "CurrentRead | CurrentWrite", EventNotifier
// "SubscribeToEvents", DataType "Int32 (i=6)".
//
// Custom structures (DataTypes of the server's own, issue 29 item 3): the Value's opaque Binary
// ExtensionObjects are decoded with the Connection's DataTypeCache (loaded after the Read; the rows
// are built again when it answers), one row per field by its definition, enumerations by name. A
// scalar field is edited in place like a Value (the same roles for the editors); the structure is
// then encoded again with the new field and written whole (an element of an array of structures:
// the whole array).
//
// The shape of a custom structure in the Value changes the same way (StructureEdit.h; the window's
// context menu on the row): setFieldPresent (an optional field present at its DataType's default,
// or absent), setUnionChoice (the field a union holds, at its default, or none), insertArrayElement
// and removeArrayElement (an element of an array field, or of a Value that is an array of custom
// structures: at the default of its DataType). StructureEditsRole says which apply to a row. Each
// decodes the value again, changes it, encodes it and writes the whole Value (an element of a Value
// array: the whole array); the Write's status shows and is signalled as below. A row the change does
// not apply to (not a field of a custom structure in a Variable's Value, not optional, not a union,
// not an array or an element) is left alone: false, nothing written, nothing signalled; a value that
// no longer decodes or does not encode: false and writeFinished (Bad_DecodingError / Bad_EncodingError
// with why).
//
// Write in place (OPC 10000-4 5.10.4): setData(EditRole, text) on the Value column of the Value row,
// or of an array element row, parses the text with parseValue (ValueText.h) as the node's DataType
// (builtInTypeOf; the current value's type when the DataType is abstract) and ValueRank; a text that
// does not parse is refused there (Bad_TypeMismatch / Bad_OutOfRange, nothing written; setData
// returns false) and an element is written as the whole array with that element replaced. The
// result (the Write's or the operation's status, e.g. Bad_NotWritable, Bad_UserAccessDenied,
// Bad_TypeMismatch from the server) is shown in the Status column of the Value row and signalled
// with writeFinished(); after a Good write the Value is read again. Logged as "Write" / "Read".
#pragma once

#include "ua/encoding/StructureCodec.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Variant.h"

#include <QAbstractItemModel>
#include <QStringList>
#include <QVariantList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

class AttributesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        AttributeColumn,  // the attribute's name ("Value", "DataType"); child rows: "[3]" or a field name
        ValueColumn,      // the value as text (formatVariant; names for enums/masks, see above);
                          // EditRole on editable cells: the text to edit (arrays "[1, 2, 3]")
        DataTypeColumn,   // the Value row: the DataType's name ("Double[]" for arrays); child rows:
                          // the element's or field's type; other attributes: the attribute's type
        StatusColumn,     // the Read status of the attribute ("Good", "Bad_NotReadable"); on the Value
                          // row after a write: "Write: Good" / "Write: Bad_NotWritable" / a parse error
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        AttributeIdRole = Qt::UserRole + 1,  // uint on a top-level row: the AttributeId (1..27); 0 on children
        StatusCodeRole,                      // uint: the row's status code (read, then write for Value)
        SourceTimestampRole,                 // QDateTime (Value row): the DataValue's SourceTimestamp
        ServerTimestampRole,                 // QDateTime (Value row)
        EditableRole,                        // bool: setData on ValueColumn writes
        // For the value editors (ValueEditorDelegate), on the Value row and its element rows:
        BuiltInTypeRole,   // int: the BuiltInType a text is parsed as (the Value row: the DataType's,
                           // builtInTypeOf; an element: the array's); -1 elsewhere or when none
        ValueRankRole,     // int: the Value row: valueRank(); an element row: -1 (a scalar)
        IsArrayRole,       // bool: the Value row's value is an array or its ValueRank is >= 1
                           // (the text to edit is EditRole, the ValueText form)
        EnumNamesRole,     // QStringList: an Enumeration DataType's names (its EnumStrings or
                           // EnumValues Property, OPC 10000-3 5.8.3 / 8.14; read after the
                           // attributes), empty when not an enumeration or not known (yet)
        EnumValuesRole,    // QVariantList of qlonglong: the value of each name (EnumStrings: 0, 1, ...)
        // The shape changes of a custom structure (see above):
        StructureEditsRole,  // int: the StructureEdit flags that apply to the row (0: none)
        UnionFieldsRole,     // QStringList: the row is a union: its fields' names (else empty)
        UnionChoiceRole,     // int: a union's row: the field it holds (index in UnionFieldsRole), -1 none
    };
    Q_ENUM(Role)
    enum StructureEdit {
        AddField = 1,           // an absent optional field: setFieldPresent(row, true)
        RemoveField = 2,        // a present optional field, or the field a union holds: setFieldPresent(row, false)
        ChooseUnionField = 4,   // a union: setUnionChoice(row, field)
        AddElement = 8,         // an array (appended) or an element (inserted after it): insertArrayElement(row)
        RemoveElement = 16,     // an element: removeArrayElement(row)
    };
    Q_ENUM(StructureEdit)

    explicit AttributesModel(Connection* connection, QObject* parent = nullptr);
    ~AttributesModel() override;

    // Shows node's attributes (rows appear when the Read answers); a null NodeId clears.
    void setNode(const ua::NodeId& node);
    ua::NodeId node() const { return m_node; }
    // Reads every attribute again (rows kept where the attribute is still there).
    void refresh();

    // The last read DataValue of an attribute (nullptr when the node does not have it or before the
    // first answer).
    const ua::DataValue* attribute(ua::AttributeId id) const;
    // The DataType and ValueRank the Value is parsed as (from the DataType / ValueRank attributes).
    ua::NodeId dataType() const;
    int32_t valueRank() const;
    // The BuiltInType a Value text is parsed as (nullopt: no text form, e.g. a structure).
    std::optional<ua::BuiltInType> valueBuiltInType() const;
    // The index of the Value row (column 0), invalid when the node has no Value.
    QModelIndex valueIndex() const;

    // Writes value to the node's Value attribute (the status shown and signalled as above).
    void writeValue(const ua::Variant& value);
    // Parses text as setData does and writes it; false (and writeFinished with the parse status)
    // when it does not parse.
    bool writeText(const QString& text);

    // The shape changes (see above); row: any column of the field's, union's, array's or element's
    // row. true: the Write was sent (its end: writeFinished).
    bool setFieldPresent(const QModelIndex& row, bool present);
    // field: an index in the union's UnionFieldsRole, -1 for none.
    bool setUnionChoice(const QModelIndex& row, int field);
    bool insertArrayElement(const QModelIndex& row);
    bool removeArrayElement(const QModelIndex& row);
    // The StructureEdit flags of row (as StructureEditsRole).
    int structureEdits(const QModelIndex& row) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // The Read of node() ended (Good or the service's status).
    void loaded(ua::StatusCode status);
    // The end of a write: the status (Good, the server's, or the parse error's with its message,
    // e.g. "300 is out of range for Byte").
    void writeFinished(ua::StatusCode status, const QString& message);

private:
    struct Item;
    Item* itemOf(const QModelIndex& index) const;
    QModelIndex indexOf(const Item* item, int column = 0) const;
    void read(bool keepRows);
    void applyRead(const std::vector<ua::DataValue>& values);
    void readValueAgain();
    void loadValueTypes(const std::vector<ua::DataValue>& values);
    const Item* valueRootOf(const Item* item) const;
    bool writeField(const Item* item, const QString& text);
    int structureEditsOf(const Item* item) const;
    bool isVariableNode() const;
    bool refuseWrite(ua::StatusCode status, const QString& why);
    // Decodes the custom structure item is in (the Value, or the element of the Value array it is
    // below), lets change edit it (the path of item in it is item->field.path; a Bad status with
    // *why: refused, not written), encodes it and writes the Value.
    bool rewriteStructure(const Item* item, const std::function<ua::StatusCode(ua::DynamicValue& root, QString* why)>& change);
    // The Value as an array of custom structures changed by change (false with *why: not written),
    // written whole.
    bool rewriteValueArray(const std::function<bool(ua::Array<ua::ExtensionObject>& elements, QString* why)>& change);
    // The DataType of the Value array's elements (its first element's, else the DataType attribute).
    ua::NodeId valueArrayElementType() const;
    void lookupEnumNames();
    void setWriteStatus(ua::StatusCode status, const QString& message);
    QString attributeText(uint32_t attributeId, const ua::DataValue& dv) const;

    Connection* m_connection;
    DataTypeNames* m_names;
    ua::NodeId m_node;
    std::vector<std::unique_ptr<Item>> m_rows;  // top level: one per attribute the node has
    quint64 m_generation = 0;
    quint64 m_typesLoadedFor = 0;  // the generation whose Value's DataTypes were loaded
    ua::NodeId m_enumDataType;                                 // whose names m_enumNames hold
    QStringList m_enumNames;
    QVariantList m_enumValues;
};

} // namespace ua::clientapp
