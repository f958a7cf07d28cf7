// A TCP proxy in the test's thread between the Client and a server, to break the connection
// without touching the server: cutAll() closes every forwarded connection (the client sees the
// socket close), freeze() keeps them open but forwards nothing (a dead link TCP does not notice,
// which only the keep-alive finds). New connections are forwarded normally either way, unless
// refuse(true).
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

private:
    struct Pair {
        QTcpSocket* client = nullptr;
        QTcpSocket* upstream = nullptr;
        QByteArray pending;  // from the client before the upstream connection stands
        bool frozen = false;
    };

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
                if (raw->upstream->state() == QAbstractSocket::ConnectedState) raw->upstream->write(d);
                else raw->pending += d;
            });
            connect(p->upstream, &QTcpSocket::connected, this, [raw] {
                raw->upstream->write(raw->pending);
                raw->pending.clear();
            });
            connect(p->upstream, &QTcpSocket::readyRead, this, [raw] {
                const QByteArray d = raw->upstream->readAll();
                if (!raw->frozen) raw->client->write(d);
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
