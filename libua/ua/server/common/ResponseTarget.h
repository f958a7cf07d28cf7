// Where a response that is not sent by the request's own handler goes: a parked Publish request,
// or a subscription service served on its Session's home thread when that is not the thread of the
// connection the request came on (SessionSubscriptions.h).
//
// A ConnectionLink is shared by a ServerConnection and every ResponseTarget made for it. Its
// channel pointer is set and cleared only on the connection's thread (set once the Hello made the
// SecureChannel, cleared by the ServerConnection's destructor), and dereferenced only there: a
// response for another thread is posted to that thread's I/O worker (runtime/IoWorker.h, a QObject
// that lives as long as the thread), which drops it when the connection has gone.
#pragma once

#include "ua/secure/ServerSecureChannel.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>

namespace ua {

struct ConnectionLink {
    // The connection's SecureChannel: null before its Hello and once the connection is gone (its
    // thread only).
    ServerSecureChannel* channel = nullptr;
    uint32_t channelId = 0;
    QObject* poster = nullptr;  // of the connection's thread: responses for it are posted here
    QThread* thread = nullptr;
    std::atomic<bool> open{true};               // any thread: false once the connection is gone
};

struct ResponseTarget {
    std::shared_ptr<ConnectionLink> link;  // null: nowhere (tests)
    // False when the response could not reach anyone any more (the connection has gone).
    bool reachable() const { return !link || link->open.load(std::memory_order_relaxed); }
    uint32_t requestId = 0;
    uint32_t requestHandle = 0;

    // Sends resp (a ServiceFault when its serviceResult is Bad), on the connection's thread: at
    // once when called there, else posted. Fills the ResponseHeader's requestHandle and timestamp.
    template <class Resp>
    void send(Resp resp) const {
        if (!link) return;
        resp.responseHeader.requestHandle = requestHandle;
        resp.responseHeader.timestamp = DateTime::now();
        if (link->thread == QThread::currentThread()) {
            if (ServerSecureChannel* ch = channel()) sendOn(*ch, resp);
            return;
        }
        auto p = std::make_shared<Resp>(std::move(resp));
        const ResponseTarget self = *this;
        post([self, p] {
            if (ServerSecureChannel* ch = self.channel()) self.sendOn(*ch, *p);
        });
    }
    // The open channel of the connection (only on the connection's thread), or nullptr.
    ServerSecureChannel* channel() const;

private:
    template <class Resp>
    void sendOn(ServerSecureChannel& ch, const Resp& resp) const {
        if (resp.responseHeader.serviceResult.isBad()) ch.sendServiceFault(requestId, requestHandle, resp.responseHeader.serviceResult);
        else ch.sendResponse(requestId, resp);
    }
    void post(std::function<void()> f) const;
};

} // namespace ua
