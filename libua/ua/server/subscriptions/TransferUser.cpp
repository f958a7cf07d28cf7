#include "ua/server/subscriptions/TransferUser.h"

#include "ua/server/common/Session.h"

namespace ua {

TransferUser transferUser(const Session& s) {
    return TransferUser{s.userTokenType, s.clientUserId, s.client.applicationUri.str(), s.securityMode};
}

bool mayTakeSubscription(const TransferUser& taker, const TransferUser& owner) {
    if (taker.tokenType != owner.tokenType) return false;
    if (taker.tokenType != UserTokenType::Anonymous) return taker.clientUserId == owner.clientUserId;
    const bool signedChannel =
        taker.securityMode == MessageSecurityMode::Sign || taker.securityMode == MessageSecurityMode::SignAndEncrypt;
    return signedChannel && taker.applicationUri == owner.applicationUri;
}

} // namespace ua
