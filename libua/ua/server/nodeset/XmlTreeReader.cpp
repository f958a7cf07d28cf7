#include "ua/server/nodeset/XmlTreeReader.h"

#include <QThread>

#include <expat.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ua {

namespace {

constexpr char kNamespaceSeparator = '\x01';  // expat's expanded names: "uri\x01local"

struct TransparentHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// One parse: expat's callbacks build the trees on a stack of open elements and hand each child of
// the root to `child` when its end tag is read.
class TreeBuilder {
public:
    TreeBuilder(std::function<bool(const XmlTree&)> root, std::function<bool(XmlTree&&)> child)
        : m_onRoot(std::move(root)), m_onChild(std::move(child)), m_parser(XML_ParserCreateNS(nullptr, kNamespaceSeparator)) {
        XML_SetUserData(m_parser, this);
        XML_SetElementHandler(m_parser, &TreeBuilder::start, &TreeBuilder::end);
        XML_SetCharacterDataHandler(m_parser, &TreeBuilder::characters);
    }
    ~TreeBuilder() { XML_ParserFree(m_parser); }
    TreeBuilder(const TreeBuilder&) = delete;
    TreeBuilder& operator=(const TreeBuilder&) = delete;

    // Feeds one piece of the document (last: nothing follows); false once the document failed or a
    // callback stopped it.
    bool feed(const char* data, std::size_t size, bool last) {
        do {
            const int piece = int(std::min<std::size_t>(size, std::size_t(1) << 30));
            const bool final = last && std::size_t(piece) == size;
            if (XML_Parse(m_parser, data, piece, final ? 1 : 0) != XML_STATUS_OK) return false;
            data += piece;
            size -= std::size_t(piece);
        } while (size > 0);
        return true;
    }
    bool stoppedByCallback() const { return m_stopped; }
    QString errorText() const { return QString::fromUtf8(XML_ErrorString(XML_GetErrorCode(m_parser))); }
    qint64 errorLine() const { return qint64(XML_GetCurrentLineNumber(m_parser)); }

private:
    // Element and attribute names repeat: one shared QString per distinct name.
    const QString& intern(const char* expanded) {
        const char* local = std::strrchr(expanded, kNamespaceSeparator);
        const std::string_view name = local ? std::string_view(local + 1) : std::string_view(expanded);
        auto it = m_names.find(name);
        if (it == m_names.end()) it = m_names.emplace(std::string(name), QString::fromUtf8(name.data(), qsizetype(name.size()))).first;
        return it->second;
    }

    void halt() {
        m_stopped = true;
        XML_StopParser(m_parser, XML_FALSE);
    }

    static void XMLCALL start(void* self, const XML_Char* name, const XML_Char** attributes) {
        auto& b = *static_cast<TreeBuilder*>(self);
        XmlTree* e;
        if (b.m_open.empty()) {
            e = &b.m_root;
        } else if (b.m_open.size() == 1) {
            b.m_child = XmlTree{};
            e = &b.m_child;
        } else {
            e = &b.m_open.back()->children.emplace_back();
        }
        e->name = b.intern(name);
        e->line = qint64(XML_GetCurrentLineNumber(b.m_parser));
        std::size_t count = 0;
        while (attributes[count]) count += 2;
        e->attributes.reserve(count / 2);
        for (std::size_t i = 0; i < count; i += 2)
            e->attributes.emplace_back(b.intern(attributes[i]), QString::fromUtf8(attributes[i + 1]));
        b.m_open.push_back(e);
        if (b.m_open.size() == 1 && b.m_onRoot && !b.m_onRoot(b.m_root)) b.halt();
    }

    static void XMLCALL end(void* self, const XML_Char*) {
        auto& b = *static_cast<TreeBuilder*>(self);
        b.m_open.pop_back();
        if (b.m_open.size() == 1 && b.m_onChild && !b.m_onChild(std::move(b.m_child))) b.halt();
    }

    static void XMLCALL characters(void* self, const XML_Char* s, int length) {
        auto& b = *static_cast<TreeBuilder*>(self);
        if (b.m_open.empty()) return;
        QString& text = b.m_open.back()->text;
        if (text.isEmpty()) text = QString::fromUtf8(s, length);
        else text += QString::fromUtf8(s, length);
    }

