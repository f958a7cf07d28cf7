// ua-client history <url> <node> --from TIME [--to TIME] [--max N] [--page N] [--bounds] [--modified]
//                   [--aggregate NAME [--interval MS]] | --at TIME,...  [--csv | --json]
// (--events: a notifier's events, CommandHistoryEvents.cpp)
// One node's history (OPC 10000-4 5.11.3, OPC 10000-11 6.5): Read Raw, Read Modified (--modified),
// Read Processed (--aggregate) or Read At Time (--at), every ContinuationPoint followed (--max stops
// early and releases it). One line per value: "<source timestamp>  <value>  <status>" (the server
// timestamp when there is no source timestamp; the status with its historian bits, "Good
// (Calculated)"), with --modified "  <update type>  <modification time>  <user>" after it; --csv the
// same as CSV with a header line; --json one document.
// Exit 0 when the read succeeded (Good_NoData: no lines, a note on stderr; stopped at --max: a note),
// 1 when the service or the node's operation failed (the values that came before are printed).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "core/HistoryText.h"
#include "ValueText.h"
#include "ua/client/history/AggregateNames.h"

#include <QJsonArray>
#include <algorithm>

namespace ua::clientapp {

namespace {

QString valueTime(const DataValue& dv) {
    return historyTimeText(historyValueTime(dv));
}

QStringList modificationFields(const ModificationInfo& m) {
    const char* type = enumName(m.updateType);
    return {type && *type ? QLatin1String(type) : QString::number(int32_t(m.updateType)), timestampText(m.modificationTime),
            m.userName.toQString()};
}

void printHistory(CliSession& s, const NodeArgument& node, const NodeId& id, const ServiceResult<HistoryValues>& r) {
    const CliOptions& o = s.options();
    if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("HistoryRead of %1").arg(node.text), r.status);
    if (r.response.nodes.size() != 1) return s.failStatus(ExitOperationFailed, node.text, status::BadUnknownResponse);
    const HistoryNodeValues& h = r.response.nodes.front();
    const bool modified = o.modified && o.at.empty();
    if (o.json) {
        QJsonArray values;
        for (std::size_t i = 0; i < h.values.size(); ++i) {
            QJsonObject v = dataValueToJson(h.values[i]);
            v.insert(QStringLiteral("status"), historyStatusText(h.values[i].hasStatus ? h.values[i].status : StatusCode()));
            if (i < h.modifications.size()) {
                const QStringList m = modificationFields(h.modifications[i]);
                v.insert(QStringLiteral("updateType"), m[0]);
                v.insert(QStringLiteral("modificationTime"), m[1]);
                v.insert(QStringLiteral("userName"), m[2]);
            }
            values.append(v);
        }
        QJsonObject doc{{QStringLiteral("node"), node.text},
                        {QStringLiteral("nodeId"), CliSession::nodeText(id)},
                        {QStringLiteral("status"), app::statusName(h.status)},
                        {QStringLiteral("requests"), double(h.requests)},
                        {QStringLiteral("values"), values}};
        if (o.aggregate) {
            const char* name = aggregateNameOf(*o.aggregate);
            doc.insert(QStringLiteral("aggregate"), name ? QLatin1String(name) : o.aggregateText);
            doc.insert(QStringLiteral("processingInterval"), o.processingIntervalMs);
        }
        printJson(doc);
    } else {
        if (o.csv) {
            printLine(modified ? QStringLiteral("sourceTimestamp,value,status,updateType,modificationTime,userName")
                               : QStringLiteral("sourceTimestamp,value,status"));
        }
        for (std::size_t i = 0; i < h.values.size(); ++i) {
            const DataValue& dv = h.values[i];
            QStringList fields = {valueTime(dv), dv.hasValue ? app::formatVariant(dv.value) : QString(),
                                  historyStatusText(dv.hasStatus ? dv.status : StatusCode())};
            if (modified && i < h.modifications.size()) fields += modificationFields(h.modifications[i]);
            if (o.csv) {
                for (QString& f : fields) f = csvField(f);
                printLine(fields.join(QLatin1Char(',')));
            } else {
                printLine(fields.join(QStringLiteral("  ")));
            }
        }
    }
    if (h.status.isBad()) return s.failStatus(ExitOperationFailed, node.text, h.status);
    if (h.status.base() == status::GoodMoreData.code && o.maxValues)
        printError(QStringLiteral("ua-client: %1: stopped at --max %2 values; the server has more (Good_MoreData)").arg(node.text).arg(o.maxValues));
    else if (h.status.base() == status::GoodNoData.code)
        printError(QStringLiteral("ua-client: %1: no values (Good_NoData)").arg(node.text));
    s.finish(ExitOk);
}

} // namespace

void runHistory(CliSession& s) {
    QString error;
    const auto parsed = parseNodeArgument(s.options().args[1], &error);
    if (!parsed) return s.fail(ExitUsage, error);
    const NodeArgument node = *parsed;
    s.open([&s, node] {
        s.resolve({node}, [&s, node](std::vector<NodeId> ids) {
            const CliOptions& o = s.options();
            const NodeId id = ids.front();
            if (o.events) return runHistoryEvents(s, node, id);
            HistoryReadOptions options;
            options.maxValues = o.maxValues;
            options.timestampsToReturn = TimestampsToReturn::Both;
            auto done = [&s, node, id](const ServiceResult<HistoryValues>& r) { printHistory(s, node, id, r); };
            if (!o.at.empty()) {
                ReadAtTimeDetails d;
                d.reqTimes = Array<DateTime>(o.at);
                d.useSimpleBounds = false;  // interpolated bounding values, as the Interpolative aggregate
                return s.client().historyReadAtTime({id}, d, options, &s, done);
            }
            if (o.aggregate) {
                HistoryProcessedRead p;
                p.startTime = o.from;
                p.endTime = o.to;
                p.processingIntervalMs = o.processingIntervalMs;
                p.aggregateTypes = {*o.aggregate};
                return s.client().historyReadProcessed({id}, p, options, &s, done);
            }
            ReadRawModifiedDetails d;
            d.isReadModified = o.modified;
            d.startTime = o.from;
            d.endTime = o.to;
            // No more per request than --max asks for in all.
            d.numValuesPerNode = o.maxValues ? uint32_t(std::min<uint64_t>(o.maxValues, o.valuesPerRequest)) : o.valuesPerRequest;
            d.returnBounds = o.bounds;
            s.client().historyReadRaw({id}, d, options, &s, done);
        });
    });
}

} // namespace ua::clientapp
