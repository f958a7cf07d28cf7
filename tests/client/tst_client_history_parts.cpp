// The client's Historical Access parts without a server (ua/client/history/): the ContinuationPoint
// follower driven by a scripted HistoryRead (what each continuation and release request carries,
// maxValues, failures, Read Modified), the aggregate name table (against the server's list of the
// aggregates it computes), the historian bits' text, Read Processed's details and the HistoryUpdate
// request.
#include "ClientTestUtil.h"
#include "ua/client/history/AggregateNames.h"
#include "ua/client/history/HistorianBits.h"
#include "ua/client/history/HistoryContinuation.h"
#include "ua/client/history/HistoryUpdate.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/history/Aggregates.h"

#include <QtTest>
#include "TestMain.h"
#include <set>

using namespace ua;

namespace {

// A HistoryRead peer answering from a script: each call is recorded and answered at once by
// `answer` (given the call's index and request).
struct ScriptedHistory {
    std::vector<HistoryReadRequest> requests;
    std::vector<uint32_t> timeouts;
    std::function<ServiceResult<HistoryReadResponse>(std::size_t, const HistoryReadRequest&)> answer;

    HistoryReadCall call() {
        return [this](HistoryReadRequest&& req, uint32_t timeoutMs, ServiceCallback<HistoryReadResponse> done) {
            requests.push_back(req);
            timeouts.push_back(timeoutMs);
            const ServiceResult<HistoryReadResponse> r = answer(requests.size() - 1, requests.back());
            if (done) done(r);
        };
    }
    // Runs the first request through the follower; the HistoryValues it completes with.
    ServiceResult<HistoryValues> run(const HistoryReadRequest& first, HistoryReadOptions options) {
        std::optional<ServiceResult<HistoryValues>> out;
        int calls = 0;
        auto follow = followHistoryContinuationPoints(first, options, 777, call(), [&](const ServiceResult<HistoryValues>& r) {
            out = r;
            ++calls;
        });
        HistoryReadRequest sent = first;
        call()(std::move(sent), 777, follow);
        if (calls != 1) qWarning("done called %d times", calls);
        return out.value_or(ServiceResult<HistoryValues>{status::BadInternalError, {}, 0});
    }
};

DataValue historyValue(double v, int64_t ms) {
    DataValue d{Variant(v)};
    d.setSourceTimestamp(DateTime::fromUnixMs(ms));
    return d;
}

HistoryReadResult historyResult(StatusCode s, std::vector<double> values, const char* continuationPoint = nullptr) {
    HistoryReadResult r;
    r.statusCode = s;
    if (continuationPoint) r.continuationPoint = ByteString(continuationPoint);
    HistoryData h;
    h.dataValues = Array<DataValue>::emptyArray();
    for (double v : values) h.dataValues.push_back(historyValue(v, int64_t(v) * 100));
    r.historyData = ExtensionObject::make(std::move(h));
    return r;
}

ServiceResult<HistoryReadResponse> historyResponse(std::vector<HistoryReadResult> results) {
    ServiceResult<HistoryReadResponse> r;
    r.response.results = Array<HistoryReadResult>(std::move(results));
    return r;
}

std::vector<double> numbers(const HistoryNodeValues& n) {
    std::vector<double> out;
    for (const DataValue& d : n.values) out.push_back(d.value.get<double>() ? *d.value.get<double>() : -1);
    return out;
}

std::string pointOf(const HistoryReadValueId& v) { return v.continuationPoint.isEmpty() ? std::string() : std::string(v.continuationPoint.view()); }

HistoryReadRequest rawRequest(std::size_t nodes) {
    ReadRawModifiedDetails d;
    d.startTime = DateTime::fromUnixMs(0);
    d.endTime = DateTime::fromUnixMs(10000);
    d.numValuesPerNode = 2;
    std::vector<NodeId> ids;
    for (std::size_t i = 0; i < nodes; ++i) ids.push_back(NodeId(1, uint32_t(100 + i)));
    return makeHistoryReadRequest(ids, ExtensionObject::make(d), TimestampsToReturn::Source);
}

} // namespace

class TestClientHistoryParts : public QObject {
    Q_OBJECT
private slots:
    void followsContinuationPointsPerNode();
    void stopsAtMaxValuesAndReleases();
    void cutsReadProcessedAggregatesToTheOpenNodes();
    void failedContinuationKeepsValuesAndReleases();
    void lostConnectionReleasesNothing();
    void firstRequestFailures();
    void readModifiedKeepsModificationInfos();
    void aggregateNames();
    void historianBitsText();
    void processedDetails();
    void historyUpdateRequest();
};