    std::function<bool(const XmlTree&)> m_onRoot;
    std::function<bool(XmlTree&&)> m_onChild;
    XML_Parser m_parser;
    XmlTree m_root;                // the root element (its children are handed over, not kept)
    XmlTree m_child;               // the child of the root being read
    std::vector<XmlTree*> m_open;  // the open elements, the root first
    std::unordered_map<std::string, QString, TransparentHash, std::equal_to<>> m_names;
    bool m_stopped = false;
};

// Where the root element's start tag ends, and its name as written ("UANodeSet", "n:UANodeSet").
struct RootTag {
    std::size_t end = 0;
    std::string qname;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Skips the prolog (a UTF-8 byte order mark, the XML declaration, comments, processing
// instructions) to the root's start tag. nullopt when the document cannot be cut: a DOCTYPE, a
// root without children, another encoding of '<' (UTF-16), or anything unexpected.
std::optional<RootTag> findRootTag(std::string_view b) {
    std::size_t i = b.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    for (;;) {
        while (i < b.size() && isSpace(b[i])) ++i;
        if (i >= b.size() || b[i] != '<') return std::nullopt;
        if (b.substr(i, 2) == "<?") {
            const std::size_t close = b.find("?>", i + 2);
            if (close == std::string_view::npos) return std::nullopt;
            i = close + 2;
        } else if (b.substr(i, 4) == "<!--") {
            const std::size_t close = b.find("-->", i + 4);
            if (close == std::string_view::npos) return std::nullopt;
            i = close + 3;
        } else if (b.substr(i, 2) == "<!") {
            return std::nullopt;  // DOCTYPE: its entities would have to be in every part
        } else {
            break;
        }
    }
    RootTag tag;
    std::size_t j = i + 1;
    while (j < b.size() && !isSpace(b[j]) && b[j] != '>' && b[j] != '/') ++j;
    tag.qname = std::string(b.substr(i + 1, j - i - 1));
    if (tag.qname.empty()) return std::nullopt;
    char quote = 0;
    for (; j < b.size(); ++j) {
        const char c = b[j];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            if (b[j - 1] == '/') return std::nullopt;  // an empty root
            tag.end = j + 1;
            return tag;
        }
    }
    return std::nullopt;
}

// The first start tag of a node element (<UAObject, <UAVariable, ...) at or after from, preceded
// by whitespace or '>' and followed by whitespace, '>' or '/'; npos when there is none before to.
std::size_t findNodeStart(std::string_view b, std::size_t from, std::size_t to) {
    static constexpr std::string_view kNames[] = {"Object", "Variable", "Method", "ObjectType", "VariableType",
                                                  "ReferenceType", "DataType", "View"};
    for (std::size_t at = b.find("<UA", from); at != std::string_view::npos && at < to; at = b.find("<UA", at + 3)) {
        if (at == 0 || !(isSpace(b[at - 1]) || b[at - 1] == '>')) continue;
        const std::string_view rest = b.substr(at + 3);
        for (std::string_view name : kNames) {
            if (rest.substr(0, name.size()) != name || rest.size() <= name.size()) continue;
            const char after = rest[name.size()];
            if (isSpace(after) || after == '>' || after == '/') return at;
        }
    }
    return std::string_view::npos;
}

// Line breaks as expat counts them: LF, CR LF, and a CR alone.
std::size_t lineBreaks(std::string_view s) {
    std::size_t n = std::size_t(std::count(s.begin(), s.end(), '\n'));
    if (s.find('\r') == std::string_view::npos) return n;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n')) ++n;
    return n;
}

// One part of a document cut for parallel parsing, and what its parse produced.
struct Part {
    std::size_t begin = 0, end = 0;  // the part's own bytes
    bool last = false;               // ends with the document (holds the root's end tag)
    XmlTree root;
    std::vector<XmlTree> children;
    std::size_t newlines = 0;  // line breaks in [begin, end)
    bool ok = false;
};

void parsePart(std::string_view doc, const RootTag& tag, Part& part) {
    TreeBuilder builder([&](const XmlTree& root) { part.root = root; return true; },
                        [&](XmlTree&& child) { part.children.push_back(std::move(child)); return true; });
    const std::string closing = "</" + tag.qname + ">";
    bool ok = true;
    if (part.begin > 0) ok = builder.feed(doc.data(), tag.end, false);  // the prolog and the root's start tag
    ok = ok && builder.feed(doc.data() + part.begin, part.end - part.begin, part.last);
    if (!part.last) ok = ok && builder.feed(closing.data(), closing.size(), true);
    part.ok = ok;
    part.newlines = lineBreaks(doc.substr(part.begin, part.end - part.begin));
}

void shiftLines(XmlTree& e, qint64 by) {
    e.line += by;
    for (XmlTree& c : e.children) shiftLines(c, by);
}

} // namespace

bool XmlTreeReader::read(QIODevice& device) {
    m_error.clear();
    m_errorLine = 0;
    m_lastParts = 1;
    TreeBuilder builder(onRoot, onChild);
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 got = device.read(buffer.data(), buffer.size());
        if (got < 0) {
            stop(QStringLiteral("cannot read: %1").arg(device.errorString()), 0);
            return false;
        }
        if (!builder.feed(buffer.constData(), std::size_t(got), got == 0)) {
            if (!builder.stoppedByCallback()) stop(builder.errorText(), builder.errorLine());
            return false;
        }
        if (got == 0) return true;
    }
}

