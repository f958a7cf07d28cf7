// A TCP proxy in the test's thread between the Client and a server, to break the connection
// without touching the server: cutAll() closes every forwarded connection (the client sees the
// socket close), freeze() keeps them open but forwards nothing (a dead link TCP does not notice,
// which only the keep-alive finds). New connections are forwarded normally either way, unless
// refuse(true). holdRepliesAfter(n) delays the server's answer to the client's n-th next message
// (and everything after it) until releaseReplies(): a response that comes after the client's
// timeout.
#pragma once

#include <QTcpServer>
#include <QTcpSocket>
#include <memory>
#include <vector>

namespace ua::test {

class TcpProxy : public QObject {
public:
    explicit TcpProxy(quint16 targetPort) : m_target(targetPort) {
        connect(&m_server, &QTcpServer::newConnection, this, &TcpProxy::onNewConnection);
    }
    ~TcpProxy() override { cutAll(); }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    QString url() const { return QStringLiteral("opc.tcp://127.0.0.1:%1").arg(port()); }
    int accepted() const { return m_accepted; }
    int open() const { return int(m_pairs.size()); }

    void cutAll() {
        auto pairs = std::move(m_pairs);
        m_pairs.clear();
        for (auto& p : pairs) {
            p->client->disconnect(this);
            p->upstream->disconnect(this);
            p->client->abort();
            p->upstream->abort();
            p->client->deleteLater();
            p->upstream->deleteLater();
        }
    }
    // Existing connections stop forwarding (both ways); new ones work.
    void freeze() {
        for (auto& p : m_pairs) p->frozen = true;
    }
    // Connections accepted from now on go to targetPort (the open ones stay where they are).
    void setTarget(quint16 targetPort) { m_target = targetPort; }
    // Incoming connections are closed at once while refusing.
    void refuse(bool on) { m_refuse = on; }
    // On the open connections: once the client has sent `clientMessages` more complete UA-TCP
    // messages (8-byte headers counted), whatever the server sends is kept back (not dropped).
    void holdRepliesAfter(int clientMessages) {
        for (auto& p : m_pairs) {
            p->holdAfter = clientMessages;
            p->scan.clear();
            if (clientMessages <= 0) p->holding = true;
        }
    }
    // Sends what was kept back and forwards normally again.
    void releaseReplies() {
        for (auto& p : m_pairs) {
            p->holdAfter = -1;
            p->holding = false;
            if (!p->held.isEmpty()) p->client->write(p->held);
            p->held.clear();
        }
    }
    // Bytes kept back by holdRepliesAfter() so far.
    qint64 heldBytes() const {
        qint64 n = 0;
        for (auto& p : m_pairs) n += p->held.size();
        return n;
    }

private:
    struct Pair {
        QTcpSocket* client = nullptr;
        QTcpSocket* upstream = nullptr;
        QByteArray pending;  // from the client before the upstream connection stands
        bool frozen = false;
        int holdAfter = -1;  // client messages still to pass before holding; -1: not armed
        bool holding = false;
        QByteArray scan;     // the client's bytes not yet counted as whole messages
        QByteArray held;     // the server's bytes kept back
    };

    static void countClientMessages(Pair* p, const QByteArray& d) {
        if (p->holdAfter < 0 || p->holding) return;
        p->scan += d;
        while (p->scan.size() >= 8) {
            const auto* h = reinterpret_cast<const uchar*>(p->scan.constData());
            const quint32 size = quint32(h[4]) | quint32(h[5]) << 8 | quint32(h[6]) << 16 | quint32(h[7]) << 24;
            if (size < 8 || quint32(p->scan.size()) < size) return;
            const bool final = h[3] == 'F';  // a final chunk ends a message
            p->scan.remove(0, int(size));
            if (final && --p->holdAfter == 0) {
                p->holding = true;
                return;
            }
        }
    }

    void onNewConnection() {
        while (QTcpSocket* c = m_server.nextPendingConnection()) {
            if (m_refuse) {
                c->abort();
                c->deleteLater();
                continue;
            }
            ++m_accepted;
            auto p = std::make_shared<Pair>();
            p->client = c;
            p->upstream = new QTcpSocket(this);
            Pair* raw = p.get();
            connect(c, &QTcpSocket::readyRead, this, [raw] {
                const QByteArray d = raw->client->readAll();
                if (raw->frozen) return;
                countClientMessages(raw, d);
                if (raw->upstream->state() == QAbstractSocket::ConnectedState) raw->upstream->write(d);
                else raw->pending += d;
            });
            connect(p->upstream, &QTcpSocket::connected, this, [raw] {
                raw->upstream->write(raw->pending);
                raw->pending.clear();
            });
            connect(p->upstream, &QTcpSocket::readyRead, this, [raw] {
                const QByteArray d = raw->upstream->readAll();
                if (raw->holding) raw->held += d;
                else if (!raw->frozen) raw->client->write(d);
            });
            connect(c, &QTcpSocket::disconnected, this, [this, raw] { drop(raw); });
            connect(p->upstream, &QTcpSocket::disconnected, this, [this, raw] { drop(raw); });
            m_pairs.push_back(p);
            p->upstream->connectToHost(QHostAddress::LocalHost, m_target);
        }
    }
    void drop(Pair* raw) {
        for (auto it = m_pairs.begin(); it != m_pairs.end(); ++it) {
            if (it->get() != raw) continue;
            auto p = *it;
            m_pairs.erase(it);
            p->client->disconnect(this);
            p->upstream->disconnect(this);
            p->client->disconnectFromHost();
            p->upstream->disconnectFromHost();
            p->client->deleteLater();
            p->upstream->deleteLater();
            return;
        }
    }

    QTcpServer m_server;
    quint16 m_target;
    std::vector<std::shared_ptr<Pair>> m_pairs;
    int m_accepted = 0;
    bool m_refuse = false;
};

} // namespace ua::test
