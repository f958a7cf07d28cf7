#include "ua/client/history/HistoryContinuation.h"

#include <memory>
#include <utility>
#include <vector>

namespace ua {

namespace {

struct HistoryJob {
    HistoryReadOptions options;
    uint32_t timeoutMs = 0;
    HistoryReadCall historyRead;
    ExtensionObject details;                 // of the first request
    TimestampsToReturn timestampsToReturn{};
    std::vector<HistoryReadValueId> nodes;   // of the first request, without ContinuationPoints
    std::vector<ByteString> open;            // per node: the ContinuationPoint to follow (empty: done)
    ServiceResult<HistoryValues> result;
    ServiceCallback<HistoryValues> done;
};

// The details for the nodes at `indexes`: Read Processed's aggregateType cut to them (one per node,
// OPC 10000-11 6.5.4); any other details as they are.
ExtensionObject historyDetailsFor(const HistoryJob& job, const std::vector<std::size_t>& indexes) {
    const ReadProcessedDetails* p = job.details.get<ReadProcessedDetails>();
    if (!p || p->aggregateType.size() != job.nodes.size()) return job.details;
    ReadProcessedDetails cut = *p;
    cut.aggregateType = Array<NodeId>::emptyArray();
    for (std::size_t i : indexes) cut.aggregateType.push_back(p->aggregateType[i]);
    return ExtensionObject::make(std::move(cut));
}

HistoryReadRequest historyContinuationRequest(const HistoryJob& job, const std::vector<std::size_t>& indexes,
                                       const std::vector<ByteString>& points, bool release) {
    HistoryReadRequest req;
    req.historyReadDetails = historyDetailsFor(job, indexes);
    req.timestampsToReturn = job.timestampsToReturn;
    req.releaseContinuationPoints = release;
    req.nodesToRead = Array<HistoryReadValueId>::emptyArray();
    for (std::size_t k = 0; k < indexes.size(); ++k) {
        HistoryReadValueId v = job.nodes[indexes[k]];
        v.continuationPoint = points[k];
        req.nodesToRead.push_back(std::move(v));
    }
    return req;
}

// Frees the server's ContinuationPoints of the nodes at `indexes`; the answer is of no interest.
void releaseHistoryPoints(const HistoryJob& job, const std::vector<std::size_t>& indexes, const std::vector<ByteString>& points) {
    if (indexes.empty()) return;
    job.historyRead(historyContinuationRequest(job, indexes, points, true), job.timeoutMs, {});
}

// One HistoryReadResult of node i into the job: its values, status and ContinuationPoint; the
// ContinuationPoint of a node that is to stop goes to *release.
void absorbHistoryResult(HistoryJob& job, std::size_t i, const HistoryReadResult& r, std::vector<std::size_t>& releaseIndexes,
                         std::vector<ByteString>& releasePoints) {
    HistoryNodeValues& node = job.result.response.nodes[i];
    ++node.requests;
    node.status = r.statusCode;
    ByteString point = r.statusCode.isBad() ? ByteString() : r.continuationPoint;
    job.open[i] = ByteString();
    if (!r.statusCode.isBad() && !r.historyData.isNull()) {
        if (const HistoryModifiedData* m = r.historyData.get<HistoryModifiedData>()) {
            node.values.insert(node.values.end(), m->dataValues.begin(), m->dataValues.end());
            node.modifications.insert(node.modifications.end(), m->modificationInfos.begin(), m->modificationInfos.end());
        } else if (const HistoryData* h = r.historyData.get<HistoryData>()) {
            node.values.insert(node.values.end(), h->dataValues.begin(), h->dataValues.end());
        } else {
            node.status = status::BadUnknownResponse;  // HistoryEvent, or a body the stack cannot decode
        }
    }
    const uint64_t max = job.options.maxValues;
    const bool full = max && node.values.size() >= max;
    if (!node.status.isBad() && full && (node.values.size() > max || !point.isEmpty())) {
        node.values.resize(std::size_t(max));
        if (node.modifications.size() > max) node.modifications.resize(std::size_t(max));
        node.status = status::GoodMoreData;
    }
    if (point.isEmpty()) return;
    if (node.status.isBad() || full) {
        releaseIndexes.push_back(i);
        releasePoints.push_back(std::move(point));
    } else {
        job.open[i] = std::move(point);
    }
}

void continueHistoryRead(const std::shared_ptr<HistoryJob>& job) {
    std::vector<std::size_t> next;
    std::vector<ByteString> points;
    for (std::size_t i = 0; i < job->open.size(); ++i) {
        if (job->open[i].isEmpty()) continue;
        next.push_back(i);
        points.push_back(job->open[i]);
    }
    if (next.empty()) {
        if (job->done) job->done(job->result);
        return;
    }
    job->historyRead(historyContinuationRequest(*job, next, points, false), job->timeoutMs,
                     [job, next, points](const ServiceResult<HistoryReadResponse>& r) {
        job->result.receivedAtNs = r.receivedAtNs;  // the arrival of the last response the result is made of
        const bool usable = r.status.isGood() && r.response.results.size() == next.size();
        if (!usable) {
            // The nodes still open end with the failure; their ContinuationPoints are released
            // unless the connection that held them is gone.
            const StatusCode failure = r.status.isBad() ? r.status : status::BadUnknownResponse;
            for (std::size_t i : next) {
                job->result.response.nodes[i].status = failure;
                job->open[i] = ByteString();
            }
            if (r.status != status::BadServerNotConnected && r.status != status::BadConnectionClosed)
                releaseHistoryPoints(*job, next, points);
            if (job->done) job->done(job->result);
            return;
        }
        std::vector<std::size_t> releaseIndexes;
        std::vector<ByteString> releasePoints;
        for (std::size_t k = 0; k < next.size(); ++k) absorbHistoryResult(*job, next[k], r.response.results[k], releaseIndexes, releasePoints);
        releaseHistoryPoints(*job, releaseIndexes, releasePoints);
        continueHistoryRead(job);
    });
}

} // namespace

ServiceCallback<HistoryReadResponse> followHistoryContinuationPoints(const HistoryReadRequest& first, HistoryReadOptions options,
                                                                     uint32_t timeoutMs, HistoryReadCall historyRead,
                                                                     ServiceCallback<HistoryValues> done) {
    auto job = std::make_shared<HistoryJob>();
    job->options = options;
    job->timeoutMs = timeoutMs;
    job->historyRead = std::move(historyRead);
    job->details = first.historyReadDetails;
    job->timestampsToReturn = first.timestampsToReturn;
    for (HistoryReadValueId v : first.nodesToRead) {
        v.continuationPoint = ByteString();
        job->nodes.push_back(std::move(v));
    }
    job->done = std::move(done);
    return [job](const ServiceResult<HistoryReadResponse>& r) {
        job->result.status = r.status;
        job->result.receivedAtNs = r.receivedAtNs;
        if (r.status.isGood() && r.response.results.size() != job->nodes.size()) job->result.status = status::BadUnknownResponse;
        if (job->result.status.isBad()) {
            if (job->done) job->done(job->result);
            return;
        }
        job->result.response.nodes.assign(job->nodes.size(), HistoryNodeValues{});
        job->open.assign(job->nodes.size(), ByteString());
        std::vector<std::size_t> releaseIndexes;
        std::vector<ByteString> releasePoints;
        for (std::size_t i = 0; i < job->nodes.size(); ++i)
            absorbHistoryResult(*job, i, r.response.results[i], releaseIndexes, releasePoints);
        releaseHistoryPoints(*job, releaseIndexes, releasePoints);
        continueHistoryRead(job);
    };
}

} // namespace ua
