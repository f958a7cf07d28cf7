// Internal to the models of push certificate management (ServerTrustListModel.h,
// ServerCertificateModel.h): one Method of the server's ServerConfiguration (OPC 10000-12 7.10) or
// its TrustList called through the Connection's operations and service log, and the sentence the
// dialog shows for an action's status.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace ua::clientapp {

class Connection;

namespace detail {

using MethodOutputs = std::vector<Variant>;

// Calls objectId's methodId with inputs; done gets the Method's status (or the service's, or
// Bad_ServerNotConnected without a Client, Bad_RequestCancelledByClient when the user cancelled) and
// its outputs. Nothing is called once guard is gone.
void callPushMethod(Connection* connection, QObject* guard, uint32_t objectId, uint32_t methodId, std::vector<Variant> inputs,
                    const QString& action, std::function<void(StatusCode, const MethodOutputs&)> done);

// "<action>: done." or what the user can do about a refusal (Bad_UserAccessDenied: log in as a
// SecurityAdmin; Bad_SecurityModeInsufficient: Sign & Encrypt; Bad_TransactionPending; a server
// without push management).
QString pushMessage(const QString& action, StatusCode status);

} // namespace detail
} // namespace ua::clientapp
