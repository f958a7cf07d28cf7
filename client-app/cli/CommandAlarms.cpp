// ua-client alarms <url> [notifier] [--json]: the retained conditions (OPC 10000-9 4.5): a
// Subscription with one event item on the notifier (default i=2253, the Server object) with the
// condition fields (conditionEventFilter, ConditionEvent.h), then ConditionRefresh; the conditions
// the server sends between RefreshStart and RefreshEnd are printed, one line each:
//   <ConditionId>  <EventId hex>  <Severity>  <Time>  <Source>  <ConditionName>  <State>  <Message>
// (--json: one document), then DeleteSubscriptions and exit 0 ("no retained conditions" on stderr
// when there are none). Exit 1 when the item or ConditionRefresh fails, or RefreshEnd does not
// come within --timeout.
//
// ua-client ack|confirm <url> <condition> <eventid> [--comment TEXT]: Acknowledge (i=9111) or
// Confirm (i=9113) with the condition as ObjectId (OPC 10000-9 5.7.3, 5.7.4), the EventId in hex
// as `alarms` prints it; prints "<Method> <condition>: <status>"; exit 1 when the status is Bad
// (Bad_ConditionBranchAlreadyAcked, Bad_EventIdUnknown, ... on stderr), 2 for an EventId that is
// not hex.
#include "cli/CliOutput.h"
#include "cli/CliSession.h"
#include "cli/Commands.h"
#include "ValueText.h"

#include "ua/client/ConditionCalls.h"
#include "ua/client/ConditionEvent.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QJsonArray>
#include <QTimer>
#include <memory>

namespace ua::clientapp {

namespace {

struct AlarmsRun {
    CliSession& s;
    NodeArgument notifier;
    NodeId notifierId;
    SubscriptionHandle handle = 0;
    bool inRefresh = false;
    bool done = false;
    std::vector<ConditionEvent> conditions = {};  // in the order they came (one per ConditionId and BranchId)

    void finishWith(int code) {
        if (done) return;
        done = true;
        if (!handle || s.client().state() != ClientState::Connected) return s.finish(code);
        s.client().deleteSubscription(handle, &s, [this, code](StatusCode) { s.finish(code); });
        QTimer::singleShot(1000, &s, [this, code] { s.finish(code); });
    }
    void fail(const QString& what, StatusCode status) {
        if (done) return;
        printError(QStringLiteral("ua-client: %1: %2").arg(what, describedStatus(status)));
        finishWith(ExitOperationFailed);
    }

    void onEvent(const ConditionEvent& e) {
        if (done) return;
        switch (e.kind) {
        case ConditionEvent::Kind::RefreshStart:
            inRefresh = true;
            conditions.clear();
            return;
        case ConditionEvent::Kind::RefreshEnd:
            if (inRefresh) print();
            return;
        case ConditionEvent::Kind::Other: return;
        case ConditionEvent::Kind::Condition: break;
        }
        if (!inRefresh) return;  // a change before the refresh: the refresh brings the state
        for (ConditionEvent& c : conditions)
            if (c.conditionId == e.conditionId && c.branchId == e.branchId) {
                c = e;
                return;
            }
        conditions.push_back(e);
    }

    void print() {
        // A refreshed condition is retained by definition; a later change in the same batch may not be.
        std::erase_if(conditions, [](const ConditionEvent& c) { return !c.retain; });
        auto text = [](const String& s) { return s.toQString(); };
        if (s.options().json) {
            QJsonArray list;
            for (const ConditionEvent& c : conditions) {
                QJsonObject o{{QStringLiteral("conditionId"), CliSession::nodeText(c.conditionId)},
                              {QStringLiteral("eventId"), QString::fromStdString(eventIdHex(c.eventId))},
                              {QStringLiteral("name"), text(c.conditionName)},
                              {QStringLiteral("eventType"), CliSession::nodeText(c.eventType)},
                              {QStringLiteral("severity"), int(c.severity)},
                              {QStringLiteral("time"), timestampText(c.time)},
                              {QStringLiteral("source"), text(c.sourceName)},
                              {QStringLiteral("sourceNode"), CliSession::nodeText(c.sourceNode)},
                              {QStringLiteral("state"), QString::fromStdString(conditionStateText(c))},
                              {QStringLiteral("enabled"), c.enabled},
                              {QStringLiteral("retain"), c.retain},
                              {QStringLiteral("message"), c.message.text.toQString()},
                              {QStringLiteral("comment"), c.comment.text.toQString()}};
                if (c.active) o.insert(QStringLiteral("active"), *c.active);
                if (c.acked) o.insert(QStringLiteral("acked"), *c.acked);
                if (c.confirmed) o.insert(QStringLiteral("confirmed"), *c.confirmed);
                if (c.shelving != AlarmShelving::None) o.insert(QStringLiteral("shelving"), QLatin1String(alarmShelvingName(c.shelving)));
                if (!c.limitState.isEmpty()) o.insert(QStringLiteral("limitState"), text(c.limitState));
                if (!c.branchId.isNull()) o.insert(QStringLiteral("branchId"), CliSession::nodeText(c.branchId));
                list.append(o);
            }
            printJson(QJsonObject{{QStringLiteral("notifier"), CliSession::nodeText(notifierId)}, {QStringLiteral("conditions"), list}});
        } else {
            for (const ConditionEvent& c : conditions) {
                const QString source = c.sourceName.isEmpty() ? CliSession::nodeText(c.sourceNode) : text(c.sourceName);
                printLine(QStringList{CliSession::nodeText(c.conditionId), QString::fromStdString(eventIdHex(c.eventId)),
                                      QString::number(c.severity), timestampText(c.time), source, text(c.conditionName),
                                      QString::fromStdString(conditionStateText(c)), c.message.text.toQString()}
                              .join(QStringLiteral("  ")));
            }
            if (conditions.empty()) printError(QStringLiteral("ua-client: no retained conditions"));
        }
        finishWith(ExitOk);
    }

