// NodeSet2 import at scale (issue 29 item 6; docs/Benchmarks.md "NodeSet2 import"):
//   bench_nodeset_import FILE [ADDNODES]
// FILE from tools/generate_large_nodeset.py. Reports what tokenizing alone costs (QXmlStreamReader and
// expat, the floors), the time to read the file (expat into element trees, in parts on every core:
// NodeSetDocument::load) and to import it into an address space holding namespace 0, nodes per second for
// both together, the resident memory per imported node once the file's trees are freed, and the
// time of one AddNodes (the NodeManagement handler on a SharedAddressSpace) into that address space,
// of a folder and of a variable: median of ADDNODES requests each (default 20). The heap policy is
// ua-server's (app-common/AllocatorPolicy.h). Not a timed test: ctest runs a small file once.
#include "AllocatorPolicy.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/services/NodeManagementService.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QXmlStreamReader>

#include <expat.h>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <unistd.h>

using namespace ua;

namespace {
// CPU seconds of the whole process (all threads): on a noisy machine steadier than the wall time.
double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

double residentMb() {
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? parts[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}
} // namespace

int main(int argc, char** argv) {
    ua::app::keepLargeBlocksOutOfTheHeap();  // as ua-server does (AllocatorPolicy.h)
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_nodeset_import FILE [ADDNODES]\n");
        return 2;
    }
    const int addNodes = argc > 2 ? std::max(1, atoi(argv[2])) : 20;
    AddressSpace space;
    Ns0NodeManager ns0;
    if (ns0.install(space).isBad()) return 1;
    const std::size_t ns0Nodes = space.size();
    malloc_trim(0);
    const double rssNs0 = residentMb();
    const std::size_t heapNs0 = mallinfo2().uordblks;

    // The floor under any importer built on Qt's XML parser: QXmlStreamReader tokenizing the file
    // (already in memory) and nothing else.
    QElapsedTimer t;
    qint64 tokenizeMs = 0;
    qint64 expatMs = 0;
    long expatElements = 0;
    if (!qEnvironmentVariableIsSet("UA_BENCH_SKIP_FLOORS")) {  // set: a profile of the import alone
        QFile file(QString::fromLocal8Bit(argv[1]));
        if (!file.open(QIODevice::ReadOnly)) return 1;
        const QByteArray bytes = file.readAll();
        t.start();
        QXmlStreamReader tokens(bytes);
        long elements = 0;
        while (!tokens.atEnd())
            if (tokens.readNext() == QXmlStreamReader::StartElement) ++elements;
        tokenizeMs = t.elapsed();
        if (tokens.hasError() || elements == 0) return 1;
        // expat's floor, the parser the importer uses (ua/server/nodeset/XmlTreeReader.h).
        t.restart();
        XML_Parser parser = XML_ParserCreateNS(nullptr, '\x01');
        XML_SetUserData(parser, &expatElements);
        XML_SetStartElementHandler(parser, [](void* count, const XML_Char*, const XML_Char**) { ++*static_cast<long*>(count); });
        const bool parsed = XML_Parse(parser, bytes.constData(), int(bytes.size()), 1) == XML_STATUS_OK;
        XML_ParserFree(parser);
        expatMs = t.elapsed();
        if (!parsed || expatElements != elements) return 1;
    }
    t.restart();
    const double cpuReadStart = cpuSeconds();
    QString error;
    std::vector<NodeSetDocument> docs;
    {
        auto doc = NodeSetDocument::load(QString::fromLocal8Bit(argv[1]), &error);
        if (!doc) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        docs.push_back(std::move(*doc));
    }
    const qint64 readMs = t.elapsed();
    const double cpuRead = cpuSeconds() - cpuReadStart;
    const double rssRead = residentMb();
    t.restart();
    const double cpuImportStart = cpuSeconds();
    const NodeSetImportResult r = importNodeSets(space, docs);
    const qint64 importMs = t.elapsed();
    const double cpuImport = cpuSeconds() - cpuImportStart;
    if (!r.ok()) {
        for (std::size_t i = 0; i < std::min<std::size_t>(5, r.errors.size()); ++i) std::fprintf(stderr, "%s\n", qPrintable(r.errors[i].toString()));
        return 1;
    }
    docs.clear();
    docs.shrink_to_fit();
    malloc_trim(0);  // the freed element trees back to the system: what stays is the address space
    const double rssSpace = residentMb();
    const std::size_t heapSpace = mallinfo2().uordblks;  // malloc's bytes in use (RSS less its free holes)
    const std::size_t nodes = space.size() - ns0Nodes;
    std::printf("nodes imported            %zu (%zu references)\n", nodes, r.references);
    std::printf("tokenize only, Qt ms      %lld (QXmlStreamReader alone: %.0f nodes/s at most)\n", tokenizeMs,
                double(nodes) / (double(std::max<qint64>(1, tokenizeMs)) / 1000.0));
    std::printf("tokenize only, expat ms   %lld (%.0f nodes/s at most)\n", expatMs,
                double(nodes) / (double(std::max<qint64>(1, expatMs)) / 1000.0));
    std::printf("read (parse) ms           %lld (CPU %.0f ms)\n", readMs, cpuRead * 1000.0);
    std::printf("import (insert) ms        %lld (CPU %.0f ms)\n", importMs, cpuImport * 1000.0);
    std::printf("nodes/s (read + import)   %.0f\n", double(nodes) / (double(readMs + importMs) / 1000.0));
    std::printf("RSS MB ns0 / read / done  %.0f / %.0f / %.0f\n", rssNs0, rssRead, rssSpace);
    std::printf("bytes per node            %.0f\n", (rssSpace - rssNs0) * 1024.0 * 1024.0 / double(nodes));
    std::printf("heap in use per node      %.0f (malloc's bytes in use; the rest of the RSS is free holes)\n",
                double(heapSpace - heapNs0) / double(nodes));
    std::printf("sizeof(Node)              %zu\n", sizeof(ua::Node));
    if (qEnvironmentVariableIsSet("UA_BENCH_EXIT_AFTER_IMPORT")) {  // heaptrack's "leaks" are then what the space holds
        std::fflush(stdout);
        _exit(0);
    }

