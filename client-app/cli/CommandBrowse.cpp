// ua-client browse <url> [node]: the node's forward references (every ReferenceType), with
// DisplayName, NodeClass, NodeId and ReferenceType; ContinuationPoints are followed (Client::browse).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QJsonArray>

namespace ua::clientapp {

void runBrowse(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    const auto node = parseNodeArgument(o.args.size() > 1 ? o.args[1] : QStringLiteral("i=85"), &error);
    if (!node) return s.fail(ExitUsage, error);
    s.open([&s, node = *node] {
        s.resolve({node}, [&s, text = node.text](std::vector<NodeId> ids) {
            BrowseRequest req;
            BrowseDescription d;
            d.nodeId = ids.front();
            d.browseDirection = BrowseDirection::Forward;
            d.includeSubtypes = true;   // referenceTypeId null: every ReferenceType
            d.nodeClassMask = 0;
            d.resultMask = 0x3F;        // BrowseResultMask All
            req.nodesToBrowse = Array<BrowseDescription>({d});
            s.client().browse(std::move(req), BrowseOptions{}, &s, [&s, text, id = ids.front()](const ServiceResult<BrowseResponse>& r) {
                if (!r.isGood()) return s.failStatus(ExitOperationFailed, QStringLiteral("browse ") + text, r.status);
                if (r.response.results.empty()) return s.failStatus(ExitOperationFailed, QStringLiteral("browse ") + text, status::BadUnexpectedError);
                const BrowseResult& result = r.response.results[0];
                if (result.statusCode.isBad()) return s.failStatus(ExitOperationFailed, text, result.statusCode);
                struct Row {
                    QString displayName, nodeClass, nodeId, referenceType, browseName, typeDefinition;
                };
                std::vector<Row> rows;
                for (const ReferenceDescription& ref : result.references) {
                    const char* nc = enumName(ref.nodeClass);
                    rows.push_back({ref.displayName.text.toQString(), nc ? QLatin1String(nc) : QString::number(int(ref.nodeClass)),
                                    QString::fromStdString(ref.nodeId.toString()), ns0Name(ref.referenceTypeId),
                                    QString::fromStdString(ref.browseName.toString()),
                                    ref.typeDefinition.nodeId.isNull() ? QString() : QString::fromStdString(ref.typeDefinition.toString())});
                }
                if (s.options().json) {
                    QJsonArray refs;
                    for (const Row& row : rows) {
                        QJsonObject j{{"displayName", row.displayName}, {"nodeClass", row.nodeClass}, {"nodeId", row.nodeId},
                                      {"referenceType", row.referenceType}, {"browseName", row.browseName}};
                        if (!row.typeDefinition.isEmpty()) j.insert(QStringLiteral("typeDefinition"), row.typeDefinition);
                        refs.append(j);
                    }
                    printJson({{"nodeId", CliSession::nodeText(id)}, {"references", refs}});
                } else {
                    qsizetype w0 = 0, w1 = 0, w2 = 0;
                    for (const Row& row : rows) {
                        w0 = std::max(w0, row.displayName.size());
                        w1 = std::max(w1, row.nodeClass.size());
                        w2 = std::max(w2, row.nodeId.size());
                    }
                    for (const Row& row : rows)
                        printLine(row.displayName.leftJustified(w0) + QStringLiteral("  ") + row.nodeClass.leftJustified(w1) +
                                  QStringLiteral("  ") + row.nodeId.leftJustified(w2) + QStringLiteral("  ") + row.referenceType);
                }
                s.finish(ExitOk);
            });
        });
    });
}

} // namespace ua::clientapp
