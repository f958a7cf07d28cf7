#include "ua/client/history/HistoryUpdate.h"

namespace ua {

HistoryUpdateRequest makeHistoryUpdateRequest(std::vector<HistoryUpdateOperation> operations) {
    HistoryUpdateRequest req;
    req.historyUpdateDetails = Array<ExtensionObject>::emptyArray();
    req.historyUpdateDetails.reserve(operations.size());
    for (HistoryUpdateOperation& op : operations)
        req.historyUpdateDetails.push_back(std::visit([](auto&& d) { return ExtensionObject::make(std::move(d)); }, std::move(op)));
    return req;
}

} // namespace ua
