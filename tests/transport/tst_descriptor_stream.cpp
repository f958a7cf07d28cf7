// DescriptorStream (libua/ua/transport/DescriptorStream.h) over a real loopback TCP connection:
// the test holds the other end as a plain descriptor and checks what the peer sees (bytes in
// order, FIN, RST) and what the stream reports to its handler.
#include "ua/transport/DescriptorStream.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include "TestMain.h"
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace ua;

namespace {

struct Recorder : TcpStream::Handler {
    int readable = 0;
    int closed = 0;
    std::size_t written = 0;
    std::function<void()> onRead;  // optional: what to do when readable
    void onReadable() override {
        ++readable;
        if (onRead) onRead();
    }
    void onBytesWritten(std::size_t n) override { written += n; }
    void onClosed() override { ++closed; }
};

// A connected loopback TCP pair: the stream's end (accepted) and the peer's end (connected).
struct TcpPair {
    int streamFd = -1;
    int peerFd = -1;
    quint16 peerPort = 0;
    TcpPair() {
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener, 1) != 0 ||
            ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            qFatal("listen: %s", strerror(errno));
        peerFd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (::connect(peerFd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) qFatal("connect: %s", strerror(errno));
        streamFd = ::accept(listener, nullptr, nullptr);
        ::close(listener);
        sockaddr_in p{};
        len = sizeof p;
        ::getsockname(peerFd, reinterpret_cast<sockaddr*>(&p), &len);
        peerPort = ntohs(p.sin_port);
        ::fcntl(peerFd, F_SETFL, ::fcntl(peerFd, F_GETFL) | O_NONBLOCK);
    }
    ~TcpPair() {
        if (peerFd >= 0) ::close(peerFd);
    }
    void peerSend(const QByteArray& b) const { QVERIFY(::send(peerFd, b.constData(), std::size_t(b.size()), MSG_NOSIGNAL) == b.size()); }
    // The peer closes with RST instead of FIN.
    void peerReset() {
        linger l{1, 0};
        ::setsockopt(peerFd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        ::close(peerFd);
        peerFd = -1;
    }
    void peerClose() {
        ::close(peerFd);
        peerFd = -1;
    }
    // What the peer receives until EOF (eof set) or until want bytes or timeoutMs, running the
    // event loop meanwhile (the stream writes what it queued from there).
    QByteArray peerReceive(qsizetype want, int timeoutMs, bool* eof = nullptr) const {
        QByteArray got;
        char buf[65536];
        QElapsedTimer t;
        t.start();
        if (eof) *eof = false;
        while (got.size() < want && t.elapsed() < timeoutMs) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            const ssize_t n = ::recv(peerFd, buf, sizeof buf, 0);
            if (n > 0) got.append(buf, n);
            if (n == 0) {
                if (eof) *eof = true;
                break;
            }
        }
        return got;
    }
};

QByteArray pattern(qsizetype n, int seed) {
    QByteArray b(n, Qt::Uninitialized);
    for (qsizetype i = 0; i < n; ++i) b[i] = char((i * 131 + seed) & 0xff);
    return b;
}

} // namespace

class TestDescriptorStream : public QObject {
    Q_OBJECT
private slots:
    void readsWhatArrives();
    void knowsItsPeer();
    void queuesWhatTheKernelDoesNotTakeInOrder();
    void peerCloseIsReportedOnce();
    void peerResetIsReportedOnce();
    void pausedReadingIsNotAnnounced();
    void disconnectDeliversQueuedBytesFirst();
    void shutdownWriteSendsFinAndKeepsReading();
    void abortReportsNothing();
    void writeToAResetPeerReportsClosed();
};

void TestDescriptorStream::readsWhatArrives() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    uint8_t buf[64];
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(0));  // nothing there: 0, not an error
    pair.peerSend("hello");
    QTRY_VERIFY(r.readable > 0);
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(5));
    QCOMPARE(QByteArray(reinterpret_cast<char*>(buf), 5), QByteArray("hello"));
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(0));
    QCOMPARE(s.state(), TcpStream::State::Connected);
    QCOMPARE(r.closed, 0);
}

void TestDescriptorStream::knowsItsPeer() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    QCOMPARE(s.peerAddress(), QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(s.peerPort(), pair.peerPort);
}

