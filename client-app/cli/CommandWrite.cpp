// ua-client write <url> <node> <value> [--type TYPE]: the value text parsed (ValueText parseValue)
// as the node's DataType and ValueRank (read first; DataTypes outside namespace 0 followed up to a
// built-in type), or as --type; then one Write of the Value attribute.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"

namespace ua::clientapp {

namespace {

void writeParsed(CliSession& s, const NodeArgument& node, const NodeId& id, BuiltInType type, int32_t valueRank) {
    const QString text = s.options().args[2];
    const app::ParseResult parsed = app::parseValue(text, type, valueRank);
    if (!parsed.ok())
        return s.fail(ExitUsage, QStringLiteral("%1 for %2: %3 (%4)").arg(text, node.text, parsed.error, app::statusName(parsed.status)));
    s.client().writeValue(id, parsed.value, &s, [&s, node, id, value = parsed.value](const ServiceResult<WriteResponse>& r) {
        if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("Write"), r.status);
        const StatusCode st = r.response.results.empty() ? StatusCode(status::BadUnexpectedError) : r.response.results[0];
        if (s.options().json)
            printJson({{"node", node.text}, {"nodeId", CliSession::nodeText(id)}, {"value", variantToJson(value)},
                       {"type", QLatin1String(builtInTypeName(value.type()))}, {"status", app::statusName(st)}});
        if (st.isBad()) return s.failStatus(ExitOperationFailed, QStringLiteral("write ") + node.text, st);
        s.finish(ExitOk);
    });
}

} // namespace

void runWrite(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    const auto node = parseNodeArgument(o.args[1], &error);
    if (!node) return s.fail(ExitUsage, error);
    if (o.type) {  // the text can be checked before connecting
        const app::ParseResult parsed = app::parseValue(o.args[2], *o.type, -2);
        if (!parsed.ok())
            return s.fail(ExitUsage, QStringLiteral("%1 for %2: %3 (%4)").arg(o.args[2], node->text, parsed.error, app::statusName(parsed.status)));
    }
    s.open([&s, node = *node] {
        s.resolve({node}, [&s, node](std::vector<NodeId> ids) {
            const NodeId id = ids.front();
            if (const auto type = s.options().type) return writeParsed(s, node, id, *type, -2);
            ReadRequest req;
            req.timestampsToReturn = TimestampsToReturn::Neither;
            ReadValueId dataType, valueRank;
            dataType.nodeId = valueRank.nodeId = id;
            dataType.attributeId = uint32_t(AttributeId::DataType);
            valueRank.attributeId = uint32_t(AttributeId::ValueRank);
            req.nodesToRead = Array<ReadValueId>({dataType, valueRank});
            s.client().read(std::move(req), &s, [&s, node, id](const ServiceResult<ReadResponse>& r) {
                if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("Read"), r.status);
                if (r.response.results.size() < 2) return s.failStatus(ExitOperationFailed, node.text, status::BadUnexpectedError);
                const DataValue& dt = r.response.results[0];
                if (dt.hasStatus && dt.status.isBad()) return s.failStatus(ExitOperationFailed, node.text, dt.status);
                const NodeId* dataType = dt.value.get<NodeId>();
                if (!dataType) return s.failStatus(ExitOperationFailed, node.text + QStringLiteral(" has no DataType"), status::BadAttributeIdInvalid);
                const int32_t* rank = r.response.results[1].value.get<int32_t>();
                const int32_t valueRank = rank ? *rank : -2;
                s.resolveBuiltInType(*dataType, [&s, node, id, valueRank, dataTypeId = *dataType](std::optional<BuiltInType> type) {
                    if (!type || *type == BuiltInType::Variant)  // a structure, or BaseDataType: any type
                        return s.fail(ExitUsage, QStringLiteral("%1: values of DataType %2 cannot be entered as text; give --type")
                                                     .arg(node.text, ns0Name(dataTypeId)));
                    writeParsed(s, node, id, *type, valueRank);
                });
            });
        });
    });
}

} // namespace ua::clientapp
