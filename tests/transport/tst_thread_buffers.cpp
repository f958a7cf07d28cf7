// The buffers a connection borrows from its thread instead of holding its own (docs/Benchmarks.md
// "Cold lines per request"): MessageFramer::readInPlace() cuts messages out of the thread's read
// buffer and keeps only what is left; BatchedWriter gathers a batch in the thread's buffer;
// ThreadBuffer lends one buffer per thread and purpose. What must hold: no byte of one connection
// lands in another's messages or writes, whatever order the connections of a thread read, pause
// and write in; and a connection that gets whole messages keeps no buffer of its own.
#include "ua/encoding/ThreadBuffer.h"
#include "ua/transport/BatchedWriter.h"
#include "ua/transport/MessageFramer.h"

#include <QByteArray>
#include <QList>
#include <QTest>
#include "TestMain.h"

using namespace ua;

namespace {

// A stream over bytes in memory: read() hands out what was fed, at most readLimit at once; write()
// records each call.
class MemoryStream final : public TcpStream {
public:
    QByteArray in;
    std::size_t readLimit = MessageFramer::kReadChunk;
    QList<QByteArray> writes;

    std::ptrdiff_t read(uint8_t* p, std::size_t max) override {
        const std::size_t n = std::min({max, readLimit, std::size_t(in.size())});
        std::memcpy(p, in.constData(), n);
        in.remove(0, qsizetype(n));
        return std::ptrdiff_t(n);
    }
    std::size_t write(const uint8_t* p, std::size_t n) override {
        writes.append(QByteArray(reinterpret_cast<const char*>(p), qsizetype(n)));
        return n;
    }
    std::size_t bytesToWrite() const override { return 0; }
    void setReading(bool) override {}
    bool shutdownWrite() override { return false; }
    void disconnectFromHost() override {}
    void abort() override {}
    State state() const override { return State::Connected; }
};

// A UA-TCP MSG message of size bytes whose body repeats fill.
QByteArray message(uint32_t size, char fill) {
    QByteArray m(qsizetype(size), fill);
    std::memcpy(m.data(), "MSGF", 4);
    std::memcpy(m.data() + 4, &size, 4);
    return m;
}

QByteArray next(MessageFramer& f) {
    const uint8_t* p = nullptr;
    std::size_t n = 0;
    if (f.next(1 << 20, p, n) != MessageFramer::Result::Message) return {};
    return QByteArray(reinterpret_cast<const char*>(p), qsizetype(n));
}

struct TagA;
struct TagB;

} // namespace

class TestThreadBuffers : public QObject {
    Q_OBJECT
private slots:
    void wholeMessagesAreCutInPlace() {
        MemoryStream s;
        s.in = message(100, 'a') + message(3000, 'b') + message(40, 'c');
        MessageFramer f;
        {
            const MessageFramer::KeepRest keep(f);
            QCOMPARE(f.readInPlace(s), std::ptrdiff_t(3140));
            QCOMPARE(next(f), message(100, 'a'));
            QCOMPARE(next(f), message(3000, 'b'));
            QCOMPARE(next(f), message(40, 'c'));
            QCOMPARE(next(f), QByteArray());
        }
        QCOMPARE(f.capacity(), std::size_t(0));  // nothing was copied into the framer
    }

    // A connection holds half a message while another reads in place on the same thread (and so
    // overwrites the thread's buffer): its half was copied out first, and the message comes whole.
    void partialMessageSurvivesAnotherConnectionsRead() {
        MemoryStream a, b;
        const QByteArray a1 = message(200, '1'), a2 = message(5000, '2'), b1 = message(6000, 'x');
        a.in = a1 + a2.left(1000);
        b.in = b1;
        MessageFramer fa, fb;
        {
            const MessageFramer::KeepRest keep(fa);
            QVERIFY(fa.readInPlace(a) > 0);
            QCOMPARE(next(fa), a1);
            QCOMPARE(next(fa), QByteArray());  // the second one is not whole yet
        }
        QVERIFY(fa.capacity() >= 1000);  // its first 1000 bytes, kept
        {
            const MessageFramer::KeepRest keep(fb);
            QVERIFY(fb.readInPlace(b) > 0);
            QCOMPARE(next(fb), b1);
        }
        QCOMPARE(fb.capacity(), std::size_t(0));
        a.in = a2.mid(1000);
        {
            const MessageFramer::KeepRest keep(fa);
            QVERIFY(fa.readInPlace(a) > 0);
            QCOMPARE(next(fa), a2);
        }
    }

