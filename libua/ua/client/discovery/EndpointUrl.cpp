#include "ua/client/discovery/EndpointUrl.h"

#include <QUrl>

namespace ua {

std::optional<EndpointUrl> EndpointUrl::parse(const QString& text) {
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.scheme().compare(QLatin1String("opc.tcp"), Qt::CaseInsensitive) != 0) return std::nullopt;
    EndpointUrl e;
    e.host = url.host();
    if (e.host.isEmpty()) return std::nullopt;
    const int port = url.port(4840);
    if (port <= 0 || port > 65535) return std::nullopt;
    e.port = quint16(port);
    e.path = url.path();
    return e;
}

QString EndpointUrl::toString() const {
    const QString h = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("opc.tcp://%1:%2%3").arg(h).arg(port).arg(path);
}

} // namespace ua
