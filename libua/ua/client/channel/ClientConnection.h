// One client connection on the client's I/O thread: the TCP socket, the cutting of the byte stream
// into UA-TCP messages, the ClientSecureChannel, the connect timeout and the SecurityToken renewal
// at 75 % of its lifetime (OPC 10000-6 6.7.4). It reports to its owner (ClientCore) through
// handlers; the owner keeps the pending requests and their timeouts.
//
// Lifecycle: open() -> opened (the SecureChannel is open) -> responses ... -> closed(reason), once,
// when the open fails or the connection ends for any reason other than close()/abort(). After
// closed the object is finished; the owner deletes it with deleteLater().
#pragma once

#include "ua/transport/BatchedWriter.h"
#include "ua/transport/MessageFramer.h"
#include "ua/transport/TcpStream.h"
#include "ua/transport/ReverseHello.h"
#include "ua/client/common/ClientConfig.h"
#include "ua/encoding/Buffer.h"
#include "ua/secure/ClientSecureChannel.h"

#include <QObject>
#include <functional>
#include <memory>

class QTcpSocket;
class QTimer;

namespace ua {

class ReverseListener;
class ReverseListenerLink;

class ClientConnection : public QObject, private TcpStream::Handler {
    Q_OBJECT
public:
    struct Handlers {
        std::function<void()> opened;
        // A response for requestId: local Good with typeId and body (valid during the call), or a
        // Bad local status (abort chunk, response too large, undecodable type id) without body.
        std::function<void(uint32_t requestId, StatusCode local, uint32_t typeId, const uint8_t* body, std::size_t size)> response;
        std::function<void(StatusCode reason)> closed;
    };

    // security: the endpoint's policy and mode, our certificate and key, the server's certificate
    // (validated by the caller); the default is SecurityPolicy None.
    ClientConnection(const ClientConfig& config, Handlers handlers, ClientChannelSecurity security = {}, QObject* parent = nullptr);
    ~ClientConnection() override;

    // Makes the socket of each ClientConnection constructed afterwards (its parent is the
    // connection); nullptr: a QTcpSocket (the default). The seam for tests that run the client
    // without the network (the fuzz harnesses' tests/fuzz/MemorySocket.h); the socket must behave
    // as a QTcpSocket does: connectToHost() leads to connected() or errorOccurred(). Once
    // connected, a socket with a descriptor is read and written through a DescriptorStream, one
    // without through a QtSocketStream (transport/TcpStream.h). Not thread-safe: set it before
    // any connection is made.
    using SocketFactory = QTcpSocket* (*)(QObject* parent);
    static void setSocketFactory(SocketFactory factory);

    // Connects to host:port (the host the user typed), sends Hello with endpointUrl, then
    // OpenSecureChannel Issue. Fails with Bad_Timeout after config.connectTimeoutMs.
    void open(const QString& host, quint16 port, const QString& endpointUrl);
    // The same over the next connection a Server opens to listener whose ReverseHello names
    // endpointUrl (and serverUri unless empty): Hello with the ReverseHello's EndpointUrl, then
    // OpenSecureChannel. Bad_Timeout after config.connectTimeoutMs, the wait included.
    void openReverse(ReverseListener& listener, const QString& endpointUrl, const QString& serverUri);
    // The ServerUri of the ReverseHello this connection came with; empty for one we dialled. The
    // ClientCore checks it against the server's ApplicationUri (OPC 10000-6 7.1.3).
    const QString& reverseServerUri() const { return m_reverseServerUri; }

    // Sends a request (see ClientSecureChannel::sendRequest for the statuses).
    template <class Req>
    StatusCode send(uint32_t requestId, const Req& request) {
        if (m_finished || !m_channel.isOpen()) return status::BadSecureChannelClosed;
        return m_channel.sendRequest(requestId, request);
    }
    uint32_t nextRequestId();

    // CloseSecureChannel, then the socket is closed; no closed handler call.
    void close();
    // The socket is dropped at once; no closed handler call.
    void abort();

    bool isOpen() const { return !m_finished && m_channel.isOpen(); }
    // std::chrono::steady_clock (ns) of the last read that brought bytes: inside the response
    // handler, when the bytes that completed that response arrived (ServiceResult::receivedAtNs).
    int64_t receivedAtNs() const { return m_receivedAtNs; }
    const ClientSecureChannel& channel() const { return m_channel; }
    ClientSecureChannel& channel() { return m_channel; }

private:
    // TcpStream::Handler
    void onReadable() override;
    void onBytesWritten(std::size_t) override {}
    void onClosed() override;

    void onConnected();
    void onReverseAccepted(int fd, const ReverseHelloMessage& hello);
    void cancelReverseWait();
    void dropSocket();
    void processMessages();
    void onSocketError();
    void process(const uint8_t* p, std::size_t n);
    void fail(StatusCode reason);
    void scheduleRenew();
    void renew();
    void sendOpen(SecurityTokenRequestType type);
    static int64_t nowMs();

    const ClientConfig& m_config;
    Handlers m_handlers;
    QTcpSocket* m_socket;    // until connected (the connect, the host lookup)
    TcpStream* m_stream = nullptr;  // from then on (its child)
    BatchedWriter m_writer;  // the requests sent while a batch of responses is handled go out in one write
    QTimer* m_timeout;      // the connect timeout, then the timeout of a Renew in flight
    QTimer* m_renewTimer;
    ClientSecureChannel m_channel;
    QString m_endpointUrl;
    QString m_reverseServerUri;
    MessageFramer m_framer;
    uint32_t m_nextRequestId = 1;
    int64_t m_receivedAtNs = 0;
    uint32_t m_openRequestId = 0;  // the OPN in flight, 0 if none
    std::shared_ptr<ReverseListenerLink> m_reverseLink;  // while waiting for a reverse connection
    uint64_t m_reverseWait = 0;                    // its waitFor() id
    bool m_tcpConnected = false;
    bool m_opened = false;
    bool m_finished = false;       // failed, closed or aborted: nothing more happens
};

} // namespace ua
