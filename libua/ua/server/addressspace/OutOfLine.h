// An attribute that few nodes have, kept out of the Node (Node.h): a node without it holds one
// null pointer (8 bytes instead of the value's 64 to 160), and the copies of a node that the
// node store makes when it changes one (copy on write) share it until one of them sets it. The
// count of the copies sharing a value is kept with the value (one allocation, no shared_ptr
// control block); it is atomic, since the last copy may go on any thread that held a snapshot.
//
// Reads see a default-constructed T when nothing was set (a null Variant, an empty
// LocalizedText, ValueSource without callbacks). The shared value is never changed in place:
// assigning and edit() give this node a value of its own first. Not thread-safe for writers, like
// the Node that holds it (a node is changed only on the thread that owns its copy).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace ua {

template <class T>
class OutOfLine {
public:
    OutOfLine() = default;
    OutOfLine(T v) : m_v(new Held(std::move(v))) {}  // NOLINT: implicit, as T was
    OutOfLine(const OutOfLine& other) : m_v(other.m_v) {
        if (m_v) m_v->refs.fetch_add(1, std::memory_order_relaxed);
    }
    OutOfLine(OutOfLine&& other) noexcept : m_v(std::exchange(other.m_v, nullptr)) {}
    OutOfLine& operator=(OutOfLine other) noexcept {
        std::swap(m_v, other.m_v);
        return *this;
    }
    OutOfLine& operator=(T v) { return *this = OutOfLine(std::move(v)); }
    ~OutOfLine() { release(); }

    const T& get() const { return m_v ? m_v->value : empty(); }
    operator const T&() const { return get(); }  // NOLINT: reads as the attribute itself
    const T& operator*() const { return get(); }
    const T* operator->() const { return &get(); }
    // True once a value was set (it may equal the default).
    bool isSet() const { return m_v != nullptr; }
    // The value set, or nullptr: for the request path, which then skips the shared default
    // (empty() is a function-local static, checked for its initialisation at every call).
    const T* find() const { return m_v ? &m_v->value : nullptr; }
    // The value to change in place: this node's own (copied first when shared or unset).
    T& edit() {
        if (!m_v || m_v->refs.load(std::memory_order_acquire) > 1) *this = OutOfLine(T(get()));
        return m_v->value;
    }

    friend bool operator==(const OutOfLine& a, const OutOfLine& b) { return a.get() == b.get(); }

private:
    struct Held {
        explicit Held(T v) : value(std::move(v)) {}
        std::atomic<uint32_t> refs{1};
        T value;  // never changed while shared (edit() copies first)
    };
    void release() {
        if (m_v && m_v->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete m_v;
        m_v = nullptr;
    }
    static const T& empty() {
        static const T e{};
        return e;
    }
    Held* m_v = nullptr;
};

} // namespace ua
