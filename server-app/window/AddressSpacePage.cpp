#include "AddressSpacePage.h"

#include "NodeClassIcon.h"
#include "models/AddressSpaceModel.h"
#include "models/AdminAudit.h"
#include "models/NodeEditing.h"

#include "ua/server/history/HistoryManager.h"
#include "ua/server/nodeset/NodeSetExporter.h"
#include "ua/server/runtime/Server.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QInputDialog>
#include <QMenu>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QThread>
#include <QTreeView>
#include <QVBoxLayout>

namespace ua::app {

// The model as it is, with the NodeClass icon in the Name column and the outcome of each write
// (the model stays Qt Core only; the view's editor calls setData through here).
class NodeIconProxy : public QIdentityProxyModel {
public:
    NodeIconProxy(QLabel* status, QObject* parent) : QIdentityProxyModel(parent), m_status(status) {}
    QVariant data(const QModelIndex& index, int role) const override {
        if (role == Qt::DecorationRole && index.column() == serverapp::AddressSpaceModel::DisplayName)
            return nodeClassIcon(NodeClass(QIdentityProxyModel::data(index, serverapp::AddressSpaceModel::NodeClassRole).toInt()));
        return QIdentityProxyModel::data(index, role);
    }
    bool setData(const QModelIndex& index, const QVariant& value, int role) override {
        auto* model = static_cast<serverapp::AddressSpaceModel*>(sourceModel());
        const QString name = index.siblingAtColumn(serverapp::AddressSpaceModel::DisplayName).data().toString();
        const bool ok = QIdentityProxyModel::setData(index, value, role);
        if (ok) {
            m_status->setStyleSheet(QString());
            m_status->setText(tr("Wrote %1 to %2.").arg(index.data().toString(), name));
        } else {
            m_status->setStyleSheet(QStringLiteral("color: #b00020"));
            m_status->setText(tr("Not written to %1: %2").arg(name, model->lastError()));
        }
        return ok;
    }

private:
    QLabel* m_status;
};

AddressSpacePage::AddressSpacePage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("addressSpacePage"));
    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("addressSpaceView"));
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->header()->setStretchLastSection(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &AddressSpacePage::showMenu);
    m_writeStatus = new QLabel(tr("Double-click the Value of a writable Variable to write it."));
    m_writeStatus->setObjectName(QStringLiteral("writeStatus"));
    m_writeStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* import = m_importButton = new QPushButton(tr("Import NodeSet..."));
    import->setObjectName(QStringLiteral("importNodeSetButton"));
    import->setToolTip(tr("Load NodeSet2 XML files (companion specifications, your own models) into the running server"));
    connect(import, &QPushButton::clicked, this, &AddressSpacePage::chooseNodeSets);
    auto* exportButton = new QPushButton(tr("Export NodeSet..."));
    exportButton->setObjectName(QStringLiteral("exportNodeSetButton"));
    exportButton->setToolTip(tr("Write the nodes of chosen namespaces as a NodeSet2 XML file"));
    connect(exportButton, &QPushButton::clicked, this, &AddressSpacePage::chooseExport);
    auto* tools = new QHBoxLayout;
    tools->addWidget(import);
    tools->addWidget(exportButton);
    tools->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_writeStatus);
    connect(&m_timer, &QTimer::timeout, this, &AddressSpacePage::refresh);
}

void AddressSpacePage::attach(LiveServer* live) {
    m_timer.stop();
    m_view->setModel(nullptr);
    delete m_proxy;
    delete m_model;
    m_proxy = nullptr;
    m_model = nullptr;
    m_live = live;
    if (!live) return;
    m_model = new serverapp::AddressSpaceModel(live->server().addressSpace(), NodeId(uint32_t(84)), this);
    m_model->setAudit({serverapp::windowAdministrator(), &live->server()});
    m_proxy = new NodeIconProxy(m_writeStatus, this);
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setColumnWidth(serverapp::AddressSpaceModel::DisplayName, fm.horizontalAdvance(QLatin1Char('M')) * 28);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::NodeClass, fm.horizontalAdvance(QStringLiteral("VariableType")) + 24);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::NodeId, fm.horizontalAdvance(QStringLiteral("ns=2;s=Demo.Simulation.UpdateRate")) + 24);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::DataType, fm.horizontalAdvance(QStringLiteral("LocalizedText[]")) + 24);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::Value, fm.horizontalAdvance(QLatin1Char('0')) * 36);
    m_timer.start(500);
}

