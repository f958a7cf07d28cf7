// read-1 from blocking clients, one thread and one connection per Session, each sending its Read
// and waiting in recv() for the response before the next: the way a synchronous client library is
// used (the open62541 C client's UA_Client_read, a .NET Session.Read, a Python client), unlike our
// load tester, which keeps all its Sessions on one epoll thread. Issue 25 asks why such a client
// gets less from our server than from open62541's; open62541 cannot be built here, so the same
// clients also run against a "ceiling": a single-threaded epoll server in this process that answers
// each message with a ReadResponse of the real size, encoded once. What our server adds to the
// ceiling's latency beyond its own CPU per request is what waits.
//
//   bench_blocking_clients (--port P [--server-pid PID] | --self | --ceiling) [--sessions 20]
//                          [--seconds 5] [--warmup 1] [--node-id 1000] [--namespace 1] [--host 127.0.0.1]
//
// --port: a server running on its own (ours: build/server-app/ua-server --headless; node-opcua's:
// tests/interop/node_bench_server.js); --self: our Server in this process, with the demo and
// benchmark namespaces (ctest's smoke pass: the handshake and the Reads against the real server).
//
// SecurityPolicy None, anonymous. Prints one line: requests/s, latency p50/p90/p99 in µs, the
// clients' CPU per request, and with --server-pid the server's CPU per request and context switches
// per request (from /proc). Exit code 2 on errors (a Read that fails, a connection lost).
#include "DemoExtension.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/ChunkSecurity.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/transport/TcpMessages.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ua;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    int port = 0;
    int serverPid = 0;
    bool ceiling = false;
    bool self = false;
    int sessions = 20;
    double seconds = 5;
    double warmup = 1;
    uint32_t nodeId = 1000;
    uint16_t ns = 1;
};

