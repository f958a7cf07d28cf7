// Binds a PushManager (PushManager.h) to the ns0 nodes of Server.ServerConfiguration (i=12637,
// OPC 10000-12 7.10.3 ServerConfigurationType, newest 1.05 text):
//   DefaultApplicationGroup.TrustList (i=12642, TrustListType 7.8.2): Open, Close, Read, Write,
//     GetPosition, SetPosition (OPC 10000-20 4.2 FileType), OpenWithMasks, CloseAndUpdate,
//     AddCertificate, RemoveCertificate; OpenCount, LastUpdateTime, Size (Bad_NotSupported: no
//     meaning for a TrustList), Writable/UserWritable true, ActivityTimeout, MaxByteStringLength.
//   DefaultApplicationGroup: CertificateTypes [RsaSha256ApplicationCertificateType], GetRejectedList.
//   ServerConfiguration: ApplyChanges, CancelChanges, GetRejectedList; MaxTrustListSize, ServerCapabilities [] and MulticastDnsEnabled false.
//   ServerConfiguration: UpdateCertificate, CreateSigningRequest, GetCertificates (the
//     DefaultApplicationGroup's RsaSha256ApplicationCertificateType), SupportedPrivateKeyFormats
//     ["PEM", "PFX"].
//   ServerConfiguration.ResetToServerDefaults (i=25709): the store reset to "<pki>/defaults"
//     (PushManager.h), then the context's reset() (the Server shuts down).
//
// Audit events (when auditing is on): TrustListUpdateRequestedAuditEventType (i=32260) for each
// CloseAndUpdate, AddCertificate and RemoveCertificate call, TrustListUpdatedAuditEventType
// (i=12561, TrustListId i=12642) when ApplyChanges changed the trust list,
// CertificateUpdateRequestedAuditEventType (i=32306) for each UpdateCertificate call (PrivateKey
// left out), CertificateUpdatedAuditEventType (i=12620, CertificateGroup and CertificateType) when
// ApplyChanges put a new certificate into use; all with SourceName
// "Method/<name>", the caller as ClientUserId and the call's status.
#pragma once

#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/certificates/PushManager.h"

#include <QString>

#include <functional>
#include <memory>
#include <string>

namespace ua {

class EventManager;

struct PushMethodsContext {
    std::shared_ptr<PushManager> manager;
    EventManager& events;
    bool auditing = false;
    const QString& applicationUri;                         // the audit events' ServerId
    std::function<std::string(const NodeId&)> userOf;      // a Session's ClientUserId (may be empty)
    // After each ApplyChanges that changed the trust list or the certificate (on the Method worker).
    std::function<void(const PushManager::Applied&)> applied;
    // After a ResetToServerDefaults that reset the store (on the Method worker): the server shuts
    // down, as OPC 10000-12 7.10.13 asks.
    std::function<void()> reset;
};

// Bad_NodeIdUnknown when the address space has no ServerConfiguration (a NodeSet without it).
StatusCode installPushMethods(AddressSpace& space, PushMethodsContext context);

} // namespace ua
