#include "SeverityColor.h"

namespace ua::app {

QColor severityColor(uint16_t severity) {
    if (severity > 800) return QColor(0xf4, 0x43, 0x36);  // red
    if (severity > 600) return QColor(0xff, 0x98, 0x00);  // orange
    if (severity > 400) return QColor(0xff, 0xeb, 0x3b);  // yellow
    return QColor(0x90, 0xa4, 0xae);                      // blue-grey
}

} // namespace ua::app