    // One AddNodes at a time into the published address space: a folder under Objects, and an
    // Int32 Variable of BaseDataVariableType into the file's first folder (the type node then holds
    // an inverse reference per variable of the file: the worst case of the copy on write).
    const int large = space.namespaceIndex("urn:ua-workbench:bench:large");
    const NodeId bigFolder = large > 0 && space.find(NodeId(uint16_t(large), 1u)) ? NodeId(uint16_t(large), 1u) : NodeId(id::ObjectsFolder);
    SharedAddressSpace shared(std::move(space));
    auto timeAddNodes = [&](const char* what, auto makeItem) {
        std::vector<double> ms;
        for (int i = 0; i < addNodes; ++i) {
            const auto hold = shared.snapshot();
            ServiceContext ctx{*hold, &shared, defaultOperationLimits(), nullptr, DateTime::now()};
            AddNodesRequest req;
            req.nodesToAdd = Array<AddNodesItem>{std::vector<AddNodesItem>{makeItem(i)}};
            AddNodesResponse resp;
            QElapsedTimer one;
            one.start();
            handleAddNodes(ctx, req, resp);
            ms.push_back(double(one.nsecsElapsed()) / 1e6);
            if (resp.results.empty() || resp.results[0].statusCode.isBad()) {
                std::fprintf(stderr, "AddNodes of %s: %s\n", what, resp.results.empty() ? "no result" : resp.results[0].statusCode.name().c_str());
                return false;
            }
        }
        std::sort(ms.begin(), ms.end());
        std::printf("AddNodes of one %-9s ms %.3f (median of %d, max %.3f)\n", what, ms[ms.size() / 2], addNodes, ms.back());
        return true;
    };
    const bool folders = timeAddNodes("folder", [](int i) {
        AddNodesItem item;
        item.parentNodeId = ExpandedNodeId(NodeId(id::ObjectsFolder));
        item.referenceTypeId = NodeId(id::Organizes);
        item.browseName = QualifiedName{1, String("Added_" + std::to_string(i))};
        item.nodeClass = NodeClass::Object;
        item.nodeAttributes = ExtensionObject::make(ObjectAttributes{});
        item.typeDefinition = ExpandedNodeId(NodeId(id::FolderType));
        return item;
    });
    const bool variables = timeAddNodes("variable", [&](int i) {
        AddNodesItem item;
        item.parentNodeId = ExpandedNodeId(bigFolder);
        item.referenceTypeId = NodeId(id::Organizes);
        item.browseName = QualifiedName{1, String("AddedVar_" + std::to_string(i))};
        item.nodeClass = NodeClass::Variable;
        VariableAttributes a;
        a.dataType = NodeId(id::Int32);
        a.valueRank = -1;
        a.value = Variant(int32_t(i));
        item.nodeAttributes = ExtensionObject::make(std::move(a));
        item.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType));
        return item;
    });
    if (!folders || !variables) return 1;
    return 0;
}
