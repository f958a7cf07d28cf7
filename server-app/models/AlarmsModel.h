// The server's alarm conditions as its window shows them (issue 31 item 2): one row per alarm
// (ua/server/conditions/ConditionManager.h ConditionSummary) with its state, severity,
// acknowledgement, shelving, the input's last value, the time and message of its last event.
// refresh() reads the ConditionManager (a short lock; no request waits for it). The
// Qt::BackgroundRole of an active alarm's row is its severity's colour (app-common/SeverityColor.h). Qt Core,
// and Qt Gui colours only: tested headless (tests/serverapp/tst_alarms_model.cpp).
#pragma once

#include "models/KeyedTableModel.h"

#include "ua/server/conditions/ConditionManager.h"

#include <QColor>
#include <QDateTime>
#include <QString>

namespace ua {
class Server;
}

namespace ua::serverapp {

struct AlarmRow {
    ConditionSummary c;
    friend bool operator==(const AlarmRow& a, const AlarmRow& b) {
        return a.c.eventId == b.c.eventId && a.c.name == b.c.name && a.c.value.value == b.c.value.value &&
               a.c.value.status == b.c.value.status;
    }
};

// "HighHigh active", "Active", "Normal", "Disabled" (and ", shelved").
QString alarmStateText(const ConditionSummary& c);

class AlarmsModel : public KeyedTableModel<AlarmRow, QString> {
    Q_OBJECT
public:
    enum Column { Name, State, Severity, Acked, Confirmed, Value, Source, Time, Message, ColumnCount };

    // server may be null: the model stays empty.
    explicit AlarmsModel(Server* server, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void refresh();
    const ConditionSummary& condition(int row) const { return rowAt(row).c; }
    int activeCount() const;
    int unacknowledgedCount() const;

protected:
    QString keyOf(const AlarmRow& row) const override { return QString::fromStdString(row.c.name); }

private:
    Server* m_server;
};

} // namespace ua::serverapp
