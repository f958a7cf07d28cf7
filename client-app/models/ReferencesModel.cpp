#include "models/ReferencesModel.h"

#include "NodeClassIcon.h"
#include "core/Connection.h"
#include "models/AddressTreeModel.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "ua/encoding/generated/NodeIds.h"

#include <algorithm>

namespace ua::clientapp {

ReferencesModel::ReferencesModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent), m_connection(connection), m_names(new DataTypeNames(connection, this)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        if (!m_rows.empty())
            emit dataChanged(index(0, ReferenceTypeColumn), index(int(m_rows.size()) - 1, TypeDefinitionColumn));
    });
    connect(connection, &Connection::clientChanged, this, [this] { setNode({}); });
}

void ReferencesModel::setNode(const NodeId& node) {
    beginResetModel();
    ++m_generation;
    m_node = node;
    m_rows.clear();
    m_status = StatusCode();
    endResetModel();
    if (!node.isNull()) browse();
}

void ReferencesModel::refresh() {
    if (!m_node.isNull()) browse();
}

void ReferencesModel::browse() {
    Client* client = m_connection->client();
    if (!client) {
        m_status = status::BadServerNotConnected;
        emit loaded(m_status);
        return;
    }
    BrowseRequest req;
    BrowseDescription d;
    d.nodeId = m_node;
    d.browseDirection = BrowseDirection::Both;
    d.referenceTypeId = NodeId(id::References);
    d.includeSubtypes = true;
    d.nodeClassMask = 0;
    d.resultMask = uint32_t(BrowseResultMask::All);
    req.nodesToBrowse.push_back(d);
    const QString nodeText = QString::fromStdString(m_node.toString());
    QObject* op = m_connection->beginOperation(tr("References of %1").arg(nodeText));
    const quint64 generation = ++m_generation;
    client->browse(
        std::move(req), BrowseOptions{}, op,
        detail::loggedOp<BrowseResponse>(
            m_connection, op, this, QStringLiteral("Browse"), QStringLiteral("references of %1").arg(nodeText),
            [this, generation](const ServiceResult<BrowseResponse>& r) {
                if (generation != m_generation) return;
                StatusCode s = r.status;
                std::vector<ReferenceDescription> rows;
                if (s.isGood()) {
                    if (r.response.results.empty()) s = status::BadUnknownResponse;
                    else {
                        s = r.response.results[0].statusCode;
                        const auto& refs = r.response.results[0].references;
                        rows.assign(refs.begin(), refs.end());
                    }
                }
                // Forward first; the server's order within each group.
                std::stable_sort(rows.begin(), rows.end(), [](const ReferenceDescription& a, const ReferenceDescription& b) {
                    return a.isForward && !b.isForward;
                });
                std::vector<NodeId> unknown;
                for (const ReferenceDescription& ref : rows) {
                    unknown.push_back(ref.referenceTypeId);
                    if (ref.typeDefinition.isLocal() && ref.typeDefinition.namespaceUri.isNull() &&
                        !ref.typeDefinition.nodeId.isNull())
                        unknown.push_back(ref.typeDefinition.nodeId);
                }
                beginResetModel();
                m_rows = std::move(rows);
                m_status = s;
                endResetModel();
                m_names->lookup(unknown);
                emit loaded(s);
            }));
}

const ReferenceDescription* ReferencesModel::referenceAt(int row) const {
    if (row < 0 || row >= int(m_rows.size())) return nullptr;
    return &m_rows[std::size_t(row)];
}

NodeId ReferencesModel::targetNodeIdAt(int row) const {
    const ReferenceDescription* r = referenceAt(row);
    if (!r || !r->nodeId.isLocal()) return {};
    if (r->nodeId.namespaceUri.isNull()) return r->nodeId.nodeId;
    Client* c = m_connection->client();
    if (!c) return {};
    return c->nodeIdConverter().toNodeId(r->nodeId).value_or(NodeId());
}

int ReferencesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ReferencesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReferencesModel::data(const QModelIndex& index, int role) const {
    const ReferenceDescription* r = index.isValid() ? referenceAt(index.row()) : nullptr;
    if (!r) return {};
    auto nameOf = [this](const NodeId& n) { return m_names->known(n).value_or(QString::fromStdString(n.toString())); };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case DirectionColumn: return r->isForward ? tr("Forward") : tr("Inverse");
        case ReferenceTypeColumn: return nameOf(r->referenceTypeId);
        case TargetNameColumn: return r->displayName.text.toQString();
        case TargetNodeIdColumn: return QString::fromStdString(r->nodeId.toString());
        case NodeClassColumn: return QString::fromLatin1(enumName(r->nodeClass));
        case TypeDefinitionColumn:
            if (r->typeDefinition.nodeId.isNull()) return QString();
            if (r->typeDefinition.isLocal() && r->typeDefinition.namespaceUri.isNull()) return nameOf(r->typeDefinition.nodeId);
            return QString::fromStdString(r->typeDefinition.toString());
        default: return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case ReferenceTypeColumn: return QString::fromStdString(r->referenceTypeId.toString());
        case TargetNameColumn: return QString::fromStdString(r->browseName.toString());
        case TypeDefinitionColumn: return QString::fromStdString(r->typeDefinition.toString());
        default: return {};
        }
    case Qt::DecorationRole:
        if (index.column() == TargetNameColumn) return app::nodeClassIcon(r->nodeClass);
        return {};
    case NodeIdRole: return QString::fromStdString(r->nodeId.toString());
    case IsForwardRole: return r->isForward;
    case NodeClassRole: return int(r->nodeClass);
    default: return {};
    }
}

QVariant ReferencesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case DirectionColumn: return tr("Direction");
    case ReferenceTypeColumn: return tr("Reference type");
    case TargetNameColumn: return tr("Target");
    case TargetNodeIdColumn: return tr("Target NodeId");
    case NodeClassColumn: return tr("NodeClass");
    case TypeDefinitionColumn: return tr("TypeDefinition");
    default: return {};
    }
}

} // namespace ua::clientapp
