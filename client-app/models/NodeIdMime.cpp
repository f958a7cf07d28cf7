#include "models/NodeIdMime.h"

#include <QMimeData>
#include <QStringList>

namespace ua::clientapp {

QString persistentNodeId(const NodeId& node, const NodeIdConverter& converter) {
    if (auto s = converter.toPersistentString(node)) return QString::fromStdString(*s);
    return QString::fromStdString(node.toString());
}

std::optional<NodeId> parseUserNodeId(const QString& text, const NodeIdConverter& converter) {
    const std::string s = text.trimmed().toStdString();
    if (s.empty()) return std::nullopt;
    if (s.rfind("nsu=", 0) == 0) return converter.fromPersistentString(s);
    return NodeId::parse(s);
}

QMimeData* makeNodeIdMimeData(const std::vector<NodeId>& nodes, const NodeIdConverter& converter) {
    QStringList lines;
    lines.reserve(qsizetype(nodes.size()));
    for (const NodeId& n : nodes) lines << persistentNodeId(n, converter);
    auto* data = new QMimeData;
    const QString text = lines.join(QLatin1Char('\n'));
    data->setData(QString::fromLatin1(kNodeIdMimeType), text.toUtf8());
    data->setText(text);
    return data;
}

std::vector<NodeId> nodeIdsFromMimeData(const QMimeData* data, const NodeIdConverter& converter) {
    std::vector<NodeId> out;
    if (!data) return out;
    const QString mime = QString::fromLatin1(kNodeIdMimeType);
    const QString text = data->hasFormat(mime) ? QString::fromUtf8(data->data(mime)) : data->text();
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line : lines)
        if (auto id = parseUserNodeId(line, converter)) out.push_back(std::move(*id));
    return out;
}

bool acceptsNodeIdDrop(const QMimeData* data, Qt::DropAction action) {
    return data && (action == Qt::CopyAction || action == Qt::MoveAction) &&
           (data->hasFormat(QString::fromLatin1(kNodeIdMimeType)) || data->hasText());
}

} // namespace ua::clientapp
