// This test process's memory, for tests that check the server returns to its baseline (Linux,
// glibc). Under a sanitizer (UA_TEST_SANITIZER, set by ua_add_qtest in tests/CMakeLists.txt) the
// figures do not mean that: AddressSanitizer keeps freed memory in quarantine and both it and
// ThreadSanitizer allocate shadow memory, so tests skip their memory bounds when kSanitizer is
// true (LeakSanitizer checks for leaks there instead).
#pragma once

#include <QByteArray>
#include <QFile>
#include <QtGlobal>
#include <malloc.h>

namespace ua::test {

#ifdef UA_TEST_SANITIZER
inline constexpr bool kSanitizer = true;
#else
inline constexpr bool kSanitizer = false;
#endif

// Bytes the heap has handed out and not got back (glibc, every arena: small blocks plus mmap'ed
// ones). Unlike RSS it does not count what free() returned to the allocator's caches, so it is
// back at its baseline when everything allocated meanwhile has been freed.
inline qint64 heapInUseBytes() {
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd);
}

// Resident memory (bytes) from /proc/self/status; -1 if it cannot be read.
inline qint64 rssBytes() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    return -1;
}

} // namespace ua::test
