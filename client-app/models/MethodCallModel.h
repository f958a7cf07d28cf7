// The call dialog's data (issue 7 item 7): for a Method node, its InputArguments and OutputArguments
// Properties (OPC 10000-3 5.7: Argument structures, OPC 10000-5 12.2.12.1) found with
// TranslateBrowsePaths (".InputArguments", ".OutputArguments") and read; an editable table of the
// inputs (name, DataType, value as text); call() parses each input with parseValue (ValueText.h) as
// its DataType and ValueRank and sends one Call (OPC 10000-4 5.11.2); outputs() then holds the
// OutputArguments (emptied when a call starts, so a failed call shows no outputs: issue 27 item 5),
// the Input table's Result column each inputArgumentResult, and methodStatus() the
// CallMethodResult's statusCode (e.g. Bad_ArgumentsMissing, Bad_TooManyArguments,
// Bad_InvalidArgument, Bad_TypeMismatch, Bad_OutOfRange, Bad_UserAccessDenied).
//
// The arguments sent are the rows in order, as typed: trailing inputs left empty are not sent (the
// server then answers Bad_ArgumentsMissing), and insertRows() at the end adds extra inputs (no
// declared type: the text is parsed as a Double when it is a number, else sent as a String; the
// server answers Bad_TooManyArguments). A text that does not parse is not sent: call() fails locally
// with its status in that row's Result column (Bad_TypeMismatch / Bad_OutOfRange) and
// callFinished(). Logged as "TranslateBrowsePaths", "Read", "Call".
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Variant.h"

#include <QAbstractTableModel>
#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

// The outputs of the last call: Name, DataType, Value (read-only).
class MethodOutputsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, DataTypeColumn, ValueColumn, ColumnCount };
    Q_ENUM(Column)
    explicit MethodOutputsModel(DataTypeNames* names, QObject* parent = nullptr);

    void setArguments(std::vector<ua::Argument> arguments);  // the declared outputs (values cleared)
    void setValues(std::vector<ua::Variant> values);         // one per output (more: shown unnamed)
    const std::vector<ua::Variant>& values() const { return m_values; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    DataTypeNames* m_names;
    std::vector<ua::Argument> m_arguments;
    std::vector<ua::Variant> m_values;
};

class MethodCallModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,      // the Argument's name; ToolTipRole: its description
        DataTypeColumn,  // the DataType's name ("Double[]" for ValueRank 1)
        ValueColumn,     // the input's text (editable; arrays "[1, 2, 3]")
        ResultColumn,    // the last call's inputArgumentResult name (or the local parse error)
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        StatusCodeRole = Qt::UserRole + 1,  // uint on ResultColumn
    };
    Q_ENUM(Role)

    explicit MethodCallModel(Connection* connection, QObject* parent = nullptr);

    // Loads the Method's arguments (rows reset, loaded() when done). objectId: the Object (or
    // ObjectType) the Method is called on; null: the Method's parent found by an inverse Browse of
    // HasComponent.
    void setMethod(const ua::NodeId& methodId, const ua::NodeId& objectId = {});
    ua::NodeId methodId() const { return m_methodId; }
    ua::NodeId objectId() const { return m_objectId; }
    const std::vector<ua::Argument>& inputArguments() const { return m_inputs; }

    // Sets the text of input row (as setData on ValueColumn does).
    bool setInputText(int row, const QString& text);
    QString inputText(int row) const;

    // Parses the inputs and calls the Method (see the header comment); callFinished() when done.
    void call();
    // Calls with these inputs as they are (scripts, tests), bypassing the table.
    void callWith(std::vector<ua::Variant> inputs);
    bool isCalling() const { return m_calling; }

    // The last call's CallMethodResult.statusCode (or the service's / the local parse failure).
    ua::StatusCode methodStatus() const { return m_methodStatus; }
    MethodOutputsModel* outputs() const { return m_outputs; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Rows may be inserted at the end only (extra inputs) and removed there again.
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    // The arguments of methodId() were read (Good; or why not, e.g. Bad_NodeIdUnknown).
    void loaded(ua::StatusCode status);
    // A call ended: the Method's status (see methodStatus()) and a text for the user.
    void callFinished(ua::StatusCode status, const QString& message);

private:
    struct Input {
        ua::Argument argument;  // an extra input: empty name, null DataType
        QString text;
        ua::StatusCode result;
        QString error;          // a local parse error's message
        bool declared = true;
        bool hasResult = false;  // the last call (or parse) gave this input a result
    };
    void findParent();
    void readArguments();
    void finishCall(ua::StatusCode status, const QString& message);
    // Empties the outputs' values (their names stay): a call starts without the last one's results.
    void clearOutputValues();

    Connection* m_connection;
    DataTypeNames* m_names;
    MethodOutputsModel* m_outputs;
    ua::NodeId m_methodId;
    ua::NodeId m_objectId;
    std::vector<ua::Argument> m_inputs;
    std::vector<Input> m_rows;
    ua::StatusCode m_methodStatus;
    bool m_calling = false;
    quint64 m_generation = 0;
};

} // namespace ua::clientapp
