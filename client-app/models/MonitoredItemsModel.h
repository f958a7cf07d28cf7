// The data access view (issue 7 items 5, 6, 9, 12): one Subscription (OPC 10000-4 5.13) with one
// MonitoredItem (5.12) of the Value attribute per row. Rows come from addNodes() (a context menu),
// dropMimeData() (application/x-ua-nodeid, NodeIdMime.h: one drag from the tree) or setItems()
// (a project file). For each new node one Read gives its DisplayName and DataType; the item is
// created with CreateMonitoredItems (TimestampsToReturn Both) and its rows show the revised sampling
// interval and queue size, then every value change.
//
// The subscription is created with the first item (and again for a new Client: clientChanged, then
// the items are created again on it once Connected; the rows and their settings stay). A new
// connection to another server (Connection::serverChanged) removes every row instead: NodeIds and
// settings belong to the server they were made on (issue 27 item 1). A reconnect to the same
// Session keeps it (the Client transfers it). While the connection is lost (Reconnecting,
// Disconnected) every row but a refused one is stale (issue 27 item 2): the last value stays, its
// status reads Bad_ServerNotConnected, in grey (StaleRole, ForegroundRole) until Connected again. Its
// publishing interval is set with setPublishingInterval (ModifySubscription). Per-item settings (sampling interval, queue size,
// deadband) change with setItemSettings() or by editing those columns (ModifyMonitoredItems);
// removeRows() deletes the items (DeleteMonitoredItems). Every call is logged (service name,
// status, "3 items") and its per-item results are shown in the Status column.
//
// clientHandles are the model's own (1, 2, ...), stable for the model's life; the trend and the
// window name items by them.
#pragma once

#include "core/ProjectFile.h"
#include "ua/client/subscriptions/ClientSubscription.h"
#include "ua/types/Variant.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ua::clientapp {

class Connection;
class DataTypeNames;

class MonitoredItemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DisplayNameColumn,       // the node's DisplayName; CheckStateRole: shown in the trend (numeric values)
        NodeIdColumn,            // "ns=2;s=Demo.Simulation.Sine"
        ValueColumn,             // the last value as text (formatVariant, arrays up to 20 elements)
        DataTypeColumn,          // the DataType's name
        StatusColumn,            // the value's StatusCode name, or the item's create/modify failure
        SourceTimestampColumn,   // "2026-11-30 10:00:00.123" (local time); SortRole: QDateTime
        ServerTimestampColumn,
        SamplingIntervalColumn,  // the revised sampling interval in ms (editable: the requested one)
        QueueSizeColumn,         // the revised queue size (editable)
        DeadbandColumn,          // "None", "Absolute 0.5", "Percent 2" (editable in that form)
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        ClientHandleRole = Qt::UserRole + 1,  // uint on every cell
        NodeIdRole,                           // QString: NodeId text
        NumericValueRole,                     // double when the value is a numeric scalar, else invalid
        StatusCodeRole,                       // uint: the shown status
        StaleRole,                            // bool: the connection is lost; the value (if any) is the last one received
    };
    Q_ENUM(Role)

    explicit MonitoredItemsModel(Connection* connection, QObject* parent = nullptr);
    ~MonitoredItemsModel() override;

    // One row per node (a node already in the table is added again as another row: another
    // clientHandle); each with the default settings below.
    void addNodes(const std::vector<ua::NodeId>& nodes);
    // Replaces every row with the project's items (persistent NodeIds resolved with the session's
    // NamespaceArray when Connected; until then kept and resolved then).
    void setItems(const std::vector<ProjectItem>& items);
    // The rows as project items (persistent "nsu=" NodeIds, the requested settings, trend flag).
    std::vector<ProjectItem> items() const;

    // The settings of items added from now on (default: sampling -1 = the publishing interval,
    // queue size 1, no deadband).
    void setDefaultItemSettings(double samplingIntervalMs, uint32_t queueSize);
    // ModifyMonitoredItems of one row: samplingIntervalMs (-1: the publishing interval, 0: fastest),
    // queueSize, deadbandType (0 None, 1 Absolute, 2 Percent: OPC 10000-4 7.22.2) and value.
    void setItemSettings(int row, double samplingIntervalMs, uint32_t queueSize, uint32_t deadbandType,
                         double deadbandValue);

    // The subscription's settings: publishingIntervalMs is what was asked; setting it modifies the
    // subscription (ModifySubscription) when it exists.
    ua::SubscriptionSettings subscriptionSettings() const { return m_settings; }
    void setSubscriptionSettings(const ua::SubscriptionSettings& settings);
    void setPublishingInterval(double ms);
    // The server's revised publishing interval (ms), 0 while there is no subscription.
    double revisedPublishingInterval() const { return m_revisedPublishingIntervalMs; }

    // Row <-> clientHandle; the last DataValue of a row.
    uint32_t clientHandleAt(int row) const;
    int rowOfClientHandle(uint32_t clientHandle) const;
    ua::NodeId nodeIdAt(int row) const;
    QString displayNameAt(int row) const;
    const ua::DataValue* lastValueAt(int row) const;
    // True while the connection is lost (Reconnecting or Disconnected after a connection): the
    // values shown are the last ones received, not the server's current ones.
    bool isStale() const { return m_stale; }
    bool trendAt(int row) const;
    void setTrend(int row, bool on);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Deletes the items (DeleteMonitoredItems) and removes the rows at once.
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;
    QStringList mimeTypes() const override;  // application/x-ua-nodeid
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;
    Qt::DropActions supportedDropActions() const override;  // Copy | Move

signals:
    // A new value of an item (every data change notification, in order).
    void valueChanged(int row, uint32_t clientHandle, const ua::DataValue& value);
    // An item's trend flag changed (setTrend, CheckStateRole), or the item was removed (on false).
    void trendChanged(uint32_t clientHandle, bool on, const QString& displayName);
    // The subscription was created / modified: the revised publishing interval; or its failure.
    void subscriptionChanged(ua::StatusCode status, double revisedPublishingIntervalMs);
    // A MonitoredItem service call ended: "CreateMonitoredItems", "ModifyMonitoredItems",
    // "DeleteMonitoredItems", with the service status (per-item results are in the rows).
    void itemsServiceFinished(const QString& service, ua::StatusCode status);

private:
    struct Row;
    void onClientChanged();
    void onStateChanged();
    void setStale(bool stale);
    void removeAllRows();  // another server: no DeleteMonitoredItems (the old Client is gone)
    void ensureSubscription();
    void createPending();
    void describe(std::vector<uint32_t> handles);
    void onNotification(const ua::SubscriptionNotification& n);
    void loadValueTypes(const ua::Variant& value);
    void emitRowChanged(int row, int firstColumn, int lastColumn);
    ua::MonitoredItemSettings settingsOf(const Row& r) const;
    void addRows(std::vector<Row> rows);

    QPointer<Connection> m_connection;  // the destructor deletes the subscription if it still exists
    DataTypeNames* m_names;
    std::vector<Row> m_rows;
    std::unordered_map<uint32_t, int> m_rowOfHandle;
    uint32_t m_nextHandle = 1;
    ua::SubscriptionSettings m_settings;
    ua::SubscriptionHandle m_subscription = 0;
    bool m_creatingSubscription = false;
    double m_revisedPublishingIntervalMs = 0;
    double m_defaultSamplingMs = -1;
    uint32_t m_defaultQueueSize = 1;
    quint64 m_generation = 0;  // bumped on clientChanged
    bool m_stale = false;
    bool m_loadingTypes = false;  // a DataTypeCache load for custom structures is in progress
};

} // namespace ua::clientapp
