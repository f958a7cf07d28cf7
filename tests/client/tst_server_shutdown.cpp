// Server::shutdown() seen by our Client (libua/ua/server/ServerShutdown.cpp): a client that
// monitors ServerStatus.State and SecondsTillShutdown sees Shutdown (4) and the countdown, reads the
// ShutdownReason, a CreateSession during the countdown is refused with Bad_Shutdown, and at 0 the
// client's subscription ends with a StatusChangeNotification Bad_Shutdown and its connection with
// an ERR Bad_ServerHalted; shutdownFinished() comes within the countdown plus a margin, with no
// Session, Subscription (also none of a Session closed earlier) or connection left and the
// listener closed; start() makes it Running again. stop() during the countdown ends it at once
// (shutdownFinished() still comes). The node-opcua side: tst_node_shutdown.
#include "../common/TestServerConfig.h"
#include "ClientTestUtil.h"

#include "ua/client/Client.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::test;

namespace {

ClientConfig shutdownClientConfig() {
    ClientConfig cfg;
    cfg.connectTimeoutMs = 5000;
    cfg.requestTimeoutMs = 5000;
    cfg.keepAliveIntervalMs = 0;
    cfg.autoReconnect = false;  // the end of the connection is what is tested
    return cfg;
}


MonitoredItemSpec item(uint32_t node, uint32_t clientHandle) {
    MonitoredItemSpec m;
    m.clientHandle = clientHandle;
    m.nodeId = NodeId(node);
    m.settings.samplingIntervalMs = 100;
    m.settings.queueSize = 10;
    return m;
}

} // namespace

class TestServerShutdown : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void clientsSeeTheCountdownAndAreClosed();
    void stopDuringTheCountdownFinishesAtOnce();
    void shutdownOfAServerNotStartedFinishes();
};

void TestServerShutdown::initTestCase() {
    qRegisterMetaType<ua::ClientState>();
    qRegisterMetaType<ua::StatusCode>();
}

