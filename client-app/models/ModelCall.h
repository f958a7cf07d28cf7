// Internal to the models: one service call as an operation of the Connection (its callbacks are
// dropped when the user cancels; Connection.h), logged in the ServiceLog, and ignored when the model
// is gone or has moved on (a generation number the model bumps on a reset or a new Client).
#pragma once

#include "core/Connection.h"
#include "core/ServiceLog.h"
#include "ValueText.h"

#include <QElapsedTimer>
#include <QPointer>
#include <functional>
#include <memory>

namespace ua::clientapp::detail {

// Elements of an array in a one-line text of a value (the attributes and monitored items views).
constexpr int kShownElements = 20;
// BrowsePathTarget.remainingPathIndex of a target that completes the path (OPC 10000-4 5.8.4).
constexpr uint32_t kPathTargetComplete = 0xFFFFFFFFu;

inline bool isConnected(const Client* c) {
    return c && c->state() == ClientState::Connected;
}

// The callback for an operation begun with connection->beginOperation(): it ends the operation,
// then runs done if guard still exists.
template <class Arg>
std::function<void(const Arg&)> endThen(Connection* connection, QObject* operation, QObject* guard,
                                         std::function<void(const Arg&)> done) {
    QPointer<Connection> conn(connection);
    QPointer<QObject> op(operation);
    QPointer<QObject> g(guard);
    return [conn, op, g, done = std::move(done)](const Arg& a) {
        if (conn && op) conn->endOperation(op);
        if (g && done) done(a);
    };
}

// endThen for a ServiceCallback, recorded in the log first.
template <class Resp>
ServiceCallback<Resp> loggedOp(Connection* connection, QObject* operation, QObject* guard, const QString& service,
                               const QString& detail, ServiceCallback<Resp> done) {
    return logged<Resp>(connection->log(), service, detail,
                        endThen<ServiceResult<Resp>>(connection, operation, guard, std::move(done)));
}

// Runs whenCancelled if operation is destroyed before the returned marker is set (the user cancelled:
// the model can offer the work again, e.g. a node fetched again).
inline std::shared_ptr<bool> onCancel(QObject* operation, QObject* guard, std::function<void()> whenCancelled) {
    auto finished = std::make_shared<bool>(false);
    QObject::connect(operation, &QObject::destroyed, guard, [finished, whenCancelled = std::move(whenCancelled)] {
        if (!*finished) whenCancelled();
    });
    return finished;
}

// Records a call that is not a ServiceCallback (the subscription API) in the log.
class LogTimer {
public:
    LogTimer(Connection* connection, QString service, QString detail)
        : m_log(connection->log()), m_service(std::move(service)), m_detail(std::move(detail)) {
        m_timer.start();
    }
    void record(StatusCode status, const QString& extra = {}) const {
        if (m_log) m_log->record(m_service, status, m_timer.elapsed(), extra.isEmpty() ? m_detail : m_detail + extra);
    }

private:
    QPointer<ServiceLog> m_log;
    QString m_service;
    QString m_detail;
    QElapsedTimer m_timer;
};

// " (2 of 5 failed: Bad_NodeIdUnknown)" for per-operation results, empty when all are Good.
template <class Range, class StatusOf>
QString failures(const Range& results, StatusOf statusOf) {
    int bad = 0, total = 0;
    StatusCode first;
    for (const auto& r : results) {
        ++total;
        const StatusCode s = statusOf(r);
        if (s.isBad()) {
            if (bad++ == 0) first = s;
        }
    }
    if (bad == 0) return {};
    return QStringLiteral(" (%1 of %2 failed: %3)").arg(bad).arg(total).arg(app::statusName(first));
}

} // namespace ua::clientdetail