// A blocking UA-TCP connection with a SecureChannel (None) and an activated anonymous Session.
class BlockingClient {
public:
    ~BlockingClient() {
        if (m_fd >= 0) ::close(m_fd);
    }
    bool connect(const Options& o) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(o.port));
        if (::inet_pton(AF_INET, o.host.c_str(), &a.sin_addr) != 1) return false;
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return false;
        const int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        const timeval timeout{10, 0};  // a lost response fails the run instead of hanging it
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        return true;
    }
    // Hello, OpenSecureChannel, CreateSession, ActivateSession; nullptr, or the step that failed.
    const char* handshake(const Options& o) {
        Buffer b;
        encodeHello(b, HelloMessage{0, 1 << 16, 1 << 16, 0, 0, String("opc.tcp://" + o.host + ":" + std::to_string(o.port))});
        if (!sendAll(b.data(), b.size()) || !nextMessage() || std::memcmp(m_msg, "ACK", 3) != 0) return "Hello";
        // The chunks are sealed and opened by libua (secure/ChunkSecurity.h), policy None.
        OpenSecureChannelRequest req;
        req.requestType = SecurityTokenRequestType::Issue;
        req.securityMode = MessageSecurityMode::None;
        req.clientNonce = ByteString("");
        req.requestedLifetime = 3600000;
        encodeBody(req);
        AsymmetricSecurity none;  // no keys, no certificates
        none.policy = &securityPolicy(SecurityPolicyId::None);
        m_out.clear();
        if (sealAsymmetric(m_out, 0, none, m_requestId++, m_body.data(), m_body.size(), ChunkLimits{}, m_sequence).isBad() ||
            !sendAll(m_out.data(), m_out.size()) || !nextMessage() || std::memcmp(m_msg, "OPN", 3) != 0)
            return "OpenSecureChannel";
        AsymmetricHeader header;
        OpenedChunk opened;
        if (parseAsymmetricHeader(m_msg, m_msgSize, 0, header).isBad() ||
            openAsymmetric(m_msg, m_msgSize, header.size, none, m_scratch, opened).isBad())
            return "OpenSecureChannel";
        BinaryDecoder d(opened.body, opened.bodySize);
        NodeId type;
        decode(d, type);
        OpenSecureChannelResponse r;
        decode(d, r);
        if (!d.ok() || r.responseHeader.serviceResult.isBad()) return "OpenSecureChannel";
        m_channelId = r.securityToken.channelId;
        m_tokenId = r.securityToken.tokenId;

        CreateSessionRequest cs;
        cs.sessionName = String("blocking");
        cs.requestedSessionTimeout = 600000;
        cs.maxResponseMessageSize = 0;
        CreateSessionResponse csr;
        if (!call(cs, csr)) return "CreateSession";
        m_token = csr.authenticationToken;
        ActivateSessionRequest as;
        as.requestHeader.authenticationToken = m_token;
        AnonymousIdentityToken anon;
        anon.policyId = String("anonymous");
        for (const auto& ep : csr.serverEndpoints) {
            if (ep.securityMode != MessageSecurityMode::None) continue;
            for (const auto& p : ep.userIdentityTokens)
                if (p.tokenType == UserTokenType::Anonymous) anon.policyId = p.policyId;
        }
        as.userIdentityToken = ExtensionObject::make(anon);
        ActivateSessionResponse asr;
        return call(as, asr) ? nullptr : "ActivateSession";
    }
    // The Read request of the closed loop: one Value of ns;i=nodeId.
    ReadRequest readRequest(const Options& o) const {
        ReadRequest r;
        r.requestHeader.authenticationToken = m_token;
        r.requestHeader.timeoutHint = 10000;
        r.timestampsToReturn = TimestampsToReturn::Both;
        ReadValueId v;
        v.nodeId = NodeId(o.ns, o.nodeId);
        v.attributeId = uint32_t(AttributeId::Value);
        r.nodesToRead = Array<ReadValueId>(std::vector<ReadValueId>{v});
        return r;
    }
    template <class T>
    bool send(T& request) {
        request.requestHeader.requestHandle = m_requestId;
        encodeBody(request);
        m_out.clear();
        return sealSymmetric(m_out, TcpMessageType::Message, ChunkType::Final, m_channelId,
                             SymmetricSecurity{MessageSecurityMode::None, nullptr, m_tokenId}, m_requestId++, m_body.data(),
                             m_body.size(), ChunkLimits{1 << 16, 0, 0}, m_sequence)
                   .isGood() &&
               sendAll(m_out.data(), m_out.size());
    }
    template <class Resp>
    bool receive(Resp& resp) {
        OpenedChunk opened;
        if (!nextMessage() || std::memcmp(m_msg, "MSG", 3) != 0 || m_msg[3] != 'F' ||
            openSymmetric(m_msg, m_msgSize, SymmetricSecurity{MessageSecurityMode::None, nullptr, m_tokenId}, m_scratch, opened)
                .isBad())
            return false;
        BinaryDecoder d(opened.body, opened.bodySize);
        NodeId type;
        decode(d, type);
        if (type != NodeId(Resp::kBinaryEncodingId)) return false;
        decode(d, resp);
        lastResult = resp.responseHeader.serviceResult;
        return d.ok() && resp.responseHeader.serviceResult.isGood();
    }
    StatusCode lastResult;  // of the last response received

    template <class Req, class Resp>
    bool call(Req& req, Resp& resp) { return send(req) && receive(resp); }

private:
    // The type id and the fields of message into m_body.
    template <class T>
    void encodeBody(const T& message) {
        m_body.clear();
        BinaryEncoder e(m_body);
        encode(e, NodeId(T::kBinaryEncodingId));
        encode(e, message);
    }
    bool sendAll(const uint8_t* p, std::size_t n) {
        while (n) {
            const ssize_t r = ::send(m_fd, p, n, MSG_NOSIGNAL);
            if (r <= 0) return false;
            p += r;
            n -= std::size_t(r);
        }
        return true;
    }
    // The next whole message into m_msg/m_msgSize; blocks in recv() until it is complete, reading
    // what the kernel has (up to 64 KiB) each time, as a client library's receive buffer does.
    bool nextMessage() {
        if (m_consumed) {
            std::memmove(m_in.data(), m_in.data() + m_consumed, m_have - m_consumed);
            m_have -= m_consumed;
            m_consumed = 0;
        }
        while (true) {
            if (m_have >= 8) {
                uint32_t size;
                std::memcpy(&size, m_in.data() + 4, 4);
                if (size < 8 || size > (1u << 24)) return false;
                if (m_have >= size) {
                    m_msg = m_in.data();
                    m_msgSize = size;
                    m_consumed = size;
                    return true;
                }
            }
            if (m_in.size() - m_have < 65536) m_in.resize(m_have + 65536);  // grows, never shrinks: no fill per read
            const ssize_t r = ::recv(m_fd, m_in.data() + m_have, m_in.size() - m_have, 0);
            if (r <= 0) return false;
            m_have += std::size_t(r);
        }
    }

    int m_fd = -1;
    std::vector<uint8_t> m_in;  // m_have bytes received, m_consumed of them handed out
    std::size_t m_have = 0;
    std::size_t m_consumed = 0;
    const uint8_t* m_msg = nullptr;
    std::size_t m_msgSize = 0;
    Buffer m_body, m_out, m_scratch;
    SequenceCounter m_sequence;
    uint32_t m_channelId = 0, m_tokenId = 0, m_requestId = 1;
    NodeId m_token;
};

