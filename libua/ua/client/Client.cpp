#include "ua/client/Client.h"

#include "ua/client/subscriptions/SubscriptionManager.h"
#include "ua/secure/CryptoThreadState.h"
#include "ua/transport/EpollEventDispatcher.h"

#include "ua/encoding/generated/NodeIds.h"

namespace ua {

Client::Client(ClientConfig config, QObject* parent) : QObject(parent), m_config(std::move(config)) {
    m_ownThread = new QThread;
    m_ownThread->setObjectName(QStringLiteral("ua-client"));
    crypto::freeThreadStateOnFinish(m_ownThread);
    installIoEventLoop(m_ownThread);
    m_ownThread->start();
    init(m_ownThread);
}

Client::Client(ClientConfig config, QThread* ioThread, QObject* parent) : QObject(parent), m_config(std::move(config)) {
    init(ioThread);
}

void Client::init(QThread* ioThread) {
    m_core = new ClientCore(m_config);
    m_subs = new SubscriptionManager(m_core, m_config);  // moves with its parent
    m_core->moveToThread(ioThread);
    // Queued: the signals arrive in this object's thread.
    connect(m_core, &ClientCore::stateChanged, this, &Client::stateChanged);
    connect(m_core, &ClientCore::serverStateChanged, this, &Client::serverStateChanged);
    connect(m_core, &ClientCore::sessionRecreated, this, &Client::sessionRecreated);
}

Client::~Client() {
    ClientCore* core = std::exchange(m_core, nullptr);
    QThread* t = core->thread();
    if (t == QThread::currentThread() || !t->isRunning()) delete core;
    else QMetaObject::invokeMethod(core, [core] { delete core; }, Qt::BlockingQueuedConnection);
    if (m_ownThread) {
        m_ownThread->quit();
        m_ownThread->wait();
        delete m_ownThread;
    }
}

void Client::connectToServer(const QString& url, QObject* context, ServiceCallback<GetEndpointsResponse> done) {
    post([core = m_core, url, done = inContext(context, std::move(done))] { core->connectToServer(url, done); });
}

void Client::discover(const QString& url, QObject* context, DiscoveryCallback done) {
    post([core = m_core, url, done = inContext(context, std::move(done))] { core->discover(url, done); });
}

void Client::createSession(QObject* context, ServiceCallback<CreateSessionResponse> done) {
    post([core = m_core, done = inContext(context, std::move(done))] { core->createSession(done); });
}

void Client::closeSession(QObject* context, ServiceCallback<CloseSessionResponse> done) {
    post([core = m_core, done = inContext(context, std::move(done))] { core->closeSession(done); });
}

void Client::disconnectFromServer(QObject* context, StatusCallback done) {
    post([core = m_core, done = inContext(context, std::move(done))] { core->disconnectFromServer(done); });
}

void Client::read(ReadRequest request, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs) {
    call<ReadRequest, ReadResponse>(std::move(request), context, std::move(done), timeoutMs);
}

void Client::readInPlace(ReadRequest& request, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs) {
    if (m_core->thread() == QThread::currentThread()) {
        if (context) done = inContext(context, std::move(done));
        m_core->callInPlace<ReadRequest, ReadResponse>(request, timeoutMs, std::move(done));  // moved once, into the call
        return;
    }
    read(ReadRequest(request), context, std::move(done), timeoutMs);
}

void Client::readValues(const std::vector<NodeId>& nodes, QObject* context, ServiceCallback<ReadResponse> done, uint32_t timeoutMs) {
    ReadRequest req;
    req.maxAge = 0;
    req.timestampsToReturn = TimestampsToReturn::Both;
    req.nodesToRead = Array<ReadValueId>::emptyArray();
    req.nodesToRead.reserve(nodes.size());
    for (const NodeId& n : nodes) {
        ReadValueId v;
        v.nodeId = n;
        v.attributeId = uint32_t(AttributeId::Value);
        req.nodesToRead.push_back(std::move(v));
    }
    read(std::move(req), context, std::move(done), timeoutMs);
}

void Client::write(WriteRequest request, QObject* context, ServiceCallback<WriteResponse> done, uint32_t timeoutMs) {
    call<WriteRequest, WriteResponse>(std::move(request), context, std::move(done), timeoutMs);
}

void Client::writeValue(const NodeId& node, const Variant& value, QObject* context, ServiceCallback<WriteResponse> done,
                        uint32_t timeoutMs) {
    WriteRequest req;
    WriteValue w;
    w.nodeId = node;
    w.attributeId = uint32_t(AttributeId::Value);
    w.value.setValue(value);
    req.nodesToWrite = Array<WriteValue>{std::move(w)};
    write(std::move(req), context, std::move(done), timeoutMs);
}

void Client::browse(BrowseRequest request, BrowseOptions options, QObject* context, ServiceCallback<BrowseResponse> done,
                    uint32_t timeoutMs) {
    post([core = m_core, request = std::move(request), options, done = inContext(context, std::move(done)), timeoutMs]() mutable {
        core->browse(std::move(request), options, timeoutMs, std::move(done));
    });
}

void Client::translateBrowsePaths(std::vector<BrowsePath> paths, QObject* context,
                                  ServiceCallback<TranslateBrowsePathsToNodeIdsResponse> done, uint32_t timeoutMs) {
    TranslateBrowsePathsToNodeIdsRequest req;
    req.browsePaths = Array<BrowsePath>(std::move(paths));
    call<TranslateBrowsePathsToNodeIdsRequest, TranslateBrowsePathsToNodeIdsResponse>(std::move(req), context, std::move(done), timeoutMs);
}

void Client::call(std::vector<CallMethodRequest> methods, QObject* context, ServiceCallback<CallResponse> done,
                  uint32_t timeoutMs) {
    CallRequest req;
    req.methodsToCall = Array<CallMethodRequest>(std::move(methods));
    call<CallRequest, CallResponse>(std::move(req), context, std::move(done), timeoutMs);
}

void Client::callMethod(const NodeId& objectId, const NodeId& methodId, std::vector<Variant> inputs, QObject* context,
                        ServiceCallback<CallResponse> done, uint32_t timeoutMs) {
    CallMethodRequest m;
    m.objectId = objectId;
    m.methodId = methodId;
    m.inputArguments = Array<Variant>(std::move(inputs));
    call({std::move(m)}, context, std::move(done), timeoutMs);
}

// --- Subscriptions (they post to SubscriptionManager on the I/O thread) ---

void Client::createSubscription(const SubscriptionSettings& settings, QObject* context, SubscriptionHandlers handlers,
                                SubscriptionCallback done) {
    post([subs = m_subs, settings, ctx = ContextRef(context), handlers = std::move(handlers),
          done = inContext(context, std::move(done))]() mutable {
        subs->createSubscription(settings, std::move(ctx), std::move(handlers), std::move(done));
    });
}

void Client::modifySubscription(SubscriptionHandle h, const SubscriptionSettings& settings, QObject* context, SubscriptionCallback done) {
    post([subs = m_subs, h, settings, done = inContext(context, std::move(done))]() mutable {
        subs->modifySubscription(h, settings, std::move(done));
    });
}

void Client::deleteSubscription(SubscriptionHandle h, QObject* context, StatusCallback done) {
    post([subs = m_subs, h, done = inContext(context, std::move(done))]() mutable { subs->deleteSubscription(h, std::move(done)); });
}

void Client::createMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemSpec> items, QObject* context, MonitoredItemsCallback done) {
    post([subs = m_subs, h, items = std::move(items), done = inContext(context, std::move(done))]() mutable {
        subs->createMonitoredItems(h, std::move(items), std::move(done));
    });
}

