// Shared small helpers of the built-in types (OPC 10000-6 5.1).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ua {

// Box<T>: a heap-held value with value semantics (deep copy, deep ==). Used where a type
// contains itself (DiagnosticInfo, Variant holding a DataValue). An empty Box is "absent".
template <class T>
class Box {
public:
    Box() = default;
    Box(T v) : m_p(std::make_unique<T>(std::move(v))) {}
    Box(const Box& o) : m_p(o.m_p ? std::make_unique<T>(*o.m_p) : nullptr) {}
    Box(Box&&) noexcept = default;
    Box& operator=(const Box& o) { if (this != &o) m_p = o.m_p ? std::make_unique<T>(*o.m_p) : nullptr; return *this; }
    Box& operator=(Box&&) noexcept = default;
    explicit operator bool() const { return bool(m_p); }
    T& operator*() { return *m_p; }
    const T& operator*() const { return *m_p; }
    T* operator->() { return m_p.get(); }
    const T* operator->() const { return m_p.get(); }
    T* get() { return m_p.get(); }
    const T* get() const { return m_p.get(); }
    T& emplace() { m_p = std::make_unique<T>(); return *m_p; }
    void reset() { m_p.reset(); }
    friend bool operator==(const Box& a, const Box& b) {
        if (!a.m_p || !b.m_p) return !a.m_p && !b.m_p;
        return *a.m_p == *b.m_p;
    }
private:
    std::unique_ptr<T> m_p;
};

// Array<T>: an OPC UA array (OPC 10000-6 5.2.5). A std::vector that also remembers whether it was
// null (encoded length -1) or empty (length 0). A default Array is null; one with elements is
// never null; setEmpty() makes an empty, non-null array.
template <class T>
class Array : public std::vector<T> {
public:
    using std::vector<T>::vector;
    Array() = default;
    Array(std::vector<T> v) : std::vector<T>(std::move(v)), m_null(false) {}
    static Array emptyArray() { Array a; a.m_null = false; return a; }
    bool isNull() const { return m_null && this->empty(); }
    void setNull() { this->clear(); m_null = true; }
    void setEmpty() { this->clear(); m_null = false; }
    void setNotNull() { m_null = false; }  // keeps the elements
    friend bool operator==(const Array& a, const Array& b) {
        return a.isNull() == b.isNull() &&
               static_cast<const std::vector<T>&>(a) == static_cast<const std::vector<T>&>(b);
    }
private:
    bool m_null = true;
};

} // namespace ua
