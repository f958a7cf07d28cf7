// Reverse Connect (OPC 10000-6 7.1.2.6 ReverseHello, 7.1.3; issue 32 item 1) between our Server and
// our Client in this process, over real sockets on 127.0.0.1:
// - the ReverseHello's encoding and its 4096-byte limits;
// - the Server dials the Client's listener, sends ReverseHello (its ApplicationUri and
//   EndpointUrl), closes a spare that gets no Hello in time with ERR Bad_Timeout and dials again,
//   backs off while nobody listens, and dials the next spare once one received its Hello;
// - our Client connects, reads and reconnects over reverse connections;
// - the listener refuses what it must (ERR Bad_TcpMessageTypeInvalid, Bad_TcpEndpointUrlInvalid),
//   closes silent sockets, and still serves a good Server afterwards;
// - the client refuses a relay whose ReverseHello names a ServerUri that is not the ApplicationUri
//   of the server behind it (Bad_CertificateUriInvalid), and connects through the same relay when
//   it names the right one.
// node-opcua in both roles: tests/interop/tst_node_reverse.cpp.
#include "ClientTestUtil.h"
#include "TestServerConfig.h"
#include "ua/client/channel/ReverseListener.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/transport/ReverseHello.h"
#include "ua/transport/TcpMessages.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <unistd.h>
#include <QtTest>
#include "TestMain.h"

namespace {

using namespace ua;

QByteArray reverseHelloBytes(const QString& serverUri, const QString& endpointUrl) {
    Buffer b;
    encodeReverseHello(b, ReverseHelloMessage{String::fromQString(serverUri), String::fromQString(endpointUrl)});
    return QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size()));
}

// Reads one whole UA-TCP message from socket within timeoutMs; empty if none came.
QByteArray readMessage(QTcpSocket& socket, int timeoutMs = 10000) {
    QByteArray got;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        got += socket.readAll();
        if (got.size() >= 8) {
            const TcpHeader h = readTcpHeader(reinterpret_cast<const uint8_t*>(got.constData()));
            if (got.size() >= qsizetype(h.messageSize)) return got.left(qsizetype(h.messageSize));
        }
        if (socket.state() != QAbstractSocket::ConnectedState && socket.bytesAvailable() == 0) break;
        QTest::qWait(10);
    }
    return {};
}

// The ERR a peer sent on socket (Good: no ERR came).
StatusCode errorFrom(QTcpSocket& socket) {
    const QByteArray m = readMessage(socket);
    if (m.size() < 8) return status::Good;
    const auto* p = reinterpret_cast<const uint8_t*>(m.constData());
    if (readTcpHeader(p).type != TcpMessageType::Error) return status::Good;
    const auto e = decodeError(p + 8, std::size_t(m.size()) - 8);
    return e ? e->error : status::Good;
}

bool closedByPeer(QTcpSocket& socket, int timeoutMs = 10000) {
    return QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; }, timeoutMs);
}

} // namespace

class TestReverseConnect : public QObject {
    Q_OBJECT
private slots:
    void reverseHelloEncoding();
    void serverSendsReverseHelloAndDialsAgain();
    void serverBacksOffWhileNobodyListens();
    void clientConnectsOverReverseConnections();
    void clientTimesOutWithoutServer();
    void listenerRefusesBadInput();
    void relayAnnouncingAnotherServerIsRefused();
};

void TestReverseConnect::reverseHelloEncoding() {
    const QByteArray m = reverseHelloBytes(QStringLiteral("urn:a"), QStringLiteral("opc.tcp://h:4840"));
    const auto* p = reinterpret_cast<const uint8_t*>(m.constData());
    const TcpHeader h = readTcpHeader(p);
    QCOMPARE(uint32_t(h.type), uint32_t(TcpMessageType::ReverseHello));
    QCOMPARE(h.chunkType, uint8_t('F'));
    QCOMPARE(qsizetype(h.messageSize), m.size());
    QCOMPARE(m.size(), qsizetype(8 + 4 + 5 + 4 + 16));
    const auto d = decodeReverseHello(p + 8, std::size_t(m.size()) - 8);
    QVERIFY(d);
    QCOMPARE(d->serverUri.toQString(), QStringLiteral("urn:a"));
    QCOMPARE(d->endpointUrl.toQString(), QStringLiteral("opc.tcp://h:4840"));
    QVERIFY(!decodeReverseHello(p + 8, std::size_t(m.size()) - 9));  // cut short
    QByteArray longer = m.mid(8) + QByteArray(1, 'x');
    QVERIFY(!decodeReverseHello(reinterpret_cast<const uint8_t*>(longer.constData()), std::size_t(longer.size())));  // left over
    // 4096 bytes is the most a field may have; a longer one does not decode, and we never send one.
    const QString at = QStringLiteral("opc.tcp://h/") + QString(4096 - 12, QLatin1Char('a'));
    const QByteArray atLimit = reverseHelloBytes(QStringLiteral("urn:a"), at);
    QVERIFY(decodeReverseHello(reinterpret_cast<const uint8_t*>(atLimit.constData()) + 8, std::size_t(atLimit.size()) - 8));
    Buffer over;
    BinaryEncoder e(over);
    encode(e, String("urn:a"));
    encode(e, String(std::string(4097, 'a')));
    QVERIFY(!decodeReverseHello(over.data(), over.size()));
    const QByteArray cut = reverseHelloBytes(QStringLiteral("urn:a"), at + QStringLiteral("bbbb"));
    const auto c = decodeReverseHello(reinterpret_cast<const uint8_t*>(cut.constData()) + 8, std::size_t(cut.size()) - 8);
    QVERIFY(c);
    QCOMPARE(c->endpointUrl.size(), std::size_t(4096));
}

