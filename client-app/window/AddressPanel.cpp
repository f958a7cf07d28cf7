#include "window/AddressPanel.h"

#include "core/Connection.h"
#include "NewNodeItems.h"
#include "ValueText.h"
#include "models/AddressTreeModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QTreeView>
#include <QVBoxLayout>

namespace ua::clientapp {

AddressPanel::AddressPanel(Connection* connection, QWidget* parent)
    : QWidget(parent), m_connection(connection), m_model(new AddressTreeModel(connection, this)) {
    setObjectName(QStringLiteral("addressPanel"));
    setMinimumWidth(180);  // opened 210 px wide (MainWindow::resizeDocks)
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    m_goTo = new QLineEdit;
    m_goTo->setObjectName(QStringLiteral("goToField"));
    m_goTo->setPlaceholderText(tr("Go to NodeId or browse path (ns=1;s=Demo, /Objects/Server)"));
    m_goTo->setClearButtonEnabled(true);
    layout->addWidget(m_goTo);
    m_goToStatus = new QLabel;
    m_goToStatus->setObjectName(QStringLiteral("goToStatus"));
    m_goToStatus->setWordWrap(true);
    m_goToStatus->setStyleSheet(QStringLiteral("color: #b00020"));
    m_goToStatus->hide();
    layout->addWidget(m_goToStatus);

    m_tree = new QTreeView;
    m_tree->setObjectName(QStringLiteral("addressTree"));
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setDragEnabled(true);
    m_tree->setDragDropMode(QAbstractItemView::DragOnly);
    m_tree->setDefaultDropAction(Qt::CopyAction);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(m_tree, 1);

    connect(m_goTo, &QLineEdit::returnPressed, this, [this] { goTo(m_goTo->text()); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { emit nodeSelected(m_model->nodeIdAt(current)); });
    // The first level arrived: open Objects, where a user goes first.
    connect(m_model, &AddressTreeModel::fetchFinished, this, [this](const QModelIndex& parent, StatusCode status) {
        if (parent.isValid() || status.isBad()) return;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const QModelIndex i = m_model->index(r, 0);
            if (i.data().toString() == QLatin1String("Objects")) m_tree->expand(i);
        }
    });
    connect(m_tree, &QTreeView::customContextMenuRequested, this, &AddressPanel::contextMenu);
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (m_model->nodeClassAt(index) == NodeClass::Method)
            emit callRequested(m_model->nodeIdAt(index), m_model->nodeIdAt(index.parent()));
    });
}

NodeId AddressPanel::currentNode() const {
    return m_model->nodeIdAt(m_tree->currentIndex());
}

void AddressPanel::goTo(const QString& text) {
    const QString target = text.trimmed();
    if (target.isEmpty()) return;
    m_goTo->setText(target);
    m_goToStatus->hide();
    QPointer<AddressPanel> self(this);
    m_model->goTo(target, [self, target](const QModelIndex& index, StatusCode status) {
        if (!self) return;
        if (index.isValid()) {
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) self->m_tree->expand(p);
            self->m_tree->setCurrentIndex(index);
            self->m_tree->scrollTo(index, QAbstractItemView::PositionAtCenter);
        } else {
            self->m_goToStatus->setText(tr("%1: %2").arg(target, app::statusName(status)));
            self->m_goToStatus->show();
        }
        emit self->goToFinished(index.isValid() ? StatusCode() : status);
    });
}

