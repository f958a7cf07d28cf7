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

// Appends UTF-8 text to a UTF-16 buffer: ASCII byte by byte, anything else through Qt's decoder.
void appendUtf8(std::vector<char16_t>& to, const char* s, std::size_t n) {
    std::size_t i = 0;
    const std::size_t at = to.size();
    to.resize(at + n);
    for (; i < n && static_cast<unsigned char>(s[i]) < 0x80; ++i) to[at + i] = char16_t(s[i]);
    if (i == n) return;
    to.resize(at + i);
    const QString rest = QString::fromUtf8(s + i, qsizetype(n - i));
    to.insert(to.end(), rest.utf16(), rest.utf16() + rest.size());
}

// One parse: expat's callbacks build the trees into one XmlTreeStorage, keeping a stack of the
// open elements, and hand each child of the root to `child` when its end tag is read.
class TreeBuilder {
public:
    TreeBuilder(std::function<bool(const XmlTree&)> root, std::function<bool(XmlTree&&)> child)
        : m_onRoot(std::move(root)), m_onChild(std::move(child)), m_storage(std::make_shared<XmlTreeStorage>()),
          m_parser(XML_ParserCreateNS(nullptr, kNamespaceSeparator)) {
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
    const std::shared_ptr<XmlTreeStorage>& sharedStorage() const { return m_storage; }

private:
    struct Open {
        uint32_t element;
        uint32_t lastChild = XmlTreeStorage::kNone;
    };

    // Element and attribute names repeat: each distinct name is kept once in the storage.
    QStringView intern(const char* expanded) {
        const char* local = std::strrchr(expanded, kNamespaceSeparator);
        const std::string_view name = local ? std::string_view(local + 1) : std::string_view(expanded);
        auto it = m_names.find(name);
        if (it == m_names.end()) {
            m_scratch.clear();
            appendUtf8(m_scratch, name.data(), name.size());
            it = m_names.emplace(std::string(name), m_storage->copy(QStringView(m_scratch.data(), qsizetype(m_scratch.size())))).first;
        }
        return it->second;
    }

    void halt() {
        m_stopped = true;
        XML_StopParser(m_parser, XML_FALSE);
    }

    static void XMLCALL start(void* self, const XML_Char* name, const XML_Char** attributes) {
        auto& b = *static_cast<TreeBuilder*>(self);
        XmlTreeStorage& s = *b.m_storage;
        const uint32_t at = s.addElement();
        if (b.m_open.size() >= 2) {  // below a child of the root: linked to its parent
            Open& parent = b.m_open.back();
            XmlTreeStorage::Element& p = s.element(parent.element);
            if (parent.lastChild == XmlTreeStorage::kNone) p.firstChild = at;
            else s.element(parent.lastChild).nextSibling = at;
            parent.lastChild = at;
            ++p.childCount;
        }
        XmlTreeStorage::Element& e = s.element(at);
        e.name = b.intern(name);
        e.line = qint64(XML_GetCurrentLineNumber(b.m_parser));
        for (std::size_t i = 0; attributes[i]; i += 2) {
            const QStringView attrName = b.intern(attributes[i]);
            b.m_scratch.clear();
            appendUtf8(b.m_scratch, attributes[i + 1], std::strlen(attributes[i + 1]));
            const uint32_t a = s.addAttribute(attrName, s.copy(QStringView(b.m_scratch.data(), qsizetype(b.m_scratch.size()))));
            if (i == 0) e.firstAttribute = a;
            ++e.attributeCount;
        }
        b.m_open.push_back({at});
        if (b.m_text.size() < b.m_open.size()) b.m_text.resize(b.m_open.size());
        b.m_text[b.m_open.size() - 1].clear();
        if (b.m_open.size() == 1 && b.m_onRoot && !b.m_onRoot(XmlTree(b.m_storage, at))) b.halt();
    }

    static void XMLCALL end(void* self, const XML_Char*) {
        auto& b = *static_cast<TreeBuilder*>(self);
        const std::size_t depth = b.m_open.size() - 1;
        const uint32_t at = b.m_open.back().element;
        const std::vector<char16_t>& text = b.m_text[depth];
        if (depth > 0 && !text.empty()) b.m_storage->element(at).text = b.m_storage->copy(QStringView(text.data(), qsizetype(text.size())));
        b.m_open.pop_back();
        if (b.m_open.size() == 1 && b.m_onChild && !b.m_onChild(XmlTree(b.m_storage, at))) b.halt();
    }

    // The root's own text (the white space between its children) is not kept.
    static void XMLCALL characters(void* self, const XML_Char* s, int length) {
        auto& b = *static_cast<TreeBuilder*>(self);
        if (b.m_open.size() < 2) return;
        appendUtf8(b.m_text[b.m_open.size() - 1], s, std::size_t(length));
    }

    std::function<bool(const XmlTree&)> m_onRoot;
    std::function<bool(XmlTree&&)> m_onChild;
    std::shared_ptr<XmlTreeStorage> m_storage;
    XML_Parser m_parser;
    std::vector<Open> m_open;                    // the open elements, the root first
    std::vector<std::vector<char16_t>> m_text;   // the text of each open element so far, by depth
    std::vector<char16_t> m_scratch;             // an attribute value or a name being converted
    std::unordered_map<std::string, QStringView, TransparentHash, std::equal_to<>> m_names;
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
    std::shared_ptr<XmlTreeStorage> storage;  // theirs, to move their lines
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
    part.storage = builder.sharedStorage();
    part.newlines = lineBreaks(doc.substr(part.begin, part.end - part.begin));
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
        if (shift != 0) part.storage->shiftLines(shift);
        for (XmlTree& child : part.children) {
            if (onChild && !onChild(std::move(child))) return true;
        }
        part.children = {};
        linesBefore += part.newlines;
    }
    return true;
}

} // namespace ua
