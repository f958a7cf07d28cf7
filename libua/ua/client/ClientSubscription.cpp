// ua::Client's subscription functions (they post to SubscriptionManager on the I/O thread) and the
// helpers of ClientSubscription.h.
#include "ua/client/ClientSubscription.h"

#include "ua/client/Client.h"
#include "ua/client/SubscriptionManager.h"

namespace ua {

const char* toString(SubscriptionEvent e) {
    switch (e) {
    case SubscriptionEvent::KeepAliveMissing: return "KeepAliveMissing";
    case SubscriptionEvent::KeepAliveResumed: return "KeepAliveResumed";
    case SubscriptionEvent::MessagesLost: return "MessagesLost";
    case SubscriptionEvent::ServerStatusChange: return "ServerStatusChange";
    case SubscriptionEvent::Transferred: return "Transferred";
    case SubscriptionEvent::Recreated: return "Recreated";
    case SubscriptionEvent::Lost: return "Lost";
    }
    return "?";
}

SimpleAttributeOperand eventField(const std::string& browsePath, NodeId typeDefinitionId) {
    SimpleAttributeOperand op;
    op.typeDefinitionId = std::move(typeDefinitionId);
    op.browsePath = Array<QualifiedName>::emptyArray();
    std::size_t start = 0;
    while (start <= browsePath.size()) {
        const std::size_t slash = browsePath.find('/', start);
        const std::string part = browsePath.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (!part.empty()) op.browsePath.push_back(QualifiedName{0, String(part)});
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    op.attributeId = uint32_t(AttributeId::Value);
    return op;
}

EventFilter makeEventFilter(const std::vector<std::string>& fields) {
    EventFilter f;
    f.selectClauses = Array<SimpleAttributeOperand>::emptyArray();
    for (const std::string& name : fields) f.selectClauses.push_back(eventField(name));
    f.whereClause.elements = Array<ContentFilterElement>::emptyArray();
    return f;
}

void Client::createSubscription(const SubscriptionSettings& settings, QObject* context, SubscriptionHandlers handlers,
                                SubscriptionCallback done) {
    post([subs = m_subs, settings, ctx = QPointer<QObject>(context), hasContext = context != nullptr, handlers = std::move(handlers),
          done = inContext(context, std::move(done))]() mutable {
        subs->createSubscription(settings, ctx.data(), hasContext, std::move(handlers), std::move(done));
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
