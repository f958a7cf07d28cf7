// The server's Reverse Connect targets as its window shows them (issue 32 item 4): one row per
// configured client URL (ReverseConnectConfig::clientUrls) with its state, the dials started, the
// connections that received a Hello, the failures in a row and the last error
// (ua/server/runtime/ReverseConnector.h TargetState). update() takes Server::reverseConnectStates(),
// a copy made under the connector's own lock (nothing on the request path), on the window's refresh
// tick (DiagnosticsPoller::snapshotReady). Rows are keyed by URL (and its occurrence, should one be
// configured twice): a change of state is a dataChanged, never a reset (KeyedTableModel.h).
#pragma once

#include <QString>
#include <vector>

#include "models/KeyedTableModel.h"
#include "ua/server/runtime/ReverseConnector.h"

namespace ua::serverapp {

struct ReverseConnectionRow {
    QString key;  // "<occurrence>|<url>": the first opc.tcp://a:1 is "0|opc.tcp://a:1"
    ReverseConnector::TargetState state;
    friend bool operator==(const ReverseConnectionRow& a, const ReverseConnectionRow& b);
};

class ReverseConnectionsModel : public KeyedTableModel<ReverseConnectionRow, QString> {
    Q_OBJECT
public:
    enum Column {
        Url,       // the client listener, as configured
        State,     // stateText()
        Dials,     // TCP connects started
        Used,      // spare connections that received the Client's Hello (became connections)
        Failures,  // failed dials or spares closed without a Hello, in a row
        LastError,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit ReverseConnectionsModel(QObject* parent = nullptr) : KeyedTableModel(parent) {}

    // The targets, in the order of the configuration (Server::reverseConnectStates(); empty while
    // the server is stopped or has none).
    void update(const std::vector<ReverseConnector::TargetState>& states);
    const ReverseConnector::TargetState* state(int row) const;

    // "invalid URL", "dialling", "spare open, waiting for Hello", "retrying after failure 3",
    // "spare timed out, dialling again", "not dialled yet".
    static QString stateText(const ReverseConnector::TargetState& state);
    // A sentence for the State cell's tooltip.
    static QString stateExplanation(const ReverseConnector::TargetState& state);

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QString keyOf(const ReverseConnectionRow& row) const override { return row.key; }
};

} // namespace ua::serverapp
