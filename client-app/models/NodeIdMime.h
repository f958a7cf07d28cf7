// The drag data of NodeIds between the client app's views (issue 7 items 5, 12: "monitor a variable
// from the tree with one drag"): AddressTreeModel::mimeData() makes it, MonitoredItemsModel's
// dropMimeData() and the window's drop targets read it.
//
//   application/x-ua-nodeid   UTF-8, one NodeId per line in the persistent form of
//                             NodeIdConverter ("nsu=urn:ua-workbench:demo;s=Demo.Scalars.Int32",
//                             namespace 0 as "i=2253"; OPC 10000-6 5.3.1.11), so a drop survives
//                             a reconnect that renumbers namespaces
//   text/plain                the same lines (for a text editor or another program)
#pragma once

#include "ua/client/browse/NodeIdConverter.h"
#include "ua/types/NodeId.h"

#include <QString>
#include <QtCore/qnamespace.h>
#include <vector>

class QMimeData;

namespace ua::clientapp {

inline constexpr const char* kNodeIdMimeType = "application/x-ua-nodeid";

// A new QMimeData (the caller or Qt's drag owns it) with both formats; NodeIds whose namespace index
// the converter does not know are written in the "ns=<i>;..." form.
QMimeData* makeNodeIdMimeData(const std::vector<NodeId>& nodes, const NodeIdConverter& converter);
// The NodeIds of application/x-ua-nodeid (else of text/plain lines that parse as NodeIds), resolved
// with the converter of the current session; lines that do not resolve (unknown namespace URI,
// not a NodeId) are skipped.
std::vector<NodeId> nodeIdsFromMimeData(const QMimeData* data, const NodeIdConverter& converter);
// Whether a drop of data with action can bring NodeIds (our MIME type, or text to parse): the
// canDropMimeData of the models that take dragged nodes.
bool acceptsNodeIdDrop(const QMimeData* data, Qt::DropAction action);
// Parses what a user typed: the persistent form ("nsu=...;s=X"), "ns=2;s=X", "i=85"; nullopt else.
std::optional<NodeId> parseUserNodeId(const QString& text, const NodeIdConverter& converter);
// The persistent form when the namespace is known, else NodeId::toString().
QString persistentNodeId(const NodeId& node, const NodeIdConverter& converter);

} // namespace ua::clientapp
