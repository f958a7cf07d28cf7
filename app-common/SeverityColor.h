// The colour of an event's or alarm's Severity (OPC 10000-5 6.4.2, 1..1000) as alarm lists show it,
// shared by the server's Alarms page and the client's Alarms tab: above 800 red, above 600 orange,
// above 400 yellow, else blue-grey.
#pragma once

#include <QColor>

#include <cstdint>

namespace ua::app {

QColor severityColor(uint16_t severity);

} // namespace ua::app
