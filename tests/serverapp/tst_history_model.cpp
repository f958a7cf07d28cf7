// The History page's model (server-app/models/HistoryModel.h) over a running server that samples
// the demo signals into a temporary SQLite file, and Server::setHistorized, the Address space
// page's "Historize": the node's attributes change, its row appears, values come, and stopping
// keeps what was stored. Headless, checked by QAbstractItemModelTester.
#include "models/HistoryModel.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/HistoryManager.h"
#include "ua/server/runtime/Server.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

namespace {

ServerConfig historyConfig(const QTemporaryDir& dir) {
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.pkiDir = dir.filePath("pki");
    cfg.demoUpdateRateMs = 100;
    cfg.history.databasePath = dir.filePath("history.sqlite");
    HistorizedNode ramp;
    ramp.node = NodeId(0, "Demo.Simulation.Ramp");
    ramp.namespaceUri = "urn:ua-workbench:demo";
    ramp.samplingIntervalMs = 100;
    ramp.limits.maxAgeMs = 3'600'000;
    cfg.history.nodes.push_back(ramp);
    HistorizedNotifier events;  // the Server object's events, kept a day
    events.node = NodeId(id::Server);
    events.maxAgeMs = 86'400'000;
    cfg.history.eventNotifiers.push_back(events);
    return cfg;
}

// Refreshes until pred holds for the model (each refresh answers asynchronously).
bool refreshUntil(serverapp::HistoryModel& model, const std::function<bool()>& pred) {
    for (int i = 0; i < 40; ++i) {
        QSignalSpy spy(&model, &serverapp::HistoryModel::refreshed);
        model.refresh();
        if (!spy.wait(2000)) return false;
        if (pred()) return true;
        QTest::qWait(100);
    }
    return false;
}

int rowOf(const serverapp::HistoryModel& model, const QString& nodeId) { return model.rowOfKey(nodeId); }

} // namespace

class tst_history_model : public QObject {
    Q_OBJECT
private slots:
    void rowsOfTheSampledNodes() {
        QTemporaryDir dir;
        Server server(historyConfig(dir));
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const int demo = server.addressSpace().snapshot()->namespaceIndex("urn:ua-workbench:demo");
        const QString ramp = QString::fromStdString(NodeId(uint16_t(demo), "Demo.Simulation.Ramp").toString());
        serverapp::HistoryModel model(&server);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(refreshUntil(model, [&] { return rowOf(model, ramp) >= 0 && model.rows()[std::size_t(rowOf(model, ramp))].values >= 3; }));
        const auto& r = model.rows()[std::size_t(rowOf(model, ramp))];
        QVERIFY(r.historizing);
        QCOMPARE(r.samplingIntervalMs, 100.0);
        QCOMPARE(r.maxAgeMs, qint64(3'600'000));
        QVERIFY(r.oldest.isValid() && r.newest > r.oldest);
        QCOMPARE(model.data(model.index(rowOf(model, ramp), serverapp::HistoryModel::MaxAge)).toString(), QStringLiteral("1 hour(s)"));
        QCOMPARE(model.databasePath(), dir.filePath("history.sqlite"));
        QVERIFY(model.databaseBytes() > 0);
    }

    // The Server object's events: a row of their own, the events counted as they come.
    void rowOfTheEventNotifier() {
        QTemporaryDir dir;
        Server server(historyConfig(dir));
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        for (int k = 0; k < 3; ++k)
            server.events().raise(makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Test", "event " + std::to_string(k), 100));
        serverapp::HistoryModel model(&server);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString notifier = QStringLiteral("i=2253");
        QVERIFY(refreshUntil(model, [&] { return rowOf(model, notifier) >= 0 && model.rows()[std::size_t(rowOf(model, notifier))].values >= 3; }));
        const auto& r = model.rows()[std::size_t(rowOf(model, notifier))];
        QVERIFY(r.events);
        QVERIFY(r.values >= 3);  // ours, and any audit event of the start
        QVERIFY(r.oldest.isValid() && r.newest >= r.oldest);
        QCOMPARE(model.data(model.index(rowOf(model, notifier), serverapp::HistoryModel::SamplingInterval)).toString(), QStringLiteral("events"));
        QCOMPARE(model.data(model.index(rowOf(model, notifier), serverapp::HistoryModel::MaxAge)).toString(), QStringLiteral("1 day(s)"));
    }

    void historizeAndStopAtRunTime() {
        QTemporaryDir dir;
        Server server(historyConfig(dir));
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const int demo = server.addressSpace().snapshot()->namespaceIndex("urn:ua-workbench:demo");
        HistorizedNode sine;
        sine.node = NodeId(uint16_t(demo), "Demo.Simulation.Sine");
        sine.samplingIntervalMs = 100;
        const QString text = QString::fromStdString(sine.node.toString());
        {
            const Node* before = server.addressSpace().snapshot()->find(sine.node);
            QVERIFY(before && !before->attrs->historizing && !(before->attrs->accessLevel & access::HistoryRead));
        }
        QCOMPARE(server.setHistorized(sine, true), StatusCode(status::Good));
        const auto after = server.addressSpace().snapshot();
        QVERIFY(after->find(sine.node)->attrs->historizing);
        QVERIFY(after->find(sine.node)->attrs->accessLevel & access::HistoryRead);
        QVERIFY(after->find(NodeId(uint16_t(demo), String(sine.node.toString() + "/HA Configuration"))));
        QVERIFY(server.history()->isHistorized(sine.node));
        serverapp::HistoryModel model(&server);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(refreshUntil(model, [&] { return rowOf(model, text) >= 0 && model.rows()[std::size_t(rowOf(model, text))].values >= 2; }));
        QCOMPARE(server.setHistorized(sine, false), StatusCode(status::Good));
        QVERIFY(!server.addressSpace().snapshot()->find(sine.node)->attrs->historizing);
        QVERIFY(refreshUntil(model, [&] { return rowOf(model, text) >= 0 && !model.rows()[std::size_t(rowOf(model, text))].historizing; }));
        QVERIFY(model.rows()[std::size_t(rowOf(model, text))].values >= 2);  // what was stored stays
        // Not a Variable; no such node.
        HistorizedNode folder;
        folder.node = NodeId(uint16_t(demo), "Demo.Simulation");
        QCOMPARE(server.setHistorized(folder, true), StatusCode(status::BadNodeClassInvalid));
        HistorizedNode nowhere;
        nowhere.node = NodeId(uint16_t(demo), "Nope");
        QCOMPARE(server.setHistorized(nowhere, true), StatusCode(status::BadNodeIdUnknown));
    }

    void aServerWithoutHistory() {
        QTemporaryDir dir;
        ServerConfig cfg = historyConfig(dir);
        cfg.history = HistoryConfig{};
        Server server(cfg);
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        HistorizedNode h;
        h.node = NodeId(2, "Demo.Simulation.Sine");
        QCOMPARE(server.setHistorized(h, true), StatusCode(status::BadHistoryOperationUnsupported));
        serverapp::HistoryModel model(&server);
        model.refresh();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.databasePath().isEmpty());
    }
};

UA_TEST_GUILESS_MAIN(tst_history_model)
#include "tst_history_model.moc"
