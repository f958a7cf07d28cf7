#include "window/RunFiles.h"

#include <QRegularExpression>

#include <QFile>
#include <QJsonDocument>
#include <QPainter>
#include <QSaveFile>
#include <QWidget>
#include <algorithm>

namespace ua::loadtest {

namespace {

bool writeFile(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

bool saveRunJson(const RunResult& run, const QString& path, QString* error) {
    return writeFile(path, QJsonDocument(run.toJson()).toJson(QJsonDocument::Indented), error);
}

std::optional<RunResult> loadRunJson(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parse);
    if (!doc.isObject()) {
        if (error) *error = QStringLiteral("%1: not a JSON object (%2)").arg(path, parse.errorString());
        return std::nullopt;
    }
    QString why;
    auto run = RunResult::fromJson(doc.object(), &why);
    if (!run && error) *error = QStringLiteral("%1: not a saved run (%2)").arg(path, why);
    return run;
}

bool saveRunCsv(const RunResult& run, const QString& path, QString* error) {
    return writeFile(path, run.toCsv().toUtf8(), error);
}

QString suggestedFileName(const RunResult& run, const QString& suffix) {
    const QString shape = stepShape(run.parameters);
    QStringList parts{run.label.trimmed().isEmpty() ? QStringLiteral("run") : run.label.trimmed(), shape};
    if (run.startedUtc.isValid()) parts << run.startedUtc.toUTC().toString(QStringLiteral("yyyyMMdd-HHmm"));
    QString name = parts.join(QLatin1Char('-'));
    // A URL as label ("opc.tcp://host:4840") and spaces make awkward file names.
    static const QRegularExpression awkward(QStringLiteral("[^A-Za-z0-9._+-]+"));
    name.replace(awkward, QStringLiteral("-"));
    while (name.startsWith(QLatin1Char('-')) || name.startsWith(QLatin1Char('.'))) name.remove(0, 1);
    return name + QLatin1Char('.') + suffix;
}

QImage renderGrid(const std::vector<QWidget*>& widgets, int columns) {
    if (widgets.empty() || columns < 1) return {};
    int cellW = 0, cellH = 0;
    for (QWidget* w : widgets) {
        cellW = std::max(cellW, w->width());
        cellH = std::max(cellH, w->height());
    }
    const int rows = (int(widgets.size()) + columns - 1) / columns;
    QImage image(cellW * std::min(columns, int(widgets.size())), cellH * rows, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    for (std::size_t i = 0; i < widgets.size(); ++i) {
        const QPoint at(int(i % std::size_t(columns)) * cellW, int(i / std::size_t(columns)) * cellH);
        painter.drawPixmap(at, widgets[i]->grab());
    }
    return image;
}

} // namespace ua::loadtest
