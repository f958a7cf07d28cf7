#include "ua/server/common/Clock.h"

#include <QElapsedTimer>

namespace ua {

int64_t monotonicMs() {
    static const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

} // namespace ua
