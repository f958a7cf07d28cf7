// Reverse Connect of the Server (OPC 10000-6 7.1.3, 1.05.04): the Client listeners it dials out to.
#pragma once

#include <QStringList>
#include <cstdint>

namespace ua {

struct ReverseConnectConfig {
    // opc.tcp://host:port of each Client's reverse-connect listener. The Server keeps one spare
    // connection open to each (it has sent its ReverseHello and waits for the Hello), so that a
    // Client's next connection does not wait for a dial; once the spare receives its Hello it is an
    // ordinary connection and the next spare is dialled at once.
    QStringList clientUrls;
    // ms a spare connection waits for the Client's Hello before the Server sends ERR Bad_Timeout
    // and closes it (7.1.3: configurable, "a default value which does not exceed 2 minutes");
    // another spare is dialled then. 1..120,000.
    uint32_t helloTimeoutMs = 120'000;
    // ms before a failed dial (refused, unreachable, unknown host) or a spare closed without a
    // Hello is tried again: retryMinMs, doubled after each failure up to retryMaxMs; back to
    // retryMinMs once a spare receives its Hello.
    uint32_t retryMinMs = 1000;
    uint32_t retryMaxMs = 60'000;
};

} // namespace ua
