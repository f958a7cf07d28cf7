#include "window/CompareModel.h"

#include "window/ResultsModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

namespace ua::loadtest {

namespace {

constexpr double kNoise = 0.05;  // ratios within 5 % of 1 are neither better nor worse

QString figureTitle(const QString& f) {
    if (f == QLatin1String("requestsPerS")) return QObject::tr("req/s");
    if (f == QLatin1String("p50Us")) return QObject::tr("p50 ms");
    if (f == QLatin1String("p99Us")) return QObject::tr("p99 ms");
    if (f == QLatin1String("maxUs")) return QObject::tr("max ms");
    if (f == QLatin1String("clientCpuMsPerOp")) return QObject::tr("client CPU\nms/op");
    if (f == QLatin1String("serverCpuMsPerOp")) return QObject::tr("server CPU\nms/op");
    return f;
}

QString formatFigure(const QString& f, double v) {
    if (f.endsWith(QLatin1String("Us"))) return formatMs(v);
    if (f.endsWith(QLatin1String("MsPerOp"))) return formatCpuMs(v);
    return formatRate(v);
}

} // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

const QStringList& CompareModel::figures() {
    static const QStringList names = {
        QStringLiteral("requestsPerS"), QStringLiteral("p50Us"), QStringLiteral("p99Us"),
        QStringLiteral("maxUs"), QStringLiteral("clientCpuMsPerOp"), QStringLiteral("serverCpuMsPerOp"),
    };
    return names;
}

bool CompareModel::higherIsBetter(const QString& figure) {
    return figure == QLatin1String("requestsPerS") || figure == QLatin1String("valuesPerS");
}

int CompareModel::column(const QString& figure, Side side) {
    const int i = int(figures().indexOf(figure));
    return i < 0 ? -1 : FirstFigureColumn + i * 3 + int(side);
}

void CompareModel::setRuns(const RunResult& a, const RunResult& b) {
    beginResetModel();
    m_rows = compareRuns(a, b);
    m_labelA = a.label.isEmpty() ? tr("A") : a.label;
    m_labelB = b.label.isEmpty() ? tr("B") : b.label;
    endResetModel();
}

const FigureRatio* CompareModel::figure(const StepComparison& row, const QString& name) const {
    for (const FigureRatio& f : row.figures)
        if (f.figure == name) return &f;
    return nullptr;
}

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstFigureColumn + int(figures().size()) * 3;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const StepComparison& row = m_rows[std::size_t(index.row())];
    const int c = index.column();
    if (c == SessionsColumn || c == OutstandingColumn) {
        if (role == Qt::DisplayRole || role == Qt::UserRole) return c == SessionsColumn ? row.sessions : row.outstanding;
        if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const QString name = figures().at((c - FirstFigureColumn) / 3);
    const auto side = Side((c - FirstFigureColumn) % 3);
    const FigureRatio* f = figure(row, name);
    const bool present = side == Side::A ? row.inA : side == Side::B ? row.inB : (row.inA && row.inB);
    int verdict = 0;
    if (f && side == Side::Ratio && f->ratio > 0) {
        const double better = higherIsBetter(name) ? f->ratio : 1 / f->ratio;
        verdict = better > 1 + kNoise ? 1 : better < 1 - kNoise ? -1 : 0;
    }
    switch (role) {
    case Qt::DisplayRole:
        if (!f) return {};
        if (side == Side::Ratio) {
            if (!row.inA) return tr("only in B");
            if (!row.inB) return tr("only in A");
            return f->ratio > 0 ? QStringLiteral("%1x").arg(QLocale().toString(f->ratio, 'f', 2)) : QString();
        }
        if (!present) return {};
        return formatFigure(name, side == Side::A ? f->a : f->b);
    case Qt::UserRole:
        if (!f) return {};
        return side == Side::Ratio ? f->ratio : side == Side::A ? f->a : f->b;
    case VerdictRole: return verdict;
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (verdict > 0) return QBrush(QColor(0x0a, 0x7a, 0x2a));
        if (verdict < 0) return QBrush(QColor(0xb0, 0x00, 0x20));
        if (side == Side::Ratio && !present) return QBrush(Qt::gray);
        return {};
    case Qt::BackgroundRole:
        if (verdict > 0) return QBrush(QColor(0xe2, 0xf6, 0xe6));
        if (verdict < 0) return QBrush(QColor(0xfd, 0xe4, 0xe4));
        return {};
    case Qt::FontRole:
        if (side == Side::Ratio) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (side == Side::Ratio && f && f->ratio > 0)
            return tr("%1: %2 / %3 = %4 (%5)")
                .arg(figureTitle(name).replace(QLatin1Char('\n'), QLatin1Char(' ')), m_labelB, m_labelA, QString::number(f->ratio, 'f', 3),
                     verdict > 0 ? tr("%1 better").arg(m_labelB) : verdict < 0 ? tr("%1 worse").arg(m_labelB) : tr("within 5 %"));
        return {};
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (section == SessionsColumn) return tr("Sessions");
    if (section == OutstandingColumn) return tr("Outst.");
    const QString name = figures().at((section - FirstFigureColumn) / 3);
    const auto side = Side((section - FirstFigureColumn) % 3);
    const QString title = figureTitle(name);
    if (role == Qt::ToolTipRole) {
        const QString plain = QString(title).replace(QLatin1Char('\n'), QLatin1Char(' '));
        return side == Side::Ratio ? tr("%1: %2 / %3").arg(plain, m_labelB, m_labelA) : tr("%1 of %2").arg(plain, side == Side::A ? m_labelA : m_labelB);
    }
    switch (side) {
    case Side::A: return QStringLiteral("%1\nA").arg(title);
    case Side::B: return QStringLiteral("%1\nB").arg(title);
    case Side::Ratio: return QStringLiteral("%1\nB/A").arg(title);
    }
    return {};
}

} // namespace ua::loadtest
