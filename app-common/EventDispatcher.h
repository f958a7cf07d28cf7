// The event dispatcher of the apps' threads. Qt on Linux uses GLib's main loop by default; its
// own UNIX dispatcher (QT_NO_GLIB=1) costs less per wake-up, and a server or load tester thread
// wakes up for every request or two (docs/Benchmarks.md "Performance (issue 9)"). Call before the
// Q(Core)Application is made: every thread started afterwards, the I/O threads included, uses it.
// A QT_NO_GLIB already set (even empty, which selects GLib) is left as it is.
#pragma once

namespace ua::app {

void preferUnixEventDispatcher();

} // namespace ua::app
