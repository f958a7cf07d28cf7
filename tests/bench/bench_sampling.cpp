// Sampling fidelity (guide/benchmarks.md "subscribe", o6 "subscription"): N MonitoredItems sample
// Demo.Simulation.Ramp, a counter that changes every 10 ms (demo update rate 10 ms), with a 10 ms
// sampling interval, in one Subscription publishing every 100 ms. Our server runs in this process
// on its own I/O threads; a minimal blocking client on the main thread keeps Publish requests
// outstanding, decodes every NotificationMessage and counts, per item, the notifications received
// against the counter steps that happened between its first and last SourceTimestamp.
//
//   bench_sampling [items=1024] [seconds=10] [ioThreads=1]
// Prints one line per run: items, notifications, min/mean percent of expected samples, pass (>= 99 %
// for every item), and the server's own counters. Exit code 2 on errors only.
#include "DemoExtension.h"
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "DemoNodeManager.h"
#include "ua/server/subscriptions/SessionSubscriptions.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"
#include "ua/transport/TcpMessages.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpSocket>
#include <cstdio>
#include <map>

using namespace ua;

namespace {

class Client {
public:
    bool connect(quint16 port) {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(5000)) return false;
        Buffer b;
        encodeHello(b, HelloMessage{0, 1 << 20, 1 << 20, 0, 0, String("opc.tcp://127.0.0.1")});
        write(b);
        std::vector<uint8_t> body;
        char type[3];
        if (!readMessage(type, body) || std::memcmp(type, "ACK", 3) != 0) return false;
        // OPN
        Buffer o;
        o.grow(8);
        BinaryEncoder e(o);
        encode(e, uint32_t(0));
        encode(e, String(kSecurityPolicyNone));
        encode(e, ByteString());
        encode(e, ByteString());
        encode(e, m_sequence++);
        encode(e, m_requestId++);
        encode(e, NodeId(id::OpenSecureChannelRequest_Encoding_DefaultBinary));
        OpenSecureChannelRequest req;
        req.requestType = SecurityTokenRequestType::Issue;
        req.securityMode = MessageSecurityMode::None;
        req.clientNonce = ByteString("");
        req.requestedLifetime = 600000;
        encode(e, req);
        writeTcpHeader(o.data(), TcpMessageType::OpenSecureChannel, ChunkType::Final, uint32_t(o.size()));
        write(o);
        if (!readMessage(type, body) || std::memcmp(type, "OPN", 3) != 0) return false;
        BinaryDecoder d(body.data(), body.size());
        String uri;
        ByteString c1, c2;
        decode(d, uri);
        decode(d, c1);
        decode(d, c2);
        d.readPod<uint64_t>();
        NodeId t;
        decode(d, t);
        OpenSecureChannelResponse r;
        decode(d, r);
        m_channelId = r.securityToken.channelId;
        m_tokenId = r.securityToken.tokenId;
        return d.ok();
    }
    template <class T>
    uint32_t send(const T& request) {
        Buffer b;
        b.grow(8);
        BinaryEncoder e(b);
        encode(e, m_channelId);
        encode(e, m_tokenId);
        encode(e, m_sequence++);
        const uint32_t id = m_requestId++;
        encode(e, id);
        encode(e, NodeId(T::kBinaryEncodingId));
        encode(e, request);
        writeTcpHeader(b.data(), TcpMessageType::Message, ChunkType::Final, uint32_t(b.size()));
        write(b);
        return id;
    }
    // The next whole response (chunks reassembled): its type id and body decoder storage.
    bool receive(NodeId& type, std::vector<uint8_t>& body, std::size_t& offset) {
        body.clear();
        while (true) {
            char t[3];
            std::vector<uint8_t> chunk;
            const char final = readMessage(t, chunk);
            if (!final || std::memcmp(t, "MSG", 3) != 0) return false;
            body.insert(body.end(), chunk.begin() + 12, chunk.end());  // token id, sequence number, request id
            if (final == 'F') break;
        }
        BinaryDecoder d(body.data(), body.size());
        decode(d, type);
        offset = body.size() - d.remaining();
        return d.ok();
    }
    template <class Resp, class Req>
    bool call(const Req& req, Resp& resp) {
        send(req);
        NodeId type;
        std::vector<uint8_t> body;
        std::size_t off = 0;
        if (!receive(type, body, off) || type != NodeId(Resp::kBinaryEncodingId)) return false;
        BinaryDecoder d(body.data() + off, body.size() - off);
        decode(d, resp);
        return d.ok() && resp.responseHeader.serviceResult.isGood();
    }
    NodeId token;

private:
    void write(const Buffer& b) {
        m_socket.write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
        m_socket.flush();
    }
    // One UA-TCP message after its 8-byte header (the channel id of MSG/OPN skipped); returns its
    // chunk type, or 0.
    char readMessage(char type[3], std::vector<uint8_t>& out) {
        while (true) {
            if (m_rx.size() >= 8) {
                uint32_t size;
                std::memcpy(&size, m_rx.constData() + 4, 4);
                if (uint32_t(m_rx.size()) >= size) {
                    std::memcpy(type, m_rx.constData(), 3);
                    const char chunk = m_rx[3];
                    const int skip = std::memcmp(type, "ACK", 3) == 0 ? 8 : 12;
                    out.assign(m_rx.constData() + skip, m_rx.constData() + size);
                    m_rx.remove(0, size);
                    return chunk;
                }
            }
            if (!m_socket.waitForReadyRead(10000)) return 0;
            m_rx += m_socket.readAll();
        }
    }
    QTcpSocket m_socket;
    QByteArray m_rx;
    uint32_t m_channelId = 0, m_tokenId = 0, m_sequence = 1, m_requestId = 1;
};

