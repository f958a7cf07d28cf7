#include "ua/server/runtime/ServerExtension.h"

namespace ua {

namespace {
ServerExtensions& defaultList() {
    static ServerExtensions list;
    return list;
}
} // namespace

void setDefaultServerExtensions(ServerExtensions extensions) { defaultList() = std::move(extensions); }
const ServerExtensions& defaultServerExtensions() { return defaultList(); }

} // namespace ua