void AddressSpacePage::refresh() {
    if (!m_model || !isVisible()) return;
    m_model->refreshStructure();
    // The rows on screen: from the top row down while they are inside the viewport.
    QModelIndexList visible;
    const int height = m_view->viewport()->height();
    for (QModelIndex i = m_view->indexAt(QPoint(1, 1)); i.isValid() && m_view->visualRect(i).top() < height;
         i = m_view->indexBelow(i))
        visible << m_proxy->mapToSource(i);
    m_model->refreshValues(visible);
}

bool AddressSpacePage::expandPath(const QStringList& displayNames) {
    if (!m_model) return false;
    QModelIndex parent;
    for (const QString& name : displayNames) {
        if (m_model->canFetchMore(parent)) m_model->fetchMore(parent);
        QModelIndex found;
        for (int r = 0; r < m_model->rowCount(parent) && !found.isValid(); ++r) {
            const QModelIndex i = m_model->index(r, 0, parent);
            if (i.data().toString() == name) found = i;
        }
        if (!found.isValid()) return false;
        m_view->expand(m_proxy->mapFromSource(found));
        if (m_model->canFetchMore(found)) m_model->fetchMore(found);
        parent = found;
    }
    m_view->scrollTo(m_proxy->mapFromSource(parent), QAbstractItemView::PositionAtTop);
    return true;
}

void AddressSpacePage::chooseNodeSets() {
    if (!m_live) return;
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import NodeSet"), QString(),
                                                            tr("NodeSet2 files (*.xml);;All files (*)"));
    if (!paths.isEmpty()) importNodeSets(paths);
}

AddressSpacePage::~AddressSpacePage() {
    if (m_importThread) m_importThread->wait();  // it uses the server: let it finish first
}

void AddressSpacePage::importNodeSets(const QStringList& paths) {
    if (!m_live || m_importThread) {
        emit nodeSetsImported(false);
        return;
    }
    Server* server = &m_live->server();
    auto result = std::make_shared<NodeSetImportResult>();
    m_importButton->setEnabled(false);
    m_writeStatus->setStyleSheet(QString());
    m_writeStatus->setText(tr("Importing %1 ...").arg(paths.join(QStringLiteral(", "))));
    QThread* worker = QThread::create([server, paths, result] { *result = server->importNodeSets(paths); });
    m_importThread = worker;
    connect(worker, &QThread::finished, this, [this, worker, paths, result] {
        worker->deleteLater();
        // Free for the next import now: the QPointer would clear only when the deferred delete
        // runs, and an import asked for before that was refused as "busy" (tst_window_sessions).
        m_importThread = nullptr;
        m_importButton->setEnabled(true);
        finishImport(paths, *result);
    });
    worker->start();
}

