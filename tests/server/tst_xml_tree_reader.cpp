// XmlTreeReader (libua/ua/server/nodeset/XmlTreeReader.h): expat into element trees, and a large
// document parsed in parts on several threads with the same result as one sequential read: the
// same trees, line numbers and errors, and a fallback to one piece wherever a cut is not safe.
#include "TestMain.h"

#include "ua/server/nodeset/XmlTreeReader.h"

#include <QBuffer>
#include <QtTest>

using namespace ua;

namespace {

struct ReadResult {
    bool ok = false;
    XmlTree root;
    std::vector<XmlTree> children;
    QString error;
    qint64 errorLine = 0;
    int parts = 0;
};

ReadResult readAll(const QByteArray& doc, int threads) {
    ReadResult r;
    XmlTreeReader reader;
    reader.onRoot = [&](const XmlTree& root) { r.root = root; return true; };
    reader.onChild = [&](XmlTree&& e) { r.children.push_back(std::move(e)); return true; };
    r.ok = reader.read(QByteArrayView(doc), threads);
    r.error = reader.error();
    r.errorLine = reader.errorLine();
    r.parts = reader.lastParts();
    return r;
}

ReadResult readStream(const QByteArray& doc) {
    ReadResult r;
    QByteArray copy = doc;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    XmlTreeReader reader;
    reader.onRoot = [&](const XmlTree& root) { r.root = root; return true; };
    reader.onChild = [&](XmlTree&& e) { r.children.push_back(std::move(e)); return true; };
    r.ok = reader.read(buffer);
    r.error = reader.error();
    r.errorLine = reader.errorLine();
    return r;
}

// Where two trees differ ("" when equal).
bool sameAttributes(XmlElementView a, XmlElementView b) {
    if (a.attributeCount() != b.attributeCount()) return false;
    for (std::size_t i = 0; i < a.attributeCount(); ++i)
        if (a.attributeAt(i) != b.attributeAt(i)) return false;
    return true;
}

QString difference(XmlElementView a, XmlElementView b, const QString& path) {
    const QString here = path + QLatin1Char('/') + a.name().toString();
    if (a.name() != b.name()) return here + QStringLiteral(": name %1 / %2").arg(a.name(), b.name());
    if (a.line() != b.line()) return here + QStringLiteral(": line %1 / %2").arg(a.line()).arg(b.line());
    if (a.text() != b.text()) return here + QStringLiteral(": text '%1' / '%2'").arg(a.text(), b.text());
    if (!sameAttributes(a, b)) return here + QStringLiteral(": attributes");
    if (a.childCount() != b.childCount()) return here + QStringLiteral(": %1 / %2 children").arg(a.childCount()).arg(b.childCount());
    for (XmlElementView x = a.firstChild(), y = b.firstChild(); x; x = x.nextSibling(), y = y.nextSibling())
        if (QString d = difference(x, y, here); !d.isEmpty()) return d;
    return {};
}

QString difference(const ReadResult& a, const ReadResult& b) {
    if (a.ok != b.ok) return QStringLiteral("ok %1 / %2 (%3 / %4)").arg(a.ok).arg(b.ok).arg(a.error, b.error);
    if (a.error != b.error || a.errorLine != b.errorLine)
        return QStringLiteral("error %1:%2 / %3:%4").arg(a.errorLine).arg(a.error).arg(b.errorLine).arg(b.error);
    if (!a.ok) return {};
    if (a.root.name() != b.root.name() || !sameAttributes(a.root, b.root) || a.root.line() != b.root.line()) return QStringLiteral("root");
    if (a.children.size() != b.children.size()) return QStringLiteral("%1 / %2 children").arg(a.children.size()).arg(b.children.size());
    for (std::size_t i = 0; i < a.children.size(); ++i)
        if (QString d = difference(a.children[i], b.children[i], QString::number(i)); !d.isEmpty()) return d;
    return {};
}

// A NodeSet-like document of `nodes` node elements (about 300 bytes each), with what real files
// hold between and inside them: multi-line elements, entities, CDATA, comments, a prefixed
// attribute, a '>' inside a quoted attribute of the root. `middle` goes after half the nodes.
QByteArray document(int nodes, const QByteArray& middle = {}) {
    QByteArray d;
    d += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- generated\n for tst_xml_tree_reader -->\n";
    d += "<UANodeSet xmlns=\"http://opcfoundation.org/UA/2011/03/UANodeSet.xsd\"\n"
         "           xmlns:uax=\"http://opcfoundation.org/UA/2008/02/Types.xsd\" LastModified=\"a>b\">\n";
    d += "  <NamespaceUris><Uri>urn:test</Uri></NamespaceUris>\n";
    for (int i = 0; i < nodes; ++i) {
        if (i == nodes / 2) d += middle;
        const QByteArray n = QByteArray::number(i);
        if (i % 3 == 0) {
            d += "  <UAVariable NodeId=\"ns=1;i=" + n + "\" BrowseName=\"1:V&amp;" + n + "\"\n      DataType=\"Int32\">\n"
                 "    <DisplayName>Var " + n + " &lt;x&gt;</DisplayName>\n"
                 "    <References><Reference ReferenceType=\"HasTypeDefinition\">i=63</Reference></References>\n"
                 "    <Value><uax:Int32>" + n + "</uax:Int32></Value>\n  </UAVariable>\n";
        } else if (i % 3 == 1) {
            d += "  <UAObject NodeId=\"ns=1;i=" + n + "\" BrowseName=\"1:O" + n + "\"><DisplayName><![CDATA[<cdata " + n + ">]]></DisplayName>"
                 "<References><Reference ReferenceType=\"Organizes\" IsForward=\"false\">i=85</Reference></References></UAObject>\n";
        } else {
            d += "  <!-- a comment -->\n  <UADataType NodeId=\"ns=1;i=" + n + "\" BrowseName=\"1:T" + n + "\">\n"
                 "    <Definition Name=\"T" + n + "\"><Field Name=\"A\" DataType=\"i=6\"/></Definition>\n  </UADataType>\n";
        }
    }
    d += "</UANodeSet>\n<!-- after the root -->\n";
    return d;
}

} // namespace

