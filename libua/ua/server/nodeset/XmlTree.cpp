#include "ua/server/nodeset/XmlTree.h"

#include <QXmlStreamWriter>

#ifdef Q_OS_UNIX
#include <sys/mman.h>
#endif

#include <cstring>
#include <new>

namespace ua {

namespace {
constexpr std::size_t kCharacterBlock = std::size_t(1) << 18;  // 512 KB
} // namespace

XmlTreeStorage::Block::Block(std::size_t bytes) : m_bytes(bytes) {
#ifdef Q_OS_UNIX
    m_p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m_p == MAP_FAILED) throw std::bad_alloc();
#else
    m_p = ::operator new(bytes);
#endif
}

XmlTreeStorage::Block::~Block() {
    if (!m_p) return;
#ifdef Q_OS_UNIX
    ::munmap(m_p, m_bytes);
#else
    ::operator delete(m_p);
#endif
}

char16_t* XmlTreeStorage::characters(std::size_t n) {
    if (n == 0) return nullptr;
    if (n > m_left) {
        if (n > kCharacterBlock / 8) {  // a long text gets a block of its own; the current one stays open
            m_blocks.emplace_back(n * sizeof(char16_t));
            return m_blocks.back().chars();
        }
        m_blocks.emplace_back(kCharacterBlock * sizeof(char16_t));
        m_free = m_blocks.back().chars();
        m_left = kCharacterBlock;
    }
    char16_t* at = m_free;
    m_free += n;
    m_left -= n;
    return at;
}

QStringView XmlTreeStorage::copy(QStringView s) {
    if (s.isEmpty()) return {};
    char16_t* to = characters(std::size_t(s.size()));
    std::memcpy(to, s.utf16(), std::size_t(s.size()) * sizeof(char16_t));
    return QStringView(to, s.size());
}

void XmlTreeStorage::shiftLines(qint64 by) {
    for (uint32_t i = 0; i < m_elementCount; ++i) element(i).line += by;
}

QStringView XmlElementView::attribute(QStringView attrName, QStringView def) const {
    const auto& el = e();
    for (uint32_t i = 0; i < el.attributeCount; ++i) {
        const auto& a = m_s->attribute(el.firstAttribute + i);
        if (a.name == attrName) return a.value;
    }
    return def;
}

bool XmlElementView::hasAttribute(QStringView attrName) const {
    const auto& el = e();
    for (uint32_t i = 0; i < el.attributeCount; ++i)
        if (m_s->attribute(el.firstAttribute + i).name == attrName) return true;
    return false;
}

XmlElementView XmlElementView::child(QStringView childName) const {
    for (XmlElementView c : children())
        if (c.name() == childName) return c;
    return {};
}

bool XmlElementView::sameAs(const XmlElementView& other) const {
    if (name() != other.name() || line() != other.line() || text() != other.text()) return false;
    if (attributeCount() != other.attributeCount() || childCount() != other.childCount()) return false;
    for (std::size_t i = 0; i < attributeCount(); ++i)
        if (attributeAt(i) != other.attributeAt(i)) return false;
    for (XmlElementView a = firstChild(), b = other.firstChild(); a; a = a.nextSibling(), b = b.nextSibling())
        if (!a.sameAs(b)) return false;
    return true;
}

namespace {
void writeTree(QXmlStreamWriter& w, const XmlElementView& e) {
    w.writeStartElement(e.name().toString());
    for (std::size_t i = 0; i < e.attributeCount(); ++i) {
        const auto [n, v] = e.attributeAt(i);
        w.writeAttribute(n.toString(), v.toString());
    }
    if (e.childCount() == 0) w.writeCharacters(e.text().toString());
    for (XmlElementView c : e.children()) writeTree(w, c);
    w.writeEndElement();
}
} // namespace

QString XmlElementView::toXml() const {
    QString out;
    QXmlStreamWriter w(&out);
    writeTree(w, *this);
    return out;
}

} // namespace ua