struct ItemStats {
    int64_t firstStep = -1, lastStep = -1;  // counter steps (SourceTimestamp / 10 ms)
    uint64_t received = 0;
};
std::map<int64_t, uint64_t> g_deltas;  // step differences between consecutive samples of item 0

} // namespace

int main(int argc, char** argv) {
    ua::useDemoByDefault();  // the benchmark and demo namespaces (server-app/demo/)
    QCoreApplication app(argc, argv);
    const int items = argc > 1 ? std::atoi(argv[1]) : 1024;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 10;
    const int ioThreads = argc > 3 ? std::atoi(argv[3]) : 1;
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = ioThreads;
    cfg.demoUpdateRateMs = 10;
    cfg.subscriptions.maxMonitoredItemsPerSubscription = 100000;
    cfg.subscriptions.maxNotificationsPerPublish = 20000;
    Server server(cfg);
    if (!server.start()) { std::fprintf(stderr, "server: %s\n", qPrintable(server.errorString())); return 2; }

    Client c;
    if (!c.connect(server.port())) { std::fprintf(stderr, "connect failed\n"); return 2; }
    CreateSessionRequest cs;
    cs.sessionName = String("bench");
    cs.requestedSessionTimeout = 600000;
    CreateSessionResponse csr;
    if (!c.call(cs, csr)) { std::fprintf(stderr, "CreateSession failed\n"); return 2; }
    ActivateSessionRequest as;
    as.requestHeader.authenticationToken = csr.authenticationToken;
    AnonymousIdentityToken anon;
    anon.policyId = String("anonymous");
    as.userIdentityToken = ExtensionObject::make(anon);
    ActivateSessionResponse asr;
    if (!c.call(as, asr)) { std::fprintf(stderr, "ActivateSession failed\n"); return 2; }
    const NodeId auth = csr.authenticationToken;

    CreateSubscriptionRequest sub;
    sub.requestHeader.authenticationToken = auth;
    sub.requestedPublishingInterval = 100;
    sub.requestedLifetimeCount = 600;
    sub.requestedMaxKeepAliveCount = 10;
    sub.publishingEnabled = true;
    CreateSubscriptionResponse subr;
    if (!c.call(sub, subr)) { std::fprintf(stderr, "CreateSubscription failed\n"); return 2; }

    const NodeId ramp(uint16_t(server.addressSpace().snapshot()->namespaceIndex(DemoNodeManager::kUri)),
                      String("Demo.Simulation.Ramp"));
    for (int first = 0; first < items; first += 1000) {
        CreateMonitoredItemsRequest mi;
        mi.requestHeader.authenticationToken = auth;
        mi.subscriptionId = subr.subscriptionId;
        mi.timestampsToReturn = TimestampsToReturn::Source;
        for (int i = first; i < std::min(items, first + 1000); ++i) {
            MonitoredItemCreateRequest r;
            r.itemToMonitor.nodeId = ramp;
            r.itemToMonitor.attributeId = uint32_t(AttributeId::Value);
            r.monitoringMode = MonitoringMode::Reporting;
            r.requestedParameters.clientHandle = uint32_t(i);
            r.requestedParameters.samplingInterval = 10;
            r.requestedParameters.queueSize = 30;
            r.requestedParameters.discardOldest = true;
            mi.itemsToCreate.push_back(r);
        }
        CreateMonitoredItemsResponse mir;
        if (!c.call(mi, mir) || mir.results.empty() || mir.results[0].statusCode.isBad()) {
            std::fprintf(stderr, "CreateMonitoredItems failed %s\n", mir.results.empty() ? "" : mir.results[0].statusCode.name().c_str());
            return 2;
        }
    }

    std::vector<ItemStats> stats(static_cast<std::size_t>(items));
    std::vector<SubscriptionAcknowledgement> acks;
    auto publish = [&] {
        PublishRequest p;
        p.requestHeader.authenticationToken = auth;
        p.subscriptionAcknowledgements = Array<SubscriptionAcknowledgement>(acks);
        acks.clear();
        c.send(p);
    };
    for (int i = 0; i < 10; ++i) publish();
    QElapsedTimer t;
    t.start();
    const int64_t warmupMs = 1000;
    uint64_t notifications = 0, messages = 0;
    NodeId type;
    std::vector<uint8_t> body;
    std::size_t off = 0;
    while (t.elapsed() < warmupMs + seconds * 1000) {
        if (!c.receive(type, body, off)) { std::fprintf(stderr, "receive failed\n"); return 2; }
        if (type != NodeId(PublishResponse::kBinaryEncodingId)) continue;
        PublishResponse pr;
        BinaryDecoder d(body.data() + off, body.size() - off);
        decode(d, pr);
        if (!d.ok()) { std::fprintf(stderr, "decode failed\n"); return 2; }
        if (!pr.notificationMessage.notificationData.empty())
            acks.push_back({pr.subscriptionId, pr.notificationMessage.sequenceNumber});
        publish();
        const bool measuring = t.elapsed() >= warmupMs;
        for (const ExtensionObject& x : pr.notificationMessage.notificationData) {
            const auto* dcn = x.get<DataChangeNotification>();
            if (!dcn) continue;
            ++messages;
            for (const MonitoredItemNotification& n : dcn->monitoredItems) {
                if (n.clientHandle >= stats.size() || !measuring) continue;
                ItemStats& s = stats[n.clientHandle];
                const int64_t step = (n.value.sourceTimestamp.ticks - DateTime::kUnixEpochTicks) / (10 * DateTime::kTicksPerMs);
                if (n.clientHandle == 0 && s.lastStep >= 0) ++g_deltas[step - s.lastStep];
                if (s.firstStep < 0) s.firstStep = step;
                s.lastStep = step;
                ++s.received;
                ++notifications;
            }
        }
    }
    double minPct = 1e9, sumPct = 0;
    for (const ItemStats& s : stats) {
        const double expected = s.firstStep < 0 ? 1 : double(s.lastStep - s.firstStep + 1);
        const double pct = 100.0 * double(s.received) / expected;
        minPct = std::min(minPct, pct);
        sumPct += pct;
    }
    std::printf("items %d  seconds %d  io-threads %d  notifications %llu (%.0f/s)  messages %llu  "
                "expected-samples min %.2f%% mean %.2f%%  %s\n",
                items, seconds, ioThreads, (unsigned long long)notifications, double(notifications) / seconds,
                (unsigned long long)messages, minPct, sumPct / items, minPct >= 99.0 ? "PASS" : "FAIL");
    for (int i : {0, 1, items / 2, items - 1})
        std::printf("item %d: steps %lld..%lld received %llu\n", i, (long long)stats[i].firstStep, (long long)stats[i].lastStep,
                    (unsigned long long)stats[i].received);
    std::printf("item 0 step deltas:");
    for (auto [d, n] : g_deltas) std::printf(" %lld:%llu", (long long)d, (unsigned long long)n);
    std::printf("\n");
    // The server's own view, read on the Subscription's home thread.
    if (auto sessions = server.sessions().snapshot(); !sessions.empty()) {
        if (auto ss = sessions[0]->subscriptions.load()) {
            SubscriptionCounters k;
            QMetaObject::invokeMethod(&ss->home(), [&] {
                for (auto& [id, s] : ss->subscriptions()) k = s->counters;
            }, Qt::BlockingQueuedConnection);
            std::printf("server: samples %llu, sampling ticks %llu, late >= half an interval %llu (%.2f%%), skipped %llu, "
                        "queue overflows %llu, late publishes %llu, discarded messages %llu\n",
                        (unsigned long long)k.samplesTaken, (unsigned long long)k.samplingTicks,
                        (unsigned long long)k.samplingTicksLate, 100.0 * double(k.samplingTicksLate) / double(std::max<uint64_t>(1, k.samplingTicks)),
                        (unsigned long long)k.samplingTicksSkipped, (unsigned long long)k.monitoringQueueOverflowCount,
                        (unsigned long long)k.latePublishRequestCount, (unsigned long long)k.discardedMessageCount);
        }
    }
    std::fflush(stdout);
    server.stop();
    return 0;  // a measurement: the verdict is printed, the exit code only reports errors (2)
}
