// ua-client history <url> <notifier> --events --from TIME [--to TIME] [--max N] [--page N] [--csv | --json]
// The events a notifier's history keeps (OPC 10000-4 5.11.3 with ReadEventDetails, OPC 10000-11
// 6.5.2): the BaseEventType fields Time, Severity, SourceName, EventType and Message of every event
// in the range, oldest first, every ContinuationPoint followed (--page events per request; --max
// stops early and releases the ContinuationPoint left). One line per event:
// "<time>  <severity>  <source name>  <event type>  <message>"; --csv the same with a header line;
// --json one document. Exit 0 when the read succeeded (Good_NoData: no lines, a note), 1 when the
// service or the operation failed (Bad_HistoryOperationUnsupported for a node that keeps no events;
// the events that came before are printed).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "core/HistoryText.h"
#include "ValueText.h"

#include "ua/encoding/generated/NodeIds.h"

#include <QJsonArray>
#include <algorithm>
#include <memory>

namespace ua::clientapp {

namespace {

// The text of one field as the line shows it.
QString fieldText(const Variant& v) {
    if (const DateTime* t = v.get<DateTime>()) return historyTimeText(*t);
    if (const LocalizedText* l = v.get<LocalizedText>()) return l->text.toQString();
    if (const NodeId* n = v.get<NodeId>()) return CliSession::nodeText(*n);
    return v.isNull() ? QString() : app::formatVariant(v);
}

struct EventReadState {
    NodeArgument node;
    NodeId id;
    std::vector<QStringList> events;  // the fields of each, as text
    StatusCode status;
    uint32_t requests = 0;
};

void printEvents(CliSession& s, const EventReadState& st) {
    const CliOptions& o = s.options();
    if (o.json) {
        QJsonArray events;
        for (const QStringList& e : st.events) {
            QJsonObject x;
            for (int i = 0; i < e.size(); ++i) x.insert(QString::fromLatin1(kHistoryEventFields[i]).replace(0, 1, QChar(kHistoryEventFields[i][0]).toLower()), e[i]);
            events.append(x);
        }
        printJson(QJsonObject{{QStringLiteral("node"), st.node.text},
                              {QStringLiteral("nodeId"), CliSession::nodeText(st.id)},
                              {QStringLiteral("status"), app::statusName(st.status)},
                              {QStringLiteral("requests"), double(st.requests)},
                              {QStringLiteral("events"), events}});
    } else {
        if (o.csv) printLine(QStringLiteral("time,severity,sourceName,eventType,message"));
        for (QStringList e : st.events) {
            if (o.csv) {
                for (QString& f : e) f = csvField(f);
                printLine(e.join(QLatin1Char(',')));
            } else {
                printLine(e.join(QStringLiteral("  ")));
            }
        }
    }
}

void finishEvents(CliSession& s, const EventReadState& st) {
    printEvents(s, st);
    const CliOptions& o = s.options();
    if (st.status.isBad()) return s.failStatus(ExitOperationFailed, st.node.text, st.status);
    if (st.status.base() == status::GoodMoreData.code && o.maxValues)
        printError(QStringLiteral("ua-client: %1: stopped at --max %2 events; the server has more (Good_MoreData)").arg(st.node.text).arg(o.maxValues));
    else if (st.events.empty())
        printError(QStringLiteral("ua-client: %1: no events (Good_NoData)").arg(st.node.text));
    s.finish(ExitOk);
}

HistoryReadRequest eventRequest(const CliOptions& o, const NodeId& id, const ByteString& continuationPoint, uint32_t perRequest, bool release) {
    return historyEventRequest(id, o.from, o.to, perRequest, continuationPoint, release);
}

void readEvents(CliSession& s, std::shared_ptr<EventReadState> st, ByteString continuationPoint) {
    const CliOptions& o = s.options();
    const uint64_t left = o.maxValues ? o.maxValues - st->events.size() : 0;
    const uint32_t perRequest = o.maxValues ? uint32_t(std::min<uint64_t>(left, o.valuesPerRequest)) : o.valuesPerRequest;
    ++st->requests;
    s.client().call<HistoryReadRequest, HistoryReadResponse>(
        eventRequest(o, st->id, continuationPoint, perRequest, false), &s, [&s, st](const ServiceResult<HistoryReadResponse>& r) {
            if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("HistoryRead of %1").arg(st->node.text), r.status);
            if (r.response.results.size() != 1) return s.failStatus(ExitOperationFailed, st->node.text, status::BadUnknownResponse);
            const HistoryReadResult& result = r.response.results[0];
            st->status = result.statusCode;
            if (const HistoryEvent* h = result.historyData.get<HistoryEvent>())
                for (const HistoryEventFieldList& e : h->events) {
                    QStringList fields;
                    for (std::size_t i = 0; i < std::size(kHistoryEventFields); ++i)
                        fields << (i < e.eventFields.size() ? fieldText(e.eventFields[i]) : QString());
                    st->events.push_back(std::move(fields));
                }
            const CliOptions& opts = s.options();
            if (result.statusCode.isBad() || result.continuationPoint.isEmpty()) return finishEvents(s, *st);
            if (!opts.maxValues || st->events.size() < opts.maxValues) return readEvents(s, st, result.continuationPoint);
            // --max reached with more on the server: release the ContinuationPoint, then print.
            st->status = status::GoodMoreData;
            s.client().call<HistoryReadRequest, HistoryReadResponse>(
                eventRequest(opts, st->id, result.continuationPoint, 0, true), &s,
                [&s, st](const ServiceResult<HistoryReadResponse>&) { finishEvents(s, *st); });
        });
}

} // namespace

void runHistoryEvents(CliSession& s, const NodeArgument& node, const NodeId& id) {
    auto st = std::make_shared<EventReadState>();
    st->node = node;
    st->id = id;
    readEvents(s, st, ByteString());
}

} // namespace ua::clientapp
