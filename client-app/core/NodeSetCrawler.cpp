#include "core/NodeSetCrawler.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"

namespace ua::clientapp {

namespace {
constexpr std::size_t kBrowseBatch = 200;
constexpr std::size_t kReadNodes = 80;  // x 27 attributes per Read: under the usual MaxNodesPerRead
constexpr uint32_t kAttributes = 27;
} // namespace

NodeSetCrawler::NodeSetCrawler(Client& client, QString namespaceUri, QObject* parent)
    : QObject(parent), m_client(client), m_uri(std::move(namespaceUri)) {}

void NodeSetCrawler::fail(StatusCode status, const QString& what) {
    if (m_done) return;
    m_done = true;
    emit finished(status, what);
}

void NodeSetCrawler::start() {
    Ns0NodeManager ns0;
    if (ns0.install(m_space).isBad()) return fail(status::BadInternalError, QStringLiteral("namespace 0"));
    m_client.readValues({NodeId(id::Server_NamespaceArray)}, this, [this](const ServiceResult<ReadResponse>& r) {
        if (!r.isGood() || r.response.results.empty()) return fail(r.isGood() ? StatusCode(status::BadUnexpectedError) : r.status, QStringLiteral("Read NamespaceArray"));
        const auto* uris = r.response.results[0].value.get<Array<String>>();
        if (!uris) return fail(status::BadTypeMismatch, QStringLiteral("Read NamespaceArray"));
        for (std::size_t i = 1; i < uris->size(); ++i) {
            const uint16_t local = m_space.addNamespace((*uris)[i].view());
            if (local != i) return fail(status::BadInternalError, QStringLiteral("the NamespaceArray lists a URI twice"));
            if ((*uris)[i].toQString() == m_uri) m_ns = uint16_t(i);
        }
        if (m_ns == 0) return fail(status::BadNotFound, QStringLiteral("the server has no namespace %1").arg(m_uri));
        m_visited.insert(NodeId(id::RootFolder));
        crawl({NodeId(id::RootFolder)});
    });
}

// Breadth first over forward hierarchical references, batch by batch.
void NodeSetCrawler::crawl(std::vector<NodeId> frontier) {
    if (frontier.empty()) return browseAll(0);
    const std::size_t n = std::min(frontier.size(), kBrowseBatch);
    std::vector<NodeId> rest(frontier.begin() + std::ptrdiff_t(n), frontier.end());
    BrowseRequest req;
    std::vector<BrowseDescription> items;
    for (std::size_t i = 0; i < n; ++i) {
        BrowseDescription d;
        d.nodeId = frontier[i];
        d.browseDirection = BrowseDirection::Forward;
        d.referenceTypeId = NodeId(id::HierarchicalReferences);
        d.includeSubtypes = true;
        d.resultMask = 0x3F;
        items.push_back(d);
    }
    req.nodesToBrowse = Array<BrowseDescription>(std::move(items));
    m_client.browse(std::move(req), BrowseOptions{}, this, [this, rest = std::move(rest)](const ServiceResult<BrowseResponse>& r) mutable {
        if (!r.isGood()) return fail(r.status, QStringLiteral("Browse"));
        for (const BrowseResult& result : r.response.results)
            for (const ReferenceDescription& ref : result.references) {
                if (!ref.nodeId.isLocal() || !ref.nodeId.namespaceUri.isNull()) continue;
                const NodeId& target = ref.nodeId.nodeId;
                if (!m_visited.insert(target).second) continue;
                rest.push_back(target);
                if (target.namespaceIndex() == m_ns) m_nodes.push_back(target);
            }
        crawl(std::move(rest));
    });
}

// Every reference of each node of the namespace, both ways; nodes of the namespace found this way
// (a DataType's encodings) join the list.
void NodeSetCrawler::browseAll(std::size_t from) {
    if (from >= m_nodes.size()) return readAttributes(0);
    const std::size_t n = std::min(m_nodes.size() - from, kBrowseBatch);
    BrowseRequest req;
    std::vector<BrowseDescription> items;
    for (std::size_t i = 0; i < n; ++i) {
        BrowseDescription d;
        d.nodeId = m_nodes[from + i];
        d.browseDirection = BrowseDirection::Both;
        d.includeSubtypes = true;
        d.resultMask = 0x3F;
        items.push_back(d);
    }
    req.nodesToBrowse = Array<BrowseDescription>(std::move(items));
    m_client.browse(std::move(req), BrowseOptions{}, this, [this, from, n](const ServiceResult<BrowseResponse>& r) {
        if (!r.isGood()) return fail(r.status, QStringLiteral("Browse"));
        for (std::size_t i = 0; i < n && i < r.response.results.size(); ++i) {
            const BrowseResult& result = r.response.results[i];
            if (result.statusCode.isBad()) return fail(result.statusCode, QStringLiteral("Browse %1").arg(QString::fromStdString(m_nodes[from + i].toString())));
            auto& refs = m_refs[m_nodes[from + i]];
            for (const ReferenceDescription& ref : result.references) {
                refs.push_back(ref);
                const NodeId& target = ref.nodeId.nodeId;
                if (ref.nodeId.isLocal() && target.namespaceIndex() == m_ns && m_visited.insert(target).second) m_nodes.push_back(target);
            }
        }
        browseAll(from + n);
    });
}

void NodeSetCrawler::readAttributes(std::size_t from) {
    if (from >= m_nodes.size()) return build();
    const std::size_t n = std::min(m_nodes.size() - from, kReadNodes);
    ReadRequest req;
    req.timestampsToReturn = TimestampsToReturn::Neither;
    std::vector<ReadValueId> items;
    for (std::size_t i = 0; i < n; ++i)
        for (uint32_t a = 1; a <= kAttributes; ++a) {
            ReadValueId v;
            v.nodeId = m_nodes[from + i];
            v.attributeId = a;
            items.push_back(v);
        }
    req.nodesToRead = Array<ReadValueId>(std::move(items));
    m_client.read(std::move(req), this, [this, from, n](const ServiceResult<ReadResponse>& r) {
        if (!r.isGood()) return fail(r.status, QStringLiteral("Read"));
        if (r.response.results.size() != n * kAttributes) return fail(status::BadUnexpectedError, QStringLiteral("Read"));
        for (std::size_t i = 0; i < n; ++i)
            m_attributes[m_nodes[from + i]].assign(r.response.results.begin() + std::ptrdiff_t(i * kAttributes),
                                                   r.response.results.begin() + std::ptrdiff_t((i + 1) * kAttributes));
        readAttributes(from + n);
    });
}

namespace {
// One of the NodeClass values of OPC 10000-3 8.29 (a Node keeps 16 bits of it: Node.h).
bool isNodeClass(int32_t c) {
    switch (NodeClass(c)) {
    case NodeClass::Object: case NodeClass::Variable: case NodeClass::Method: case NodeClass::ObjectType:
    case NodeClass::VariableType: case NodeClass::ReferenceType: case NodeClass::DataType: case NodeClass::View:
        return true;
    default:
        return false;
    }
}
} // namespace

void NodeSetCrawler::build() {
    // The namespace's nodes with every attribute the server gave.
    for (const NodeId& id : m_nodes) {
        const std::vector<DataValue>& a = m_attributes[id];
        const auto value = [&](AttributeId attribute) -> const DataValue& { return a[std::size_t(attribute) - 1]; };
        const DataValue& nodeClass = value(AttributeId::NodeClass);
        const int32_t* cls = nodeClass.value.get<int32_t>();
        if (!cls || !isNodeClass(*cls)) continue;  // unreadable, or not one NodeClass: left out
        Node n;
        n.nodeId = id;
        n.nodeClass = NodeClass(*cls);
        for (uint32_t at = 3; at <= kAttributes; ++at) {
            const DataValue& dv = a[at - 1];
            if ((dv.hasStatus && dv.status.isBad()) || !dv.hasValue) continue;
            const AttributeId attribute = AttributeId(at);
            if (attribute == AttributeId::UserRolePermissions) continue;
            if (attribute == AttributeId::Value) {
                if (n.nodeClass == NodeClass::Variable || n.nodeClass == NodeClass::VariableType)
                    n.value = ValueCell::make(DataValue(dv.value));
                continue;
            }
            setAttribute(n, attribute, dv.value);  // an attribute of the wrong type is left at its default
        }
        m_space.addNode(std::move(n));
    }
    // Nodes of other namespaces the references reach, as stubs when the local space lacks them.
    for (const auto& [id, refs] : m_refs)
        for (const ReferenceDescription& ref : refs) {
            for (const NodeId& other : {ref.nodeId.nodeId, ref.referenceTypeId}) {
                if (m_space.indexOf(other) != kNoNode || other.namespaceIndex() >= m_space.namespaces().size()) continue;
                Node stub;
                stub.nodeId = other;
                const bool isType = other == ref.referenceTypeId;
                stub.nodeClass = isType ? NodeClass::ReferenceType
                                 : isNodeClass(int32_t(ref.nodeClass)) ? ref.nodeClass : NodeClass::Unspecified;  // Unspecified: not added
                stub.browseName = isType ? QualifiedName{other.namespaceIndex(), String(other.toString())} : ref.browseName;
                stub.setDisplayName(isType ? LocalizedText{{}, String(other.toString())} : ref.displayName);
                m_space.addNode(std::move(stub));
            }
        }
    // The references: each once, from its source.
    std::set<std::tuple<NodeIndex, NodeIndex, NodeIndex>> added;
    for (const auto& [id, refs] : m_refs) {
        const NodeIndex me = m_space.indexOf(id);
        if (me == kNoNode) continue;
        for (const ReferenceDescription& ref : refs) {
            const NodeIndex type = m_space.indexOf(ref.referenceTypeId), other = m_space.indexOf(ref.nodeId.nodeId);
            if (type == kNoNode || other == kNoNode) continue;
            const auto key = ref.isForward ? std::tuple(me, type, other) : std::tuple(other, type, me);
            if (added.insert(key).second) m_space.addReferenceUnchecked(std::get<0>(key), type, std::get<2>(key));
        }
    }
    if (m_done) return;
    m_done = true;
    emit finished(StatusCode(), QString());
}

} // namespace ua::clientapp