void TestClientHistoryParts::followsContinuationPointsPerNode() {
    ScriptedHistory peer;
    // Node 0: three pages; node 1: one; node 2: Bad_NodeIdUnknown.
    peer.answer = [](std::size_t i, const HistoryReadRequest&) {
        if (i == 0)
            return historyResponse({historyResult(status::GoodMoreData, {1, 2}, "A1"), historyResult(status::Good, {7}),
                                    historyResult(status::BadNodeIdUnknown, {})});
        if (i == 1) return historyResponse({historyResult(status::GoodMoreData, {3, 4}, "A2")});
        return historyResponse({historyResult(status::Good, {5})});
    };
    const ServiceResult<HistoryValues> r = peer.run(rawRequest(3), {});
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.nodes.size(), std::size_t(3));
    QCOMPARE(numbers(r.response.nodes[0]), (std::vector<double>{1, 2, 3, 4, 5}));
    QCOMPARE(r.response.nodes[0].status, status::Good);
    QCOMPARE(r.response.nodes[0].requests, 3u);
    QCOMPARE(numbers(r.response.nodes[1]), std::vector<double>{7});
    QCOMPARE(r.response.nodes[1].requests, 1u);
    QCOMPARE(r.response.nodes[2].status, status::BadNodeIdUnknown);
    QVERIFY(r.response.nodes[2].values.empty());
    QCOMPARE(peer.requests.size(), std::size_t(3));
    // Each continuation: node 0 only, with its ContinuationPoint, the same details and timestamps.
    for (std::size_t i = 1; i < 3; ++i) {
        const HistoryReadRequest& q = peer.requests[i];
        QCOMPARE(q.nodesToRead.size(), std::size_t(1));
        QCOMPARE(q.nodesToRead[0].nodeId, NodeId(1, 100));
        QCOMPARE(pointOf(q.nodesToRead[0]), std::string(i == 1 ? "A1" : "A2"));
        QVERIFY(!q.releaseContinuationPoints);
        QCOMPARE(q.timestampsToReturn, TimestampsToReturn::Source);
        QVERIFY(q.historyReadDetails.get<ReadRawModifiedDetails>());
        QCOMPARE(q.historyReadDetails.get<ReadRawModifiedDetails>()->numValuesPerNode, 2u);
        QCOMPARE(peer.timeouts[i], 777u);
    }
}

void TestClientHistoryParts::stopsAtMaxValuesAndReleases() {
    ScriptedHistory peer;
    // Two nodes, pages of 3; maxValues 4: both stop in the second round, one exactly at its end.
    peer.answer = [](std::size_t i, const HistoryReadRequest& q) {
        if (q.releaseContinuationPoints) return historyResponse({HistoryReadResult{}, HistoryReadResult{}});
        if (i == 0) return historyResponse({historyResult(status::Good, {1, 2, 3}, "A1"), historyResult(status::Good, {1, 2, 3}, "B1")});
        return historyResponse({historyResult(status::Good, {4, 5, 6}, "A2"), historyResult(status::Good, {4})});
    };
    HistoryReadOptions options;
    options.maxValues = 4;
    const ServiceResult<HistoryValues> r = peer.run(rawRequest(2), options);
    QCOMPARE(numbers(r.response.nodes[0]), (std::vector<double>{1, 2, 3, 4}));
    QCOMPARE(r.response.nodes[0].status, status::GoodMoreData);  // values dropped, the rest left on the server
    QCOMPARE(numbers(r.response.nodes[1]), (std::vector<double>{1, 2, 3, 4}));
    QCOMPARE(r.response.nodes[1].status, status::Good);          // exactly every value there was
    QCOMPARE(peer.requests.size(), std::size_t(3));
    const HistoryReadRequest& release = peer.requests[2];
    QVERIFY(release.releaseContinuationPoints);
    QCOMPARE(release.nodesToRead.size(), std::size_t(1));
    QCOMPARE(release.nodesToRead[0].nodeId, NodeId(1, 100));
    QCOMPARE(pointOf(release.nodesToRead[0]), std::string("A2"));

    // A first answer already over the limit: cut, released at once, no continuation.
    ScriptedHistory once;
    once.answer = [](std::size_t, const HistoryReadRequest& q) {
        if (q.releaseContinuationPoints) return historyResponse({HistoryReadResult{}});
        return historyResponse({historyResult(status::GoodMoreData, {1, 2, 3}, "X")});
    };
    options.maxValues = 2;
    const ServiceResult<HistoryValues> cut = once.run(rawRequest(1), options);
    QCOMPARE(numbers(cut.response.nodes[0]), (std::vector<double>{1, 2}));
    QCOMPARE(cut.response.nodes[0].status, status::GoodMoreData);
    QCOMPARE(once.requests.size(), std::size_t(2));
    QVERIFY(once.requests[1].releaseContinuationPoints);
    QCOMPARE(pointOf(once.requests[1].nodesToRead[0]), std::string("X"));
    // Over the limit without a ContinuationPoint (numValuesPerNode 0): cut, nothing to release.
    ScriptedHistory all;
    all.answer = [](std::size_t, const HistoryReadRequest&) { return historyResponse({historyResult(status::Good, {1, 2, 3})}); };
    const ServiceResult<HistoryValues> dropped = all.run(rawRequest(1), options);
    QCOMPARE(numbers(dropped.response.nodes[0]), (std::vector<double>{1, 2}));
    QCOMPARE(dropped.response.nodes[0].status, status::GoodMoreData);
    QCOMPARE(all.requests.size(), std::size_t(1));
}