// The ceiling: one epoll thread that answers every whole UA-TCP message it receives with a copy of
// `response` (a ReadResponse message of the real size). Stops when stop is set.
void ceilingServer(int listenFd, const std::vector<uint8_t>& response, const std::atomic<bool>& stop,
                   std::atomic<clockid_t>& cpuClock, std::atomic<int>& tid) {
    clockid_t clock;
    if (::pthread_getcpuclockid(::pthread_self(), &clock) == 0) cpuClock = clock;
    tid = int(::gettid());  // last: main() waits for it, then reads both
    const int ep = ::epoll_create1(0);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listenFd;
    ::epoll_ctl(ep, EPOLL_CTL_ADD, listenFd, &ev);
    std::vector<std::vector<uint8_t>> pending;  // by descriptor
    std::vector<uint8_t> buf(65536), out;
    epoll_event evs[256];
    while (!stop.load(std::memory_order_relaxed)) {
        const int n = ::epoll_wait(ep, evs, 256, 100);
        for (int i = 0; i < n; ++i) {
            const int fd = evs[i].data.fd;
            if (fd == listenFd) {
                const int c = ::accept(listenFd, nullptr, nullptr);
                if (c < 0) continue;
                if (std::size_t(c) >= pending.size()) pending.resize(std::size_t(c) + 1);
                const int one = 1;
                ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                epoll_event e{};
                e.events = EPOLLIN;
                e.data.fd = c;
                ::epoll_ctl(ep, EPOLL_CTL_ADD, c, &e);
                continue;
            }
            const ssize_t r = ::recv(fd, buf.data(), buf.size(), 0);
            if (r <= 0) {
                ::close(fd);
                continue;
            }
            auto& in = pending[std::size_t(fd)];
            in.insert(in.end(), buf.begin(), buf.begin() + r);
            std::size_t at = 0;
            out.clear();
            while (in.size() - at >= 8) {
                uint32_t size;
                std::memcpy(&size, in.data() + at + 4, 4);
                if (in.size() - at < size) break;
                at += size;
                out.insert(out.end(), response.begin(), response.end());
            }
            in.erase(in.begin(), in.begin() + std::ptrdiff_t(at));
            if (!out.empty() && ::send(fd, out.data(), out.size(), MSG_NOSIGNAL) < 0) ::close(fd);
        }
    }
    ::close(ep);
}

// A ReadResponse message as our server sends it for read-1 (one Int32 with both timestamps), with
// channel, token, sequence number and request id 1: the client checks the type and the status.
std::vector<uint8_t> cannedReadResponse() {
    Buffer body;
    BinaryEncoder e(body);
    encode(e, NodeId(ReadResponse::kBinaryEncodingId));
    ReadResponse r;
    r.responseHeader.timestamp = DateTime::now();
    r.responseHeader.requestHandle = 1;
    DataValue v;
    v.value = Variant(int32_t(42));
    v.hasValue = true;
    v.sourceTimestamp = DateTime::now();
    v.hasSourceTimestamp = true;
    v.serverTimestamp = DateTime::now();
    v.hasServerTimestamp = true;
    r.results = Array<DataValue>(std::vector<DataValue>{v});
    encode(e, r);
    Buffer chunk;
    SequenceCounter sequence;
    if (sealSymmetric(chunk, TcpMessageType::Message, ChunkType::Final, 1, SymmetricSecurity{MessageSecurityMode::None, nullptr, 1},
                      1, body.data(), body.size(), ChunkLimits{1 << 16, 0, 0}, sequence)
            .isBad())
        return {};
    return {chunk.data(), chunk.data() + chunk.size()};
}