    // Messages held back (reading paused after the first) are copied out when the scope ends, and
    // come after another connection's read, also when the socket has nothing new (read() 0).
    void heldBackMessagesSurviveAnotherConnectionsRead() {
        MemoryStream a, b;
        const QByteArray a1 = message(64, 'p'), a2 = message(700, 'q'), a3 = message(64, 'r');
        a.in = a1 + a2 + a3;
        b.in = message(900, 'z');
        MessageFramer fa, fb;
        {
            const MessageFramer::KeepRest keep(fa);
            QVERIFY(fa.readInPlace(a) > 0);
            QCOMPARE(next(fa), a1);
        }
        {
            const MessageFramer::KeepRest keep(fb);
            QVERIFY(fb.readInPlace(b) > 0);
            QCOMPARE(next(fb), message(900, 'z'));
        }
        {
            const MessageFramer::KeepRest keep(fa);
            QCOMPARE(fa.readInPlace(a), std::ptrdiff_t(0));
            QCOMPARE(next(fa), a2);
            QCOMPARE(next(fa), a3);
            QCOMPARE(next(fa), QByteArray());
        }
        // And bytes that arrive behind kept ones come after them, in order.
        a.in = message(80, 's') + message(90, 't');
        {
            const MessageFramer::KeepRest keep(fa);
            QVERIFY(fa.readInPlace(a) > 0);
            QCOMPARE(next(fa), message(80, 's'));
        }
        {
            const MessageFramer::KeepRest keep(fa);
            a.in = message(50, 'u');
            QVERIFY(fa.readInPlace(a) > 0);
            QCOMPARE(next(fa), message(90, 't'));
            QCOMPARE(next(fa), message(50, 'u'));
        }
    }

    // A message trickling in a few bytes per read is assembled in the framer's own buffer.
    void tricklingMessageIsAssembled() {
        MemoryStream a;
        const QByteArray m = message(1500, 'k');
        a.in = m + message(20, 'l');
        a.readLimit = 7;
        MessageFramer f;
        QList<QByteArray> got;
        for (int i = 0; i < 1000 && got.size() < 2; ++i) {
            const MessageFramer::KeepRest keep(f);
            f.readInPlace(a);
            for (QByteArray x = next(f); !x.isEmpty(); x = next(f)) got.append(x);
        }
        QCOMPARE(got, (QList<QByteArray>{m, message(20, 'l')}));
    }

    void tooLargeAndUnknownAreReportedInPlace() {
        MemoryStream a;
        a.in = message(5000, 'm');
        const uint8_t* p = nullptr;
        std::size_t n = 0;
        MessageFramer f;
        {
            const MessageFramer::KeepRest keep(f);
            QVERIFY(f.readInPlace(a) > 0);
            QCOMPARE(f.next(4096, p, n), MessageFramer::Result::TooLarge);
        }
        MessageFramer g;
        {
            const MessageFramer::KeepRest keep(g);
            a.in = QByteArray("XYZF\x10\0\0\0abcdefgh", 16);
            QVERIFY(g.readInPlace(a) > 0);
            QCOMPARE(g.next(4096, p, n), MessageFramer::Result::UnknownType);
        }
    }

    // A connection reads in place inside another's scope (a handler that runs a nested event
    // loop): it copies into its own buffer, and the outer one's messages, the one being processed
    // and the ones not reached yet, stay intact. Once the outer scope ends, reads are in place again.
    void nestedReadDoesNotOverwriteTheOuterMessages() {
        MemoryStream a, b;
        const QByteArray a1 = message(300, 'o'), a2 = message(400, 'p');
        a.in = a1 + a2;
        b.in = message(700, 'n');
        MessageFramer fa, fb;
        {
            const MessageFramer::KeepRest keep(fa);
            QVERIFY(fa.readInPlace(a) > 0);
            const uint8_t* p = nullptr;
            std::size_t n = 0;
            QCOMPARE(fa.next(1 << 20, p, n), MessageFramer::Result::Message);  // a1, being processed
            {
                const MessageFramer::KeepRest nested(fb);
                QVERIFY(fb.readInPlace(b) > 0);
                QCOMPARE(next(fb), message(700, 'n'));
            }
            QVERIFY(fb.capacity() > 0);  // copied, not in place
            QCOMPARE(QByteArray(reinterpret_cast<const char*>(p), qsizetype(n)), a1);
            QCOMPARE(next(fa), a2);
        }
        QCOMPARE(fa.capacity(), std::size_t(0));
        MessageFramer fc;
        MemoryStream c;
        c.in = message(64, 'c');
        {
            const MessageFramer::KeepRest keep(fc);
            QVERIFY(fc.readInPlace(c) > 0);
            QCOMPARE(next(fc), message(64, 'c'));
        }
        QCOMPARE(fc.capacity(), std::size_t(0));  // in place again
    }