class TstXmlTreeReader : public QObject {
    Q_OBJECT
private slots:
    void partsMatchOneRead_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<QByteArray>("lineEnd");
        QTest::newRow("2 threads") << 2 << QByteArray("\n");
        QTest::newRow("3 threads") << 3 << QByteArray("\n");
        QTest::newRow("8 threads") << 8 << QByteArray("\n");
        QTest::newRow("2 threads, CR LF") << 2 << QByteArray("\r\n");
        QTest::newRow("2 threads, CR alone") << 2 << QByteArray("\r");  // expat counts it as a line break
    }
    void partsMatchOneRead() {
        QFETCH(int, threads);
        QFETCH(QByteArray, lineEnd);
        QByteArray doc = document(12000);
        doc.replace("\n", lineEnd);
        QVERIFY(doc.size() > 2 * (1 << 20));
        const ReadResult one = readAll(doc, 1);
        QVERIFY2(one.ok, qPrintable(one.error));
        QCOMPARE(one.parts, 1);
        QCOMPARE(one.children.size(), std::size_t(12001));
        QCOMPARE(one.root.name(), u"UANodeSet");
        QCOMPARE(one.root.attribute(u"LastModified"), u"a>b");
        // Entities, CDATA and prefixed names as a reader with namespaces gives them.
        QCOMPARE(one.children[1].attribute(u"BrowseName"), u"1:V&0");
        QCOMPARE(one.children[1].child(u"DisplayName").text(), u"Var 0 <x>");
        QCOMPARE(one.children[1].child(u"Value").firstChild().name(), u"Int32");
        QCOMPARE(one.children[2].child(u"DisplayName").text(), u"<cdata 1>");
        QCOMPARE(one.children[1].line(), qint64(7));
        // Children in document order, each with its attributes; an absent one is null.
        const XmlElementView refs = one.children[2].child(u"References");
        QCOMPARE(refs.childCount(), std::size_t(1));
        QCOMPARE(refs.firstChild().attribute(u"IsForward"), u"false");
        QVERIFY(refs.firstChild().attribute(u"Missing").isNull());
        QVERIFY(!one.children[2].child(u"Missing"));
        QStringList names;
        for (XmlElementView c : one.children[1].children()) names << c.name().toString();
        QCOMPARE(names, (QStringList{QStringLiteral("DisplayName"), QStringLiteral("References"), QStringLiteral("Value")}));

        const ReadResult many = readAll(doc, threads);
        QCOMPARE(many.parts, threads);
        const QString diff = difference(one, many);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const QString streamed = difference(one, readStream(doc));
        QVERIFY2(streamed.isEmpty(), qPrintable(streamed));
    }

    // setPartsFrom(0) cuts even a small document (as the fuzzer does), with the same result.
    void aSmallDocumentIsCutOnRequest() {
        const QByteArray doc = document(9);
        XmlTreeReader reader;
        reader.setPartsFrom(0);
        std::vector<XmlTree> trees;
        reader.onChild = [&](XmlTree&& e) { trees.push_back(std::move(e)); return true; };
        QVERIFY2(reader.read(QByteArrayView(doc), 2), qPrintable(reader.error()));
        QCOMPARE(reader.lastParts(), 2);
        const ReadResult one = readAll(doc, 1);
        QCOMPARE(trees.size(), one.children.size());
        for (std::size_t i = 0; i < trees.size(); ++i) QVERIFY(trees[i] == one.children[i]);
        QCOMPARE(readAll(doc, 2).parts, 1);  // without it: below 1 MB, one piece
    }

    // A cut that lands inside a comment (or CDATA) leaves a part that is not well-formed: the
    // document is read again in one piece, with the same result.
    void aCutInsideACommentFallsBackToOnePiece() {
        QByteArray trap = "  <!-- an old node, kept for reference:\n";
        for (int i = 0; i < 20000; ++i) trap += "  <UAVariable NodeId=\"ns=1;i=9\" BrowseName=\"1:Old\"></UAVariable>\n";
        trap += "  -->\n";
        const QByteArray doc = document(4000, trap);
        const ReadResult one = readAll(doc, 1);
        QVERIFY2(one.ok, qPrintable(one.error));
        const ReadResult two = readAll(doc, 2);
        QCOMPARE(two.parts, 1);
        const QString diff = difference(one, two);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    // Errors in either half: the message and line of a sequential read.
    void errorsAreThoseOfOneRead_data() {
        QTest::addColumn<QByteArray>("doc");
        QByteArray first = document(8000);
        first.replace(first.indexOf("</UAObject>"), 11, "</UAObjekt>");
        QTest::newRow("mismatched tag in the first part") << first;
        QByteArray second = document(8000);
        second.replace(second.lastIndexOf("</UAObject>"), 11, "</UAObjekt>");
        QTest::newRow("mismatched tag in the last part") << second;
        QByteArray truncated = document(8000);
        truncated.chop(40);
        QTest::newRow("truncated") << truncated;
        QByteArray undeclared = document(8000);
        undeclared.replace(undeclared.lastIndexOf("<uax:Int32>"), 11, "<bad:Int32>");
        QTest::newRow("undeclared prefix") << undeclared;
        QTest::newRow("nothing") << QByteArray();
        QTest::newRow("no root") << QByteArray("<?xml version=\"1.0\"?>\n");
        QTest::newRow("garbage") << QByteArray(3 << 20, 'x');
    }
    void errorsAreThoseOfOneRead() {
        QFETCH(QByteArray, doc);
        const ReadResult one = readAll(doc, 1);
        QVERIFY(!one.ok);
        QVERIFY(!one.error.isEmpty());
        QVERIFY(one.errorLine >= 1);
        const ReadResult two = readAll(doc, 2);
        const QString diff = difference(one, two);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const QString streamed = difference(one, readStream(doc));
        QVERIFY2(streamed.isEmpty(), qPrintable(streamed));
    }

    // A DOCTYPE's entities belong to every part: such a document is read in one piece.
    void aDoctypeIsReadInOnePiece() {
        QByteArray doc = document(8000);
        doc.replace("<!-- generated", "<!DOCTYPE UANodeSet [<!ENTITY plant \"Plant A\">]>\n<!-- generated");
        doc.replace(doc.lastIndexOf("<DisplayName>Var"), 16, "<DisplayName>&plant;");
        const ReadResult two = readAll(doc, 2);
        QVERIFY2(two.ok, qPrintable(two.error));
        QCOMPARE(two.parts, 1);
        bool expanded = false;
        for (const XmlTree& c : two.children)
            if (const XmlElementView dn = c.child(u"DisplayName"); dn && dn.text().startsWith(QStringLiteral("Plant A"))) expanded = true;
        QVERIFY(expanded);
    }

    // The trees of a read share one storage: a tree kept alone outlives the reader and the other
    // trees. Texts of any length and script, split by entities, CDATA and child elements, come
    // out whole; names and values beyond ASCII are decoded from UTF-8.
    void aTreeKeepsItsStorage() {
        const QString longText = QString(70000, u'x') + QStringLiteral("\u00e9\u6f22");  // beyond a storage block's eighth
        QByteArray doc = "<UANodeSet xmlns=\"http://opcfoundation.org/UA/2011/03/UANodeSet.xsd\">\n";
        for (int i = 0; i < 5000; ++i) doc += "<UAObject NodeId=\"ns=1;i=" + QByteArray::number(i) + "\"/>\n";
        doc += "<UAVariable NodeId=\"ns=1;s=Temp\u00e9rature\" BrowseName=\"1:\u6e29\u5ea6\">"
               "<Description>" + longText.toUtf8() + "</Description>"
               "<DisplayName>a &amp; b<![CDATA[ <c> ]]>d<Inner>i</Inner>e</DisplayName></UAVariable>\n</UANodeSet>\n";
        XmlTree kept;
        {
            XmlTreeReader reader;
            std::vector<XmlTree> all;
            reader.onChild = [&](XmlTree&& e) { all.push_back(std::move(e)); return true; };
            QVERIFY2(reader.read(QByteArrayView(doc)), qPrintable(reader.error()));
            QCOMPARE(all.size(), std::size_t(5001));
            kept = all.back();
        }
        QCOMPARE(kept.name(), u"UAVariable");
        QCOMPARE(kept.attribute(u"NodeId"), QStringView(u"ns=1;s=Temp\u00e9rature"));
        QCOMPARE(kept.attribute(u"BrowseName"), QStringView(u"1:\u6e29\u5ea6"));
        QCOMPARE(kept.child(u"Description").text(), QStringView(longText));
        const XmlElementView dn = kept.child(u"DisplayName");
        QCOMPARE(dn.text(), u"a & b <c> de");  // the text directly inside, around the child
        QCOMPARE(dn.childCount(), std::size_t(1));
        QCOMPARE(dn.firstChild().text(), u"i");
        QVERIFY(!dn.firstChild().nextSibling());
        XmlTree copy = kept;
        kept = XmlTree();
        QVERIFY(copy == copy);
        QCOMPARE(copy.child(u"Description").text().size(), longText.size());
    }

    // A callback that refuses an element stops the reading with its own message, in either mode.
    void aCallbackStopsTheReading() {
        const QByteArray doc = document(8000);
        for (int threads : {1, 2}) {
            XmlTreeReader reader;
            int seen = 0;
            reader.onChild = [&](XmlTree&& e) {
                if (++seen < 5000) return true;
                reader.stop(QStringLiteral("enough"), e.line());
                return false;
            };
            QVERIFY(!reader.read(QByteArrayView(doc), threads));
            QCOMPARE(seen, 5000);
            QCOMPARE(reader.error(), QStringLiteral("enough"));
            QVERIFY(reader.errorLine() > 1000);
        }
    }
};

UA_TEST_GUILESS_MAIN(TstXmlTreeReader)
#include "tst_xml_tree_reader.moc"
