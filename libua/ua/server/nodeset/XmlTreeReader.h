// Reads an XML document into XmlTrees with expat (libexpat, Debian's libexpat1-dev): the root
// element's name and attributes first, then each child of the root as a whole tree.
//
// Why expat and not Qt's QXmlStreamReader (which the rest of the stack uses for small documents):
// the NodeSet2 import must read 200,000 nodes/s (issue 29 item 6). On this 2-core machine
// QXmlStreamReader alone tokenizes a generated NodeSet at 85,000-139,000 nodes/s, expat at about
// 400,000 (docs/Benchmarks.md "NodeSet2 import with expat"). Names and attributes are namespace
// processed like QXmlStreamReader's: local names, the prefix dropped, an undeclared prefix an error.
// Internal entities are expanded (with expat's protection against entity amplification), external
// ones never loaded. Encodings: UTF-8, UTF-16, ISO-8859-1 and US-ASCII.
#pragma once

#include "ua/server/nodeset/XmlTree.h"

#include <QByteArrayView>
#include <QIODevice>
#include <QString>

#include <functional>

namespace ua {

class XmlTreeReader {
public:
    // The root element, without children. Return false to stop reading (read() then fails with
    // the error the callback set with stop()).
    std::function<bool(const XmlTree& root)> onRoot;
    // Each child of the root, complete with its children, in document order. Return false to
    // stop, as above. The trees of one read share their storage (XmlTree.h): keeping one keeps
    // the storage of all of them.
    std::function<bool(XmlTree&& element)> onChild;

    // Reads the whole document from device, as it streams in (the file is not held in memory; the
    // trees are, in one XmlTreeStorage per read, freed with the last tree handed out). False when it is not well-formed XML (error() says why, errorLine() where, 1-based)
    // or a callback stopped it.
    bool read(QIODevice& device);

    // Reads a document in memory. A large one (1 MB and more, setPartsFrom(); threads > 1) is cut before children
    // of the root into up to `threads` parts that are parsed at the same time, each behind a copy
    // of the root's start tag; their trees are handed to onChild afterwards, in document order,
    // with the line numbers of the whole document. A cut that is not between two children of the
    // root (say, inside a comment) leaves a part that is not well-formed: the document is then read
    // again in one piece, so the result and the error are those of a sequential read. A document
    // with a DOCTYPE is always read in one piece (its entities belong to every part).
    bool read(QByteArrayView bytes, int threads = 1);

    // For a callback that refuses what it was given: the message and line read() reports.
    void stop(QString message, qint64 line) {
        m_error = std::move(message);
        m_errorLine = line;
    }
    const QString& error() const { return m_error; }
    qint64 errorLine() const { return m_errorLine; }

    // Into how many parts read(bytes, threads) cut its last document (1: read in one piece).
    int lastParts() const { return m_lastParts; }
    // The size from which read(bytes, threads) cuts a document (1 MB; smaller documents are read in
    // one piece, where threads cost more than they save). For tests and the fuzzer, which cut small
    // documents to compare the parts' result with a sequential read.
    void setPartsFrom(qsizetype bytes) { m_partsFrom = bytes; }

private:
    bool readInParts(QByteArrayView bytes, int threads);

    QString m_error;
    qint64 m_errorLine = 0;
    int m_lastParts = 1;
    qsizetype m_partsFrom = 1 << 20;
};

} // namespace ua
