#include "models/ReverseConnectionsModel.h"

#include <QColor>
#include <QHash>

namespace ua::serverapp {

bool operator==(const ReverseConnectionRow& a, const ReverseConnectionRow& b) {
    const ReverseConnector::TargetState& x = a.state;
    const ReverseConnector::TargetState& y = b.state;
    return a.key == b.key && x.url == y.url && x.valid == y.valid && x.dialing == y.dialing && x.spareOpen == y.spareOpen &&
           x.failures == y.failures && x.dials == y.dials && x.used == y.used && x.lastError == y.lastError;
}

void ReverseConnectionsModel::update(const std::vector<ReverseConnector::TargetState>& states) {
    std::vector<ReverseConnectionRow> rows;
    rows.reserve(states.size());
    QHash<QString, int> seen;  // a URL configured twice is two targets, two rows
    for (const ReverseConnector::TargetState& s : states) {
        const int occurrence = seen[s.url]++;
        rows.push_back({QString::number(occurrence) + QLatin1Char('|') + s.url, s});
    }
    replaceRows(std::move(rows));
}

const ReverseConnector::TargetState* ReverseConnectionsModel::state(int row) const {
    return row >= 0 && row < rowCount() ? &rowAt(row).state : nullptr;
}

// What ReverseConnector does with a target (ReverseConnector.cpp): a valid one is dialled at start;
// a dial that fails, or a spare closed without a Hello, counts a failure and is retried after the
// back-off; a spare that got its Hello is an ordinary connection and the next spare is dialled at
// once; a spare that timed out without a Hello resets the failures and is dialled again after
// retryMinMs (neither dialling nor open, no failure: that wait).
QString ReverseConnectionsModel::stateText(const ReverseConnector::TargetState& s) {
    if (!s.valid) return tr("invalid URL");
    if (s.spareOpen) return tr("spare open, waiting for Hello");
    if (s.dialing) return s.failures ? tr("dialling (after failure %1)").arg(s.failures) : tr("dialling");
    if (s.failures) return tr("retrying after failure %1").arg(s.failures);
    if (s.dials == 0) return tr("not dialled yet");
    return tr("spare timed out, dialling again");
}

QString ReverseConnectionsModel::stateExplanation(const ReverseConnector::TargetState& s) {
    if (!s.valid) return tr("Not an opc.tcp://host:port URL: never dialled. Correct it in the configuration and start again.");
    if (s.spareOpen)
        return tr("Connected to the client's listener and sent the ReverseHello; the connection waits for the client's "
                  "Hello (until the Hello timeout closes it).");
    if (s.dialing) return tr("A TCP connect to the client's listener is in progress.");
    if (s.failures)
        return tr("The last %n attempt(s) failed; the next dial comes after the back-off (doubled after each failure, up "
                  "to the maximum).", nullptr, int(s.failures));
    if (s.dials == 0) return tr("The server has not dialled this client yet.");
    return tr("The last spare got no Hello within the Hello timeout; the listener was there, so the server dials again "
              "after the shortest retry delay.");
}

QVariant ReverseConnectionsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ReverseConnector::TargetState& s = rowAt(index.row()).state;
    const int column = index.column();
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (Column(column)) {
        case Url: return s.url;
        case State: return stateText(s);
        case Dials: return role == SortRole ? QVariant(qulonglong(s.dials)) : QVariant(QString::number(s.dials));
        case Used: return role == SortRole ? QVariant(qulonglong(s.used)) : QVariant(QString::number(s.used));
        case Failures: return role == SortRole ? QVariant(uint(s.failures)) : QVariant(QString::number(s.failures));
        case LastError: return s.lastError;
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == State) return stateExplanation(s);
        if (column == LastError && !s.lastError.isEmpty()) return s.lastError;
        if (column == Url) return s.url;
        return {};
    }
    if (role == Qt::TextAlignmentRole && (column == Dials || column == Used || column == Failures))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // Trouble in the State column stands out: an invalid URL, or failures in a row.
    if (role == Qt::ForegroundRole && column == State && (!s.valid || s.failures > 0)) return QColor(0xb0, 0x00, 0x20);
    return {};
}

QVariant ReverseConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Dials: return tr("TCP connects started to this client's listener");
        case Used: return tr("Spare connections that received the client's Hello and became connections");
        case Failures: return tr("Failed dials, or spares the client closed before its Hello, in a row");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Url: return tr("Client URL");
    case State: return tr("State");
    case Dials: return tr("Dials");
    case Used: return tr("Used");
    case Failures: return tr("Failures in a row");
    case LastError: return tr("Last error");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::serverapp
