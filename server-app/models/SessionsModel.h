// The open Sessions of a DiagnosticsSnapshot (OPC 10000-5 12.11 SessionDiagnosticsDataType and
// 12.13 SessionSecurityDiagnosticsDataType), one row per Session keyed by its sessionId:
// update() inserts the Sessions that appeared, removes those that closed and changes the others
// in place (KeyedTableModel.h).
#pragma once

#include "models/KeyedTableModel.h"
#include "ua/server/common/DiagnosticsSnapshot.h"

namespace ua::serverapp {

// A row: the Session's snapshot, compared field by field so that only changed rows emit dataChanged.
// A Session's entry in the latest DiagnosticsSnapshot, not a copy of it (an aliasing pointer that
// keeps the snapshot alive): with 5,000 Sessions, copying, comparing and freeing every
// SessionSnapshot once a second was most of the GUI thread's time. Equal when every field the
// table shows (columns, tooltips) is equal: only those rows are reported as changed.
struct SessionRow {
    std::shared_ptr<const SessionSnapshot> snapshot;
    friend bool operator==(const SessionRow& a, const SessionRow& b);
};

class SessionsModel : public KeyedTableModel<SessionRow, NodeId> {
    Q_OBJECT
public:
    enum Column {
        Name,               // SessionName
        ClientApplication,  // clientDescription.applicationName (its URI in the tooltip)
        Address,            // the SecureChannel's TCP peer, "host:port"
        Security,           // "SignAndEncrypt Basic256Sha256": MessageSecurityMode and the policy's short name
        User,               // clientUserIdOfSession ("" for anonymous)
        Created,            // clientConnectionTime (local time; SortRole: QDateTime)
        LastContact,        // clientLastContactTime
        Requests,           // totalRequestCount.totalCount
        Errors,             // totalRequestCount.errorCount + unauthorizedRequestCount
        Subscriptions,      // currentSubscriptionsCount
        OutstandingPublishes,  // currentPublishRequestsInQueue
        ColumnCount
    };
    Q_ENUM(Column)

    // Qt::UserRole + 2 on any cell: the row's sessionId as a QString (NodeId::toString).
    static constexpr int SessionIdRole = Qt::UserRole + 2;
    // Qt::UserRole + 3 on any cell: the text the Sessions page's filter matches, the row's name,
    // client application, address, security and user, one per line (one call per row and filter
    // pass, not one per column).
    static constexpr int FilterRole = Qt::UserRole + 3;

    explicit SessionsModel(QObject* parent = nullptr) : KeyedTableModel(parent) {}

    // The rows of the snapshot's Sessions; the Ptr form shares the snapshot, the other copies it.
    void update(const DiagnosticsSnapshotPtr& snapshot);
    void update(const DiagnosticsSnapshot& snapshot);
    // The Session of a row (Server::closeSession takes it); the null NodeId for a bad row.
    NodeId sessionId(int row) const;
    const SessionSnapshot* session(int row) const;

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    NodeId keyOf(const SessionRow& r) const override { return r.snapshot->diagnostics.sessionId; }
};

// "Basic256Sha256" from "http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256" (the text after
// '#', or the whole URI when it has none).
QString securityPolicyShortName(const String& uri);
// "None", "Sign", "SignAndEncrypt" (Invalid for anything else).
QString securityModeName(MessageSecurityMode mode);
// Local time text of a DateTime, "yyyy-MM-dd hh:mm:ss"; "" for MinValue.
QString dateTimeText(const DateTime& t);

} // namespace ua::serverapp