void TestClientHistoryParts::cutsReadProcessedAggregatesToTheOpenNodes() {
    HistoryProcessedRead p;
    p.startTime = DateTime::fromUnixMs(0);
    p.endTime = DateTime::fromUnixMs(100000);
    p.processingIntervalMs = 1;
    p.aggregateTypes = {NodeId(id::AggregateFunction_Count), NodeId(id::AggregateFunction_Minimum), NodeId(id::AggregateFunction_Maximum)};
    const HistoryReadRequest first = makeHistoryReadRequest({NodeId(1, 1), NodeId(1, 2), NodeId(1, 3)},
                                                            ExtensionObject::make(p.details(3)), TimestampsToReturn::Both);
    ScriptedHistory peer;
    peer.answer = [](std::size_t i, const HistoryReadRequest&) {
        if (i == 0)
            return historyResponse({historyResult(status::Good, {1}, "C"), historyResult(status::Good, {2}),
                                    historyResult(status::Good, {3}, "M")});
        return historyResponse({historyResult(status::Good, {4}), historyResult(status::Good, {5})});
    };
    const ServiceResult<HistoryValues> r = peer.run(first, {});
    QCOMPARE(numbers(r.response.nodes[0]), (std::vector<double>{1, 4}));
    QCOMPARE(numbers(r.response.nodes[2]), (std::vector<double>{3, 5}));
    QCOMPARE(peer.requests.size(), std::size_t(2));
    const ReadProcessedDetails* d = peer.requests[1].historyReadDetails.get<ReadProcessedDetails>();
    QVERIFY(d);
    QCOMPARE(d->aggregateType.size(), std::size_t(2));  // Count and Maximum: one per node still open
    QCOMPARE(d->aggregateType[0], NodeId(id::AggregateFunction_Count));
    QCOMPARE(d->aggregateType[1], NodeId(id::AggregateFunction_Maximum));
    QCOMPARE(d->processingInterval, 1.0);
    QVERIFY(d->aggregateConfiguration.useServerCapabilitiesDefaults);
}

void TestClientHistoryParts::failedContinuationKeepsValuesAndReleases() {
    ScriptedHistory peer;
    peer.answer = [](std::size_t i, const HistoryReadRequest& q) {
        if (q.releaseContinuationPoints) return historyResponse({HistoryReadResult{}});
        if (i == 0) return historyResponse({historyResult(status::Good, {1, 2}, "A1")});
        return ServiceResult<HistoryReadResponse>{status::BadTimeout, {}, 0};
    };
    const ServiceResult<HistoryValues> r = peer.run(rawRequest(1), {});
    QCOMPARE(r.status, status::Good);
    QCOMPARE(r.response.nodes[0].status, status::BadTimeout);
    QCOMPARE(numbers(r.response.nodes[0]), (std::vector<double>{1, 2}));
    QCOMPARE(peer.requests.size(), std::size_t(3));  // the continuation, then its release
    QVERIFY(peer.requests[2].releaseContinuationPoints);
    QCOMPARE(pointOf(peer.requests[2].nodesToRead[0]), std::string("A1"));

    // A continuation answered with another number of results: Bad_UnknownResponse.
    ScriptedHistory odd;
    odd.answer = [](std::size_t i, const HistoryReadRequest& q) {
        if (q.releaseContinuationPoints || i > 0) return historyResponse({});
        return historyResponse({historyResult(status::Good, {1}, "A1")});
    };
    QCOMPARE(odd.run(rawRequest(1), {}).response.nodes[0].status, status::BadUnknownResponse);
    // The node's own Bad status on a continuation (the ContinuationPoint was not valid any more).
    ScriptedHistory invalid;
    invalid.answer = [](std::size_t i, const HistoryReadRequest&) {
        if (i == 0) return historyResponse({historyResult(status::Good, {1}, "A1")});
        return historyResponse({historyResult(status::BadContinuationPointInvalid, {}, "ignored")});
    };
    const ServiceResult<HistoryValues> bad = invalid.run(rawRequest(1), {});
    QCOMPARE(bad.response.nodes[0].status, status::BadContinuationPointInvalid);
    QCOMPARE(numbers(bad.response.nodes[0]), std::vector<double>{1});
    QCOMPARE(invalid.requests.size(), std::size_t(2));  // a Bad result's ContinuationPoint is not followed
}

