#include "ua/server/nodeset/XmlTree.h"

#include <QXmlStreamWriter>

#include <algorithm>
#include <cstring>

namespace ua {

namespace {
constexpr std::size_t kCharacterBlock = std::size_t(1) << 18;  // 512 KB
} // namespace

char16_t* XmlTreeStorage::characters(std::size_t n) {
    if (n == 0) return nullptr;
    if (n > m_left) {
        if (n > kCharacterBlock / 8) {  // a long text gets a block of its own; the current one stays open
            m_blocks.push_back(std::make_unique_for_overwrite<char16_t[]>(n));
            return m_blocks.back().get();
        }
        m_blocks.push_back(std::make_unique_for_overwrite<char16_t[]>(kCharacterBlock));
        m_free = m_blocks.back().get();
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
