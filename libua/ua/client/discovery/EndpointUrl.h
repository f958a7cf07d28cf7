// An opc.tcp endpoint URL (OPC 10000-6 7.1.1): opc.tcp://<host>[:<port>][/<path>], port 4840 when
// absent. The client connects to the host and port the user typed, whatever host the server
// advertises in its EndpointDescriptions (see docs/Client.md, "Endpoint host").
#pragma once

#include <QString>
#include <optional>

namespace ua {

struct EndpointUrl {
    QString host;      // a name or an address; IPv6 without brackets
    quint16 port = 4840;
    QString path;      // with its leading '/', or empty

    // nullopt for another scheme, an empty host or a bad port.
    static std::optional<EndpointUrl> parse(const QString& url);
    QString toString() const;
    // The same URL with another host, e.g. an advertised endpoint URL mapped onto the typed host.
    EndpointUrl withHost(const QString& newHost) const { EndpointUrl u = *this; u.host = newHost; return u; }
};

} // namespace ua
