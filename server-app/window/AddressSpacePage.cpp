#include "AddressSpacePage.h"

#include "models/AddressSpaceModel.h"

#include "ua/server/runtime/Server.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace ua::app {

AddressSpacePage::AddressSpacePage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("addressSpacePage"));
    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("addressSpaceView"));
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view);
    connect(&m_timer, &QTimer::timeout, this, &AddressSpacePage::refresh);
}

void AddressSpacePage::attach(LiveServer* live) {
    m_timer.stop();
    m_view->setModel(nullptr);
    delete m_model;
    m_model = nullptr;
    if (!live) return;
    m_model = new serverapp::AddressSpaceModel(live->server().addressSpace(), NodeId(uint32_t(84)), this);
    m_view->setModel(m_model);
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setColumnWidth(serverapp::AddressSpaceModel::DisplayName, fm.horizontalAdvance(QLatin1Char('M')) * 28);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::NodeClass, fm.horizontalAdvance(QStringLiteral("VariableType")) + 24);
    m_view->setColumnWidth(serverapp::AddressSpaceModel::NodeId, fm.horizontalAdvance(QStringLiteral("ns=2;s=Demo.Simulation.UpdateRate")) + 24);
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
        visible << i;
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
        m_view->expand(found);
        if (m_model->canFetchMore(found)) m_model->fetchMore(found);
        parent = found;
    }
    m_view->scrollTo(parent, QAbstractItemView::PositionAtTop);
    return true;
}

} // namespace ua::app