void TestReverseConnect::serverSendsReverseHelloAndDialsAgain() {
    QTcpServer listener;
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    ServerConfig cfg = test::reverseDialingServerConfig(listener.serverPort());
    cfg.reverseConnect.helloTimeoutMs = 300;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    QVERIFY(QTest::qWaitFor([&] { return listener.hasPendingConnections(); }, 10000));
    std::unique_ptr<QTcpSocket> first(listener.nextPendingConnection());
    const QByteArray rhe = readMessage(*first);
    QVERIFY2(rhe.size() > 8, "no ReverseHello");
    const auto* p = reinterpret_cast<const uint8_t*>(rhe.constData());
    QCOMPARE(uint32_t(readTcpHeader(p).type), uint32_t(TcpMessageType::ReverseHello));
    const auto hello = decodeReverseHello(p + 8, std::size_t(rhe.size()) - 8);
    QVERIFY(hello);
    QCOMPARE(hello->serverUri.toQString(), server.applicationUri());
    QCOMPARE(hello->endpointUrl.toQString(), server.endpointUrl());

    // No Hello: after helloTimeoutMs the spare is closed with ERR Bad_Timeout, and dialled again.
    QCOMPARE(errorFrom(*first), status::BadTimeout);
    QVERIFY(closedByPeer(*first));
    QVERIFY(QTest::qWaitFor([&] { return listener.hasPendingConnections(); }, 10000));
    std::unique_ptr<QTcpSocket> second(listener.nextPendingConnection());
    QVERIFY(readMessage(*second).size() > 8);
    const auto states = server.reverseConnectStates();
    QCOMPARE(states.size(), std::size_t(1));
    QVERIFY(states[0].dials >= 2);
    QCOMPARE(states[0].used, uint64_t(0));

    // A Hello on the spare makes it a connection like any other (ACK), and the next spare comes.
    HelloMessage h;
    h.endpointUrl = hello->endpointUrl;
    Buffer hb;
    encodeHello(hb, h);
    second->write(reinterpret_cast<const char*>(hb.data()), qint64(hb.size()));
    const QByteArray ack = readMessage(*second);
    QVERIFY(ack.size() >= 8);
    QCOMPARE(uint32_t(readTcpHeader(reinterpret_cast<const uint8_t*>(ack.constData())).type), uint32_t(TcpMessageType::Acknowledge));
    QVERIFY(QTest::qWaitFor([&] { return listener.hasPendingConnections(); }, 10000));
    std::unique_ptr<QTcpSocket> third(listener.nextPendingConnection());
    QVERIFY(readMessage(*third).size() > 8);
    QVERIFY(QTest::qWaitFor([&] { return server.reverseConnectStates()[0].used == 1; }, 5000));
    server.stop();
}

void TestReverseConnect::serverBacksOffWhileNobodyListens() {
    ServerConfig cfg = test::reverseDialingServerConfig(test::freeLocalPort());
    cfg.reverseConnect.clientUrls << QStringLiteral("http://not-opc-tcp:1234");
    cfg.reverseConnect.retryMinMs = 20;
    cfg.reverseConnect.retryMaxMs = 160;
    Server server(cfg);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(QTest::qWaitFor([&] { return server.reverseConnectStates()[0].failures >= 5; }, 15000));
    const auto states = server.reverseConnectStates();
    QVERIFY(states[0].valid);
    QVERIFY(!states[0].lastError.isEmpty());
    QVERIFY(states[0].dials >= 5);
    QVERIFY(!states[1].valid);  // not an opc.tcp URL: never dialled
    QCOMPARE(states[1].dials, uint64_t(0));
    // The server serves its own endpoint all the while.
    Client client;
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::Good);
    server.stop();
}