void TestClientHistoryParts::lostConnectionReleasesNothing() {
    ScriptedHistory peer;
    peer.answer = [](std::size_t i, const HistoryReadRequest&) {
        if (i == 0) return historyResponse({historyResult(status::Good, {1}, "A1")});
        return ServiceResult<HistoryReadResponse>{status::BadConnectionClosed, {}, 0};
    };
    const ServiceResult<HistoryValues> r = peer.run(rawRequest(1), {});
    QCOMPARE(r.response.nodes[0].status, status::BadConnectionClosed);
    QCOMPARE(peer.requests.size(), std::size_t(2));  // the server's ContinuationPoints went with the connection
}

void TestClientHistoryParts::firstRequestFailures() {
    ScriptedHistory fault;
    fault.answer = [](std::size_t, const HistoryReadRequest&) {
        return ServiceResult<HistoryReadResponse>{status::BadHistoryOperationUnsupported, {}, 0};
    };
    const ServiceResult<HistoryValues> r = fault.run(rawRequest(2), {});
    QCOMPARE(r.status, status::BadHistoryOperationUnsupported);
    QVERIFY(r.response.nodes.empty());
    ScriptedHistory count;
    count.answer = [](std::size_t, const HistoryReadRequest&) { return historyResponse({historyResult(status::Good, {1})}); };
    const ServiceResult<HistoryValues> c = count.run(rawRequest(2), {});
    QCOMPARE(c.status, status::BadUnknownResponse);
    QVERIFY(c.response.nodes.empty());
    // A body that is no HistoryData (an event read's HistoryEvent): the node's status says so.
    ScriptedHistory events;
    events.answer = [](std::size_t, const HistoryReadRequest&) {
        HistoryReadResult e;
        e.historyData = ExtensionObject::make(HistoryEvent{});
        return historyResponse({e});
    };
    QCOMPARE(events.run(rawRequest(1), {}).response.nodes[0].status, status::BadUnknownResponse);
}

void TestClientHistoryParts::readModifiedKeepsModificationInfos() {
    ScriptedHistory peer;
    peer.answer = [](std::size_t i, const HistoryReadRequest&) {
        HistoryReadResult r;
        HistoryModifiedData m;
        m.dataValues = Array<DataValue>{historyValue(double(i), 100)};
        ModificationInfo info;
        info.updateType = i == 0 ? HistoryUpdateType::Insert : HistoryUpdateType::Replace;
        info.userName = String("engineer");
        m.modificationInfos = Array<ModificationInfo>{info};
        r.historyData = ExtensionObject::make(std::move(m));
        if (i == 0) r.continuationPoint = ByteString("M1");
        return historyResponse({r});
    };
    const ServiceResult<HistoryValues> r = peer.run(rawRequest(1), {});
    const HistoryNodeValues& n = r.response.nodes[0];
    QCOMPARE(numbers(n), (std::vector<double>{0, 1}));
    QCOMPARE(n.modifications.size(), std::size_t(2));
    QCOMPARE(n.modifications[0].updateType, HistoryUpdateType::Insert);
    QCOMPARE(n.modifications[1].updateType, HistoryUpdateType::Replace);
    QCOMPARE(n.modifications[1].userName.str(), std::string("engineer"));
}

void TestClientHistoryParts::aggregateNames() {
    std::set<uint32_t> ids;
    std::set<std::string> names;
    for (const AggregateName& a : standardAggregates()) {
        QVERIFY2(ids.insert(a.id).second, a.name);
        QVERIFY2(names.insert(a.name).second, a.name);
        QCOMPARE(aggregateFromName(a.name), std::optional<NodeId>(NodeId(a.id)));
        QCOMPARE(std::string(aggregateNameOf(NodeId(a.id))), std::string(a.name));
    }
    QCOMPARE(ids.size(), std::size_t(37));
    QCOMPARE(aggregateFromName("average"), std::optional<NodeId>(NodeId(2342)));
    QCOMPARE(aggregateFromName("TIMEAVERAGE2"), std::optional<NodeId>(NodeId(11285)));
    QVERIFY(!aggregateFromName("Avg"));
    QVERIFY(!aggregateFromName(""));
    QVERIFY(!aggregateNameOf(NodeId(1, 2342)));
    QVERIFY(!aggregateNameOf(NodeId(85)));
    // Every aggregate our server computes has its name here, under the same NodeId.
    for (int a = int(history::Aggregate::Interpolative); a <= int(history::Aggregate::PercentBad); ++a) {
        const NodeId id = history::aggregateNodeId(history::Aggregate(a));
        QVERIFY2(aggregateNameOf(id), id.toString().c_str());
    }
}

