// Audit events the server raises (OPC 10000-5 6.4.3 - 6.4.22, OPC 10000-4 6.5 Auditing), when
// ServerConfig::auditing is on (then Server_Auditing, i=2994, is true) and some event item
// exists (EventManager::hasSubscribers(): otherwise nothing is built).
//
// Every one has the AuditEventType fields ActionTimeStamp (now), Status (true: the action
// succeeded), ServerId (the server's ApplicationUri), ClientAuditEntryId (the request header's
// auditEntryId), ClientUserId (the Session's user: the user name or X509 subject; null for an
// anonymous or not yet activated Session), and of AuditSecurityEventType StatusCodeId (the result).
// SourceNode is the Server object; Severity 100 for a success, 600 for a failure.
//
//   AuditOpenSecureChannelEventType  each OpenSecureChannel (Issue and Renew), from ServerConnection:
//                                    SecureChannelId, ClientCertificate(+Thumbprint),
//                                    SecurityPolicyUri, SecurityMode; SourceName
//                                    "SecureChannel/OpenSecureChannel"
//   AuditCreateSessionEventType      each CreateSession: SessionId, SecureChannelId,
//                                    ClientCertificate(+Thumbprint), RevisedSessionTimeout (ms);
//                                    SourceName "Session/CreateSession"
//   AuditActivateSessionEventType    each ActivateSession: SessionId, SecureChannelId,
//                                    UserIdentityToken (a UserNameIdentityToken without its
//                                    password), ClientSoftwareCertificates; "Session/ActivateSession"
//   AuditCertificate...EventType     a client application or user certificate rejected: the subtype
//                                    by the reason (Untrusted, Expired, Revoked, DataMismatch with
//                                    InvalidUri/InvalidHostname, Mismatch, else Invalid); Certificate;
//                                    SourceName "Security/Certificate"
//   AuditSessionEventType            a Session ended (OPC 10000-4 6.5.6, OPC 10000-5 6.4.7):
//                                    SessionId; SourceName "Session/CloseSession" for a CloseSession
//                                    call (ClientUserId the Session's user, ClientAuditEntryId the
//                                    request's), "Session/Timeout" for a timeout, "Session/Terminated"
//                                    for the rest: the administrator closed it (Server::closeSession,
//                                    ClientUserId the administrator), the server shut down, or it was
//                                    never activated in time
//   TrustListUpdatedAuditEventType   the administrator changed the trust list (the server app's Trust,
//                                    Reject and Delete of a trusted certificate; OPC 10000-12 7.8.2;
//                                    in the 1.05.03 schema a direct subtype of AuditEventType whose
//                                    only own field is TrustListId, 1.05.06 moved it below
//                                    AuditUpdateMethodEventType): TrustListId the DefaultApplicationGroup's
//                                    TrustList (i=12642); SourceNode the Server object (OPC 10000-5
//                                    6.4.3: the subtype defines none); SourceName "Security/TrustList"
//                                    (our choice: none is defined); Message "Certificate added to /
//                                    removed from the trust list: <subject> (SHA-1 <thumbprint>)";
//                                    ClientUserId the administrator
//   AuditAddNodesEventType,          one per NodeManagement request (OPC 10000-5 6.4.24 - 6.4.28):
//   AuditAddReferencesEventType,     NodesToAdd / ReferencesToAdd / NodesToDelete / ReferencesToDelete
//   AuditDeleteNodesEventType,       (the request's items); Status true when every operation
//   AuditDeleteReferencesEventType   succeeded; SourceName "NodeManagement/AddNodes", ...
//   AuditHistoryValueUpdateEventType,     one per operation of a HistoryUpdate (OPC 10000-11 5.8,
//   AuditHistoryRawModifyDeleteEventType, OPC 10000-4 5.11.5): UpdatedNode, ParameterDataTypeId
//   AuditHistoryAtTimeDeleteEventType     (the details' DataType), and PerformInsertReplace +
//                                    NewValues, IsDeleteModified + StartTime + EndTime, or ReqTimes;
//                                    OldValues null (5.8.3 allows it); Status true when the
//                                    operation and each of its values succeeded; SourceName
//                                    "History/HistoryUpdate". Raised when the history thread has
//                                    done the work, so the events keep the order of the updates
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/eventmodel/Event.h"

#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace ua {

class EventManager;
class ServerSecureChannel;
struct Session;

// What the audit events use of the server: built by the runtime (Server::audit()).
struct AuditContext {
    bool auditing;                  // ServerConfig::auditing
    EventManager& events;
    const QString& applicationUri;  // the ServerId of the events
};
// Whether an audit event would go anywhere now (auditing on and some event item exists).
bool auditWanted(const AuditContext& audit);

void auditOpenSecureChannel(const AuditContext& audit, uint32_t channelId, const ServerSecureChannel& channel,
                            StatusCode result);
// After the Session service handler filled resp (the dispatcher calls them).
void auditCreateSession(const AuditContext& audit, uint32_t channelId, const CreateSessionRequest& req,
                        const CreateSessionResponse& resp);
// session: the Session of req's authenticationToken, or null.
void auditActivateSession(const AuditContext& audit, uint32_t channelId, const Session* session,
                          const ActivateSessionRequest& req, const ActivateSessionResponse& resp);
// certificateDer: the rejected leaf (or chain, leaf first); reason: the Bad_Certificate... status;
// invalid: for a DataMismatch, the URI or host name that did not match.
void auditCertificateRejected(EventManager& events, const std::string& serverId, const std::string& certificateDer,
                              StatusCode reason, const std::string& invalid = {});
// How a Session ended, for its AuditSessionEventType's SourceName.
enum class AuditSessionEnd { CloseSession, Timeout, Terminated };
// sessionId: the Session that ended; clientUserId: its user (CloseSession) or who closed it (the
// administrator), empty for none; message: what happened ("Session closed by the administrator").
void auditSessionEnded(const AuditContext& audit, AuditSessionEnd how, const NodeId& sessionId, const std::string& clientUserId,
                       const std::string& message, const String& clientAuditEntryId = String());
// added: the certificate went into the trust list (AddCertificate), else out of it
// (RemoveCertificate); certificateDer: that certificate; result: Good, or why the store failed.
// One NodeManagement request (see above): eventType its Audit...EventType, service its name,
// field the items' field name.
void auditNodeManagement(const AuditContext& audit, uint32_t eventType, const char* service, const char* field, Variant items,
                         bool allGood, const String& clientAuditEntryId, const std::string& clientUserId);
// details: the request's historyUpdateDetails; resp: the response with one result per operation.
void auditHistoryUpdate(const AuditContext& audit, const Array<ExtensionObject>& details, const HistoryUpdateResponse& resp,
                        const String& clientAuditEntryId, const std::string& clientUserId);
void auditTrustListUpdated(const AuditContext& audit, bool added, const std::string& certificateDer,
                           const std::string& administrator, StatusCode result);
// A Method call (AuditUpdateMethodEventType, OPC 10000-5 6.4.27, or a subtype such as the
// AuditCondition...EventTypes of OPC 10000-9 5.10): SourceNode the object called (OPC 10000-9:
// the condition), SourceName "Method/<methodName>", MethodId, InputArguments, StatusCodeId, and
// the subtype's own fields (extra).
void auditMethodCall(const AuditContext& audit, uint32_t eventType, const NodeId& object, std::string_view methodName,
                     const NodeId& methodId, const Array<Variant>& inputs, StatusCode result, const std::string& clientUserId,
                     std::vector<Event::Field> extra = {});
// The AuditCertificate subtype for a validation status.
NodeId auditCertificateEventType(StatusCode reason);

} // namespace ua