void AddressSpacePage::finishImport(const QStringList& paths, const NodeSetImportResult& r) {
    if (!m_live) return;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    if (r.ok()) {
        QStringList models;
        for (const auto& m : r.models) models << tr("%1 %2 (ns=%3)").arg(m.uri, m.version).arg(m.namespaceIndex);
        audit.line(true, tr("imported NodeSet %1: %2").arg(paths.join(QStringLiteral(", ")), models.join(QStringLiteral(", "))), {});
        m_writeStatus->setStyleSheet(QString());
        m_writeStatus->setText(tr("Imported %1: %2 nodes, %3 references.").arg(models.join(QStringLiteral(", "))).arg(r.nodes).arg(r.references));
        if (m_model) m_model->refreshStructure();
        emit nodeSetsImported(true);
        return;
    }
    QStringList errors;
    for (const auto& e : r.errors) errors << e.toString();
    audit.line(false, {}, tr("NodeSet %1 not imported").arg(paths.join(QStringLiteral(", "))),
               tr("%n error(s), the first: %1", nullptr, int(errors.size())).arg(errors.value(0)));
    m_writeStatus->setStyleSheet(QStringLiteral("color: #b00020"));
    m_writeStatus->setText(tr("Nothing imported: %n error(s).", nullptr, int(errors.size())));
    showNodeSetErrors(errors);
    emit nodeSetsImported(false);
}

void AddressSpacePage::showMenu(const QPoint& at) {
    if (!m_model) return;
    const QModelIndex index = m_proxy->mapToSource(m_view->indexAt(at));
    if (!index.isValid()) return;
    const NodeId node = m_model->nodeId(index);
    const QString name = index.siblingAtColumn(serverapp::AddressSpaceModel::DisplayName).data().toString();
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("addressSpaceMenu"));
    const QStringList kinds{tr("Add folder..."), tr("Add object..."), tr("Add variable (Double)...")};
    for (int kind = 0; kind < kinds.size(); ++kind)
        menu.addAction(kinds[kind], this, [this, node, kind, kinds] {
            bool ok = false;
            const QString child = QInputDialog::getText(this, kinds[kind].chopped(3), tr("BrowseName:"), QLineEdit::Normal, QString(), &ok);
            if (ok && !child.trimmed().isEmpty()) addChild(node, kind, child.trimmed());
        });
    menu.addSeparator();
    // Historical Access (docs/History.md): sample this Variable into the server's history.
    if (NodeClass(index.data(serverapp::AddressSpaceModel::NodeClassRole).toInt()) == NodeClass::Variable && m_live->server().history()) {
        const bool historized = m_live->server().history()->isHistorized(node);
        QAction* historize = menu.addAction(historized ? tr("Stop historizing") : tr("Historize (every second)"), this,
                                            [this, node, historized] { setHistorized(node, !historized); });
        historize->setObjectName(QStringLiteral("historizeAction"));
        menu.addSeparator();
    }
    menu.addAction(tr("Delete \"%1\"").arg(name), this, [this, node] { deleteNode(node); });
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

bool AddressSpacePage::addChild(const NodeId& parent, int kind, const QString& name) {
    if (!m_live) return false;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    const auto r = serverapp::addNode(audit, parent, serverapp::NewNodeKind(kind), name);
    m_writeStatus->setStyleSheet(r.status.isGood() ? QString() : QStringLiteral("color: #b00020"));
    m_writeStatus->setText(r.status.isGood() ? tr("Added %1 (%2).").arg(name, QString::fromStdString(r.nodeId.toString()))
                                             : tr("Not added: %1").arg(QString::fromStdString(r.status.name())));
    if (m_model) m_model->refreshStructure();
    return r.status.isGood();
}

bool AddressSpacePage::setHistorized(const NodeId& node, bool on) {
    if (!m_live) return false;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    HistorizedNode h;
    h.node = node;
    h.samplingIntervalMs = 1000;
    const StatusCode s = m_live->server().setHistorized(h, on);
    const QString text = QString::fromStdString(node.toString());
    audit.line(s.isGood(), on ? tr("historized %1 (every second)").arg(text) : tr("stopped historizing %1").arg(text),
               on ? tr("%1 not historized").arg(text) : tr("%1 still historized").arg(text), QString::fromStdString(s.name()));
    QString saved;
    if (s.isGood() && m_saveHistorized) {
        QString error;
        saved = m_saveHistorized(node, h.samplingIntervalMs, on, &error) ? tr(" Saved in the configuration file.")
                                                                         : tr(" Not saved in the configuration file: %1").arg(error);
    }
    m_writeStatus->setStyleSheet(s.isGood() ? QString() : QStringLiteral("color: #b00020"));
    m_writeStatus->setText(s.isGood() ? (on ? tr("Historizing %1: the History page lists it.").arg(text) : tr("Stopped historizing %1.").arg(text)) + saved
                                      : tr("Not changed: %1").arg(QString::fromStdString(s.name())));
    return s.isGood();
}

