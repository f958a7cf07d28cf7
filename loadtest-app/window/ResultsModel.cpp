#include "window/ResultsModel.h"

#include "window/SweepProgress.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QStyle>

namespace ua::loadtest {

QString formatRate(double perS) {
    if (perS < 0) return {};
    return perS >= 100 ? QLocale().toString(perS, 'f', 0) : QLocale().toString(perS, 'f', 1);
}

QString formatMs(double us) {
    if (us < 0) return {};
    const double ms = us / 1000;
    return QLocale().toString(ms, 'f', ms >= 100 ? 0 : ms >= 10 ? 1 : 3);
}

QString formatCpuMs(double ms) {
    if (ms < 0) return {};
    return QLocale().toString(ms, 'f', ms >= 1 ? 2 : 4);
}

ResultsModel::ResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultsModel::clear() {
    beginResetModel();
    m_steps.clear();
    endResetModel();
}

void ResultsModel::addStep(const StepResult& step) {
    const int row = int(m_steps.size());
    beginInsertRows({}, row, row);
    m_steps.push_back(step);
    endInsertRows();
}

void ResultsModel::setSteps(std::vector<StepResult> steps) {
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

QString ResultsModel::notes(const StepResult& s) {
    QStringList parts;
    if (!s.error.isEmpty()) parts << tr("failed: %1").arg(s.error);
    // A step that did not run beats the server by its error: said once.
    if (!s.beatenBy.isEmpty() && (s.error.isEmpty() || !s.beatenBy.contains(s.error))) parts << tr("beaten: %1").arg(s.beatenBy);
    if (s.connectionBroken && s.beatenBy.isEmpty()) parts << tr("connection broken");
    if (s.eventsLost > 0) parts << tr("%1 events lost").arg(s.eventsLost);
    for (const QString& w : s.warnings)
        if (!parts.contains(w)) parts << w;
    if (s.generatorSaturated && s.warnings.isEmpty()) parts << tr("load generator saturated");
    return parts.join(QStringLiteral("; "));
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_steps.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const StepResult& s = m_steps[std::size_t(index.row())];
    const int c = index.column();
    // A step that failed before anything was answered measured nothing: its figures stay empty
    // rather than read 0.000 (issue 27 item 12); Notes says why.
    const bool measured = s.error.isEmpty() || s.answered > 0;
    switch (role) {
    case Qt::DisplayRole:
        if (!measured && c >= RequestsPerSColumn && c != ErrorsColumn && c != TimeoutsColumn && c != NotesColumn) return QString();
        switch (c) {
        case SessionsColumn: return s.sessions;
        case OutstandingColumn: return s.outstanding;
        case RequestsPerSColumn: return formatRate(s.requestsPerS);
        case ValuesPerSColumn: return formatRate(s.valuesPerS);
        case P50Column: return formatMs(s.p50Us);
        case P90Column: return formatMs(s.p90Us);
        case P99Column: return formatMs(s.p99Us);
        case P999Column: return formatMs(s.p999Us);
        case MaxColumn: return formatMs(s.maxUs);
        case ErrorsColumn: return QLocale().toString(qulonglong(s.errors));
        case TimeoutsColumn: return QLocale().toString(qulonglong(s.timeouts));
        case ClientCpuColumn: return formatCpuMs(s.clientCpuMsPerOp);
        case ServerCpuColumn: return formatCpuMs(s.serverCpuMsPerOp);
        case ServerRssColumn: return s.serverRssKb < 0 ? QString() : QLocale().toString(s.serverRssKb / 1024.0, 'f', 1);
        case NotesColumn: return notes(s);
        }
        return {};
    case Qt::TextAlignmentRole:
        return c == NotesColumn ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter)) : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::DecorationRole:
        if (c == NotesColumn && !notes(s).isEmpty() && qApp)
            return QApplication::style()->standardIcon(s.error.isEmpty() ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxCritical);
        return {};
    case Qt::ForegroundRole:
        if (!s.error.isEmpty()) return QBrush(QColor(0xb0, 0x00, 0x20));
        if ((c == ErrorsColumn && s.errors) || (c == TimeoutsColumn && s.timeouts)) return QBrush(QColor(0xb0, 0x00, 0x20));
        return {};
    case Qt::BackgroundRole:
        if (!s.beatenBy.isEmpty()) return QBrush(QColor(0xff, 0xee, 0xe0));
        if (s.generatorSaturated) return QBrush(QColor(0xff, 0xf8, 0xd0));
        return {};
    case Qt::ToolTipRole: {
        QStringList tip;
        tip << tr("%1, %2 s measured").arg(stepTitle(s.sessions, s.outstanding)).arg(s.durationS, 0, 'f', 1);
        tip << tr("sent %1, answered %2, errors %3, timeouts %4").arg(s.sent).arg(s.answered).arg(s.errors).arg(s.timeouts);
        for (const auto& [status, n] : s.errorsByStatus) tip << QStringLiteral("  %1: %2").arg(status).arg(n);
        if (s.clientCpuPercent >= 0) tip << tr("client CPU %1 % of a core").arg(s.clientCpuPercent, 0, 'f', 0);
        if (s.serverCpuPercent >= 0) tip << tr("server CPU %1 % of a core").arg(s.serverCpuPercent, 0, 'f', 0);
        if (s.minFidelityPercent >= 0)
            tip << tr("sample fidelity: min %1 %, mean %2 %, %3 items below 99 %").arg(s.minFidelityPercent, 0, 'f', 1).arg(s.meanFidelityPercent, 0, 'f', 1).arg(s.itemsBelow99);
        if (s.eventsPerS > 0 || s.eventsLost >= 0)
            tip << tr("events: %1/s delivered, %2/s raised, %3 expected, %4 received, lost %5, queue overflows %6")
                       .arg(s.eventsPerS, 0, 'f', 0)
                       .arg(s.eventsRaisedPerS, 0, 'f', 0)
                       .arg(s.eventsExpected)
                       .arg(s.eventsReceived)
                       .arg(s.eventsLost >= 0 ? QString::number(s.eventsLost) : tr("unknown"))
                       .arg(s.eventOverflows);
        const QString n = notes(s);
        if (!n.isEmpty()) tip << n;
        return tip.join(QLatin1Char('\n'));
    }
    case Qt::UserRole: return index.row();
    }
    return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[ColumnCount] = {
            QT_TR_NOOP("Sessions"), QT_TR_NOOP("Outst."), QT_TR_NOOP("Req/s"), QT_TR_NOOP("Values/s"),
            QT_TR_NOOP("p50 ms"), QT_TR_NOOP("p90 ms"), QT_TR_NOOP("p99 ms"), QT_TR_NOOP("p99.9 ms"), QT_TR_NOOP("Max ms"),
            QT_TR_NOOP("Errors"), QT_TR_NOOP("Timeouts"), QT_TR_NOOP("Client CPU\nms/op"), QT_TR_NOOP("Server CPU\nms/op"),
            QT_TR_NOOP("Server RSS\nMB"), QT_TR_NOOP("Notes"),
        };
        return tr(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case OutstandingColumn: return tr("Requests in flight per Session");
        case ValuesPerSColumn: return tr("Values read or written, references browsed, or notifications received per second");
        case ClientCpuColumn: return tr("CPU time of this load generator per answered request");
        case ServerCpuColumn: return tr("CPU time of the server process per answered request (when its process id is known)");
        case NotesColumn: return tr("Why the step beat the server, and warnings (e.g. the load generator saturated)");
        }
    }
    return {};
}

} // namespace ua::loadtest
