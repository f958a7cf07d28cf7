// The connected server's application instance certificate, renewed remotely through its
// ServerConfiguration (OPC 10000-12 7.10.8 GetCertificates, 7.10.10 CreateSigningRequest, 7.10.5
// UpdateCertificate; push certificate management), for the "Manage server certificates" dialog
// (window/ServerCertificatesDialog.h), as a GDS or UaExpert's certificate manager would do it with a
// CA the user holds:
//   reload()                 GetCertificates of the DefaultApplicationGroup: the certificate in use
//                            of each certificate type the server lists (RsaSha256, and EccNistP256 /
//                            EccNistP384 on a server with ECC endpoints; OPC 10000-12 7.8.4);
//   setCertificateType()     which of them the actions below concern (RsaSha256 until reload());
//   createSigningRequest()   a PKCS#10 request from the server (optionally for a new key it keeps);
//   saveSigningRequest()     the request to a file, for a CA elsewhere;
//   installSignedBy()        signs the request with the user's CA certificate and key (files) and
//                            calls UpdateCertificate with the CA as issuer (the server must hold
//                            the CA in its trust list already, or get it in the same transaction:
//                            7.10.5 ignores IssuerCertificates);
//   installCertificate()     UpdateCertificate with a certificate signed elsewhere (a file).
// The server holds the new certificate in the Session's transaction until ApplyChanges
// (ServerTrustListModel::applyChanges applies the trust list and the certificate together); it then
// closes the encrypted channels and this client reconnects, meeting the new certificate
// (ClientCore's reconnect fetches the endpoints again). Needs the SecurityAdmin Role over Sign &
// Encrypt, as the trust list does.
#pragma once
// A Qt header first: moc cannot parse <concepts> (reached through the stack's headers) before one.
#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <vector>

#include "ua/types/StatusCode.h"

namespace ua::clientapp {

class Connection;

class ServerCertificateModel : public QObject {
    Q_OBJECT
public:
    explicit ServerCertificateModel(Connection* connection, QObject* parent = nullptr);

    void reload();
    // The certificate types of the last reload() ("RsaSha256", "EccNistP256", "EccNistP384": the
    // BrowseNames without ApplicationCertificateType; the NodeId's text for another); RsaSha256 alone
    // before. setCertificateType(index) selects one: certificate() becomes its certificate, the
    // signing request (of the type before) goes.
    QStringList certificateTypeNames() const;
    int certificateTypeIndex() const { return m_typeIndex; }
    void setCertificateType(int index);
    // subject: "CN=..., O=..." (empty: the server keeps its subject); newKey: the server makes a new
    // key pair for the request (with a random 32-byte nonce, 7.10.10).
    void createSigningRequest(const QString& subject, bool newKey);
    // Writes the request (PEM "CERTIFICATE REQUEST"); false (and *error) without one or on an I/O error.
    bool saveSigningRequest(const QString& path, QString* error = nullptr) const;
    // caCertificateFile: DER or PEM; caKeyFile: PEM or DER, with password when encrypted;
    // validityDays of the new certificate. Finishes with Bad_InvalidArgument and a sentence when a
    // file does not load or the CA cannot sign (not a CA, not its key, no request yet).
    void installSignedBy(const QString& caCertificateFile, const QString& caKeyFile, const QString& password, int validityDays);
    // A certificate (DER or PEM file) for the server's key or pending key, with its issuers (files).
    void installCertificate(const QString& certificateFile, const QStringList& issuerFiles);

    QByteArray certificate() const { return m_certificate; }       // DER; empty before reload()
    QString certificateSummary() const;                           // subject, issuer, validity, thumbprint
    QByteArray signingRequest() const { return m_request; }       // DER; empty before createSigningRequest()
    QString signingRequestSummary() const;
    bool changesPending() const { return m_pending; }
    void changesApplied() { m_pending = false; }  // ApplyChanges or CancelChanges (ServerTrustListModel) ended it
    bool busy() const { return m_busy; }

signals:
    // After each action: its name ("GetCertificates", "CreateSigningRequest", "UpdateCertificate"),
    // the status and a sentence for the user.
    void finished(const QString& action, ua::StatusCode status, const QString& message);
    void busyChanged(bool busy);
    void changed();  // certificate() or signingRequest() changed

private:
    void update(const QByteArray& certificate, const std::vector<QByteArray>& issuers, const QString& action);
    void finish(const QString& action, ua::StatusCode status, const QString& detail = {});
    void setBusy(bool busy);

    QPointer<Connection> m_connection;
    std::vector<uint32_t> m_types;           // numeric NodeIds (ns=0) of the listed certificate types
    std::vector<QByteArray> m_certificates;  // the DER of each, as GetCertificates returned it
    int m_typeIndex = 0;
    QByteArray m_certificate;
    QByteArray m_request;
    bool m_pending = false;
    bool m_busy = false;
};

} // namespace ua::clientapp
