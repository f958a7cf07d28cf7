// The Address space page: a tree of the server's nodes (AddressSpaceModel, fetched lazily) with
// NodeClass icons, DataType, the current values and their status for the rows on screen, re-read
// twice a second; the structure follows the address space's version (Sessions' diagnostics nodes
// come and go). A writable Variable's Value is edited in place (double-click or F2): the model
// writes it as the administrator; a refused write shows why below the tree.
// Import NodeSet... loads NodeSet2 files into the running server (Server::importNodeSets): the
// models loaded show below the tree; a file with errors loads nothing and a dialog lists each
// error with its file, line and node. Each import is an audit line. Export NodeSet... writes the
// nodes of chosen namespaces as a NodeSet2 file. The context menu adds a folder, an object or a
// variable below a node and deletes a node (NodeManagement's rules, an audit line each).
#pragma once

#include "LiveServer.h"
#include "ua/server/nodeset/NodeSetImporter.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QThread;
class QTreeView;

namespace ua::serverapp {
class AddressSpaceModel;
}

namespace ua::app {

class NodeIconProxy;

class AddressSpacePage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit AddressSpacePage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    ~AddressSpacePage() override;
    QTreeView* view() const { return m_view; }
    // The line below the tree: the last write's outcome.
    QLabel* writeStatus() const { return m_writeStatus; }
    // Expands the path of display names from the root ("Objects", "Server", ...); false when a
    // name is not found. For screenshots and tests.
    bool expandPath(const QStringList& displayNames);
    // Imports the files as Import NodeSet... does after its file dialog, on a thread of its own (a
    // large file takes seconds to read; the window stays responsive, the button is disabled
    // meanwhile); nodeSetsImported() follows. On errors the errors dialog (objectName
    // nodeSetErrorsDialog) is shown, not waited for.
    // Starts or stops sampling a Variable into the server's history (Server::setHistorized), with
    // its audit line, and writes the change into the configuration file's history.nodes through
    // setSaveHistorized's function (so that it lasts across restarts); false when it did not change.
    bool setHistorized(const NodeId& node, bool on);
    void setSaveHistorized(SaveHistorized save) { m_saveHistorized = std::move(save); }
    void importNodeSets(const QStringList& paths);
    // Export NodeSet...: the nodes of the namespaces (indexes of the NamespaceArray) as one NodeSet2
    // file (ua/server/nodeset/NodeSetExporter.h); false, with the reason below the tree, when the file
    // cannot be written.
    bool exportNodeSet(const std::vector<uint16_t>& namespaces, const QString& path);
    // The context menu's Add folder / Add object / Add variable (Double) below the node and Delete
    // (serverapp/models/NodeEditing.h); the outcome shows below the tree. true when done.
    bool addChild(const NodeId& parent, int kind, const QString& name);
    bool deleteNode(const NodeId& node);

signals:
    // importNodeSets() ended: true when the files were imported.
    void nodeSetsImported(bool ok);

private:
    void refresh();
    void finishImport(const QStringList& paths, const NodeSetImportResult& r);
    void chooseNodeSets();
    void chooseExport();
    void showMenu(const QPoint& at);
    SaveHistorized m_saveHistorized;
    void showNodeSetErrors(const QStringList& errors);

    serverapp::AddressSpaceModel* m_model = nullptr;
    NodeIconProxy* m_proxy = nullptr;
    QTreeView* m_view;
    QLabel* m_writeStatus;
    QTimer m_timer;
    LiveServer* m_live = nullptr;
    QPushButton* m_importButton = nullptr;
    QPointer<QThread> m_importThread;  // the import in progress (waited for on destruction)
};

} // namespace ua::app
