#include "core/Connection.h"

#include "ua/client/discovery/EndpointUrl.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <QDir>
#include <QElapsedTimer>
#include <QMutex>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>
#include <QWaitCondition>

namespace ua::clientapp {

namespace {

QString policyName(const String& uri) {
    const QString s = uri.toQString();
    return s.mid(s.lastIndexOf(QLatin1Char('#')) + 1);
}

QString modeName(MessageSecurityMode m) {
    switch (m) {
    case MessageSecurityMode::None: return QStringLiteral("None");
    case MessageSecurityMode::Sign: return QStringLiteral("Sign");
    case MessageSecurityMode::SignAndEncrypt: return QStringLiteral("SignAndEncrypt");
    case MessageSecurityMode::Invalid: break;
    }
    return QStringLiteral("Invalid");
}

} // namespace

// The trust question of one Client, answered on the Connection's thread (see Connection.h). The I/O
// thread waits on `answered`; close() ends every wait with Reject, now and later.
struct Connection::TrustBridge {
    QMutex mutex;
    QWaitCondition answered;
    bool closed = false;

    struct Question {
        bool done = false;
        TrustDecision decision = TrustDecision::Reject;
    };

    void close() {
        QMutexLocker lock(&mutex);
        closed = true;
        answered.wakeAll();
    }
};

Connection::Connection(QString pkiDir, QObject* parent)
    : QObject(parent), m_pkiDir(std::move(pkiDir)), m_log(new ServiceLog(10'000, this)), m_operations(new QObject(this)),
      m_dataTypes(new DataTypeCache(nullptr, this)) {
    if (m_pkiDir.isEmpty())
        m_pkiDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/pki");
}

Connection::~Connection() { dropClient(); }

void Connection::setTrustPrompt(TrustPrompt prompt) { m_trustPrompt = std::move(prompt); }

void Connection::setTimeouts(uint32_t connectTimeoutMs, uint32_t requestTimeoutMs) {
    m_connectTimeoutMs = connectTimeoutMs;
    m_requestTimeoutMs = requestTimeoutMs;
}

ClientState Connection::state() const { return m_client ? m_client->state() : ClientState::Disconnected; }

void Connection::dropClient() {
    // The old connect's callbacks are dropped: they check that their context is still the current
    // one (deleteLater, as connectTo() may be called from connectFinished, i.e. from such a callback).
    if (m_connectContext) std::exchange(m_connectContext, nullptr)->deleteLater();
    if (m_connectOperation) endOperation(std::exchange(m_connectOperation, nullptr));
    if (m_bridge) std::exchange(m_bridge, nullptr)->close();  // a waiting trust question ends: Reject
    if (!m_client) return;
    m_dataTypes->setClient(nullptr);
    Client* old = m_client.release();
    disconnect(old, nullptr, this, nullptr);
    if (old->state() == ClientState::Disconnected) {
        delete old;
        return;
    }
    // CloseSession + CloseSecureChannel in the background; the Client goes when they are done (or
    // with the Connection, whose child it is until then).
    old->setParent(this);
    old->disconnectFromServer(old, [old](StatusCode) { old->deleteLater(); });
}

TrustDecision Connection::askTrust(const Certificate& certificate, StatusCode reason) {
    QElapsedTimer asked;
    asked.start();
    const TrustDecision d = m_trustPrompt ? m_trustPrompt(certificate, reason) : TrustDecision::Reject;
    m_promptMs += asked.elapsed();  // the user's time: not part of the connect's (issue 27 item 4)
    return d;
}

bool Connection::sameServer(const QString& a, const QString& b) {
    const std::optional<EndpointUrl> x = EndpointUrl::parse(a), y = EndpointUrl::parse(b);
    if (!x || !y) return a.trimmed() == b.trimmed();
    auto path = [](QString p) {
        while (p.endsWith(QLatin1Char('/'))) p.chop(1);
        return p;
    };
    return x->host.compare(y->host, Qt::CaseInsensitive) == 0 && x->port == y->port && path(x->path) == path(y->path);
}

void Connection::connectTo(const ConnectionSettings& settings) {
    const bool otherServer = !m_settings.endpointUrl.isEmpty() && !sameServer(m_settings.endpointUrl, settings.endpointUrl);
    dropClient();
    m_settings = settings;
    m_promptMs = 0;
    QString error;
    ClientConfig cfg = settings.clientConfig(m_pkiDir, &error);
    cfg.connectTimeoutMs = m_connectTimeoutMs;
    cfg.requestTimeoutMs = m_requestTimeoutMs;
    // Reverse Connect: the listener stays while the port does (a Client still disconnecting cancels
    // its wait through the listener's link, which outlives it).
    StatusCode failure = error.isEmpty() ? StatusCode(status::Good) : StatusCode(status::BadConfigurationError);
    if (!settings.reverseListenPort) {
        m_reverse.reset();
    } else if (failure.isGood()) {
        if (!m_reverse || m_reverse->port() != settings.reverseListenPort) {
            m_reverse.reset();
            auto listener = std::make_unique<ReverseListener>();
            if (listener->listen(QHostAddress::Any, settings.reverseListenPort)) {
                m_reverse = std::move(listener);
            } else {
                error = tr("cannot listen for reverse connections on port %1: %2").arg(settings.reverseListenPort).arg(listener->errorString());
                failure = status::BadResourceUnavailable;
            }
        }
        cfg.reverseListener = m_reverse.get();
    }
    auto bridge = std::make_shared<TrustBridge>();
    m_bridge = bridge;
    // Runs on the I/O thread: the question goes to this object's thread; the I/O thread waits.
    QPointer<Connection> self(this);
    cfg.trustCallback = [bridge, self](const Certificate& certificate, StatusCode reason) {
        auto question = std::make_shared<TrustBridge::Question>();
        {
            QMutexLocker lock(&bridge->mutex);
            if (bridge->closed || !self) return TrustDecision::Reject;
            if (self->thread() == QThread::currentThread()) {  // (our Client has its own thread) never wait on ourselves
                lock.unlock();
                return self->askTrust(certificate, reason);
            }
            QMetaObject::invokeMethod(self.data(), [bridge, question, self, certificate, reason] {
                {
                    QMutexLocker lock(&bridge->mutex);
                    if (bridge->closed) return;
                }
                const TrustDecision d = self ? self->askTrust(certificate, reason) : TrustDecision::Reject;
                QMutexLocker lock(&bridge->mutex);
                question->done = true;
                question->decision = d;
                bridge->answered.wakeAll();
            }, Qt::QueuedConnection);
            while (!question->done && !bridge->closed) bridge->answered.wait(&bridge->mutex);
        }
        return question->done ? question->decision : TrustDecision::Reject;
    };

    m_client = std::make_unique<Client>(cfg);
    Client* client = m_client.get();
    connect(client, &Client::stateChanged, this, &Connection::stateChanged);
    m_dataTypes->setClient(client);
    emit clientChanged(client);
    if (otherServer) emit serverChanged(settings.endpointUrl);

    QObject* ctx = m_connectContext = new QObject(this);
    m_connectOperation = beginOperation(tr("Connect to %1").arg(settings.endpointUrl));
    if (!error.isEmpty()) {
        // Reported from the event loop like every other result (not inside connectTo()).
        QTimer::singleShot(0, ctx, [this, error, failure] {
            m_log->record(QStringLiteral("Connect"), failure, 0, error);
            finishConnect(failure);
        });
        return;
    }
    QElapsedTimer timer;
    timer.start();
    const QString url = settings.endpointUrl.trimmed();
    client->connectToServer(url, ctx, [this, ctx, client, timer, url](const ServiceResult<GetEndpointsResponse>& r) {
        if (ctx != m_connectContext) return;
        const EndpointDescription ep = client->snapshot().endpoint;
        QString detail = url;
        if (r.isGood())
            detail += QStringLiteral(", %1 %2").arg(policyName(ep.securityPolicyUri), modeName(ep.securityMode));
        // The time the trust dialog was open is the user's, not the server's.
        const qint64 prompt = std::exchange(m_promptMs, 0);
        if (prompt > 0) detail += tr(" (not counting %1 ms in the trust dialog)").arg(prompt);
        m_log->record(QStringLiteral("Connect"), r.status, std::max<qint64>(0, timer.elapsed() - prompt), detail);
        if (r.status.isBad()) {
            finishConnect(r.status);
            return;
        }
        QElapsedTimer sessionTimer;
        sessionTimer.start();
        client->createSession(ctx, [this, ctx, sessionTimer, client](const ServiceResult<CreateSessionResponse>& s) {
            if (ctx != m_connectContext) return;
            QString detail;
            switch (m_settings.identityKind) {
            case UserIdentity::Kind::Anonymous: detail = QStringLiteral("anonymous"); break;
            case UserIdentity::Kind::UserName: detail = QStringLiteral("user ") + m_settings.userName; break;
            case UserIdentity::Kind::Certificate: detail = QStringLiteral("certificate user"); break;
            }
            if (s.isGood()) detail += QStringLiteral(", session ") + QString::fromStdString(client->sessionId().toString());
            m_log->record(QStringLiteral("CreateSession"), s.status, sessionTimer.elapsed(), detail);
            finishConnect(s.status);
        });
    });
}

void Connection::finishConnect(StatusCode status) {
    if (m_connectOperation) endOperation(std::exchange(m_connectOperation, nullptr));
    emit connectFinished(status);
}

void Connection::disconnectFromServer() {
    if (!m_client) return;
    QElapsedTimer timer;
    timer.start();
    // The connect in progress (if any) ends through its own callbacks with the failure this causes.
    m_client->disconnectFromServer(this, [this, timer](StatusCode s) {
        m_log->record(QStringLiteral("Disconnect"), s, timer.elapsed(), m_settings.endpointUrl);
    });
}

void Connection::discover(const QString& url, std::function<void(const DiscoveryResult&)> done) {
    QObject* op = beginOperation(tr("Discover %1").arg(url));
    ClientConfig cfg;
    cfg.connectTimeoutMs = m_connectTimeoutMs;
    cfg.requestTimeoutMs = m_requestTimeoutMs;
    cfg.autoReconnect = false;
    cfg.keepAliveIntervalMs = 0;
    auto* client = new Client(cfg, op);  // goes with the operation (cancelOperations: at once)
    QElapsedTimer timer;
    timer.start();
    const QString target = url.trimmed();
    client->discover(target, op, [this, op, timer, target, done = std::move(done)](const DiscoveryResult& r) {
        const qint64 ms = timer.elapsed();
        m_log->record(QStringLiteral("FindServers"), r.findServersStatus, ms,
                      QStringLiteral("%1: %2 servers").arg(target).arg(r.servers.size()));
        m_log->record(QStringLiteral("GetEndpoints"), r.status, ms,
                      QStringLiteral("%1: %2 endpoints").arg(target).arg(r.endpoints.size()));
        endOperation(op);
        if (done) done(r);
    });
}

QObject* Connection::beginOperation(const QString& description) {
    auto* op = new QObject(m_operations);
    op->setObjectName(description);
    emit operationsChanged(operationCount(), description);
    return op;
}

void Connection::endOperation(QObject* operation) {
    if (!operation || operation->parent() != m_operations) return;
    operation->setParent(nullptr);
    operation->deleteLater();
    const QObjectList& ops = m_operations->children();
    emit operationsChanged(int(ops.size()), ops.isEmpty() ? QString() : ops.last()->objectName());
}

void Connection::cancelOperations() {
    const bool connecting = m_connectOperation != nullptr;
    m_connectOperation = nullptr;
    const QObjectList ops = m_operations->children();
    for (QObject* op : ops) delete op;  // their pending callbacks go with them
    if (connecting) disconnectFromServer();
    emit operationsChanged(0, QString());
}

int Connection::operationCount() const { return int(m_operations->children().size()); }

} // namespace ua::clientapp