struct ProcCpu {
    double cpuSeconds = 0;
    long switches = 0;  // voluntary + involuntary context switches of all threads
};

// Context switches of one thread (/proc/self/task/TID/status), voluntary + involuntary.
long threadSwitches(const std::filesystem::path& status) {
    std::ifstream in(status);
    std::string line;
    long n = 0;
    while (std::getline(in, line)) {
        if (line.rfind("voluntary_ctxt_switches:", 0) == 0 || line.rfind("nonvoluntary_ctxt_switches:", 0) == 0)
            n += std::stol(line.substr(line.find(':') + 1));
    }
    return n;
}

// CPU time and context switches of process pid over all its threads (/proc/PID/stat, /proc/PID/task/*/status).
ProcCpu readProc(int pid) {
    ProcCpu p;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = s.rfind(')');
    if (close == std::string::npos) return p;
    std::istringstream rest(s.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    p.cpuSeconds = double(utime + stime) / double(::sysconf(_SC_CLK_TCK));
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec))
        p.switches += threadSwitches(task.path() / "status");
    return p;
}

double selfCpuSeconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds of the thread whose CPU clock is clock; 0 without one.
double threadCpuSeconds(clockid_t clock) {
    timespec t{};
    if (clock == clockid_t(-1) || ::clock_gettime(clock, &t) != 0) return 0;
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

double percentile(std::vector<double>& v, double p) {
    if (v.empty()) return 0;
    const std::size_t rank = std::size_t(std::max(1.0, p / 100.0 * double(v.size()) + 0.5));
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(std::min(rank, v.size()) - 1), v.end());
    return v[std::min(rank, v.size()) - 1];
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (a == "--ceiling") o.ceiling = true;
        else if (a == "--self") o.self = true;
        else if (a == "--port" && (v = next())) o.port = std::atoi(v);
        else if (a == "--server-pid" && (v = next())) o.serverPid = std::atoi(v);
        else if (a == "--sessions" && (v = next())) o.sessions = std::atoi(v);
        else if (a == "--seconds" && (v = next())) o.seconds = std::atof(v);
        else if (a == "--warmup" && (v = next())) o.warmup = std::atof(v);
        else if (a == "--node-id" && (v = next())) o.nodeId = uint32_t(std::strtoul(v, nullptr, 10));
        else if (a == "--namespace" && (v = next())) o.ns = uint16_t(std::atoi(v));
        else if (a == "--host" && (v = next())) o.host = v;
        else return false;
    }
    return int(o.ceiling) + int(o.self) + int(o.port > 0) == 1 && o.sessions >= 1 && o.sessions <= 4000 && o.seconds > 0 && o.warmup >= 0;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: bench_blocking_clients (--port P [--server-pid PID] | --self | --ceiling) [--sessions 20] "
                             "[--seconds 5] [--warmup 1] [--node-id 1000] [--namespace 1] [--host 127.0.0.1]\n");
        return 2;
    }
    ua::useDemoByDefault();  // --self: the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    std::unique_ptr<Server> server;
    if (o.self) {
        QLoggingCategory::setFilterRules(QStringLiteral("ua.server.*.info=false"));  // a line per Session
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        server = std::make_unique<Server>(cfg);
        if (!server->start()) {
            std::fprintf(stderr, "server: %s\n", qPrintable(server->errorString()));
            return 2;
        }
        o.port = server->port();
    }
    std::atomic<bool> stopCeiling{false};
    std::atomic<clockid_t> ceilingClock{clockid_t(-1)};  // the ceiling thread's CPU clock, once it runs
    std::atomic<int> ceilingTid{0};                       // and its thread id
    std::thread ceiling;
    int listenFd = -1;
    const std::vector<uint8_t> canned = cannedReadResponse();
    if (o.ceiling) {
        if (canned.empty()) {
            std::fprintf(stderr, "the canned ReadResponse could not be sealed\n");
            return 2;
        }
        listenFd = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(listenFd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listenFd, 1024) != 0 ||
            ::getsockname(listenFd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
            std::perror("ceiling listen");
            return 2;
        }
        o.port = ntohs(a.sin_port);
        o.host = "127.0.0.1";
        ceiling = std::thread(ceilingServer, listenFd, std::cref(canned), std::cref(stopCeiling), std::ref(ceilingClock), std::ref(ceilingTid));
    }

    // Every return from here on stops the ceiling's thread first (a joinable std::thread would abort).
    auto stopCeilingThread = [&] {
        stopCeiling = true;
        if (ceiling.joinable()) ceiling.join();
        if (listenFd >= 0) ::close(listenFd);
        listenFd = -1;
    };
    if (o.ceiling)  // its clock and thread id, before anything reads them
        while (ceilingTid.load() == 0) std::this_thread::yield();
    std::vector<std::unique_ptr<BlockingClient>> clients;
    for (int i = 0; i < o.sessions; ++i) {
        auto c = std::make_unique<BlockingClient>();
        if (!c->connect(o)) {
            std::fprintf(stderr, "session %d: connect failed: %s\n", i, std::strerror(errno));
            stopCeilingThread();
            return 2;
        }
        if (const char* failed = o.ceiling ? nullptr : c->handshake(o)) {
            std::fprintf(stderr, "session %d: %s failed (%s)\n", i, failed, c->lastResult.name().c_str());
            stopCeilingThread();
            return 2;
        }
        clients.push_back(std::move(c));
    }

    // Closed loop: each thread records its latencies from the end of the warm-up to the end.
    const auto start = Clock::now();
    const auto measureFrom = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.warmup));
    const auto end = measureFrom + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    std::atomic<bool> failed{false};
    std::vector<std::vector<double>> latencies(std::size_t(o.sessions));
    std::vector<std::thread> threads;
    for (int i = 0; i < o.sessions; ++i) {
        threads.emplace_back([&, i] {
            BlockingClient& c = *clients[std::size_t(i)];
            auto& lat = latencies[std::size_t(i)];
            lat.reserve(1 << 20);
            ReadRequest req = c.readRequest(o);
            ReadResponse resp;
            while (true) {
                const auto t0 = Clock::now();
                if (t0 >= end) break;
                if (!c.send(req) || !c.receive(resp) || resp.results.size() != 1 || resp.results[0].status.isBad()) {
                    failed = true;
                    break;
                }
                if (t0 >= measureFrom) lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
            }
        });
    }
    std::this_thread::sleep_until(measureFrom);
    const ProcCpu server0 = o.serverPid ? readProc(o.serverPid) : ProcCpu{};
    const double self0 = selfCpuSeconds();
    const double ceiling0 = threadCpuSeconds(ceilingClock);
    const std::string ceilingStatus = "/proc/self/task/" + std::to_string(ceilingTid.load()) + "/status";
    const long ceilingSwitches0 = o.ceiling ? threadSwitches(ceilingStatus) : 0;
    std::this_thread::sleep_until(end);
    const ProcCpu server1 = o.serverPid ? readProc(o.serverPid) : ProcCpu{};
    const double self1 = selfCpuSeconds();
    const double ceiling1 = threadCpuSeconds(ceilingClock);
    const long ceilingSwitches1 = o.ceiling ? threadSwitches(ceilingStatus) : 0;
    for (auto& t : threads) t.join();
    stopCeilingThread();
    if (failed) {
        std::fprintf(stderr, "a Read failed or a connection was lost\n");
        return 2;
    }

    std::vector<double> all;
    for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    const double n = double(all.size());
    if (n == 0) {
        std::fprintf(stderr, "no request completed\n");
        return 2;
    }
    const double p50 = percentile(all, 50), p90 = percentile(all, 90), p99 = percentile(all, 99);
    // In --ceiling mode this process's CPU includes the ceiling server's thread, and server_cpu is that thread's.
    std::printf("%s sessions=%d req/s=%.0f p50_us=%.1f p90_us=%.1f p99_us=%.1f process_cpu_us_per_req=%.2f",
                o.ceiling ? "ceiling" : "server", o.sessions, n / o.seconds, p50, p90, p99, (self1 - self0) * 1e6 / n);
    if (o.ceiling)
        std::printf(" server_cpu_us_per_req=%.2f server_switches_per_req=%.3f", (ceiling1 - ceiling0) * 1e6 / n,
                    double(ceilingSwitches1 - ceilingSwitches0) / n);
    if (o.serverPid)
        std::printf(" server_cpu_us_per_req=%.2f server_switches_per_req=%.3f", (server1.cpuSeconds - server0.cpuSeconds) * 1e6 / n,
                    double(server1.switches - server0.switches) / n);
    std::printf("\n");
    return 0;
}
