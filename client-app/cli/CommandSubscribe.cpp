// ua-client subscribe <url> <node>... [--interval ms] [--sampling ms] [--seconds N] [--count N]:
// one Subscription with a MonitoredItem (Value) per node; every data change is printed as
// "<timestamp>  <node>  <value>  <status>" (the source timestamp, else the server's, else the
// publish time) until Ctrl+C / SIGTERM, N seconds or N changes; then DeleteSubscriptions and
// CloseSession. With --json one JSON object per line.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"

#include "SignalWatcher.h"

#include <QTimer>

namespace ua::clientapp {

namespace {

struct SubscribeRun {
    CliSession& s;
    std::vector<NodeArgument> nodes;
    std::vector<NodeId> ids;
    SubscriptionHandle handle = 0;
    int changes = 0;
    int exitCode = ExitOk;
    bool stopping = false;

    bool connectionLost = false;   // Reconnecting since lostReason
    StatusCode lostReason = StatusCode();

    void stop(int code) {
        if (stopping) return;
        stopping = true;
        if (code != ExitOk) exitCode = code;
        if (connectionLost) {
            // Watching a server that is gone is not a success: say so, and do not wait for it.
            printError(QStringLiteral("ua-client: the connection was lost (%1) and not restored").arg(app::statusName(lostReason)));
            exitCode = ExitOperationFailed;
        }
        if (!handle || s.client().state() != ClientState::Connected) return s.finish(exitCode);
        s.client().deleteSubscription(handle, &s, [this](StatusCode) { s.finish(exitCode); });
        QTimer::singleShot(1000, &s, [this] { s.finish(exitCode); });  // a server that stops answering now
    }

    // Lost connections and reconnects on stderr, so a script sees the gap in the values.
    void onState(ClientState state, StatusCode reason) {
        if (stopping) return;
        if (state == ClientState::Reconnecting && !connectionLost) {
            connectionLost = true;
            lostReason = reason;
            printError(QStringLiteral("ua-client: connection lost (%1), reconnecting").arg(describedStatus(reason)));
        } else if (state == ClientState::Connected && connectionLost) {
            connectionLost = false;
            printError(QStringLiteral("ua-client: reconnected"));
        }
    }

    void print(const SubscriptionNotification& n) {
        for (const MonitoredItemNotification& m : n.dataChanges) {
            if (stopping) return;
            const std::size_t i = m.clientHandle - 1;
            if (i >= nodes.size()) continue;
            const DataValue& dv = m.value;
            const DateTime t = dv.hasSourceTimestamp ? dv.sourceTimestamp : dv.hasServerTimestamp ? dv.serverTimestamp : n.publishTime;
            const StatusCode st = dv.hasStatus ? dv.status : StatusCode();
            if (s.options().json) {
                QJsonObject j = dataValueToJson(dv);
                j.insert(QStringLiteral("time"), timestampText(t));
                j.insert(QStringLiteral("node"), nodes[i].text);
                j.insert(QStringLiteral("nodeId"), CliSession::nodeText(ids[i]));
                printJson(j);
            } else {
                printLine(timestampText(t) + QStringLiteral("  ") + nodes[i].text + QStringLiteral("  ") +
                          app::formatVariant(dv.value) + QStringLiteral("  ") + app::statusName(st));
            }
            if (s.options().count > 0 && ++changes >= s.options().count) return stop(ExitOk);
        }
    }
};

} // namespace

void runSubscribe(CliSession& s) {
    const CliOptions& o = s.options();
    auto run = std::make_shared<SubscribeRun>(SubscribeRun{s, {}, {}});
    for (qsizetype i = 1; i < o.args.size(); ++i) {
        QString error;
        auto n = parseNodeArgument(o.args[i], &error);
        if (!n) return s.fail(ExitUsage, error);
        run->nodes.push_back(std::move(*n));
    }
    // SIGINT / SIGTERM end the subscription cleanly (stop() acts once).
    auto* signals_ = new app::SignalWatcher(&s);
    QObject::connect(signals_, &app::SignalWatcher::received, &s, [run] { run->stop(ExitOk); });
    if (o.seconds > 0) QTimer::singleShot(int(o.seconds * 1000), &s, [run] { run->stop(ExitOk); });
    s.open([run] {
        QObject::connect(&run->s.client(), &Client::stateChanged, &run->s,
                         [run](ClientState state, StatusCode reason) { run->onState(state, reason); });
        run->s.resolve(run->nodes, [run](std::vector<NodeId> ids) {
            run->ids = std::move(ids);
            CliSession& s = run->s;
            SubscriptionSettings settings;
            settings.publishingIntervalMs = s.options().publishingIntervalMs;
            SubscriptionHandlers handlers;
            handlers.notification = [run](const SubscriptionNotification& n) { run->print(n); };
            handlers.status = [run](const SubscriptionStatusChange& c) {
                if (c.event == SubscriptionEvent::Lost) {
                    run->handle = 0;  // gone on the server and in the Client
                    run->s.failStatus(ExitOperationFailed, QStringLiteral("the subscription was lost"), c.status);
                } else if (c.event == SubscriptionEvent::KeepAliveMissing || c.event == SubscriptionEvent::MessagesLost) {
                    printError(QStringLiteral("ua-client: subscription: %1: %2").arg(QLatin1String(enumName(c.event)), describedStatus(c.status)));
                }
            };
            s.client().createSubscription(settings, &s, std::move(handlers), [run](const SubscriptionInfo& info) {
                CliSession& s = run->s;
                if (info.status.isBad()) return s.failStatus(ExitOperationFailed, QStringLiteral("CreateSubscription"), info.status);
                run->handle = info.handle;
                if (run->stopping) return;  // stopped while it was being created
                std::vector<MonitoredItemSpec> items;
                for (std::size_t i = 0; i < run->ids.size(); ++i) {
                    MonitoredItemSpec item;
                    item.clientHandle = uint32_t(i + 1);
                    item.nodeId = run->ids[i];
                    item.settings.samplingIntervalMs = s.options().samplingIntervalMs;
                    item.settings.queueSize = 10;
                    items.push_back(std::move(item));
                }
                s.client().createMonitoredItems(info.handle, std::move(items), &s, [run](const MonitoredItemsResult& r) {
                    CliSession& s = run->s;
                    if (r.status.isBad()) {
                        printError(QStringLiteral("ua-client: CreateMonitoredItems: ") + describedStatus(r.status));
                        return run->stop(ExitOperationFailed);
                    }
                    int good = 0;
                    for (const MonitoredItemResult& item : r.items) {
                        if (item.statusCode.isGood()) {
                            ++good;
                            continue;
                        }
                        const std::size_t i = item.clientHandle - 1;
                        printError(QStringLiteral("ua-client: %1: %2").arg(i < run->nodes.size() ? run->nodes[i].text : QString(),
                                                                           describedStatus(item.statusCode)));
                        run->exitCode = ExitOperationFailed;
                    }
                    if (good == 0) return run->stop(ExitOperationFailed);
                    Q_UNUSED(s);
                });
            });
        });
    });
}

} // namespace ua::clientapp
