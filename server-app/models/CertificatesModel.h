// The certificates of a CertificateStore (ua/pki/CertificateStore.h) for the server app's
// certificates page: one list per model (trusted/, rejected/ or issuers/), keyed by thumbprint,
// with the administrator's actions on a row: trust (move to trusted/), reject (move to rejected/),
// remove (delete from every folder), each one an audit line and, when it changed the trust list, a
// TrustListUpdatedAuditEventType (setAudit, AdminAudit.h). An action reloads the model and emits storeChanged(); link()
// two models (the trusted and the rejected list) so that each reloads when the other acts.
// reload() re-reads the list (call it from a timer too: certificates knock at the door from the
// server's I/O threads, which write rejected/ while validating).
#pragma once

#include "models/AdminAudit.h"
#include "models/KeyedTableModel.h"
#include "ua/pki/Certificate.h"

#include <QDateTime>
#include <QStringList>
#include <string>

namespace ua {
class CertificateStore;
}

namespace ua::serverapp {

// What the page shows of one certificate (the own one, or a row's).
struct CertificateDetails {
    bool valid = false;        // false for a null Certificate (no PKI)
    QString commonName;
    QString subject;           // "CN=..., O=..."
    QString issuer;
    QString applicationUri;    // subjectAltName URI
    QStringList hostNames;     // subjectAltName DNS and IP entries
    QDateTime notBefore;       // UTC
    QDateTime notAfter;        // UTC
    QString thumbprint;        // SHA-1, upper-case hex
    int keyBits = 0;
    QString keyKind;           // "RSA 2048 bits", "ECC nistP256", "ECC nistP384"
    bool selfSigned = false;
    bool isCA = false;
};
CertificateDetails describeCertificate(const Certificate& certificate);

class CertificatesModel : public KeyedTableModel<Certificate, std::string> {
    Q_OBJECT
public:
    enum class List { Trusted, Rejected, Issuers };
    Q_ENUM(List)
    enum Column {
        Name,           // CommonName (subject in the tooltip)
        ApplicationUri,
        Issuer,         // "self-signed" or the issuer's name
        ValidFrom,      // notBefore (SortRole: QDateTime)
        ValidTo,        // notAfter, red-flagged in the tooltip when expired
        Thumbprint,     // SHA-1 hex
        ColumnCount
    };
    Q_ENUM(Column)

    // store may be null (a server without PKI): the model stays empty and actions fail.
    CertificatesModel(CertificateStore* store, List list, QObject* parent = nullptr);

    List list() const { return m_list; }
    // The own application instance certificate of the store.
    // The server's own certificate of a key type: the RSA one unless said, or the ECC one of a curve
    // (made when an ECC endpoint is offered; not valid when there is none).
    CertificateDetails ownCertificate(KeyType type = KeyType::Rsa) const;
    Certificate certificate(int row) const;
    CertificateDetails details(int row) const { return describeCertificate(certificate(row)); }

    // Who acts, and the server whose Audit events tell (default: the window's administrator, no events).
    void setAudit(AdminAudit audit) { m_audit = std::move(audit); }

    // Actions on a row; false on a bad row or an I/O failure of the store.
    bool trust(int row);
    bool reject(int row);
    bool remove(int row);
    void reload();
    // other.reload() after this model's actions and this->reload() after other's.
    void link(CertificatesModel& other);

    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // The store's folders changed through this model.
    void storeChanged();

protected:
    std::string keyOf(const Certificate& c) const override { return c.thumbprintHex(); }

private:
    enum class Action { Trust, Reject, Remove };
    bool act(int row, Action action);

    CertificateStore* m_store;
    List m_list;
    AdminAudit m_audit;
};

} // namespace ua::serverapp
