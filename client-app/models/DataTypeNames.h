// The names of DataTypes (OPC 10000-3 5.8) for the client app's models: "Int32", "Double",
// "ServerStatusDataType", "AnalogValueType"... Namespace 0 built-in types and the structures the
// codec knows (DataTypeInfo.h) are named at once without a call; other DataTypes are read (Read of
// DisplayName, logged as "Read") once per Client and cached. Also the names of other nodes the
// models show by NodeId (ReferenceTypes, TypeDefinitions, EventTypes): lookup() works for any node.
#pragma once

// Qt first: moc cannot parse <compare> (from NodeId.h) unless a Qt header came before it.
#include <QObject>
#include <QString>

#include "ua/types/NodeId.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ua::clientapp {

class Connection;

class DataTypeNames : public QObject {
    Q_OBJECT
public:
    explicit DataTypeNames(Connection* connection, QObject* parent = nullptr);

    // The name known without a call: a built-in type (i=1..29), a structure of the codec, one of
    // the standard ReferenceTypes, or an earlier lookup's result; nullopt otherwise.
    std::optional<QString> known(const NodeId& node) const;
    // known(node), else NodeId text for now and a lookup started: namesResolved() follows.
    QString nameOrLookup(const NodeId& node);
    // Reads the DisplayName of the nodes not known yet (one Read for all); namesResolved() when done
    // (also when it failed: the NodeId text stays the name).
    void lookup(const std::vector<NodeId>& nodes);

    // Static part only (no connection): the ns=0 names of known().
    static std::optional<QString> standardName(const NodeId& node);

signals:
    void namesResolved();

private:
    Connection* m_connection;
    std::unordered_map<NodeId, QString> m_names;
    std::unordered_set<NodeId> m_pending;
    quint64 m_generation = 0;          // bumped on clientChanged: late answers are dropped
};

} // namespace ua::clientapp
