// An attribute that few nodes have, kept out of the Node (Node.h): a node without it holds one
// null pointer (16 bytes instead of the value's 64 to 160), and the copies of a node that the
// node store makes when it changes one (copy on write) share it until one of them sets it.
//
// Reads see a default-constructed T when nothing was set (a null Variant, an empty
// LocalizedText, ValueSource without callbacks). The shared value is never changed in place:
// assigning and edit() give this node a value of its own first. Not thread-safe for writers, like
// the Node that holds it (a node is changed only on the thread that owns its copy).
#pragma once

#include <memory>
#include <utility>

namespace ua {

template <class T>
class OutOfLine {
public:
    OutOfLine() = default;
    OutOfLine(T v) : m_v(std::make_shared<T>(std::move(v))) {}  // NOLINT: implicit, as T was
    OutOfLine& operator=(T v) {
        m_v = std::make_shared<T>(std::move(v));
        return *this;
    }

    const T& get() const { return m_v ? *m_v : empty(); }
    operator const T&() const { return get(); }  // NOLINT: reads as the attribute itself
    const T& operator*() const { return get(); }
    const T* operator->() const { return &get(); }
    // True once a value was set (it may equal the default).
    bool isSet() const { return m_v != nullptr; }
    // The value to change in place: this node's own (copied first when shared or unset).
    T& edit() {
        if (!m_v || m_v.use_count() > 1) m_v = std::make_shared<T>(get());
        return *m_v;
    }

    friend bool operator==(const OutOfLine& a, const OutOfLine& b) { return a.get() == b.get(); }

private:
    static const T& empty() {
        static const T e{};
        return e;
    }
    std::shared_ptr<T> m_v;  // never changed while shared (edit() copies first)
};

} // namespace ua