void TestReverseConnect::clientConnectsOverReverseConnections() {
    ReverseListener listener;
    QVERIFY2(listener.listen(QHostAddress::LocalHost, 0), qPrintable(listener.errorString()));
    Server server(test::reverseDialingServerConfig(listener.port()));
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    ClientConfig cc;
    cc.reverseListener = &listener;
    Client client(cc);
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::Good);
    test::Awaited<ServiceResult<ReadResponse>> r;
    client.readValues({NodeId(id::Server_ServerStatus_State)}, this, r.callback());
    QVERIFY(r.wait());
    QCOMPARE(r->status, status::Good);
    QCOMPARE(r->response.results.size(), std::size_t(1));
    QCOMPARE(r->response.results[0].status, status::Good);

    // Again, after a disconnect: over the spare the server dialled meanwhile.
    test::Awaited<StatusCode> d;
    client.disconnectFromServer(this, d.callback());
    QVERIFY(d.wait());
    QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::Good);
    QVERIFY(listener.handedOver() >= 2);
    QCOMPARE(listener.refused(), uint64_t(0));
    QVERIFY(server.reverseConnectStates()[0].used >= 2);

    // A Client that expects another server is refused by this listener, whose connection it is not.
    ClientConfig other;
    other.reverseListener = &listener;
    other.connectTimeoutMs = 1500;
    Client stranger(other);
    test::Awaited<ServiceResult<GetEndpointsResponse>> c;
    stranger.connectToServer(QStringLiteral("opc.tcp://elsewhere:4840"), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::BadTimeout);
    server.stop();
}

void TestReverseConnect::clientTimesOutWithoutServer() {
    ReverseListener listener;
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    ClientConfig cc;
    cc.reverseListener = &listener;
    cc.connectTimeoutMs = 300;
    Client client(cc);
    test::Awaited<ServiceResult<GetEndpointsResponse>> c;
    client.connectToServer(QStringLiteral("opc.tcp://127.0.0.1:4840"), this, c.callback());
    QVERIFY(c.wait());
    QCOMPARE(c->status, status::BadTimeout);
    QCOMPARE(client.state(), ClientState::Disconnected);
}

