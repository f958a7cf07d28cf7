// The helpers of ClientSubscription.h (ua::Client's subscription functions are in Client.cpp).
#include "ua/client/subscriptions/ClientSubscription.h"

namespace ua {

const char* enumName(SubscriptionEvent e) {
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

} // namespace ua
