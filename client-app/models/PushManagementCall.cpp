#include "PushManagementCall.h"

#include "ModelCall.h"
#include "core/Connection.h"

#include "ua/client/Client.h"

namespace ua::clientapp::detail {

void callPushMethod(Connection* connection, QObject* guard, uint32_t objectId, uint32_t methodId, std::vector<Variant> inputs,
                    const QString& action, std::function<void(StatusCode, const MethodOutputs&)> done) {
    Client* client = connection ? connection->client() : nullptr;
    if (!client) return done(status::BadServerNotConnected, {});
    QObject* op = connection->beginOperation(action);
    auto answered = onCancel(op, guard, [done] { done(status::BadRequestCancelledByClient, {}); });
    client->callMethod(NodeId(objectId), NodeId(methodId), std::move(inputs), op,
                       loggedOp<CallResponse>(connection, op, guard, QStringLiteral("Call"), action,
                                              [answered, done](const ServiceResult<CallResponse>& r) {
                                                  *answered = true;
                                                  if (r.status.isBad()) return done(r.status, {});
                                                  if (r.response.results.empty()) return done(status::BadUnknownResponse, {});
                                                  const CallMethodResult& m = r.response.results[0];
                                                  done(m.statusCode, MethodOutputs(m.outputArguments.begin(), m.outputArguments.end()));
                                              }));
}

QString pushMessage(const QString& action, StatusCode status) {
    if (status == StatusCode(status::BadUserAccessDenied))
        return QObject::tr("%1: the server refused it (Bad_UserAccessDenied): log in as a user with the SecurityAdmin role.").arg(action);
    if (status == StatusCode(status::BadSecurityModeInsufficient))
        return QObject::tr("%1: the server refused it (Bad_SecurityModeInsufficient): connect with Sign & Encrypt.").arg(action);
    if (status == StatusCode(status::BadTransactionPending))
        return QObject::tr("%1: another session is changing the server's certificates (Bad_TransactionPending); try again later.")
            .arg(action);
    if (status == StatusCode(status::BadMethodInvalid) || status == StatusCode(status::BadNodeIdUnknown) ||
        status == StatusCode(status::BadNotImplemented))
        return QObject::tr("%1: this server does not offer push certificate management (%2).").arg(action, app::statusName(status));
    return status.isGood() ? QObject::tr("%1: done.").arg(action) : QObject::tr("%1: %2.").arg(action, app::statusName(status));
}

} // namespace ua::clientapp::detail