    // One writer's batch holds the thread's buffer; another writer of the same thread, inside that
    // batch, writes at once outside a batch and gathers in its own buffer inside one: no byte of one
    // goes to the other's stream, and each batch is one write.
    void nestedWritersOfOneThreadDoNotMix() {
        MemoryStream sa, sb;
        BatchedWriter a(&sa), b(&sb);
        const auto bytes = [](const char* t) { return reinterpret_cast<const uint8_t*>(t); };
        {
            const BatchedWriter::Batch batchA(a);
            a.send(bytes("a1"), 2);
            b.send(bytes("b1"), 2);  // outside b's batch: at once
            QCOMPARE(sb.writes, QList<QByteArray>{"b1"});
            {
                const BatchedWriter::Batch batchB(b);
                b.send(bytes("b2"), 2);
                b.send(bytes("b3"), 2);
                QCOMPARE(sb.writes.size(), 1);
            }
            QCOMPARE(sb.writes, (QList<QByteArray>{"b1", "b2b3"}));
            a.send(bytes("a2"), 2);
            QCOMPARE(a.pendingMessages(), std::size_t(2));
            QVERIFY(sa.writes.isEmpty());
        }
        QCOMPARE(sa.writes, QList<QByteArray>{"a1a2"});
        QCOMPARE(a.capacity(), std::size_t(0));  // a gathered in the thread's buffer
        QVERIFY(b.capacity() > 0);               // b, nested, in its own
        // A flush inside a batch writes what is gathered so far.
        {
            const BatchedWriter::Batch batchA(a);
            a.send(bytes("a3"), 2);
            a.flush();
            a.send(bytes("a4"), 2);
        }
        QCOMPARE(sa.writes, (QList<QByteArray>{"a1a2", "a3", "a4"}));
    }

    // Without a stream, what a batch gathered stays gathered (in the writer's own buffer once the
    // thread's goes back) and is written, in order, once there is one.
    void writerWithoutAStreamKeepsWhatItGathered() {
        BatchedWriter w;
        const auto bytes = [](const char* t) { return reinterpret_cast<const uint8_t*>(t); };
        {
            const BatchedWriter::Batch batch(w);
            w.send(bytes("x1"), 2);
        }
        w.send(bytes("x2"), 2);
        {
            const BatchedWriter::Batch batch(w);
            w.send(bytes("x3"), 2);
        }
        QCOMPARE(w.pendingMessages(), std::size_t(3));
        MemoryStream s;
        w.setStream(&s);
        w.flush();
        QCOMPARE(s.writes, QList<QByteArray>{"x1x2x3"});
        // The thread's buffer was given back: another writer's batch gets it.
        MemoryStream s2;
        BatchedWriter w2(&s2);
        {
            const BatchedWriter::Batch batch(w2);
            w2.send(bytes("y"), 1);
        }
        QCOMPARE(w2.capacity(), std::size_t(0));
        QCOMPARE(s2.writes, QList<QByteArray>{"y"});
    }

    void threadBufferIsLentOncePerPurpose() {
        Buffer* a = ThreadBuffer<TagA>::lend();
        QVERIFY(a);
        QVERIFY(!ThreadBuffer<TagA>::lend());  // lent already
        Buffer* b = ThreadBuffer<TagB>::lend();  // another purpose has its own
        QVERIFY(b && b != a);
        a->resize(ThreadBuffer<TagA>::kKeep + 1);
        ThreadBuffer<TagA>::giveBack(a);
        ThreadBuffer<TagB>::giveBack(b);
        Buffer* again = ThreadBuffer<TagA>::lend();
        QCOMPARE(again, a);
        QCOMPARE(again->capacity(), std::size_t(0));  // above kKeep: freed when given back
        QVERIFY(again->empty());
        {
            Buffer own;
            const LentBuffer<TagA> nested(own);  // the thread's is lent: the caller's own is used
            QCOMPARE(&*nested, &own);
        }
        ThreadBuffer<TagA>::giveBack(again);
        Buffer own;
        const LentBuffer<TagA> lent(own);
        QCOMPARE(&*lent, a);
    }
};

UA_TEST_GUILESS_MAIN(TestThreadBuffers)
#include "tst_thread_buffers.moc"