void AddressPanel::contextMenu(const QPoint& pos) {
    const QModelIndex index = m_tree->indexAt(pos);
    QMenu menu(this);
    if (index.isValid()) {
        const NodeId node = m_model->nodeIdAt(index);
        const NodeClass nodeClass = m_model->nodeClassAt(index);
        if (nodeClass == NodeClass::Variable) {
            QAction* monitor = menu.addAction(tr("Monitor"));
            monitor->setObjectName(QStringLiteral("monitorAction"));
            // Every selected Variable (one action for a multi-selection too).
            connect(monitor, &QAction::triggered, this, [this] { emit monitorRequested(selectedVariables()); });
            menu.setDefaultAction(monitor);
            QAction* history = menu.addAction(tr("Add to history trend"));
            history->setObjectName(QStringLiteral("historyTrendAction"));
            connect(history, &QAction::triggered, this, [this] { emit historyTrendRequested(selectedVariables()); });
        }
        if (nodeClass == NodeClass::Method) {
            QAction* call = menu.addAction(tr("Call..."));
            call->setObjectName(QStringLiteral("callAction"));
            const NodeId object = m_model->nodeIdAt(index.parent());
            connect(call, &QAction::triggered, this, [this, node, object] { emit callRequested(node, object); });
            menu.setDefaultAction(call);
        }
        menu.addAction(tr("Copy NodeId"), this, [node] { QApplication::clipboard()->setText(QString::fromStdString(node.toString())); });
        menu.addSeparator();
        const QStringList kinds{tr("Add folder..."), tr("Add object..."), tr("Add variable (Double)...")};
        for (int kind = 0; kind < kinds.size(); ++kind) {
            QAction* add = menu.addAction(kinds[kind]);
            add->setObjectName(QStringLiteral("addNodeAction%1").arg(kind));
            const QPersistentModelIndex at(index);
            connect(add, &QAction::triggered, this, [this, at, kind, title = kinds[kind]] {
                bool ok = false;
                const QString name = QInputDialog::getText(this, title.chopped(3), tr("BrowseName:"), QLineEdit::Normal, QString(), &ok);
                if (ok && !name.trimmed().isEmpty() && at.isValid()) addChild(at, kind, name.trimmed());
            });
        }
        QAction* remove = menu.addAction(tr("Delete"));
        remove->setObjectName(QStringLiteral("deleteNodeAction"));
        connect(remove, &QAction::triggered, this, [this, at = QPersistentModelIndex(index)] { if (at.isValid()) deleteNode(at); });
        menu.addSeparator();
        menu.addAction(tr("Refresh children"), this, [this, index] { m_model->refresh(index); });
    } else {
        menu.addAction(tr("Refresh"), this, [this] { m_model->refresh({}); });
    }
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

std::vector<NodeId> AddressPanel::selectedVariables() const {
    std::vector<NodeId> nodes;
    for (const QModelIndex& i : m_tree->selectionModel()->selectedRows())
        if (m_model->nodeClassAt(i) == NodeClass::Variable) nodes.push_back(m_model->nodeIdAt(i));
    if (nodes.empty()) nodes.push_back(currentNode());
    return nodes;
}

void AddressPanel::showRefusal(const QString& what, StatusCode status) {
    m_goToStatus->setText(tr("%1: %2").arg(what, app::statusName(status)));
    m_goToStatus->show();
}

void AddressPanel::addChild(const QModelIndex& parent, int newNodeClass, const QString& name) {
    Client* client = m_connection->client();
    if (!client) return;
    m_goToStatus->hide();
    AddNodesRequest req;
    req.nodesToAdd = Array<AddNodesItem>({app::newChildItem(m_model->nodeIdAt(parent), app::NewNodeClass(newNodeClass), name)});
    QPointer<AddressPanel> self(this);
    const QPersistentModelIndex at(parent);
    client->call<AddNodesRequest, AddNodesResponse>(std::move(req), this, [self, at, name](const ServiceResult<AddNodesResponse>& r) {
        if (!self) return;
        const StatusCode st = !r.isGood() ? r.status : r.response.results.empty() ? StatusCode(status::BadUnexpectedError)
                                                                                  : r.response.results[0].statusCode;
        if (st.isBad()) {
            self->showRefusal(tr("Add %1").arg(name), st);
        } else if (at.isValid()) {
            self->m_model->refresh(at);
        }
        emit self->nodeManagementFinished(st, st.isGood() ? r.response.results[0].addedNodeId : NodeId());
    });
}

void AddressPanel::deleteNode(const QModelIndex& index) {
    Client* client = m_connection->client();
    if (!client) return;
    m_goToStatus->hide();
    DeleteNodesRequest req;
    const NodeId node = m_model->nodeIdAt(index);
    req.nodesToDelete = Array<DeleteNodesItem>({DeleteNodesItem{node, true}});
    QPointer<AddressPanel> self(this);
    const QPersistentModelIndex parent(index.parent());
    client->call<DeleteNodesRequest, DeleteNodesResponse>(std::move(req), this, [self, parent, node](const ServiceResult<DeleteNodesResponse>& r) {
        if (!self) return;
        const StatusCode st = !r.isGood() ? r.status : r.response.results.empty() ? StatusCode(status::BadUnexpectedError) : r.response.results[0];
        if (st.isBad()) {
            self->showRefusal(tr("Delete %1").arg(QString::fromStdString(node.toString())), st);
        } else {
            self->m_model->refresh(parent);
        }
        emit self->nodeManagementFinished(st, NodeId());
    });
}

} // namespace ua::clientapp
