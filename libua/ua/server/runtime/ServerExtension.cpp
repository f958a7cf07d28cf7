#include "ua/server/runtime/ServerExtension.h"

namespace ua {

namespace {
ServerExtensions& defaults() {
    static ServerExtensions list;
    return list;
}
} // namespace

void setDefaultServerExtensions(ServerExtensions extensions) { defaults() = std::move(extensions); }
const ServerExtensions& defaultServerExtensions() { return defaults(); }

} // namespace ua