void Client::modifyMonitoredItems(SubscriptionHandle h, std::vector<MonitoredItemChange> changes, QObject* context,
                                  MonitoredItemsCallback done) {
    post([subs = m_subs, h, changes = std::move(changes), done = inContext(context, std::move(done))]() mutable {
        subs->modifyMonitoredItems(h, std::move(changes), std::move(done));
    });
}

void Client::deleteMonitoredItems(SubscriptionHandle h, std::vector<uint32_t> clientHandles, QObject* context, MonitoredItemsCallback done) {
    post([subs = m_subs, h, clientHandles = std::move(clientHandles), done = inContext(context, std::move(done))]() mutable {
        subs->deleteMonitoredItems(h, std::move(clientHandles), std::move(done));
    });
}

void Client::setMonitoringMode(SubscriptionHandle h, std::vector<uint32_t> clientHandles, MonitoringMode mode, QObject* context,
                               MonitoredItemsCallback done) {
    post([subs = m_subs, h, clientHandles = std::move(clientHandles), mode, done = inContext(context, std::move(done))]() mutable {
        subs->setMonitoringMode(h, std::move(clientHandles), mode, std::move(done));
    });
}

ClientSubscriptionCounters Client::subscriptionCounters() const { return m_subs->counters(); }

} // namespace ua