bool XmlTreeReader::read(QByteArrayView bytes, int threads) {
    m_error.clear();
    m_errorLine = 0;
    m_lastParts = 1;
    if (threads > 1 && bytes.size() >= m_partsFrom && readInParts(bytes, threads)) return m_error.isEmpty();
    m_lastParts = 1;
    m_error.clear();
    m_errorLine = 0;
    TreeBuilder builder(onRoot, onChild);
    if (builder.feed(bytes.data(), std::size_t(bytes.size()), true)) return true;
    if (!builder.stoppedByCallback()) stop(builder.errorText(), builder.errorLine());
    return false;
}

// True when the parts were read (the callbacks' verdict is then in m_error); false to read the
// document in one piece instead.
bool XmlTreeReader::readInParts(QByteArrayView bytes, int threads) {
    const std::string_view doc(bytes.data(), std::size_t(bytes.size()));
    const std::optional<RootTag> tag = findRootTag(doc);
    if (!tag) return false;
    std::vector<Part> parts(1);
    const std::size_t body = doc.size() - tag->end;
    for (int k = 1; k < threads; ++k) {
        const std::size_t target = tag->end + body * std::size_t(k) / std::size_t(threads);
        const std::size_t cut = findNodeStart(doc, std::max(target, parts.back().begin + 1), doc.size());
        if (cut == std::string_view::npos) break;
        parts.back().end = cut;
        parts.emplace_back().begin = cut;
    }
    if (parts.size() < 2) return false;
    parts.back().end = doc.size();
    parts.back().last = true;

    std::vector<std::unique_ptr<QThread>> helpers;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        helpers.emplace_back(QThread::create([&, i] { parsePart(doc, *tag, parts[i]); }));
        helpers.back()->start();
    }
    parsePart(doc, *tag, parts[0]);
    for (const auto& t : helpers) t->wait();
    if (!std::all_of(parts.begin(), parts.end(), [](const Part& p) { return p.ok; })) return false;
    m_lastParts = int(parts.size());

    // Hand the trees over in document order, with the whole document's line numbers: a part's
    // parse counted the prolog's lines, then its own.
    const qint64 prologLines = qint64(lineBreaks(doc.substr(0, tag->end)));
    if (onRoot && !onRoot(parts[0].root)) return true;
    std::size_t linesBefore = 0;
    for (Part& part : parts) {
        const qint64 shift = part.begin == 0 ? 0 : qint64(linesBefore) - prologLines;
        for (XmlTree& child : part.children) {
            if (shift != 0) shiftLines(child, shift);
            if (onChild && !onChild(std::move(child))) return true;
        }
        part.children = {};
        linesBefore += part.newlines;
    }
    return true;
}

} // namespace ua
