// The command line's connection to one server: a ua::Client configured from the options (security,
// user, certificate store, trust, timeout), the connect sequence, NodeId arguments resolved to
// NodeIds of the Session (ns=, nsu= and browse paths), and the end of the run with its exit code.
// Everything runs on the main thread's event loop: the Client's callbacks come back to this object
// (their context), nothing blocks.
#pragma once

#include "cli/CliOptions.h"
#include "ua/client/Client.h"
#include "ua/client/channel/ReverseListener.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace ua::clientapp {

// A node as given on the command line, checked before connecting.
struct NodeArgument {
    QString text;
    std::variant<NodeId, ExpandedNodeId, BrowsePath> id;  // NodeId as is, nsu= form, browse path from Root
};
// Parses "i=85", "ns=2;s=x", "nsu=urn:x;s=y", "/Objects/Server" (RelativePath from the Root folder,
// OPC 10000-4 A.2); nullopt and *error when it is none of them.
std::optional<NodeArgument> parseNodeArgument(const QString& text, QString* error);

// "Bad_NodeIdUnknown (description)": how every error names its status.
QString describedStatus(StatusCode status);

class CliSession : public QObject {
    Q_OBJECT
public:
    explicit CliSession(CliOptions options, QObject* parent = nullptr);
    ~CliSession() override;

    const CliOptions& options() const { return m_options; }
    const QString& url() const { return m_options.args.front(); }
    // The Client (created by open()).
    Client& client() { return *m_client; }

    // Connects (connectToServer + createSession) and calls ready() with an active Session; on failure
    // prints why and finishes with ExitConnectionFailed, or ExitAccessDenied when the user was refused.
    void open(std::function<void()> ready);
    // FindServers + GetEndpoints on a None channel without a Session (Client::discover), with the
    // timeout of the options; the Client is Disconnected before and after.
    void discover(std::function<void(const DiscoveryResult&)> done);
    // The NodeIds of the Session for the arguments, in order (browse paths translated with one
    // TranslateBrowsePathsToNodeIds, nsu= looked up in the NamespaceArray); on failure prints the
    // argument and status and finishes with ExitOperationFailed.
    void resolve(const std::vector<NodeArgument>& nodes, std::function<void(std::vector<NodeId>)> done);
    // The built-in type of a DataType: builtInTypeOf(), else the supertypes of a DataType outside
    // namespace 0 followed with Browse (inverse HasSubtype) until one is known; nullopt for a
    // structure or an unknown type.
    void resolveBuiltInType(const NodeId& dataType, std::function<void(std::optional<BuiltInType>)> done, int depth = 0);

    // Prints "ua-client: <message>" on stderr and finishes with code.
    void fail(int code, const QString& message);
    // "<what>: Bad_NodeIdUnknown (description)" on stderr, then finishes with code.
    void failStatus(int code, const QString& what, StatusCode status);
    // Closes the Session and the connection (CloseSession, CloseSecureChannel; at most 2 s), then
    // ends the event loop with code. Only the first call counts.
    void finish(int code);

    // The NodeId of this Session as text ("ns=2;s=Demo.Scalars.Int32").
    static QString nodeText(const NodeId& id) { return QString::fromStdString(id.toString()); }

private:
    ClientConfig makeConfig(QString* error);

    struct TrustRecord {  // written by the trust callback on the I/O thread before the connect callback runs
        bool asked = false;
        QString subject;
        QString thumbprint;
    };

    CliOptions m_options;
    std::unique_ptr<ReverseListener> m_reverse;  // --reverse-listen; outlives m_client
    std::unique_ptr<Client> m_client;
    std::shared_ptr<TrustRecord> m_trust = std::make_shared<TrustRecord>();
    bool m_finishing = false;
};

} // namespace ua::clientapp
