// Shared by the History trend's tests (tests/clientapp/models, tests/clientapp/window): our Server in
// process with history in a temporary SQLite file (the demo namespace's Ramp and Sine sampled every
// 100 ms), and a fixed series that an Engineer inserts into Ramp's history twenty minutes back, so
// that the values of a window are known exactly: value (7k mod 11) at P0 + k x 500 ms, k = 0..119
// (one minute). Demo.Scalars.Int32 has no history (Bad_HistoryOperationUnsupported).
#pragma once

#include "ua/client/Client.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <optional>

namespace ua::test {

struct HistoryTestServer {
    static constexpr int kFixedValues = 120;
    static constexpr int64_t kFixedStepMs = 500;
    static double fixedValue(int k) { return double((7 * k) % 11); }

    std::unique_ptr<Server> server;
    QString url;
    int64_t p0Ms = 0;       // the fixed series' first time, a whole second
    int64_t startedMs = 0;  // when the server started sampling

    // The server's configuration: demo Ramp and Sine historized every 100 ms in dir, the Server
    // object's events kept, anonymous Operators, an Engineer "engineer" / "engineer-pw" (who may
    // update history).
    static ServerConfig config(const QTemporaryDir& dir) {
        ServerConfig cfg;
        cfg.port = 0;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.ioThreads = 1;
        cfg.security.pkiDir = dir.filePath(QStringLiteral("server-pki"));
        cfg.security.trustAllClients = true;
        cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
        cfg.security.users.setUser("engineer", "engineer-pw", roleBit(Role::Engineer), 1000);
        cfg.demoUpdateRateMs = 100;
        cfg.history.databasePath = dir.filePath(QStringLiteral("history.sqlite"));
        cfg.history.durabilityMs = 500;
        for (const char* name : {"Demo.Simulation.Ramp", "Demo.Simulation.Sine"}) {
            HistorizedNode h;
            h.node = NodeId(0, String(name));
            h.namespaceUri = "urn:ua-workbench:demo";
            h.samplingIntervalMs = 100;
            cfg.history.nodes.push_back(h);
        }
        HistorizedNotifier events;  // the Server object's events (ua-client history --events)
        events.node = NodeId(uint32_t(2253));
        cfg.history.eventNotifiers.push_back(events);
        return cfg;
    }

    // Starts the server in dir and inserts the fixed series; an empty string, or why not.
    QString start(const QTemporaryDir& dir) {
        const ServerConfig cfg = config(dir);
        server = std::make_unique<Server>(cfg);
        startedMs = QDateTime::currentMSecsSinceEpoch();
        if (!server->start()) return server->errorString();
        url = QStringLiteral("opc.tcp://127.0.0.1:%1").arg(server->port());
        p0Ms = (QDateTime::currentMSecsSinceEpoch() - 1200000) / 1000 * 1000;
        const StatusCode inserted = insertFixedSeries(dir);
        return inserted.isGood() ? QString() : QStringLiteral("insert: 0x%1").arg(inserted.code, 8, 16, QLatin1Char('0'));
    }

    // The Engineer's HistoryUpdate (a Client of its own): Good or the first failure.
    StatusCode insertFixedSeries(const QTemporaryDir& dir) {
        ClientConfig e;
        e.identity = UserIdentity::fromUserName(QStringLiteral("engineer"), QStringLiteral("engineer-pw"));
        e.pkiDir = dir.filePath(QStringLiteral("engineer-pki"));  // the server's certificate encrypts the password
        e.securityPolicyUri = QString::fromUtf8(kSecurityPolicyNone);
        e.securityMode = MessageSecurityMode::None;
        e.trustCallback = [](const Certificate&, StatusCode) { return TrustDecision::AcceptOnce; };
        Client engineer(e);
        QObject context;
        std::optional<StatusCode> outcome;
        engineer.connectToServer(url, &context, [&](const ServiceResult<GetEndpointsResponse>& r) {
            if (!r.isGood()) return void(outcome = r.status);
            engineer.createSession(&context, [&](const ServiceResult<CreateSessionResponse>& cs) {
                if (!cs.isGood()) return void(outcome = cs.status);
                const int ns = engineer.nodeIdConverter().indexOf("urn:ua-workbench:demo");
                UpdateDataDetails insert;
                insert.nodeId = NodeId(uint16_t(ns), "Demo.Simulation.Ramp");
                insert.performInsertReplace = PerformUpdateType::Insert;
                insert.updateValues = Array<DataValue>::emptyArray();
                for (int k = 0; k < kFixedValues; ++k) {
                    DataValue d{Variant(fixedValue(k))};
                    d.setSourceTimestamp(DateTime::fromUnixMs(p0Ms + k * kFixedStepMs));
                    insert.updateValues.push_back(d);
                }
                engineer.historyUpdate({insert}, &context, [&](const ServiceResult<HistoryUpdateResponse>& u) {
                    StatusCode first = u.status;
                    for (const HistoryUpdateResult& r : u.response.results) {
                        if (first.isGood() && r.statusCode.isBad()) first = r.statusCode;
                        for (StatusCode o : r.operationResults)
                            if (first.isGood() && o.isBad()) first = o;
                    }
                    outcome = first;
                });
            });
        });
        if (!QTest::qWaitFor([&] { return outcome.has_value(); }, 20000)) return status::BadTimeout;
        return *outcome;
    }

    QDateTime fixedStart() const { return QDateTime::fromMSecsSinceEpoch(p0Ms, Qt::UTC); }
    QDateTime fixedEnd() const { return QDateTime::fromMSecsSinceEpoch(p0Ms + kFixedValues * kFixedStepMs, Qt::UTC); }
    static QString isoMs(int64_t ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs); }
};

} // namespace ua::test
