// ua-client call <url> <object> <method> [args...]: the Method's InputArguments and OutputArguments
// Properties are read first (TranslateBrowsePathsToNodeIds + Read); each argument text is parsed as
// its Argument's DataType and ValueRank (ValueText parseValue); then one Call (OPC 10000-4 5.11.2).
// Prints each output "<Name> = <value>"; a Bad inputArgumentResult is printed per argument.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"
#include "ua/client/browse/RelativePath.h"

#include <QJsonArray>

namespace ua::clientapp {

namespace {

struct CallRun {
    CliSession& s;
    NodeArgument object, method;
    NodeId objectId, methodId;
    std::vector<Argument> inputs, outputs;
    std::vector<BuiltInType> inputTypes;
    std::vector<Variant> values;
};

QString argumentShape(const Argument& a) {
    QString type = ns0Name(a.dataType);
    if (a.valueRank >= 1) for (int i = 0; i < a.valueRank; ++i) type += QStringLiteral("[]");
    return QStringLiteral("%1 (%2)").arg(a.name.toQString(), type);
}

std::vector<Argument> argumentsOf(const DataValue& dv) {
    std::vector<Argument> out;
    if (const auto* a = dv.value.get<Array<ExtensionObject>>()) {
        for (const ExtensionObject& x : *a)
            if (const Argument* arg = x.get<Argument>()) out.push_back(*arg);
    }
    return out;
}

void invoke(const std::shared_ptr<CallRun>& run) {
    CliSession& s = run->s;
    s.client().callMethod(run->objectId, run->methodId, run->values, &s, [run](const ServiceResult<CallResponse>& r) {
        CliSession& s = run->s;
        const QString what = QStringLiteral("call ") + run->method.text;
        if (!r.isGood()) return s.failStatus(ExitOperationFailed, what, r.status);
        if (r.response.results.empty()) return s.failStatus(ExitOperationFailed, what, status::BadUnexpectedError);
        const CallMethodResult& result = r.response.results[0];
        const auto name = [&](const std::vector<Argument>& args, std::size_t i, const char* fallback) {
            return i < args.size() ? args[i].name.toQString() : QStringLiteral("%1 %2").arg(QLatin1String(fallback)).arg(i + 1);
        };
        if (s.options().json) {
            QJsonArray inputResults, outputs;
            for (std::size_t i = 0; i < result.inputArgumentResults.size(); ++i)
                inputResults.append(QJsonObject{{"name", name(run->inputs, i, "argument")}, {"status", app::statusName(result.inputArgumentResults[i])}});
            for (std::size_t i = 0; i < result.outputArguments.size(); ++i)
                outputs.append(QJsonObject{{"name", name(run->outputs, i, "output")},
                                           {"value", variantToJson(result.outputArguments[i])},
                                           {"type", QLatin1String(builtInTypeName(result.outputArguments[i].type()))}});
            printJson({{"objectId", CliSession::nodeText(run->objectId)}, {"methodId", CliSession::nodeText(run->methodId)},
                       {"status", app::statusName(result.statusCode)}, {"inputArgumentResults", inputResults}, {"outputs", outputs}});
        } else {
            for (std::size_t i = 0; i < result.inputArgumentResults.size(); ++i)
                if (result.inputArgumentResults[i].isBad())
                    printError(QStringLiteral("ua-client: argument %1 %2: %3").arg(i + 1).arg(name(run->inputs, i, "argument"),
                                                                                    app::statusName(result.inputArgumentResults[i])));
            for (std::size_t i = 0; i < result.outputArguments.size(); ++i)
                printLine(name(run->outputs, i, "output") + QStringLiteral(" = ") + app::formatVariant(result.outputArguments[i]));
        }
        if (result.statusCode.isBad()) return s.failStatus(ExitOperationFailed, what, result.statusCode);
        s.finish(ExitOk);
    });
}

// Types of the inputs, one after the other (DataTypes outside namespace 0 need Browse).
void typeInputs(const std::shared_ptr<CallRun>& run, std::size_t i) {
    CliSession& s = run->s;
    if (i == run->inputs.size()) {
        const QStringList texts = s.options().args.mid(3);
        for (std::size_t k = 0; k < run->inputs.size(); ++k) {
            const app::ParseResult p = app::parseValue(texts[qsizetype(k)], run->inputTypes[k], run->inputs[k].valueRank);
            if (!p.ok())
                return s.fail(ExitUsage, QStringLiteral("argument %1 %2: %3 (%4)")
                                             .arg(k + 1).arg(argumentShape(run->inputs[k]), p.error, app::statusName(p.status)));
            run->values.push_back(p.value);
        }
        return invoke(run);
    }
    s.resolveBuiltInType(run->inputs[i].dataType, [run, i](std::optional<BuiltInType> t) {
        if (!t || *t == BuiltInType::Variant)
            return run->s.fail(ExitUsage, QStringLiteral("argument %1 %2 cannot be entered as text").arg(i + 1).arg(argumentShape(run->inputs[i])));
        run->inputTypes.push_back(*t);
        typeInputs(run, i + 1);
    });
}

} // namespace

void runCall(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    auto object = parseNodeArgument(o.args[1], &error);
    if (!object) return s.fail(ExitUsage, error);
    auto method = parseNodeArgument(o.args[2], &error);
    if (!method) return s.fail(ExitUsage, error);
    auto run = std::make_shared<CallRun>(CallRun{s, *object, *method, {}, {}, {}, {}, {}, {}});
    s.open([run] {
        run->s.resolve({run->object, run->method}, [run](std::vector<NodeId> ids) {
            run->objectId = ids[0];
            run->methodId = ids[1];
            std::vector<BrowsePath> paths = {*makeBrowsePath(run->methodId, ".InputArguments"),
                                             *makeBrowsePath(run->methodId, ".OutputArguments")};
            run->s.client().translateBrowsePaths(std::move(paths), &run->s, [run](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) {
                CliSession& s = run->s;
                if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("TranslateBrowsePathsToNodeIds"), r.status);
                // A Method without InputArguments takes none (Bad_NoMatch); its NodeId may also be wrong.
                std::vector<NodeId> properties;
                for (const BrowsePathResult& p : r.response.results) {
                    if (p.statusCode.isBad() && p.statusCode.base() != status::BadNoMatch.code)
                        return s.failStatus(ExitOperationFailed, run->method.text, p.statusCode);
                    properties.push_back(p.statusCode.isGood() && !p.targets.empty() ? p.targets[0].targetId.nodeId : NodeId());
                }
                properties.resize(2);
                std::vector<NodeId> toRead;
                for (const NodeId& id : properties)
                    if (!id.isNull()) toRead.push_back(id);
                auto haveArguments = [run, properties](const std::vector<DataValue>& values) {
                    std::size_t k = 0;
                    if (!properties[0].isNull()) run->inputs = argumentsOf(values[k++]);
                    if (!properties[1].isNull()) run->outputs = argumentsOf(values[k++]);
                    const qsizetype given = run->s.options().args.size() - 3;
                    if (given != qsizetype(run->inputs.size())) {
                        QStringList shapes;
                        for (const Argument& a : run->inputs) shapes << argumentShape(a);
                        return run->s.fail(ExitUsage, QStringLiteral("%1 takes %2 argument(s)%3, %4 given")
                                                          .arg(run->method.text).arg(run->inputs.size())
                                                          .arg(shapes.isEmpty() ? QString() : QStringLiteral(": ") + shapes.join(QStringLiteral(", ")))
                                                          .arg(given));
                    }
                    typeInputs(run, 0);
                };
                if (toRead.empty()) return haveArguments({});
                s.client().readValues(toRead, &s, [run, haveArguments, n = toRead.size()](const ServiceResult<ReadResponse>& rr) {
                    if (!rr.isGood()) return run->s.failStatus(ExitOperationFailed, QStringLiteral("Read"), rr.status);
                    if (rr.response.results.size() < n) return run->s.failStatus(ExitOperationFailed, QStringLiteral("Read"), status::BadUnexpectedError);
                    haveArguments(std::vector<DataValue>(rr.response.results.begin(), rr.response.results.end()));
                });
            });
        });
    });
}

} // namespace ua::clientapp
