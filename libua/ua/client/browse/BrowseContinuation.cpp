#include "ua/client/browse/BrowseContinuation.h"

#include <memory>
#include <utility>
#include <vector>

namespace ua {

namespace {

struct BrowseJob {
    BrowseOptions options;
    uint32_t timeoutMs = 0;
    BrowseNextCall browseNext;
    ServiceResult<BrowseResponse> result;
    ServiceCallback<BrowseResponse> done;
};

void continueBrowse(const std::shared_ptr<BrowseJob>& job) {
    auto& results = job->result.response.results;
    std::vector<std::size_t> next;
    BrowseNextRequest more, release;
    more.releaseContinuationPoints = false;
    release.releaseContinuationPoints = true;
    more.continuationPoints = Array<ByteString>::emptyArray();
    release.continuationPoints = Array<ByteString>::emptyArray();
    for (std::size_t i = 0; i < results.size(); ++i) {
        BrowseResult& br = results[i];
        if (br.continuationPoint.isEmpty()) continue;
        const bool enough = job->options.maxReferencesPerNode && br.references.size() >= job->options.maxReferencesPerNode;
        if (enough) {
            release.continuationPoints.push_back(br.continuationPoint);
            br.continuationPoint = ByteString();
        } else {
            more.continuationPoints.push_back(br.continuationPoint);
            next.push_back(i);
        }
    }
    if (!release.continuationPoints.empty())  // free the server's resources; the answer is of no interest
        job->browseNext(std::move(release), job->timeoutMs, {});
    if (next.empty()) {
        if (job->done) job->done(job->result);
        return;
    }
    const Array<ByteString> sent = more.continuationPoints;
    job->browseNext(std::move(more), job->timeoutMs, [job, next, sent](const ServiceResult<BrowseNextResponse>& r) {
        job->result.receivedAtNs = r.receivedAtNs;  // the arrival of the last response the result is made of
        auto& results = job->result.response.results;
        const bool usable = r.status.isGood() && r.response.results.size() == next.size();
        if (!usable) {
            // The nodes still open end with the failure; their ContinuationPoints are released.
            const StatusCode failure = r.status.isBad() ? r.status : status::BadUnknownResponse;
            for (std::size_t i : next) {
                results[i].statusCode = failure;
                results[i].continuationPoint = ByteString();
            }
            if (r.status != status::BadServerNotConnected && r.status != status::BadConnectionClosed) {
                BrowseNextRequest release;
                release.releaseContinuationPoints = true;
                release.continuationPoints = sent;
                job->browseNext(std::move(release), job->timeoutMs, {});
            }
            if (job->done) job->done(job->result);
            return;
        }
        for (std::size_t k = 0; k < next.size(); ++k) {
            BrowseResult& dst = results[next[k]];
            const BrowseResult& src = r.response.results[k];
            dst.statusCode = src.statusCode;
            for (const auto& ref : src.references) dst.references.push_back(ref);
            dst.continuationPoint = src.statusCode.isBad() ? ByteString() : src.continuationPoint;
        }
        continueBrowse(job);
    });
}

} // namespace

ServiceCallback<BrowseResponse> followContinuationPoints(BrowseOptions options, uint32_t timeoutMs, BrowseNextCall browseNext,
                                                         ServiceCallback<BrowseResponse> done) {
    auto job = std::make_shared<BrowseJob>();
    job->options = options;
    job->timeoutMs = timeoutMs;
    job->browseNext = std::move(browseNext);
    job->done = std::move(done);
    return [job](const ServiceResult<BrowseResponse>& r) {
        job->result = r;
        if (r.status.isBad()) {
            if (job->done) job->done(job->result);
            return;
        }
        continueBrowse(job);
    };
}

} // namespace ua
