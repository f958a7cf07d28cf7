// Reads one namespace of a server into a local address space, for the client's NodeSet2 export
// (as UaExpert's "XML Nodeset Export"; issue 29 item 5): the NamespaceArray (the local space gets
// the server's namespace indexes), every node reachable from the Root folder by forward
// hierarchical references (and the nodes of the namespace those reach by any reference, such as a
// DataType's encodings), then for each node of the namespace all 27 attributes (Read) and all its
// references both ways (Browse, BrowseNext). Nodes of other namespaces that the references reach
// are added as stubs (NodeClass, BrowseName, DisplayName) when the local namespace 0 does not
// have them, so every reference can be written. The export itself is ua::exportNodeSet()
// (ua/server/nodeset/NodeSetExporter.h) on space().
#pragma once

#include "ua/client/Client.h"
#include "ua/server/addressspace/AddressSpace.h"

#include <QObject>

#include <map>
#include <set>
#include <vector>

namespace ua::clientapp {

class NodeSetCrawler : public QObject {
    Q_OBJECT
public:
    NodeSetCrawler(Client& client, QString namespaceUri, QObject* parent = nullptr);
    // Starts; finished() follows once (Good, or the failing service's status with a message).
    void start();
    const AddressSpace& space() const { return m_space; }
    uint16_t namespaceIndex() const { return m_ns; }
    std::size_t nodeCount() const { return m_nodes.size(); }

signals:
    void finished(ua::StatusCode status, QString message);

private:
    void crawl(std::vector<NodeId> frontier);
    void browseAll(std::size_t from);
    void readAttributes(std::size_t from);
    void build();
    void fail(StatusCode status, const QString& what);

    Client& m_client;
    QString m_uri;
    uint16_t m_ns = 0;
    AddressSpace m_space;
    std::set<NodeId> m_visited;
    std::vector<NodeId> m_nodes;                                  // the namespace's, in the order found
    std::map<NodeId, std::vector<ReferenceDescription>> m_refs;   // per node: its references both ways
    std::map<NodeId, std::vector<DataValue>> m_attributes;        // per node: attributes 1..27
    bool m_done = false;
};

} // namespace ua::clientapp
