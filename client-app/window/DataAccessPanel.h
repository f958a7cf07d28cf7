// The Data access tab (issue 7 items 5, 12): the monitored items of one Subscription
// (MonitoredItemsModel) as a table with value, status, source and server timestamps, sampling
// interval, queue size and deadband. A drop target: drag nodes from the address tree. Above the
// table the Subscription's publishing interval (asked and revised); the context menu (and Delete)
// removes items, "Settings..." changes one item's sampling interval, queue size and deadband; the
// DisplayName's check box puts the item in the trend.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through NodeId.h) before one.
#include <QWidget>

#include "ua/types/NodeId.h"

class QDoubleSpinBox;
class QLabel;
class QTableView;

namespace ua::clientapp {

class Connection;
class MonitoredItemsModel;

class DataAccessPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataAccessPanel(Connection* connection, QWidget* parent = nullptr);

    MonitoredItemsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    void addNodes(const std::vector<NodeId>& nodes);
    // The Subscription's publishing interval (ms), as typed in the field above the table.
    void setPublishingInterval(double ms);
    // Removes the selected rows (DeleteMonitoredItems).
    void removeSelected();
    // The settings dialog of one row (sampling interval, queue size, deadband).
    void editSettings(int row);

private:
    void contextMenu(const QPoint& pos);

    MonitoredItemsModel* m_model;
    QTableView* m_view;
    QDoubleSpinBox* m_publishing;
    QLabel* m_revised;
};

} // namespace ua::clientapp