    void refresh(uint32_t subscriptionId) {
        conditionRefresh(s.client(), subscriptionId, &s, [this](StatusCode st) {
            if (st.isBad()) return fail(QStringLiteral("ConditionRefresh"), st);
            // RefreshEnd is on its way; a server that never sends it must not hold us.
            QTimer::singleShot(int(s.options().timeoutMs), &s, [this] { fail(QStringLiteral("waiting for RefreshEnd"), status::BadTimeout); });
        });
    }
};

} // namespace

void runAlarms(CliSession& s) {
    const CliOptions& o = s.options();
    QString error;
    std::optional<NodeArgument> notifier =
        o.args.size() > 1 ? parseNodeArgument(o.args[1], &error) : NodeArgument{QStringLiteral("i=2253"), NodeId(id::Server)};
    if (!notifier) return s.fail(ExitUsage, error);
    auto run = std::make_shared<AlarmsRun>(AlarmsRun{s, *notifier, {}});
    // The callbacks below hold the run by its address: it lives as long as the session.
    QObject::connect(&s, &QObject::destroyed, [run] {});
    s.open([run] {
        run->s.resolve({run->notifier}, [run](std::vector<NodeId> ids) {
            run->notifierId = ids[0];
            CliSession& s = run->s;
            SubscriptionSettings settings;
            settings.publishingIntervalMs = 100;
            SubscriptionHandlers handlers;
            handlers.notification = [run](const SubscriptionNotification& n) {
                for (const EventFieldList& e : n.events)
                    if (e.clientHandle == 1) run->onEvent(parseConditionEvent(e.eventFields));
            };
            handlers.status = [run](const SubscriptionStatusChange& c) {
                if (c.event == SubscriptionEvent::Lost) {
                    run->handle = 0;
                    run->fail(QStringLiteral("the subscription was lost"), c.status);
                }
            };
            s.client().createSubscription(settings, &s, std::move(handlers), [run](const SubscriptionInfo& info) {
                CliSession& s = run->s;
                if (info.status.isBad()) return s.failStatus(ExitOperationFailed, QStringLiteral("CreateSubscription"), info.status);
                run->handle = info.handle;
                MonitoredItemSpec item;
                item.clientHandle = 1;
                item.nodeId = run->notifierId;
                item.attributeId = uint32_t(AttributeId::EventNotifier);
                item.settings.samplingIntervalMs = 0;
                item.settings.queueSize = 10000;
                item.settings.eventFilter = conditionEventFilter();
                const uint32_t subscriptionId = info.subscriptionId;
                s.client().createMonitoredItems(info.handle, {std::move(item)}, &s, [run, subscriptionId](const MonitoredItemsResult& r) {
                    StatusCode st = r.status;
                    if (st.isGood()) st = r.items.empty() ? StatusCode(status::BadUnknownResponse) : r.items[0].statusCode;
                    if (st.isBad()) return run->fail(QStringLiteral("the event item on %1").arg(run->notifier.text), st);
                    run->refresh(subscriptionId);
                });
            });
        });
    });
}

void runAcknowledge(CliSession& s, AlarmMethod method) {
    const CliOptions& o = s.options();
    QString error;
    auto condition = parseNodeArgument(o.args[1], &error);
    if (!condition) return s.fail(ExitUsage, error);
    const std::optional<ByteString> eventId = eventIdFromHex(o.args[2].trimmed().toStdString());
    if (!eventId || eventId->isEmpty())
        return s.fail(ExitUsage, QStringLiteral("\"%1\" is not an EventId in hex (as `ua-client alarms` prints it)").arg(o.args[2]));
    const NodeArgument node = *condition;
    const ByteString id = *eventId;
    s.open([&s, node, id, method] {
        s.resolve({node}, [&s, node, id, method](std::vector<NodeId> ids) {
            AlarmMethodCall call;
            call.method = method;
            call.conditionId = ids[0];
            call.eventId = id;
            call.comment.text = String::fromQString(s.options().comment);
            const QString name = QLatin1String(alarmMethodName(method));
            callAlarmMethod(s.client(), call, &s, [&s, node, name, call](StatusCode st) {
                if (s.options().json) {
                    printJson({{QStringLiteral("method"), name},
                               {QStringLiteral("conditionId"), CliSession::nodeText(call.conditionId)},
                               {QStringLiteral("eventId"), QString::fromStdString(eventIdHex(call.eventId))},
                               {QStringLiteral("status"), app::statusName(st)}});
                } else if (st.isGood()) {
                    printLine(QStringLiteral("%1 %2: %3").arg(name, node.text, app::statusName(st)));
                }
                if (st.isBad()) return s.failStatus(ExitOperationFailed, QStringLiteral("%1 %2").arg(name, node.text), st);
                s.finish(ExitOk);
            });
        });
    });
}

} // namespace ua::clientapp