void TestDescriptorStream::queuesWhatTheKernelDoesNotTakeInOrder() {
    TcpPair pair;
    const int small = 65536;  // kernel buffers far below 4 MB, so that the kernel cannot take it at once
    ::setsockopt(pair.streamFd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    ::setsockopt(pair.peerFd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    const QByteArray a = pattern(4 << 20, 1);
    const QByteArray b = pattern(1000, 7);
    const std::size_t sentA = s.write(reinterpret_cast<const uint8_t*>(a.constData()), std::size_t(a.size()));
    QVERIFY(sentA < std::size_t(a.size()));
    QCOMPARE(s.bytesToWrite(), std::size_t(a.size()) - sentA);
    // Written while the first is queued: nothing of it goes out before the queue.
    QCOMPARE(s.write(reinterpret_cast<const uint8_t*>(b.constData()), std::size_t(b.size())), std::size_t(0));
    QCOMPARE(s.bytesToWrite(), std::size_t(a.size() + b.size()) - sentA);
    const QByteArray got = pair.peerReceive(a.size() + b.size(), 20000);
    QCOMPARE(got.size(), a.size() + b.size());
    QVERIFY(got == a + b);
    QTRY_COMPARE(s.bytesToWrite(), std::size_t(0));
    QCOMPARE(r.written, std::size_t(a.size() + b.size()) - sentA);  // every queued byte reported once
    QCOMPARE(r.closed, 0);
}

void TestDescriptorStream::peerCloseIsReportedOnce() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    pair.peerSend("last");
    pair.peerClose();
    QTRY_VERIFY(r.readable > 0);
    uint8_t buf[64];
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(4));  // what came before the FIN is read first
    QTRY_VERIFY(r.readable > 1);
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(-1));
    QCOMPARE(s.state(), TcpStream::State::Unconnected);
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(-1));
    QTRY_COMPARE(r.closed, 1);
    QTest::qWait(50);
    QCOMPARE(r.closed, 1);
}

void TestDescriptorStream::peerResetIsReportedOnce() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    r.onRead = [&] {
        uint8_t buf[64];
        s.read(buf, sizeof buf);
    };
    pair.peerReset();
    QTRY_COMPARE(r.closed, 1);
    QCOMPARE(s.state(), TcpStream::State::Unconnected);
    QTest::qWait(50);
    QCOMPARE(r.closed, 1);
}

void TestDescriptorStream::pausedReadingIsNotAnnounced() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    s.setReading(false);
    pair.peerSend("while paused");
    QTest::qWait(100);
    QCOMPARE(r.readable, 0);
    s.setReading(true);
    QTRY_VERIFY(r.readable > 0);
    uint8_t buf[64];
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(12));
}

void TestDescriptorStream::disconnectDeliversQueuedBytesFirst() {
    TcpPair pair;
    const int small = 65536;
    ::setsockopt(pair.streamFd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    ::setsockopt(pair.peerFd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    const QByteArray a = pattern(2 << 20, 3);
    QVERIFY(s.write(reinterpret_cast<const uint8_t*>(a.constData()), std::size_t(a.size())) < std::size_t(a.size()));
    s.disconnectFromHost();
    QCOMPARE(s.state(), TcpStream::State::Closing);
    bool eof = false;
    const QByteArray got = pair.peerReceive(a.size() + 1, 20000, &eof);
    QVERIFY(got == a);
    QVERIFY(eof);
    QTRY_COMPARE(r.closed, 1);
    QCOMPARE(s.state(), TcpStream::State::Unconnected);
}

void TestDescriptorStream::shutdownWriteSendsFinAndKeepsReading() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    const QByteArray err("ERR");
    QCOMPARE(s.write(reinterpret_cast<const uint8_t*>(err.constData()), 3), std::size_t(3));
    QVERIFY(s.shutdownWrite());
    bool eof = false;
    QCOMPARE(pair.peerReceive(4, 5000, &eof), err);
    QVERIFY(eof);
    pair.peerSend("x");
    QTRY_VERIFY(r.readable > 0);
    uint8_t buf[8];
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(1));
    QCOMPARE(r.closed, 0);
}

void TestDescriptorStream::abortReportsNothing() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    s.abort();
    QCOMPARE(s.state(), TcpStream::State::Unconnected);
    bool eof = false;
    pair.peerReceive(1, 2000, &eof);
    QVERIFY(eof);  // the descriptor is closed
    QTest::qWait(50);
    QCOMPARE(r.closed, 0);
    uint8_t buf[8];
    QCOMPARE(s.read(buf, sizeof buf), std::ptrdiff_t(-1));
    QCOMPARE(s.write(buf, sizeof buf), std::size_t(0));
}

void TestDescriptorStream::writeToAResetPeerReportsClosed() {
    TcpPair pair;
    Recorder r;
    DescriptorStream s(pair.streamFd, r);
    s.setReading(false);  // the reset is met by the write, not by a read
    pair.peerReset();
    QTest::qWait(50);
    const QByteArray b("after the reset");
    s.write(reinterpret_cast<const uint8_t*>(b.constData()), std::size_t(b.size()));
    QCOMPARE(s.state(), TcpStream::State::Unconnected);
    QTRY_COMPARE(r.closed, 1);
}

UA_TEST_GUILESS_MAIN(TestDescriptorStream)
#include "tst_descriptor_stream.moc"
