// The log of every service call the client app makes (issue 7 item 9): service name, result status,
// round-trip time and a short detail ("3 nodes", "ns=2;s=Demo.Scalars.Int32 = 5"), newest last,
// bounded to the most recent `capacity` records. ServiceLogModel shows it as a table.
//
// Every call the app makes goes through logged() (or record()), so a user sees in the log what the
// server answered even when a view shows only the value.
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/types/StatusCode.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QString>
#include <deque>

namespace ua::clientapp {

struct ServiceLogRecord {
    QDateTime time;        // when the result arrived (local time)
    QString service;       // "Read", "Write", "Browse", "Call", "CreateMonitoredItems", "Connect", ...
    StatusCode status;     // the ServiceResult's status (service or local error)
    qint64 elapsedMs = 0;  // from the call to the result (ms)
    QString detail;        // what was asked, and per-operation failures if any
};

class ServiceLog : public QObject {
    Q_OBJECT
public:
    explicit ServiceLog(int capacity = 10'000, QObject* parent = nullptr);

    // Records one result (GUI thread). Emits recorded().
    void record(ServiceLogRecord record);
    void record(const QString& service, StatusCode status, qint64 elapsedMs, const QString& detail = {});
    const std::deque<ServiceLogRecord>& records() const { return m_records; }
    int capacity() const { return m_capacity; }
    // Records ever recorded (not reset by clear()): records()[0] is record number
    // totalRecorded() - records().size().
    qint64 totalRecorded() const { return m_total; }
    void clear();

signals:
    void recorded(const ua::clientapp::ServiceLogRecord& record);
    void cleared();

private:
    int m_capacity;
    qint64 m_total = 0;
    std::deque<ServiceLogRecord> m_records;
};

// Wraps a ServiceCallback so that its result is recorded in log (when the callback runs: use a
// context on the GUI thread) before `done` runs. `log` may be null (nothing recorded).
template <class Resp>
ServiceCallback<Resp> logged(ServiceLog* log, QString service, QString detail, ServiceCallback<Resp> done) {
    QElapsedTimer timer;
    timer.start();
    return [log, service = std::move(service), detail = std::move(detail), timer,
            done = std::move(done)](const ServiceResult<Resp>& r) {
        if (log) log->record(service, r.status, timer.elapsed(), detail);
        if (done) done(r);
    };
}

// The log as a table: Time, Service, Status (name), Time (ms), Detail; rows appended in batches
// (at most one insert, and one remove of the records the capacity dropped, every kBatchMs), so a
// burst of thousands of results costs the view a few updates. Tooltip of a row: its detail.
class ServiceLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, ServiceColumn, StatusColumn, ElapsedColumn, DetailColumn, ColumnCount };
    explicit ServiceLogModel(ServiceLog* log, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static constexpr int kBatchMs = 50;

private:
    void sync();  // brings the rows up to the log (batched)
    const ServiceLogRecord* recordAt(int row) const;
    QPointer<ServiceLog> m_log;
    int m_rows = 0;
    qint64 m_first = 0;       // the log's record number shown in row 0
    QTimer* m_syncTimer;
};

} // namespace ua::clientapp