bool AddressSpacePage::deleteNode(const NodeId& node) {
    if (!m_live) return false;
    const serverapp::AdminAudit audit{serverapp::windowAdministrator(), &m_live->server()};
    const StatusCode s = serverapp::deleteNode(audit, node);
    m_writeStatus->setStyleSheet(s.isGood() ? QString() : QStringLiteral("color: #b00020"));
    m_writeStatus->setText(s.isGood() ? tr("Deleted %1.").arg(QString::fromStdString(node.toString()))
                                      : tr("Not deleted: %1").arg(QString::fromStdString(s.name())));
    if (m_model) m_model->refreshStructure();
    return s.isGood();
}

void AddressSpacePage::chooseExport() {
    if (!m_live) return;
    const auto space = m_live->server().addressSpace().snapshot();
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("exportNodeSetDialog"));
    dialog.setWindowTitle(tr("Export NodeSet"));
    auto* list = new QListWidget;
    list->setObjectName(QStringLiteral("exportNamespaceList"));
    for (std::size_t ns = 1; ns < space->namespaces().size(); ++ns) {
        auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(ns).arg(space->namespaces()[ns].toQString()), list);
        item->setData(Qt::UserRole, int(ns));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(ns > 2 ? Qt::Checked : Qt::Unchecked);  // the imported models, not the server's and the demo's
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(tr("The namespaces to write:")));
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    dialog.resize(560, 320);
    if (dialog.exec() != QDialog::Accepted) return;
    std::vector<uint16_t> chosen;
    for (int r = 0; r < list->count(); ++r)
        if (list->item(r)->checkState() == Qt::Checked) chosen.push_back(uint16_t(list->item(r)->data(Qt::UserRole).toInt()));
    if (chosen.empty()) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export NodeSet"), QStringLiteral("export.NodeSet2.xml"),
                                                      tr("NodeSet2 files (*.xml)"));
    if (!path.isEmpty()) exportNodeSet(chosen, path);
}

bool AddressSpacePage::exportNodeSet(const std::vector<uint16_t>& namespaces, const QString& path) {
    if (!m_live) return false;
    const NodeSetExport x = ua::exportNodeSet(*m_live->server().addressSpace().snapshot(), namespaces);
    QSaveFile file(path);
    const bool ok = file.open(QIODevice::WriteOnly) && file.write(x.xml) == x.xml.size() && file.commit();
    m_writeStatus->setStyleSheet(ok && x.errors.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
    if (!ok) m_writeStatus->setText(tr("Not exported: %1").arg(file.errorString()));
    else if (!x.errors.isEmpty()) m_writeStatus->setText(tr("Exported %1 nodes to %2; %3 values not written: %4").arg(x.nodes).arg(path).arg(x.errors.size()).arg(x.errors.first()));
    else m_writeStatus->setText(tr("Exported %1 nodes and %2 references to %3.").arg(x.nodes).arg(x.references).arg(path));
    return ok;
}

void AddressSpacePage::showNodeSetErrors(const QStringList& errors) {
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("nodeSetErrorsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("NodeSet not imported"));
    auto* list = new QListWidget;
    list->setObjectName(QStringLiteral("nodeSetErrorList"));
    list->setWordWrap(true);  // an error names the file, line and node: often wider than the dialog
    list->setAlternatingRowColors(true);
    list->addItems(errors);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(tr("The files have errors, so nothing was imported. Each error names its file, line and node:")));
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    dialog->resize(900, 360);
    dialog->show();
}

} // namespace ua::app
