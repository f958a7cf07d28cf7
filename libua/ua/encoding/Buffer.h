// A growable byte buffer for encoders. clear() keeps the capacity, so an encoder that writes into a
// reused Buffer allocates nothing once the buffer has grown to the message size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ua {

class Buffer {
public:
    Buffer() = default;
    explicit Buffer(std::size_t capacity) { reserve(capacity); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    Buffer(Buffer&& o) noexcept : m_data(o.m_data), m_size(o.m_size), m_cap(o.m_cap) { o.m_data = nullptr; o.m_size = o.m_cap = 0; }
    Buffer& operator=(Buffer&& o) noexcept {
        if (this != &o) { std::free(m_data); m_data = o.m_data; m_size = o.m_size; m_cap = o.m_cap; o.m_data = nullptr; o.m_size = o.m_cap = 0; }
        return *this;
    }
    ~Buffer() { std::free(m_data); }

    uint8_t* data() { return m_data; }
    const uint8_t* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_cap; }
    bool empty() const { return m_size == 0; }
    void clear() { m_size = 0; }
    void resize(std::size_t n) { reserve(n); m_size = n; }
    void reserve(std::size_t n) {
        if (n <= m_cap) return;
        std::size_t cap = m_cap ? m_cap : 256;
        while (cap < n) cap *= 2;
        auto* p = static_cast<uint8_t*>(std::realloc(m_data, cap));
        if (!p) throw std::bad_alloc();
        m_data = p;
        m_cap = cap;
    }
    // Makes room for n more bytes and returns where they go; the size grows by n.
    [[gnu::always_inline]] uint8_t* grow(std::size_t n) {
        if (m_size + n > m_cap) reserve(m_size + n);
        uint8_t* p = m_data + m_size;
        m_size += n;
        return p;
    }
    void append(const void* p, std::size_t n) { if (n) std::memcpy(grow(n), p, n); }
    // Gives the storage back to the allocator (size and capacity 0) when the capacity is above
    // keep bytes, whatever it holds; true when it did. For buffers that one large message grew and
    // that are idle now (an idle connection's, docs/Scalability.md): the caller knows the content
    // is no longer needed. Not for the request path.
    bool releaseAbove(std::size_t keep) {
        if (m_cap <= keep) return false;
        std::free(m_data);
        m_data = nullptr;
        m_size = m_cap = 0;
        return true;
    }

private:
    uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_cap = 0;
};

} // namespace ua
