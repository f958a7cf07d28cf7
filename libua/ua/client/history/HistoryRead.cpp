#include "ua/client/history/HistoryRead.h"

namespace ua {

ReadProcessedDetails HistoryProcessedRead::details(std::size_t nodeCount) const {
    ReadProcessedDetails d;
    d.startTime = startTime;
    d.endTime = endTime;
    d.processingInterval = processingIntervalMs;
    d.aggregateType = Array<NodeId>::emptyArray();
    if (aggregateTypes.size() == 1) {
        for (std::size_t i = 0; i < nodeCount; ++i) d.aggregateType.push_back(aggregateTypes.front());
    } else {
        for (const NodeId& a : aggregateTypes) d.aggregateType.push_back(a);
    }
    if (aggregateConfiguration) {
        d.aggregateConfiguration = *aggregateConfiguration;
    } else {
        // OPC 10000-13 4.2.1.2: with useServerCapabilitiesDefaults the other fields are ignored;
        // they carry the specification's defaults for servers that read them anyway.
        d.aggregateConfiguration.useServerCapabilitiesDefaults = true;
        d.aggregateConfiguration.treatUncertainAsBad = true;
        d.aggregateConfiguration.percentDataBad = 100;
        d.aggregateConfiguration.percentDataGood = 100;
        d.aggregateConfiguration.useSlopedExtrapolation = false;
    }
    return d;
}

HistoryReadRequest makeHistoryReadRequest(const std::vector<NodeId>& nodes, ExtensionObject details,
                                          TimestampsToReturn timestampsToReturn) {
    HistoryReadRequest req;
    req.historyReadDetails = std::move(details);
    req.timestampsToReturn = timestampsToReturn;
    req.releaseContinuationPoints = false;
    req.nodesToRead = Array<HistoryReadValueId>::emptyArray();
    req.nodesToRead.reserve(nodes.size());
    for (const NodeId& n : nodes) {
        HistoryReadValueId v;
        v.nodeId = n;
        req.nodesToRead.push_back(std::move(v));
    }
    return req;
}

} // namespace ua
