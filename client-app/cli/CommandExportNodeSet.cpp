// ua-client export-nodeset <url> <namespace-uri> <file>: the nodes of one namespace of the server
// as a NodeSet2 file (as UaExpert's XML Nodeset Export; issue 29 item 5): read with
// core/NodeSetCrawler.h, written with ua::exportNodeSet(). Prints the counts; values that cannot be
// written are listed on stderr (the nodes are written without them).
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "core/NodeSetCrawler.h"
#include "ua/server/nodeset/NodeSetExporter.h"

#include <QSaveFile>

namespace ua::clientapp {

void runExportNodeSet(CliSession& s) {
    s.open([&s] {
        auto* crawler = new NodeSetCrawler(s.client(), s.options().args[1], &s);
        QObject::connect(crawler, &NodeSetCrawler::finished, &s, [&s, crawler](StatusCode st, const QString& what) {
            if (st.isBad()) return s.failStatus(ExitOperationFailed, what, st);
            const NodeSetExport x = exportNodeSet(crawler->space(), {crawler->namespaceIndex()});
            const QString path = s.options().args[2];
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(x.xml) != x.xml.size() || !file.commit())
                return s.fail(ExitOperationFailed, QStringLiteral("%1: %2").arg(path, file.errorString()));
            for (const QString& e : x.errors) printError(e);
            if (s.options().json)
                printJson({{"file", path}, {"nodes", qint64(x.nodes)}, {"references", qint64(x.references)},
                           {"valuesNotWritten", qint64(x.errors.size())}});
            else
                printLine(QStringLiteral("%1 nodes and %2 references written to %3").arg(x.nodes).arg(x.references).arg(path));
            s.finish(ExitOk);
        });
        crawler->start();
    });
}

} // namespace ua::clientapp
