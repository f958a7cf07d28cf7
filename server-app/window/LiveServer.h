// What the pages of the window show while the server runs: the Server and the objects that sample
// it for the views. Created by MainWindow when the server starts, destroyed when it stops; pages
// get it through ServerView::attach and drop every pointer into it on detach.
#pragma once

#include <QObject>

namespace ua {
class Server;
}

namespace ua::app {

struct LiveServer {
    Server* server = nullptr;
};

// A page of the window that shows something of a running server.
class ServerView {
public:
    virtual ~ServerView() = default;
    // live: the running server, or nullptr once it has stopped (drop models built on it).
    virtual void attach(LiveServer* live) = 0;
};

} // namespace ua::app
