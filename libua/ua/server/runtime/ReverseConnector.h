// The Server's side of Reverse Connect (OPC 10000-6 7.1.3): for each configured Client listener
// (ReverseConnectConfig) it keeps one spare connection. A dial runs on the accept thread; the
// connected descriptor goes to an I/O thread like an accepted one, where ServerConnection sends
// the ReverseHello (7.1.2.6) and from the Client's Hello on serves it as any other connection. The
// connection reports back once: when it received its Hello (the next spare is dialled at once),
// when its Hello timeout closed it (dialled again after retryMinMs), or when it closed without a
// Hello (dialled again after the back-off).
#pragma once

#include "ua/server/runtime/ReverseConnectConfig.h"

#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class QTcpSocket;
class QTimer;

namespace ua {

class ReverseConnector;

// Shared by the connector and the connections it made, which may outlive it (the accept thread
// stops before the I/O threads): a report after the connector is gone is dropped.
class ReverseHub {
public:
    explicit ReverseHub(ReverseConnector* connector) : m_connector(connector) {}
    // How a spare connection ended its wait: the Client's Hello came, the Server's Hello timeout
    // closed it, or it closed before (the Client refused it with an ERR, or the network).
    enum class Outcome { Hello, TimedOut, Closed };
    // From the connection's thread, at most once per connection.
    void report(int target, Outcome outcome);
    void detach();  // the connector's destructor

private:
    std::mutex m_mutex;
    ReverseConnector* m_connector;
};

// What a reverse connection needs to know about where it came from (ServerConnection).
struct ReverseOrigin {
    std::shared_ptr<ReverseHub> hub;
    int target = -1;               // index into ReverseConnectConfig::clientUrls
    QString serverUri;             // the ReverseHello's ServerUri (the ApplicationUri)
    QString endpointUrl;           // and its EndpointUrl
    uint32_t helloTimeoutMs = 120'000;
};

class ReverseConnector : public QObject {
    Q_OBJECT
public:
    // The state of one target, for the window and tests.
    struct TargetState {
        QString url;
        bool valid = true;         // the URL parsed (opc.tcp://host:port)
        bool dialing = false;      // a TCP connect is in progress
        bool spareOpen = false;    // a spare connection waits for the Client's Hello
        uint32_t failures = 0;     // failed dials or spares closed without a Hello in a row
        uint64_t dials = 0;        // TCP connects started
        uint64_t used = 0;         // spares that received a Hello
        QString lastError;
    };
    // handOver: gives a connected descriptor to an I/O thread (Server::acceptReverse); called on
    // this object's thread. Dials start with start().
    using HandOver = std::function<void(int fd, ReverseOrigin origin)>;
    ReverseConnector(ReverseConnectConfig config, QString serverUri, QString endpointUrl, HandOver handOver,
                     QObject* parent = nullptr);
    ~ReverseConnector() override;

    void start();
    // A copy; any thread (under a lock).
    std::vector<TargetState> states() const;

private:
    friend class ReverseHub;
    struct Target;
    void dial(int target);
    void onConnected(int target);
    void onDialFailed(int target, const QString& error);
    void onReport(int target, ReverseHub::Outcome outcome);
    void retryLater(int target);
    uint32_t retryDelayMs(uint32_t failures) const;

    ReverseConnectConfig m_config;
    QString m_serverUri;
    QString m_endpointUrl;
    HandOver m_handOver;
    std::shared_ptr<ReverseHub> m_hub;
    std::vector<std::unique_ptr<Target>> m_targets;
    mutable std::mutex m_stateMutex;  // guards each Target's state for states()
};

} // namespace ua
