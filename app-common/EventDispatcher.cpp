#include "EventDispatcher.h"

#include <QByteArray>
#include <QtGlobal>

namespace ua::app {

void preferUnixEventDispatcher() {
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB")) qputenv("QT_NO_GLIB", QByteArrayLiteral("1"));
}

} // namespace ua::app
