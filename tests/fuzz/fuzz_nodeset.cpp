// libFuzzer harness for the NodeSet2 importer (OPC 10000-6 Annex F; ua/server/nodeset/): the
// input is a NodeSet2 document, read with NodeSetDocument::read and imported into a copy of an
// address space holding namespace 0. Malformed XML, unknown aliases, bad values, references that
// go nowhere, deep structures: each must end as a listed error or an import, never as a crash, a
// hang or a leak. When the import succeeds, the namespaces it added must export and import again
// into a fresh copy without an error (the exporter writes what the importer reads). And the input
// read in parts on two threads (XmlTreeReader, cut however small) must give what one sequential
// read gives: the same trees, lines and error.
//
// Built twice by tests/fuzz/CMakeLists.txt: as the libFuzzer target fuzz_nodeset (the ASan build)
// and, with replay_main.cpp, as fuzz_nodeset_replay (ctest, the committed corpus: nodeset/corpus).
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/nodeset/NodeSetExporter.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/nodeset/XmlTreeReader.h"

#include <QBuffer>

#include <cstdio>
#include <cstdlib>

namespace {

const ua::AddressSpace& namespaceZero() {
    static const ua::AddressSpace space = [] {
        ua::AddressSpace s;
        ua::Ns0NodeManager ns0;
        if (ns0.install(s).isBad()) std::abort();
        return s;
    }();
    return space;
}

std::vector<ua::NodeSetDocument> readDocument(const QByteArray& xml) {
    QByteArray copy = xml;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    std::vector<ua::NodeSetDocument> docs;
    if (auto doc = ua::NodeSetDocument::read(buffer, QStringLiteral("fuzz.xml"), nullptr)) docs.push_back(std::move(*doc));
    return docs;
}

struct TreeRead {
    bool ok = false;
    std::vector<ua::XmlTree> trees;  // the root (without children) first, then its children
    QString error;
    qint64 line = 0;
    bool operator==(const TreeRead&) const = default;
};

TreeRead readTrees(const QByteArray& xml, int threads) {
    TreeRead r;
    ua::XmlTreeReader reader;
    reader.setPartsFrom(0);
    reader.onRoot = [&](const ua::XmlTree& root) { r.trees.push_back(root); return true; };
    reader.onChild = [&](ua::XmlTree&& e) { r.trees.push_back(std::move(e)); return true; };
    r.ok = reader.read(QByteArrayView(xml), threads);
    r.error = reader.error();
    r.line = reader.errorLine();
    return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    if (size > 256 * 1024) return 0;  // big inputs only slow the search down
    const QByteArray input(reinterpret_cast<const char*>(data), qsizetype(size));
    if (readTrees(input, 1) != readTrees(input, 2)) {
        std::fprintf(stderr, "fuzz_nodeset: the document read in parts differs from a sequential read\n");
        std::abort();
    }
    const std::vector<ua::NodeSetDocument> docs = readDocument(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (docs.empty()) return 0;
    ua::AddressSpace space = namespaceZero();
    const ua::NodeSetImportResult r = ua::importNodeSets(space, docs);
    if (!r.ok()) {
        if (r.errors.empty()) {
            std::fprintf(stderr, "fuzz_nodeset: a failed import without an error listed\n");
            std::abort();
        }
        return 0;
    }
    std::vector<uint16_t> added;
    for (const auto& m : r.models)
        if (m.namespaceIndex != 0) added.push_back(m.namespaceIndex);
    if (added.empty()) return 0;
    const ua::NodeSetExport x = ua::exportNodeSet(space, added);
    if (!x.errors.isEmpty()) return 0;  // a value the exporter cannot write (listed): fine
    QBuffer exported;
    exported.setData(x.xml);
    exported.open(QIODevice::ReadOnly);
    QString readError;
    std::vector<ua::NodeSetDocument> again;
    if (auto doc = ua::NodeSetDocument::read(exported, QStringLiteral("exported.xml"), &readError)) again.push_back(std::move(*doc));
    ua::AddressSpace fresh = namespaceZero();
    const ua::NodeSetImportResult second = again.empty() ? ua::NodeSetImportResult{} : ua::importNodeSets(fresh, again);
    if (again.empty() || !second.ok()) {
        std::fprintf(stderr, "fuzz_nodeset: an exported NodeSet does not import again: %s\n", qPrintable(readError));
        for (std::size_t i = 0; i < std::min<std::size_t>(5, second.errors.size()); ++i)
            std::fprintf(stderr, "  %s\n", qPrintable(second.errors[i].toString()));
        std::fprintf(stderr, "%s\n", x.xml.left(4000).constData());
        std::abort();
    }
    return 0;
}