void TestReverseConnect::listenerRefusesBadInput() {
    ReverseListener listener;
    listener.setAcceptTimeoutMs(300);
    listener.setMaxPending(3);
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    const QString known = QStringLiteral("opc.tcp://plc.example:4840");
    listener.expect({known, QStringLiteral("urn:plc")});
    const auto connectRaw = [&] {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost(QHostAddress::LocalHost, listener.port());
        return s->waitForConnected(5000) ? std::move(s) : nullptr;
    };

    {  // a Hello where the ReverseHello belongs
        auto s = connectRaw();
        QVERIFY(s);
        HelloMessage h;
        h.endpointUrl = String(known.toStdString());
        Buffer b;
        encodeHello(b, h);
        s->write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
        QCOMPARE(errorFrom(*s), status::BadTcpMessageTypeInvalid);
        QVERIFY(closedByPeer(*s));
    }
    {  // an EndpointUrl of 5,000 bytes (7.1.2.6: at most 4096)
        auto s = connectRaw();
        QVERIFY(s);
        Buffer b;
        b.grow(8);
        BinaryEncoder e(b);
        encode(e, String("urn:plc"));
        encode(e, String(std::string(5000, 'u')));
        writeTcpHeader(b.data(), TcpMessageType::ReverseHello, ChunkType::Final, uint32_t(b.size()));
        s->write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
        QCOMPARE(errorFrom(*s), status::BadTcpEndpointUrlInvalid);
        QVERIFY(closedByPeer(*s));
    }
    {  // a header that announces 4 GB
        auto s = connectRaw();
        QVERIFY(s);
        uint8_t header[8];
        writeTcpHeader(header, TcpMessageType::ReverseHello, ChunkType::Final, 0xFFFFFFFFu);
        s->write(reinterpret_cast<const char*>(header), 8);
        QCOMPARE(errorFrom(*s), status::BadTcpEndpointUrlInvalid);
    }
    {  // a server nobody expects, and a known EndpointUrl with another ServerUri
        for (const auto& [uri, url] : {std::pair{QStringLiteral("urn:plc"), QStringLiteral("opc.tcp://intruder:4840")},
                                       std::pair{QStringLiteral("urn:intruder"), known}}) {
            auto s = connectRaw();
            QVERIFY(s);
            s->write(reverseHelloBytes(uri, url));
            QCOMPARE(errorFrom(*s), status::BadTcpEndpointUrlInvalid);
            QVERIFY(closedByPeer(*s));
        }
    }
    {  // silence: closed after the accept timeout, without an ERR
        auto s = connectRaw();
        QVERIFY(s);
        QVERIFY(closedByPeer(*s, 5000));
    }
    {  // a flood of silent sockets beyond maxPending: the ones over the limit are closed at once
        std::vector<std::unique_ptr<QTcpSocket>> flood;
        for (int i = 0; i < 5; ++i) flood.push_back(connectRaw());
        QVERIFY(QTest::qWaitFor([&] {
            return std::count_if(flood.begin(), flood.end(), [](const auto& s) { return s->state() == QAbstractSocket::UnconnectedState; }) >= 2;
        }, 250));
    }
    QTest::qWait(600);  // the flood's sockets are closed by the accept timeout (300 ms)
    const uint64_t refusedSoFar = listener.refused();
    QVERIFY(refusedSoFar >= 8);

    // Afterwards a good server is still served: held until a waiter asks for it (the host name
    // in another case, the default port written out).
    auto good = connectRaw();
    QVERIFY(good);
    good->write(reverseHelloBytes(QStringLiteral("urn:plc"), QStringLiteral("opc.tcp://PLC.example:4840/")));
    QTest::qWait(100);
    QCOMPARE(good->state(), QAbstractSocket::ConnectedState);
    int gotFd = -1;
    QString gotUrl;
    listener.waitFor(this, {QStringLiteral("opc.tcp://plc.example"), QString()}, [&](int fd, const ReverseHelloMessage& h) {
        gotFd = fd;
        gotUrl = h.endpointUrl.toQString();
    });
    QVERIFY(QTest::qWaitFor([&] { return gotFd >= 0; }, 5000));
    QCOMPARE(gotUrl, QStringLiteral("opc.tcp://PLC.example:4840/"));
    QCOMPARE(listener.handedOver(), uint64_t(1));
    // The descriptor is the connection: what is written to it reaches the "server".
    QVERIFY(::write(gotFd, "HELx", 4) == 4);
    QVERIFY(QTest::qWaitFor([&] { return good->bytesAvailable() >= 4; }, 5000));
    QCOMPARE(good->read(4), QByteArray("HELx"));
    ::close(gotFd);
}

namespace {
// Dials the Client's listener, sends a ReverseHello of its own choosing, and relays the bytes
// between that connection and a Server it dialled itself: a relay that may announce a server it
// is not (OPC 10000-6 7.1.3: the ServerUri is checked against the ApplicationUri).
struct ReverseRelay {
    QTcpSocket toClient, toServer;
    ReverseRelay(quint16 listenerPort, quint16 serverPort, const QByteArray& reverseHello) {
        QObject::connect(&toClient, &QTcpSocket::connected, &toClient, [this, reverseHello] { toClient.write(reverseHello); });
        QObject::connect(&toClient, &QTcpSocket::readyRead, &toClient, [this] { toServer.write(toClient.readAll()); });
        QObject::connect(&toServer, &QTcpSocket::readyRead, &toServer, [this] { toClient.write(toServer.readAll()); });
        toServer.connectToHost(QHostAddress::LocalHost, serverPort);
        toClient.connectToHost(QHostAddress::LocalHost, listenerPort);
    }
};
} // namespace

void TestReverseConnect::relayAnnouncingAnotherServerIsRefused() {
    ReverseListener listener;
    QVERIFY(listener.listen(QHostAddress::LocalHost, 0));
    Server server(test::localServerConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ClientConfig cc;
    cc.reverseListener = &listener;
    cc.connectTimeoutMs = 5000;
    {
        ReverseRelay relay(listener.port(), server.port(),
                           reverseHelloBytes(QStringLiteral("urn:impostor:Server"), server.endpointUrl()));
        Client client(cc);
        QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::BadCertificateUriInvalid);
        QCOMPARE(client.state(), ClientState::Disconnected);
    }
    {
        // The same relay naming the server's own ApplicationUri: connected (the refusal above was the URI's).
        ReverseRelay relay(listener.port(), server.port(), reverseHelloBytes(server.applicationUri(), server.endpointUrl()));
        Client client(cc);
        QCOMPARE(test::connectSession(client, server.endpointUrl(), this), status::Good);
    }
    server.stop();
}

UA_TEST_GUILESS_MAIN(TestReverseConnect)
#include "tst_reverse_connect.moc"
