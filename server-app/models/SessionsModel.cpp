#include "models/SessionsModel.h"

namespace ua::serverapp {

QString securityPolicyShortName(const String& uri) {
    const QString u = uri.toQString();
    const qsizetype hash = u.lastIndexOf(QLatin1Char('#'));
    return hash < 0 ? u : u.mid(hash + 1);
}

QString securityModeName(MessageSecurityMode mode) {
    switch (mode) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    default: return QStringLiteral("Invalid");
    }
}

QString dateTimeText(const DateTime& t) {
    if (t.isMin()) return {};
    return t.toQDateTime().toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
}

bool operator==(const SessionRow& a, const SessionRow& b) {
    if (a.snapshot == b.snapshot) return true;
    const SessionSnapshot& x = *a.snapshot;
    const SessionSnapshot& y = *b.snapshot;
    const SessionDiagnosticsDataType& d = x.diagnostics;
    const SessionDiagnosticsDataType& e = y.diagnostics;
    return d.sessionId == e.sessionId && d.sessionName == e.sessionName &&
           d.clientDescription.applicationName.text == e.clientDescription.applicationName.text &&
           d.clientDescription.applicationUri == e.clientDescription.applicationUri &&
           d.clientConnectionTime == e.clientConnectionTime && d.clientLastContactTime == e.clientLastContactTime &&
           d.totalRequestCount.totalCount == e.totalRequestCount.totalCount &&
           d.totalRequestCount.errorCount == e.totalRequestCount.errorCount &&
           d.unauthorizedRequestCount == e.unauthorizedRequestCount &&
           d.currentSubscriptionsCount == e.currentSubscriptionsCount &&
           d.currentPublishRequestsInQueue == e.currentPublishRequestsInQueue && x.peerAddress == y.peerAddress &&
           x.activated == y.activated && x.security.securityMode == y.security.securityMode &&
           x.security.securityPolicyUri == y.security.securityPolicyUri &&
           x.security.clientUserIdOfSession == y.security.clientUserIdOfSession;
}

void SessionsModel::update(const DiagnosticsSnapshotPtr& snapshot) {
    std::vector<SessionRow> rows;
    if (snapshot) {
        rows.reserve(snapshot->sessions.size());
        for (const SessionSnapshot& s : snapshot->sessions) rows.push_back({std::shared_ptr<const SessionSnapshot>(snapshot, &s)});
    }
    replaceRows(std::move(rows));
}

void SessionsModel::update(const DiagnosticsSnapshot& snapshot) {
    update(std::make_shared<const DiagnosticsSnapshot>(snapshot));
}

NodeId SessionsModel::sessionId(int row) const {
    return row >= 0 && row < rowCount() ? rowAt(row).snapshot->diagnostics.sessionId : NodeId();
}

const SessionSnapshot* SessionsModel::session(int row) const {
    return row >= 0 && row < rowCount() ? rowAt(row).snapshot.get() : nullptr;
}

QVariant SessionsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const SessionSnapshot& s = *rowAt(index.row()).snapshot;
    const SessionDiagnosticsDataType& d = s.diagnostics;
    if (role == SessionIdRole) return QString::fromStdString(d.sessionId.toString());
    if (role == FilterRole) {
        QString text;
        for (int c : {Name, ClientApplication, Address, Security, User}) {
            if (!text.isEmpty()) text += QLatin1Char('\n');
            text += data(index.siblingAtColumn(c), Qt::DisplayRole).toString();
        }
        return text;
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ClientApplication: return d.clientDescription.applicationUri.toQString();
        case Security: return s.security.securityPolicyUri.toQString();
        case Name: return QString::fromStdString(d.sessionId.toString());
        case Errors:
            return tr("%1 failed requests, %2 unauthorized").arg(d.totalRequestCount.errorCount).arg(d.unauthorizedRequestCount);
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Requests ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (Column(index.column())) {
    case Name: return d.sessionName.toQString();
    case ClientApplication: return d.clientDescription.applicationName.text.toQString();
    case Address: return s.peerAddress;
    case Security:
        // "None" once, not "None None"; otherwise the mode and the policy ("Sign Basic256Sha256").
        if (s.security.securityMode == MessageSecurityMode::None) return securityModeName(s.security.securityMode);
        return securityModeName(s.security.securityMode) + QLatin1Char(' ') + securityPolicyShortName(s.security.securityPolicyUri);
    case User:
        if (!s.security.clientUserIdOfSession.isEmpty()) return s.security.clientUserIdOfSession.toQString();
        return s.activated ? tr("(anonymous)") : tr("(not activated)");
    case Created: return sort ? QVariant(qint64(d.clientConnectionTime.ticks)) : QVariant(dateTimeText(d.clientConnectionTime));
    case LastContact: return sort ? QVariant(qint64(d.clientLastContactTime.ticks)) : QVariant(dateTimeText(d.clientLastContactTime));
    case Requests: return qulonglong(d.totalRequestCount.totalCount);
    case Errors: return qulonglong(d.totalRequestCount.errorCount) + d.unauthorizedRequestCount;
    case Subscriptions: return qulonglong(d.currentSubscriptionsCount);
    case OutstandingPublishes: return qulonglong(d.currentPublishRequestsInQueue);
    case ColumnCount: break;
    }
    return {};
}

QVariant SessionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Name: return tr("Session");
    case ClientApplication: return tr("Client application");
    case Address: return tr("Address");
    case Security: return tr("Security");
    case User: return tr("User");
    case Created: return tr("Created");
    case LastContact: return tr("Last contact");
    case Requests: return tr("Requests");
    case Errors: return tr("Errors");
    case Subscriptions: return tr("Subscriptions");
    case OutstandingPublishes: return tr("Publishes queued");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::serverapp
