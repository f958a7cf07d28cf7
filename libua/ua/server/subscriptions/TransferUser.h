// Who may take a Subscription with TransferSubscriptions (OPC 10000-4 5.14.7.1): the user a
// Session acts for, as its last ActivateSession left it, with the Session's ApplicationUri and the
// MessageSecurityMode of the channel it is bound to.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <string>

namespace ua {

struct Session;

struct TransferUser {
    UserTokenType tokenType = UserTokenType::Anonymous;
    std::string clientUserId;    // user name or X509 subject (OPC 10000-5 ClientUserId); empty: anonymous
    std::string applicationUri;  // CreateSession's clientDescription.applicationUri
    MessageSecurityMode securityMode = MessageSecurityMode::None;

    bool operator==(const TransferUser&) const = default;
};

// The Session's; the caller holds s.activationMutex (or owns s alone).
TransferUser transferUser(const Session& s);

// 5.14.7.1: a named user takes the Subscriptions of the same ClientUserId (and token type), over
// any channel. An anonymous taker takes only an anonymous owner's, of the same ApplicationUri, and
// only on a Sign or SignAndEncrypt channel (over None the ApplicationUri is the client's word).
// Otherwise the operation is Bad_UserAccessDenied.
bool mayTakeSubscription(const TransferUser& taker, const TransferUser& owner);

} // namespace ua
