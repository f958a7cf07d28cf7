#include "models/DataTypeNames.h"

#include "core/Connection.h"
#include "models/ModelCall.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/server/addressspace/Ns0Tables.h"

#include <unordered_map>

namespace ua::clientapp {

namespace {

// The DisplayNames of namespace 0 (every standard DataType, ReferenceType, ObjectType, ...), from
// the stack's compiled NodeSet tables: an index built once.
const std::unordered_map<uint32_t, uint32_t>& ns0Index() {
    static const std::unordered_map<uint32_t, uint32_t> index = [] {
        std::unordered_map<uint32_t, uint32_t> m;
        const auto& nodes = ns0::tables().nodes;
        m.reserve(nodes.size());
        for (const ns0::NodeRecord& n : nodes) m.emplace(n.id, n.displayName);
        return m;
    }();
    return index;
}

} // namespace

DataTypeNames::DataTypeNames(Connection* connection, QObject* parent) : QObject(parent), m_connection(connection) {
    connect(connection, &Connection::clientChanged, this, [this] {
        ++m_generation;
        m_names.clear();
        m_pending.clear();
    });
}

std::optional<QString> DataTypeNames::standardName(const NodeId& node) {
    if (node.namespaceIndex() != 0 || node.idType() != NodeId::IdType::Numeric) return std::nullopt;
    const uint32_t id = node.numeric();
    const auto& index = ns0Index();
    if (auto it = index.find(id); it != index.end()) {
        const std::string_view s = ns0::tables().string(it->second);
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }
    if (const DataTypeInfo* info = findDataTypeByTypeId(id)) return QString::fromLatin1(info->name);
    return std::nullopt;
}

std::optional<QString> DataTypeNames::known(const NodeId& node) const {
    if (auto s = standardName(node)) return s;
    if (auto it = m_names.find(node); it != m_names.end()) return it->second;
    return std::nullopt;
}

QString DataTypeNames::nameOrLookup(const NodeId& node) {
    if (auto s = known(node)) return *s;
    if (!node.isNull()) lookup({node});
    return QString::fromStdString(node.toString());
}

void DataTypeNames::lookup(const std::vector<NodeId>& nodes) {
    ReadRequest req;
    req.timestampsToReturn = TimestampsToReturn::Neither;
    std::vector<NodeId> asked;
    for (const NodeId& n : nodes) {
        if (n.isNull() || known(n) || m_pending.count(n)) continue;
        m_pending.insert(n);
        asked.push_back(n);
        ReadValueId r;
        r.nodeId = n;
        r.attributeId = uint32_t(AttributeId::DisplayName);
        req.nodesToRead.push_back(std::move(r));
    }
    if (asked.empty()) return;
    Client* client = m_connection->client();
    if (!client) {
        for (const NodeId& n : asked) m_pending.erase(n);
        return;
    }
    QObject* op = m_connection->beginOperation(tr("Read names"));
    const quint64 generation = m_generation;
    client->read(std::move(req), op,
                 detail::loggedOp<ReadResponse>(
                     m_connection, op, this, QStringLiteral("Read"),
                     QStringLiteral("DisplayName of %1 nodes").arg(asked.size()),
                     [this, asked, generation](const ServiceResult<ReadResponse>& r) {
                         if (generation != m_generation) return;
                         for (std::size_t i = 0; i < asked.size(); ++i) {
                             m_pending.erase(asked[i]);
                             if (!r.isGood() || i >= r.response.results.size()) continue;
                             const DataValue& dv = r.response.results[i];
                             if (dv.status.isBad()) continue;
                             if (const auto* t = dv.value.get<LocalizedText>()) m_names[asked[i]] = t->text.toQString();
                         }
                         emit namesResolved();
                     }));
}

} // namespace ua::clientapp
