// ua-client read <url> <node>... [--attribute NAME]: one Read of the attribute of every node (split
// by the server's MaxNodesPerRead when it refuses the whole with Bad_TooManyOperations).
// Text: the value alone for one node, "<node>  <value>" lines for several; a Bad status goes to
// stderr with the node ("<node>: Bad_NodeIdUnknown") and the exit code is 1.
// A structure of the server's own DataTypes (an opaque Binary ExtensionObject) is printed field by
// field, one "<field path> = <value>" line each (indented under "<node>  <type>" for several
// nodes), after its DataTypeDefinition (or DataTypeDictionary) is read (ua/client/DataTypeCache.h);
// --json adds "fields": {path: text}.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "StructureText.h"
#include "ValueText.h"
#include "ua/client/DataTypeCache.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QJsonArray>
#include <algorithm>
#include <functional>
#include <memory>

namespace ua::clientapp {

namespace {

// NodeClass values by name; the rest through ValueText.
QString attributeText(uint32_t attributeId, const DataValue& dv) {
    if (attributeId == uint32_t(AttributeId::NodeClass)) {
        if (const int32_t* v = dv.value.get<int32_t>()) {
            const char* name = enumName(NodeClass(*v));
            if (name && *name) return QLatin1String(name);
        }
    }
    if (attributeId == uint32_t(AttributeId::DataType)) {
        if (const NodeId* t = dv.value.get<NodeId>()) {
            const QString name = ns0Name(*t);
            const QString id = QString::fromStdString(t->toString());
            return name == id ? id : id + QStringLiteral(" (") + name + QLatin1Char(')');
        }
    }
    return app::formatVariant(dv.value);
}

using ReadDone = std::function<void(const ServiceResult<ReadResponse>&)>;

// Reads items[from..] in requests of at most `limit` nodes, one after the other, appending to out.
void readBatches(CliSession& s, std::shared_ptr<std::vector<ReadValueId>> items, std::size_t from, uint32_t limit,
                 std::shared_ptr<ServiceResult<ReadResponse>> out, ReadDone done) {
    if (from >= items->size()) return done(*out);
    ReadRequest req;
    req.maxAge = 0;
    req.timestampsToReturn = TimestampsToReturn::Both;
    const std::size_t end = std::min(items->size(), from + limit);
    Array<ReadValueId> part = Array<ReadValueId>::emptyArray();
    for (std::size_t i = from; i < end; ++i) part.push_back((*items)[i]);
    req.nodesToRead = std::move(part);
    s.client().read(std::move(req), &s, [&s, items, end, limit, out, done](const ServiceResult<ReadResponse>& r) {
        if (!r.isGood()) return done(r);
        for (const DataValue& dv : r.response.results) out->response.results.push_back(dv);
        readBatches(s, items, end, limit, out, done);
    });
}

// One Read of every item; when the server refuses it as a whole with Bad_TooManyOperations, the
// items are read again in requests of its OperationLimits.MaxNodesPerRead (OPC 10000-5 6.3.11).
void readAll(CliSession& s, std::vector<ReadValueId> items, ReadDone done) {
    auto all = std::make_shared<std::vector<ReadValueId>>(std::move(items));
    ReadRequest req;
    req.maxAge = 0;
    req.timestampsToReturn = TimestampsToReturn::Both;
    Array<ReadValueId> first = Array<ReadValueId>::emptyArray();
    for (const ReadValueId& r : *all) first.push_back(r);
    req.nodesToRead = std::move(first);
    s.client().read(std::move(req), &s, [&s, all, done](const ServiceResult<ReadResponse>& r) {
        if (r.status != status::BadTooManyOperations) return done(r);
        s.client().readValues({NodeId(id::Server_ServerCapabilities_OperationLimits_MaxNodesPerRead)}, &s,
                              [&s, all, done, r](const ServiceResult<ReadResponse>& limitRead) {
            const uint32_t* limit = limitRead.isGood() && !limitRead.response.results.empty()
                                        ? limitRead.response.results[0].value.get<uint32_t>() : nullptr;
            if (!limit || *limit == 0 || *limit >= all->size()) return done(r);  // no usable limit: the refusal stands
            auto out = std::make_shared<ServiceResult<ReadResponse>>();
            out->response.results = Array<DataValue>::emptyArray();
            readBatches(s, all, 0, *limit, out, done);
        });
    });
}

} // namespace

void runRead(CliSession& s) {
    const CliOptions& o = s.options();
    std::vector<NodeArgument> nodes;
    for (qsizetype i = 1; i < o.args.size(); ++i) {
        QString error;
        auto n = parseNodeArgument(o.args[i], &error);
        if (!n) return s.fail(ExitUsage, error);
        nodes.push_back(std::move(*n));
    }
    s.open([&s, nodes] {
        s.resolve(nodes, [&s, nodes](std::vector<NodeId> ids) {
            std::vector<ReadValueId> items;
            for (const NodeId& id : ids) {
                ReadValueId r;
                r.nodeId = id;
                r.attributeId = s.options().attributeId;
                items.push_back(std::move(r));
            }
            readAll(s, std::move(items), [&s, nodes, ids](const ServiceResult<ReadResponse>& read) {
                if (!read.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("Read"), read.status);
                // The custom structures' DataTypes first (nothing is read when there is none).
                auto* types = new DataTypeCache(&s.client(), &s);
                Array<Variant> values = Array<Variant>::emptyArray();
                for (const DataValue& dv : read.response.results) values.push_back(dv.value);
                types->load(Variant(std::move(values)), [&s, nodes, ids, read, types] {
                const ServiceResult<ReadResponse>& r = read;
                const uint32_t attributeId = s.options().attributeId;
                const bool one = nodes.size() == 1;
                int code = ExitOk;
                QJsonArray results;
                for (std::size_t i = 0; i < nodes.size(); ++i) {
                    DataValue dv;
                    if (i < r.response.results.size()) dv = r.response.results[i];
                    else dv.setStatus(status::BadUnexpectedError);
                    const StatusCode st = dv.hasStatus ? dv.status : StatusCode();
                    if (st.isBad()) code = ExitOperationFailed;
                    const ExtensionObject* object = dv.value.get<ExtensionObject>();
                    QString whyNot;
                    const std::optional<DynamicValue> structure = object && object->encoding() == ExtensionObject::Encoding::Binary &&
                                                                          !object->isDecoded()
                                                                      ? types->decode(*object, &whyNot) : std::nullopt;
                    if (s.options().json) {
                        QJsonObject j = dataValueToJson(dv);
                        j.insert(QStringLiteral("node"), nodes[i].text);
                        j.insert(QStringLiteral("nodeId"), CliSession::nodeText(ids[i]));
                        j.insert(QStringLiteral("attribute"), attributeName(attributeId));
                        j.insert(QStringLiteral("text"), structure ? app::formatDynamicValue(*structure, 0) : attributeText(attributeId, dv));
                        if (structure) {
                            QJsonObject fields;
                            for (const QString& line : app::dynamicValueLines(*structure)) {
                                const qsizetype eq = line.indexOf(QStringLiteral(" = "));
                                fields.insert(line.left(eq), line.mid(eq + 3));
                            }
                            j.insert(QStringLiteral("dataType"), structure->typeName);
                            j.insert(QStringLiteral("fields"), fields);
                        }
                        results.append(j);
                        continue;
                    }
                    if (structure && !st.isBad()) {
                        const QStringList lines = app::dynamicValueLines(*structure);
                        if (!one) printLine(nodes[i].text + QStringLiteral("  ") + structure->typeName);
                        for (const QString& line : lines) printLine(one ? line : QStringLiteral("  ") + line);
                        continue;
                    }
                    if (object && !whyNot.isEmpty() && object->encoding() == ExtensionObject::Encoding::Binary && !object->isDecoded())
                        printError(QStringLiteral("ua-client: %1: the structure cannot be decoded: %2").arg(nodes[i].text, whyNot));
                    if (st.isBad()) {
                        const QString description = QString::fromUtf8(st.description());
                        printError(QStringLiteral("ua-client: %1: %2%3").arg(nodes[i].text, app::statusName(st),
                                   description.isEmpty() ? QString() : QStringLiteral(" (") + description + QLatin1Char(')')));
                        continue;
                    }
                    QString text = attributeText(attributeId, dv);
                    if (st.isUncertain()) text += QStringLiteral("  (") + app::statusName(st) + QLatin1Char(')');
                    printLine(one ? text : nodes[i].text + QStringLiteral("  ") + text);
                }
                if (s.options().json) printJson({{"results", results}});
                s.finish(code);
                });
            });
        });
    });
}

} // namespace ua::clientapp
