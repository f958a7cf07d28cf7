// The client app's connection to one server (issue 7 items 1, 11): a ua::Client with its own I/O
// thread, the connect sequence (connectToServer + createSession) with the user's trust decision for
// an untrusted server certificate, discovery, the service log, and cancellable operations. Lives on
// the GUI thread (or the CLI's main thread); nothing here blocks it.
//
//   Connection c(pkiDir);
//   c.setTrustPrompt([&](const ua::Certificate& cert, ua::StatusCode why) { return dialog.ask(cert, why); });
//   connect(&c, &Connection::stateChanged, ...);
//   c.connectTo(settings);                 // Disconnected -> Connecting -> ... -> Connected
//   c.client()->readValues({id}, c.beginOperation("Read"), ua::clientapp::logged<ua::ReadResponse>(c.log(), ...));
//
// Cancellation: every operation of the app gets a context object from beginOperation(); the Client
// drops a callback whose context was destroyed, so cancelOperations() (the window's Cancel button,
// Esc) ends the wait at once: the request itself completes or times out in the background.
//
// Trust prompt and threads: the Client asks its trustCallback on its I/O thread and waits for the
// answer there. The Connection posts the question to its own thread (queued) and the I/O thread
// waits for the answer on a condition variable, not with a BlockingQueuedConnection: the wait also
// ends (with Reject) when the Connection drops that Client (connectTo again, or destruction). With a
// BlockingQueuedConnection, destroying the Client while it waits would deadlock: ~Client waits on
// the Connection's thread for the I/O thread, which waits for the Connection's thread. The
// Connection's thread must run its event loop while a connect is in progress (the prompt is
// answered there).
#pragma once

#include "core/ConnectionSettings.h"
#include "core/ServiceLog.h"
#include "ua/client/Client.h"
#include "ua/client/channel/ReverseListener.h"
#include "ua/client/DataTypeCache.h"
#include "ua/client/discovery/Discovery.h"

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

namespace ua::clientapp {

class Connection : public QObject {
    Q_OBJECT
public:
    // pkiDir: the client's certificate store (created on first use); empty: the default
    // QStandardPaths::AppDataLocation + "/pki".
    explicit Connection(QString pkiDir = {}, QObject* parent = nullptr);
    ~Connection() override;

    // Asked on this object's thread while the I/O thread waits (ClientConfig::trustCallback, see the
    // header comment); may run a modal dialog. reason: Bad_CertificateUntrusted. Unset: Reject.
    using TrustPrompt = std::function<TrustDecision(const Certificate& certificate, StatusCode reason)>;
    void setTrustPrompt(TrustPrompt prompt);
    // Timeouts of the next connectTo() and discover() (ms; ClientConfig::connectTimeoutMs,
    // requestTimeoutMs). Defaults: 10,000 each.
    void setTimeouts(uint32_t connectTimeoutMs, uint32_t requestTimeoutMs);

    // Connects (a new ua::Client with settings.clientConfig()), then creates and activates the
    // Session. Progress and failure through stateChanged / connectFinished; any earlier connection
    // is closed first. Logged as "Connect" and "CreateSession".
    void connectTo(const ConnectionSettings& settings);
    // CloseSession + CloseSecureChannel; also cancels a connect in progress (connectFinished then
    // reports Bad_Disconnect, or the failure of the step it interrupted). Logged as "Disconnect".
    void disconnectFromServer();

    // FindServers + GetEndpoints on a short-lived None channel (ua::Client::discover, a Client of its
    // own), independent of the connection. done runs on this thread, unless cancelOperations() came
    // first (then never). Logged as "FindServers"/"GetEndpoints".
    void discover(const QString& url, std::function<void(const DiscoveryResult&)> done);

    ClientState state() const;
    // Whether two endpoint URLs name the same server: scheme, host (without case), port (4840 when
    // absent) and path (without a trailing '/'); text that does not parse is compared trimmed.
    static bool sameServer(const QString& a, const QString& b);
    // The Client of the current connection (null before the first connectTo). Valid until the next
    // connectTo() or the Connection's destruction: do not keep it; keep the Connection.
    Client* client() const { return m_client.get(); }
    const ConnectionSettings& settings() const { return m_settings; }
    ServiceLog* log() const { return m_log; }
    // The server's DataTypes as far as read (custom structures field by field; DataTypeCache.h),
    // for the current Client: emptied when the Client is replaced.
    DataTypeCache* dataTypes() const { return m_dataTypes; }
    QString pkiDir() const { return m_pkiDir; }

    // A context object for one operation's callbacks (see the header comment); description is shown
    // while it runs ("Browse Objects"). endOperation() when done (deletes it later). count changes
    // are signalled with operationsChanged.
    QObject* beginOperation(const QString& description);
    void endOperation(QObject* operation);
    // Deletes every operation context at once (their callbacks are dropped) and stops a connect in
    // progress (disconnectFromServer). Not from inside an operation's callback.
    void cancelOperations();
    int operationCount() const;

signals:
    // Every state change of the Client (Connecting, ChannelOpen, Connected, Reconnecting,
    // Disconnected), with the reason (e.g. Bad_ConnectionClosed when lost, reconnecting).
    void stateChanged(ua::ClientState state, ua::StatusCode reason);
    // The connectTo() sequence ended: Good with an active Session, or the failure (e.g.
    // Bad_CertificateUntrusted after Reject, Bad_UserAccessDenied, Bad_Timeout, Bad_ConfigurationError
    // when the user certificate or key cannot be read). Once per connectTo() (none for one replaced
    // by another connectTo() first), always from the event loop, never inside connectTo().
    void connectFinished(ua::StatusCode status);
    // The Client was replaced (connectTo): models drop what they hold of the old one.
    void clientChanged(ua::Client* client);
    // A connectTo() names another server than the one before (another endpoint URL: sameServer();
    // not for the first connectTo()): right after clientChanged. What was about the old server (the
    // Data access items, the events) goes: a new connection starts clean (issue 27 item 1). A
    // connectTo() of the same server again (Recent after Disconnect) keeps them.
    void serverChanged(const QString& endpointUrl);
    // Number of operations in progress and the description of the latest one.
    void operationsChanged(int count, const QString& latest);

private:
    struct TrustBridge;
    void dropClient();
    TrustDecision askTrust(const Certificate& certificate, StatusCode reason);
    void finishConnect(StatusCode status);

    QString m_pkiDir;
    ConnectionSettings m_settings;
    TrustPrompt m_trustPrompt;
    qint64 m_promptMs = 0;  // spent in the trust prompt since the connect began (not the connect's time)
    uint32_t m_connectTimeoutMs = 10'000;
    uint32_t m_requestTimeoutMs = 10'000;
    // Listens while the settings ask for Reverse Connect (reverseListenPort); outlives m_client.
    std::unique_ptr<ReverseListener> m_reverse;
    std::unique_ptr<Client> m_client;
    std::shared_ptr<TrustBridge> m_bridge;   // of m_client's trustCallback
    QObject* m_connectContext = nullptr;     // the callbacks of the connectTo() in progress
    QObject* m_connectOperation = nullptr;   // its entry in the operations
    ServiceLog* m_log;
    QObject* m_operations;  // parent of the operation contexts
    DataTypeCache* m_dataTypes;
};

} // namespace ua::clientapp
