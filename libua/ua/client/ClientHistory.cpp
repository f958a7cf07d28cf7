// The Client's Historical Access functions (Client.h; the continuation in history/HistoryContinuation.h).
#include "ua/client/Client.h"

namespace ua {

void Client::historyRead(HistoryReadRequest request, HistoryReadOptions options, QObject* context, ServiceCallback<HistoryValues> done,
                         uint32_t timeoutMs) {
    request.timestampsToReturn = options.timestampsToReturn;
    post([core = m_core, request = std::move(request), options, done = inContext(context, std::move(done)), timeoutMs]() mutable {
        core->historyRead(std::move(request), options, timeoutMs, std::move(done));
    });
}

void Client::historyReadRaw(const std::vector<NodeId>& nodes, const ReadRawModifiedDetails& details, HistoryReadOptions options,
                            QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs) {
    historyRead(makeHistoryReadRequest(nodes, ExtensionObject::make(details), options.timestampsToReturn), options, context,
                std::move(done), timeoutMs);
}

void Client::historyReadProcessed(const std::vector<NodeId>& nodes, const HistoryProcessedRead& read, HistoryReadOptions options,
                                  QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs) {
    historyRead(makeHistoryReadRequest(nodes, ExtensionObject::make(read.details(nodes.size())), options.timestampsToReturn), options,
                context, std::move(done), timeoutMs);
}

void Client::historyReadAtTime(const std::vector<NodeId>& nodes, const ReadAtTimeDetails& details, HistoryReadOptions options,
                               QObject* context, ServiceCallback<HistoryValues> done, uint32_t timeoutMs) {
    historyRead(makeHistoryReadRequest(nodes, ExtensionObject::make(details), options.timestampsToReturn), options, context,
                std::move(done), timeoutMs);
}

void Client::historyUpdate(std::vector<HistoryUpdateOperation> operations, QObject* context, ServiceCallback<HistoryUpdateResponse> done,
                           uint32_t timeoutMs) {
    call<HistoryUpdateRequest, HistoryUpdateResponse>(makeHistoryUpdateRequest(std::move(operations)), context, std::move(done), timeoutMs);
}

} // namespace ua
