#include "ua/server/common/ResponseTarget.h"

namespace ua {

ServerSecureChannel* ResponseTarget::channel() const { return link ? link->channel : nullptr; }

void ResponseTarget::post(std::function<void()> f) const {
    if (!link || !link->poster) return;
    QMetaObject::invokeMethod(link->poster, std::move(f), Qt::QueuedConnection);
}

} // namespace ua
