// The Address space page: a read-only tree of the server's nodes (AddressSpaceModel, fetched
// lazily) with the current values of the rows on screen, re-read twice a second; the structure
// follows the address space's version (Sessions' diagnostics nodes come and go).
#pragma once

#include "LiveServer.h"

#include <QTimer>
#include <QWidget>

class QTreeView;

namespace ua::serverapp {
class AddressSpaceModel;
}

namespace ua::app {

class AddressSpacePage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit AddressSpacePage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    QTreeView* view() const { return m_view; }
    // Expands the path of display names from the root ("Objects", "Server", ...); false when a
    // name is not found. For screenshots and tests.
    bool expandPath(const QStringList& displayNames);

private:
    void refresh();

    serverapp::AddressSpaceModel* m_model = nullptr;
    QTreeView* m_view;
    QTimer m_timer;
};

} // namespace ua::app
