// Reused Buffers that belong to the calling thread, lent for one scope: the encoding of one
// response, the responses of one batch. At thousands of connections a buffer of each connection's
// own is a cold cache line or two on every use; the thread's is warm (docs/Benchmarks.md, "Cold
// lines per request"). One buffer per thread and Purpose (any tag type). When it is already lent
// (a nested use on the same thread) lend() returns null and the caller uses a buffer of its own.
// A buffer given back above kKeep bytes is freed, so one large message does not pin its size for
// the thread's life.
#pragma once

#include "ua/encoding/Buffer.h"

namespace ua {

template <class Purpose>
class ThreadBuffer {
public:
    static constexpr std::size_t kKeep = 1024 * 1024;  // bytes: larger messages are rare (a big Browse or HistoryRead)

    // The thread's buffer, empty, or null when it is lent already.
    static Buffer* lend() {
        Slot& s = slot();
        if (s.lent) return nullptr;
        s.lent = true;
        s.buffer.clear();
        return &s.buffer;
    }
    // Takes back what lend() returned (on the same thread); its content is dropped.
    static void giveBack(Buffer* b) {
        Slot& s = slot();
        if (b != &s.buffer) return;
        s.buffer.clear();
        s.buffer.releaseAbove(kKeep);
        s.lent = false;
    }

private:
    struct Slot {
        Buffer buffer;
        bool lent = false;
    };
    static Slot& slot() {
        thread_local Slot s;
        return s;
    }
};

// The thread's buffer for Purpose for the scope of this object, or own when the thread's is lent.
template <class Purpose>
class LentBuffer {
public:
    explicit LentBuffer(Buffer& own) : m_lent(ThreadBuffer<Purpose>::lend()), m_buffer(m_lent ? m_lent : &own) {
        if (!m_lent) own.clear();
    }
    ~LentBuffer() {
        if (m_lent) ThreadBuffer<Purpose>::giveBack(m_lent);
    }
    LentBuffer(const LentBuffer&) = delete;
    LentBuffer& operator=(const LentBuffer&) = delete;

    Buffer& operator*() const { return *m_buffer; }
    Buffer* operator->() const { return m_buffer; }

private:
    Buffer* m_lent;
    Buffer* m_buffer;
};

} // namespace ua
