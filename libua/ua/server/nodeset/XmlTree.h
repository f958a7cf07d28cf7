// Element trees read with expat (XmlTreeReader.h): what the NodeSet2 importer keeps of one element
// (a UANode, a Value, a Definition) to interpret it after the whole file is read. Names are local
// names (the namespace prefix dropped); text is the character data directly inside the element.
//
// The elements of every tree one parse produced share one XmlTreeStorage: a few large blocks that
// are never moved, instead of a dozen small allocations per element (a million variables are
// seven million elements). An XmlTree owns a share of that storage and is one element of it (a
// child of the document's root with all it holds); XmlElementView is a view of any element, valid
// while a tree of its storage lives. Everything they return (names, text, attribute values) is a
// QStringView into the storage: copy it (toString()) to keep it longer.
#pragma once

#include <QString>
#include <QStringView>

#include <cstdint>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ua {

// Elements, attributes and characters of the trees of one parse, in blocks that never move.
class XmlTreeStorage {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    struct Element {
        QStringView name;
        QStringView text;
        uint32_t firstAttribute = 0, attributeCount = 0;
        uint32_t firstChild = kNone, nextSibling = kNone, childCount = 0;
        qint64 line = 0;  // where the element starts in its file, 1-based
    };
    struct Attribute {
        QStringView name;
        QStringView value;
    };

    XmlTreeStorage() = default;
    XmlTreeStorage(const XmlTreeStorage&) = delete;
    XmlTreeStorage& operator=(const XmlTreeStorage&) = delete;

    const Element& element(uint32_t i) const { return m_elements[i >> kShift].at<Element>(i & kMask); }
    Element& element(uint32_t i) { return m_elements[i >> kShift].at<Element>(i & kMask); }
    const Attribute& attribute(uint32_t i) const { return m_attributes[i >> kShift].at<Attribute>(i & kMask); }
    uint32_t elementCount() const { return m_elementCount; }

    // For the reader that fills the storage: a new element, a new attribute (of the element added
    // last), and room for n characters that stays where it is.
    uint32_t addElement() {
        const uint32_t i = add<Element>(m_elements, m_elementCount);
        new (&element(i)) Element();
        return i;
    }
    uint32_t addAttribute(QStringView name, QStringView value) {
        const uint32_t i = add<Attribute>(m_attributes, m_attributeCount);
        new (&m_attributes[i >> kShift].at<Attribute>(i & kMask)) Attribute{name, value};
        return i;
    }
    char16_t* characters(std::size_t n);
    QStringView copy(QStringView s);
    // Moves every element's line by `by` (a part of a document parsed on its own).
    void shiftLines(qint64 by);

private:
    // Memory taken from the system directly (mmap), not from malloc: the blocks are large and
    // freed together after the import, and malloc would keep them as holes between the nodes
    // added meanwhile (26 bytes of RSS per imported variable; docs/Benchmarks.md).
    class Block {
    public:
        explicit Block(std::size_t bytes);
        Block(Block&& o) noexcept : m_p(std::exchange(o.m_p, nullptr)), m_bytes(o.m_bytes) {}
        Block(const Block&) = delete;
        Block& operator=(const Block&) = delete;
        Block& operator=(Block&&) = delete;
        ~Block();
        template <class T>
        T& at(uint32_t i) const { return static_cast<T*>(m_p)[i]; }
        char16_t* chars() const { return static_cast<char16_t*>(m_p); }
    private:
        void* m_p;
        std::size_t m_bytes;
    };

    static constexpr uint32_t kShift = 12, kMask = (1u << kShift) - 1;
    template <class T>
    static uint32_t add(std::vector<Block>& blocks, uint32_t& count) {
        if ((count & kMask) == 0) blocks.emplace_back((std::size_t(kMask) + 1) * sizeof(T));
        return count++;
    }

    std::vector<Block> m_elements;
    std::vector<Block> m_attributes;
    uint32_t m_elementCount = 0, m_attributeCount = 0;
    std::vector<Block> m_blocks;  // characters
    char16_t* m_free = nullptr;
    std::size_t m_left = 0;
};

// One element of a tree, not owning it. Null (false) when child() found none.
class XmlElementView {
public:
    XmlElementView() = default;
    XmlElementView(const XmlTreeStorage* s, uint32_t i) : m_s(s), m_i(i) {}
    explicit operator bool() const { return m_s != nullptr; }
    // The same element of the same storage (both null counts as the same).
    bool same(const XmlElementView& o) const { return m_s == o.m_s && (!m_s || m_i == o.m_i); }

    QStringView name() const { return e().name; }
    QStringView text() const { return e().text; }
    qint64 line() const { return e().line; }

    // The attribute, or def when absent.
    QStringView attribute(QStringView attrName, QStringView def = {}) const;
    bool hasAttribute(QStringView attrName) const;
    std::size_t attributeCount() const { return e().attributeCount; }
    // The i-th attribute in document order: local name, value.
    std::pair<QStringView, QStringView> attributeAt(std::size_t i) const {
        const auto& a = m_s->attribute(e().firstAttribute + uint32_t(i));
        return {a.name, a.value};
    }

    // The first child of that name, or a null element.
    XmlElementView child(QStringView childName) const;
    XmlElementView firstChild() const { return at(e().firstChild); }
    XmlElementView nextSibling() const { return at(e().nextSibling); }
    std::size_t childCount() const { return e().childCount; }

    // The children in document order: for (XmlElementView c : e.children()).
    class Children;
    Children children() const;

    // The element and its content as XML text (an XmlElement value, OPC 10000-6 5.3.1.9).
    QString toXml() const;
    // The same name, attributes, text, line and children, recursively.
    bool sameAs(const XmlElementView& other) const;

private:
    const XmlTreeStorage::Element& e() const { return m_s->element(m_i); }
    XmlElementView at(uint32_t i) const { return i == XmlTreeStorage::kNone ? XmlElementView() : XmlElementView(m_s, i); }

    const XmlTreeStorage* m_s = nullptr;
    uint32_t m_i = 0;
};

class XmlElementView::Children {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = XmlElementView;
        using difference_type = std::ptrdiff_t;
        using pointer = const XmlElementView*;
        using reference = XmlElementView;
        iterator() = default;
        explicit iterator(XmlElementView at) : m_at(at) {}
        XmlElementView operator*() const { return m_at; }
        const XmlElementView* operator->() const { return &m_at; }
        iterator& operator++() { m_at = m_at.nextSibling(); return *this; }
        iterator operator++(int) { iterator old = *this; ++*this; return old; }
        friend bool operator==(const iterator& a, const iterator& b) { return a.m_at.same(b.m_at); }
    private:
        XmlElementView m_at;
    };
    explicit Children(XmlElementView first) : m_first(first) {}
    iterator begin() const { return iterator(m_first); }
    iterator end() const { return iterator(); }
private:
    XmlElementView m_first;
};

inline XmlElementView::Children XmlElementView::children() const { return Children(firstChild()); }

// An element that keeps its storage alive: a child of a document's root, or the root itself
// (without its children). Copies share the storage.
class XmlTree : public XmlElementView {
public:
    XmlTree() = default;
    XmlTree(std::shared_ptr<const XmlTreeStorage> storage, uint32_t i) : XmlElementView(storage.get(), i), m_storage(std::move(storage)) {}

    friend bool operator==(const XmlTree& a, const XmlTree& b) {
        if (!a || !b) return !a == !b;
        return a.sameAs(b);
    }

private:
    std::shared_ptr<const XmlTreeStorage> m_storage;
};

} // namespace ua