void TestClientHistoryParts::historianBitsText() {
    QCOMPARE(historianInfo::bitsText(StatusCode(0)), std::string());
    QCOMPARE(historianInfo::bitsText(StatusCode(0x00000401u)), std::string("Calculated"));
    QCOMPARE(historianInfo::bitsText(StatusCode(0x00000406u)), std::string("Interpolated, Partial"));
    QCOMPARE(historianInfo::bitsText(StatusCode(0x40920418u)), std::string("ExtraData, MultiValue"));
    QCOMPARE(historianInfo::bitsText(StatusCode(0x00000001u)), std::string());  // InfoType not DataValue: no historian bits
    QCOMPARE(historianInfo::bitsOf(StatusCode(0x80000C05u)), 0u);
}

void TestClientHistoryParts::processedDetails() {
    HistoryProcessedRead p;
    p.startTime = DateTime::fromUnixMs(1000);
    p.endTime = DateTime::fromUnixMs(2000);
    p.processingIntervalMs = 250;
    p.aggregateTypes = {NodeId(id::AggregateFunction_Average)};
    ReadProcessedDetails d = p.details(3);
    QCOMPARE(d.aggregateType.size(), std::size_t(3));  // one given: every node
    for (const NodeId& a : d.aggregateType) QCOMPARE(a, NodeId(id::AggregateFunction_Average));
    QCOMPARE(d.processingInterval, 250.0);
    QCOMPARE(d.startTime, DateTime::fromUnixMs(1000));
    QVERIFY(d.aggregateConfiguration.useServerCapabilitiesDefaults);
    QCOMPARE(d.aggregateConfiguration.percentDataGood, uint8_t(100));
    QCOMPARE(d.aggregateConfiguration.percentDataBad, uint8_t(100));
    p.aggregateTypes = {NodeId(id::AggregateFunction_Minimum), NodeId(id::AggregateFunction_Maximum)};
    AggregateConfiguration own;
    own.percentDataGood = 80;
    own.percentDataBad = 20;
    p.aggregateConfiguration = own;
    d = p.details(3);
    QCOMPARE(d.aggregateType.size(), std::size_t(2));  // sent as given: the server answers Bad_AggregateListMismatch
    QVERIFY(!d.aggregateConfiguration.useServerCapabilitiesDefaults);
    QCOMPARE(d.aggregateConfiguration.percentDataGood, uint8_t(80));
}

void TestClientHistoryParts::historyUpdateRequest() {
    UpdateDataDetails insert;
    insert.nodeId = NodeId(2, 7);
    insert.performInsertReplace = PerformUpdateType::Insert;
    insert.updateValues = Array<DataValue>{historyValue(1, 100)};
    DeleteRawModifiedDetails del;
    del.nodeId = NodeId(2, 7);
    del.startTime = DateTime::fromUnixMs(0);
    del.endTime = DateTime::fromUnixMs(500);
    DeleteAtTimeDetails at;
    at.nodeId = NodeId(2, 8);
    at.reqTimes = Array<DateTime>{DateTime::fromUnixMs(100)};
    const HistoryUpdateRequest r = makeHistoryUpdateRequest({insert, del, at});
    QCOMPARE(r.historyUpdateDetails.size(), std::size_t(3));
    QVERIFY(r.historyUpdateDetails[0].get<UpdateDataDetails>() && *r.historyUpdateDetails[0].get<UpdateDataDetails>() == insert);
    QVERIFY(r.historyUpdateDetails[1].get<DeleteRawModifiedDetails>() && *r.historyUpdateDetails[1].get<DeleteRawModifiedDetails>() == del);
    QVERIFY(r.historyUpdateDetails[2].get<DeleteAtTimeDetails>() && *r.historyUpdateDetails[2].get<DeleteAtTimeDetails>() == at);
    QVERIFY(makeHistoryUpdateRequest({}).historyUpdateDetails.empty());
}

UA_TEST_GUILESS_MAIN(TestClientHistoryParts)
#include "tst_client_history_parts.moc"
