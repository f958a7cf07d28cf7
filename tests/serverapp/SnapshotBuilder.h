// Hand-made DiagnosticsSnapshots for the models' unit tests (before and beside live servers).
#pragma once

#include "ua/server/common/DiagnosticsSnapshot.h"

#include <memory>
#include <string>

namespace ua::test {

inline NodeId sessionNode(uint32_t n) { return *NodeId::parse("ns=1;i=" + std::to_string(n)); }

inline SessionSnapshot makeSession(uint32_t n, uint32_t requests = 0, uint32_t errors = 0) {
    SessionSnapshot s;
    s.diagnostics.sessionId = sessionNode(n);
    s.diagnostics.sessionName = String::fromQString(QStringLiteral("session %1").arg(n));
    s.diagnostics.clientDescription.applicationName.text = String("tester");
    s.diagnostics.clientDescription.applicationUri = String("urn:tester");
    s.diagnostics.clientConnectionTime = DateTime::fromUnixMs(1'700'000'000'000LL + n);
    s.diagnostics.clientLastContactTime = DateTime::fromUnixMs(1'700'000'000'000LL + n + requests);
    s.diagnostics.totalRequestCount.totalCount = requests;
    s.diagnostics.totalRequestCount.errorCount = errors;
    s.security.sessionId = s.diagnostics.sessionId;
    s.security.securityMode = MessageSecurityMode::SignAndEncrypt;
    s.security.securityPolicyUri = String("http://opcfoundation.org/UA/SecurityPolicy#Basic256Sha256");
    s.security.clientUserIdOfSession = String("alice");
    s.peerAddress = QStringLiteral("127.0.0.1:%1").arg(40000 + n);
    s.activated = true;
    return s;
}

inline SubscriptionDiagnosticsDataType makeSubscription(uint32_t id, uint32_t session, uint32_t notifications = 0) {
    SubscriptionDiagnosticsDataType d;
    d.subscriptionId = id;
    d.sessionId = sessionNode(session);
    d.publishingInterval = 100;
    d.monitoredItemCount = 3;
    d.notificationsCount = notifications;
    return d;
}

inline std::shared_ptr<DiagnosticsSnapshot> makeSnapshot(int64_t takenMs) {
    auto s = std::make_shared<DiagnosticsSnapshot>();
    s->takenMs = takenMs;
    s->takenAt = DateTime::fromUnixMs(1'700'000'000'000LL + takenMs);
    return s;
}

} // namespace ua::test
