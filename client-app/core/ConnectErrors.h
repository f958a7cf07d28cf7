// What went wrong with a connect, in sentences a person understands (issue 27 item 4), beside the
// status code that stays the precise answer:
//   endpointUrlProblem("localhost:24840")  -> "localhost:24840 has no scheme: an endpoint URL starts
//                                              with opc.tcp://, e.g. opc.tcp://localhost:24840"
//   connectFailureSentence(Bad_SecurityChecksFailed, context) -> "The server refused the secure
//       channel: it has probably not trusted this client's certificate yet (CN=..., SHA-1 ...). ..."
// Pure functions of their arguments (no I/O), but for ownCertificateIn(), which reads files.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/types/StatusCode.h"

#include <QString>
#include <optional>

namespace ua::clientapp {

// Why url is not an endpoint URL the client can connect to (OPC 10000-6 7.1.1:
// opc.tcp://<host>[:<port>][/<path>]), or empty when it is one (EndpointUrl::parse takes it).
QString endpointUrlProblem(const QString& url);

// What the sentence may name besides the status.
struct ConnectFailureContext {
    QString endpointUrl;                  // as typed
    Certificate clientCertificate;        // this client's application instance certificate (may be null)
    std::optional<bool> hostResolved;     // for Bad_ConnectionRejected: did the host name resolve? (nullopt: not known)
};

// One or two sentences for a connect (connectToServer + createSession) that ended with status; empty
// for Good. The status's own name is not repeated (the caller shows it beside the sentence). A status
// without a sentence of its own gets the specification's description.
QString connectFailureSentence(StatusCode status, const ConnectFailureContext& context);

// The status as the window shows it: "Bad_SecurityChecksFailed: <sentence>"; Bad_Disconnect (the user
// stopped the connect: Cancel, Esc, Disconnect) reads "Connect cancelled.".
QString connectFailureText(StatusCode status, const ConnectFailureContext& context);

// "AB:CD:..." of a hex string (a certificate's thumbprint as the trust dialogs show it).
QString colonHex(const QString& hex);

// This client's application instance certificate in pkiDir (own/certs, the newest valid one), or a
// null Certificate when there is none yet (it is created on the first secure connect).
Certificate ownCertificateIn(const QString& pkiDir);

} // namespace ua::clientapp
