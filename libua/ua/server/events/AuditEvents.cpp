#include "ua/server/events/AuditEvents.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/Certificate.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/secure/ServerSecureChannel.h"
#include "ua/server/common/Session.h"
#include "ua/server/events/EventManager.h"

namespace ua {

namespace {


std::shared_ptr<Event> makeAudit(uint32_t type, std::string_view sourceName, std::string message, StatusCode result,
                                 const std::string& serverId, const String& auditEntryId, const std::string& clientUserId) {
    const bool ok = result.isGood();
    if (!ok) message += std::string(" failed: ") + result.name();
    auto e = makeEvent(NodeId(type), NodeId(id::Server), sourceName, message, ok ? 100 : 600);
    e->set("ActionTimeStamp", Variant(DateTime::now()));
    e->set("Status", Variant(ok));
    e->set("ServerId", Variant(String(serverId)));
    e->set("ClientAuditEntryId", Variant(auditEntryId));
    e->set("ClientUserId", clientUserId.empty() ? Variant(String()) : Variant(String(clientUserId)));
    e->set("StatusCodeId", Variant(result));
    return e;
}

std::string serverIdOf(const AuditContext& audit) { return audit.applicationUri.toStdString(); }

void setCertificate(Event& e, const std::string& der, const char* field) {
    if (der.empty()) return;
    e.set(field, Variant(ByteString(der)));
    const Certificate c = Certificate::fromDer(der);
    if (!c.isNull()) e.set(std::string(field) + "Thumbprint", Variant(String(c.thumbprintHex())));
}

} // namespace

bool auditWanted(const AuditContext& audit) { return audit.auditing && audit.events.hasSubscribers(); }

void auditOpenSecureChannel(const AuditContext& server, uint32_t channelId, const ServerSecureChannel& channel,
                            StatusCode result) {
    if (!auditWanted(server)) return;
    auto e = makeAudit(id::AuditOpenSecureChannelEventType, "SecureChannel/OpenSecureChannel", "OpenSecureChannel",
                       result, serverIdOf(server), String(), std::string());
    e->set("SecureChannelId", Variant(String(std::to_string(channelId))));
    if (result.isGood()) {
        e->set("SecurityPolicyUri", Variant(String(channel.securityPolicy().uri)));
        e->set("SecurityMode", Variant(int32_t(channel.securityMode())));
        const Certificate& c = channel.clientCertificate();
        if (!c.isNull()) setCertificate(*e, c.der(), "ClientCertificate");
    }
    server.events.raise(std::move(e));
}

void auditCreateSession(const AuditContext& server, uint32_t channelId, const CreateSessionRequest& req,
                        const CreateSessionResponse& resp) {
    if (!auditWanted(server)) return;
    const StatusCode result = resp.responseHeader.serviceResult;
    auto e = makeAudit(id::AuditCreateSessionEventType, "Session/CreateSession", "CreateSession", result,
                       serverIdOf(server), req.requestHeader.auditEntryId, std::string());
    e->set("SessionId", Variant(resp.sessionId));
    e->set("SecureChannelId", Variant(String(std::to_string(channelId))));
    e->set("RevisedSessionTimeout", Variant(resp.revisedSessionTimeout));
    setCertificate(*e, req.clientCertificate.str(), "ClientCertificate");
    server.events.raise(std::move(e));
    if (result == StatusCode(status::BadCertificateUriInvalid))
        auditCertificateRejected(server.events, serverIdOf(server), req.clientCertificate.str(), result,
                                 req.clientDescription.applicationUri.str());
}

void auditActivateSession(const AuditContext& server, uint32_t channelId, const Session* s,
                          const ActivateSessionRequest& req, const ActivateSessionResponse& resp) {
    if (!auditWanted(server)) return;
    const StatusCode result = resp.responseHeader.serviceResult;
    auto e = makeAudit(id::AuditActivateSessionEventType, "Session/ActivateSession", "ActivateSession", result,
                       serverIdOf(server), req.requestHeader.auditEntryId,
                       s && result.isGood() ? s->clientUserId : std::string());
    if (s) e->set("SessionId", Variant(s->sessionId));
    e->set("SecureChannelId", Variant(String(std::to_string(channelId))));
    e->set("ClientSoftwareCertificates", Variant(Array<ExtensionObject>::emptyArray()));
    ExtensionObject token = req.userIdentityToken;
    if (const UserNameIdentityToken* u = token.get<UserNameIdentityToken>()) {
        UserNameIdentityToken copy = *u;  // never the (encrypted) password
        copy.password = ByteString();
        token = ExtensionObject::make(std::move(copy));
    }
    e->set("UserIdentityToken", Variant(std::move(token)));
    server.events.raise(std::move(e));
}

void auditSessionEnded(const AuditContext& server, AuditSessionEnd how, const NodeId& sessionId, const std::string& clientUserId,
                       const std::string& message, const String& clientAuditEntryId) {
    if (!auditWanted(server)) return;
    const char* source = how == AuditSessionEnd::CloseSession ? "Session/CloseSession"
                         : how == AuditSessionEnd::Timeout    ? "Session/Timeout"
                                                              : "Session/Terminated";
    auto e = makeAudit(id::AuditSessionEventType, source, message, StatusCode(status::Good), serverIdOf(server),
                       clientAuditEntryId, clientUserId);
    e->set("SessionId", Variant(sessionId));
    server.events.raise(std::move(e));
}

void auditNodeManagement(const AuditContext& server, uint32_t eventType, const char* service, const char* field, Variant items,
                         bool allGood, const String& clientAuditEntryId, const std::string& clientUserId) {
    if (!auditWanted(server)) return;
    // Status false when some operation failed (the event has no field for each operation's result).
    auto e = makeAudit(eventType, std::string("NodeManagement/") + service, service,
                       StatusCode(allGood ? status::Good : status::BadInvalidArgument), serverIdOf(server), clientAuditEntryId,
                       clientUserId);
    e->set(field, std::move(items));
    server.events.raise(std::move(e));
}

void auditHistoryUpdate(const AuditContext& server, const Array<ExtensionObject>& details, const HistoryUpdateResponse& resp,
                        const String& clientAuditEntryId, const std::string& clientUserId) {
    if (!auditWanted(server)) return;
    for (std::size_t i = 0; i < details.size(); ++i) {
        StatusCode result = i < resp.results.size() ? resp.results[i].statusCode : StatusCode(status::BadInternalError);
        if (i < resp.results.size())
            for (const StatusCode s : resp.results[i].operationResults)
                if (result.isGood() && s.isBad()) result = s;
        std::shared_ptr<Event> e;
        const auto make = [&](uint32_t eventType, uint32_t detailsType, const NodeId& updated) {
            e = makeAudit(eventType, "History/HistoryUpdate", "HistoryUpdate of " + updated.toString(), result, serverIdOf(server),
                          clientAuditEntryId, clientUserId);
            e->set("UpdatedNode", Variant(updated));
            e->set("ParameterDataTypeId", Variant(NodeId(detailsType)));
            e->set("OldValues", Variant());  // not kept (OPC 10000-11 5.8.3 allows a null)
        };
        if (const UpdateDataDetails* u = details[i].get<UpdateDataDetails>()) {
            make(id::AuditHistoryValueUpdateEventType, id::UpdateDataDetails, u->nodeId);
            e->set("PerformInsertReplace", Variant(int32_t(u->performInsertReplace)));
            e->set("NewValues", Variant(u->updateValues));
        } else if (const DeleteRawModifiedDetails* d = details[i].get<DeleteRawModifiedDetails>()) {
            make(id::AuditHistoryRawModifyDeleteEventType, id::DeleteRawModifiedDetails, d->nodeId);
            e->set("IsDeleteModified", Variant(d->isDeleteModified));
            e->set("StartTime", Variant(d->startTime));
            e->set("EndTime", Variant(d->endTime));
        } else if (const DeleteAtTimeDetails* a = details[i].get<DeleteAtTimeDetails>()) {
            make(id::AuditHistoryAtTimeDeleteEventType, id::DeleteAtTimeDetails, a->nodeId);
            e->set("ReqTimes", Variant(a->reqTimes));
        } else {
            continue;  // event updates and other details: refused before any work, no node changed
        }
        server.events.raise(std::move(e));
    }
}

void auditTrustListUpdated(const AuditContext& server, bool added, const std::string& certificateDer,
                           const std::string& administrator, StatusCode result) {
    if (!auditWanted(server)) return;
    const Certificate c = Certificate::fromDer(certificateDer);
    const std::string name = c.isNull() ? std::string("(unreadable)") : c.subjectName() + " (SHA-1 " + c.thumbprintHex() + ")";
    auto e = makeAudit(id::TrustListUpdatedAuditEventType, "Security/TrustList",
                       (added ? "Certificate added to the trust list: " : "Certificate removed from the trust list: ") + name,
                       result, serverIdOf(server), String(), administrator);
    e->set("TrustListId", Variant(NodeId(id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList)));
    server.events.raise(std::move(e));
}

NodeId auditCertificateEventType(StatusCode reason) {
    switch (reason.base()) {
    case status::BadCertificateUntrusted: return NodeId(id::AuditCertificateUntrustedEventType);
    case status::BadCertificateTimeInvalid:
    case status::BadCertificateIssuerTimeInvalid: return NodeId(id::AuditCertificateExpiredEventType);
    case status::BadCertificateRevoked:
    case status::BadCertificateIssuerRevoked:
    case status::BadCertificateRevocationUnknown:
    case status::BadCertificateIssuerRevocationUnknown: return NodeId(id::AuditCertificateRevokedEventType);
    case status::BadCertificateUriInvalid:
    case status::BadCertificateHostNameInvalid: return NodeId(id::AuditCertificateDataMismatchEventType);
    case status::BadCertificateUseNotAllowed:
    case status::BadCertificateIssuerUseNotAllowed: return NodeId(id::AuditCertificateMismatchEventType);
    default: return NodeId(id::AuditCertificateInvalidEventType);
    }
}

void auditCertificateRejected(EventManager& events, const std::string& serverId, const std::string& certificateDer,
                              StatusCode reason, const std::string& invalid) {
    if (!events.hasSubscribers()) return;
    const NodeId type = auditCertificateEventType(reason);
    auto e = makeAudit(type.numeric(), "Security/Certificate", "Certificate validation", reason, serverId, String(),
                       std::string());
    std::vector<Certificate> chain =
        Certificate::chainFromDer(reinterpret_cast<const uint8_t*>(certificateDer.data()), certificateDer.size());
    e->set("Certificate", Variant(ByteString(chain.empty() ? certificateDer : chain.front().der())));
    if (reason == StatusCode(status::BadCertificateUriInvalid)) e->set("InvalidUri", Variant(String(invalid)));
    if (reason == StatusCode(status::BadCertificateHostNameInvalid)) e->set("InvalidHostname", Variant(String(invalid)));
    events.raise(std::move(e));
}

void auditMethodCall(const AuditContext& audit, uint32_t eventType, const NodeId& object, std::string_view methodName,
                     const NodeId& methodId, const Array<Variant>& inputs, StatusCode result, const std::string& clientUserId,
                     std::vector<Event::Field> extra) {
    if (!auditWanted(audit)) return;
    const std::string source = "Method/" + std::string(methodName);
    auto e = makeAudit(eventType, source, std::string(methodName) + " called", result, serverIdOf(audit), String(), clientUserId);
    e->set("SourceNode", Variant(object));
    e->set("MethodId", Variant(methodId));
    e->set("InputArguments", Variant(inputs.isNull() ? Array<Variant>::emptyArray() : inputs));
    e->set("OutputArguments", Variant(Array<Variant>::emptyArray()));
    for (Event::Field& f : extra) e->set(std::move(f.key), std::move(f.value));
    audit.events.raise(e);
}

} // namespace ua