void TestServerShutdown::clientsSeeTheCountdownAndAreClosed() {
    Server server(localServerConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QSignalSpy finished(&server, &Server::shutdownFinished);
    Client client(shutdownClientConfig());
    QCOMPARE(connectSession(client, urlOf(server.port()), this), status::Good);
    QSignalSpy clientStates(&client, &Client::stateChanged);

    // One subscription on State and SecondsTillShutdown, values recorded in order.
    std::vector<int32_t> states;
    std::vector<uint32_t> seconds;
    std::vector<StatusCode> statusChanges;
    SubscriptionHandlers h;
    h.notification = [&](const SubscriptionNotification& n) {
        for (const MonitoredItemNotification& m : n.dataChanges) {
            if (m.clientHandle == 1)
                if (const int32_t* v = m.value.value.get<int32_t>()) states.push_back(*v);
            if (m.clientHandle == 2)
                if (const uint32_t* v = m.value.value.get<uint32_t>()) seconds.push_back(*v);
        }
    };
    h.status = [&](const SubscriptionStatusChange& c) {
        if (c.event == SubscriptionEvent::ServerStatusChange) statusChanges.push_back(c.status);
    };
    SubscriptionSettings settings;
    settings.publishingIntervalMs = 100;
    Awaited<SubscriptionInfo> sub;
    client.createSubscription(settings, this, h, sub.callback());
    QVERIFY(sub.wait());
    QCOMPARE(sub->status, status::Good);
    Awaited<MonitoredItemsResult> items;
    client.createMonitoredItems(sub->handle, {item(id::Server_ServerStatus_State, 1), item(id::Server_ServerStatus_SecondsTillShutdown, 2)},
                                this, items.callback());
    QVERIFY(items.wait());
    QCOMPARE(items->status, status::Good);
    QCOMPARE(items->items.size(), std::size_t(2));
    QCOMPARE(items->items[0].statusCode, status::Good);
    QCOMPARE(items->items[1].statusCode, status::Good);
    QTRY_VERIFY_WITH_TIMEOUT(!states.empty() && !seconds.empty(), 5000);
    QCOMPARE(states.front(), int32_t(ServerState::Running));
    QCOMPARE(seconds.front(), 0u);

    // A Subscription whose Session was closed without deleting it (it runs out its lifetime,
    // available to TransferSubscriptions) ends with the server too.
    {
        Client leaver(shutdownClientConfig());
        QCOMPARE(connectSession(leaver, urlOf(server.port()), this), status::Good);
        Awaited<SubscriptionInfo> orphan;
        leaver.createSubscription(settings, this, {}, orphan.callback());
        QVERIFY(orphan.wait());
        QCOMPARE(orphan->status, status::Good);
        CloseSessionRequest close;
        close.deleteSubscriptions = false;
        Awaited<ServiceResult<CloseSessionResponse>> closed;
        leaver.call<CloseSessionRequest, CloseSessionResponse>(close, this, closed.callback());
        QVERIFY(closed.wait());
        QCOMPARE(closed->status, status::Good);
    }
    QCOMPARE(server.sessions().count(), 1);
    QCOMPARE(server.subscriptionRegistry().subscriptionCount(), 2);

    QElapsedTimer clock;
    clock.start();
    server.shutdown(2, QStringLiteral("maintenance"));
    QVERIFY(server.isShuttingDown());
    QCOMPARE(server.runtime().state.load(), int32_t(ServerState::Shutdown));

    // The subscription shows Shutdown and a countdown; ShutdownReason reads back.
    QTRY_VERIFY_WITH_TIMEOUT(std::find(states.begin(), states.end(), int32_t(ServerState::Shutdown)) != states.end(), 2000);
    Awaited<ServiceResult<ReadResponse>> reason;
    client.readValues({NodeId(id::Server_ServerStatus_ShutdownReason)}, this, reason.callback());
    QVERIFY(reason.wait());
    QCOMPARE(reason->status, status::Good);
    const LocalizedText* text = reason->response.results[0].value.get<LocalizedText>();
    QVERIFY(text);
    QCOMPARE(text->text.view(), std::string_view("maintenance"));

    // A new Session is refused while the server counts down (the channel itself opens).
    {
        Client late(shutdownClientConfig());
        QCOMPARE(connectSession(late, urlOf(server.port()), this), status::BadShutdown);
    }

    // At 0: the StatusChangeNotification, then the ERR.
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 2000 + 2500);
    const qint64 elapsed = clock.elapsed();
    qInfo("shutdownFinished after %lld ms; SecondsTillShutdown seen:", qint64(elapsed));
    for (uint32_t s : seconds) qInfo("  %u", s);
    QVERIFY2(elapsed >= 1900, "finished before the countdown ran out");
    QVERIFY2(elapsed < 2000 + 1000, "the clients closed their side at once: no need for the 2.5 s cap");
    // SecondsTillShutdown went 0 (running) -> 2 -> 1 (sampled every 100 ms, each held for a second).
    QVERIFY(std::find(seconds.begin(), seconds.end(), 2u) != seconds.end());
    QVERIFY(std::find(seconds.begin(), seconds.end(), 1u) != seconds.end());
    for (std::size_t i = 2; i < seconds.size(); ++i) QVERIFY(seconds[i] <= seconds[i - 1]);
    QTRY_COMPARE_WITH_TIMEOUT(statusChanges.size(), std::size_t(1), 2000);
    QCOMPARE(statusChanges[0], status::BadShutdown);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ClientState::Disconnected, 2000);
    QVERIFY(!clientStates.isEmpty());
    QCOMPARE(clientStates.last().at(1).value<StatusCode>(), status::BadServerHalted);

    QCOMPARE(server.sessions().count(), 0);
    QCOMPARE(server.subscriptionRegistry().subscriptionCount(), 0);
    QCOMPARE(server.channelCount.load(), 0);
    QCOMPARE(server.runtime().state.load(), int32_t(ServerState::Shutdown));
    QCOMPARE(server.runtime().secondsTillShutdown.load(), 0u);
    // The listener is closed.
    Client after(shutdownClientConfig());
    Awaited<ServiceResult<GetEndpointsResponse>> refused;
    after.connectToServer(urlOf(server.port()), this, refused.callback());
    QVERIFY(refused.wait());
    QCOMPARE(refused->status, status::BadConnectionRejected);
    // A second call changes nothing.
    server.shutdown(5, QStringLiteral("again"));
    QTest::qWait(100);
    QCOMPARE(finished.count(), 1);
    server.stop();
    QCOMPARE(finished.count(), 1);

    // Started again, the server is Running and takes Sessions.
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(!server.isShuttingDown());
    Client again(shutdownClientConfig());
    QCOMPARE(connectSession(again, urlOf(server.port()), this), status::Good);
    Awaited<ServiceResult<ReadResponse>> state;
    again.readValues({NodeId(id::Server_ServerStatus_State), NodeId(id::Server_ServerStatus_ShutdownReason)}, this, state.callback());
    QVERIFY(state.wait());
    QCOMPARE(state->status, status::Good);
    QCOMPARE(*state->response.results[0].value.get<int32_t>(), int32_t(ServerState::Running));
    const LocalizedText* none = state->response.results[1].value.get<LocalizedText>();
    QVERIFY(none && none->text.view().empty());
}

void TestServerShutdown::stopDuringTheCountdownFinishesAtOnce() {
    Server server(localServerConfig());
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QSignalSpy finished(&server, &Server::shutdownFinished);
    Client client(shutdownClientConfig());
    QCOMPARE(connectSession(client, urlOf(server.port()), this), status::Good);
    server.shutdown(30, QString());
    QTest::qWait(200);
    QCOMPARE(server.runtime().secondsTillShutdown.load(), 30u);
    QCOMPARE(finished.count(), 0);
    server.stop();
    QCOMPARE(finished.count(), 1);
    // The connection went with its thread.
    QTRY_VERIFY_WITH_TIMEOUT(client.state() == ClientState::Disconnected, 5000);
}

void TestServerShutdown::shutdownOfAServerNotStartedFinishes() {
    Server server(localServerConfig());
    QSignalSpy finished(&server, &Server::shutdownFinished);
    server.shutdown(10, QStringLiteral("never started"));
    QCOMPARE(server.runtime().state.load(), int32_t(ServerState::Shutdown));
    QVERIFY(finished.wait(1000));
}

UA_TEST_GUILESS_MAIN(TestServerShutdown)
#include "tst_server_shutdown.moc"
