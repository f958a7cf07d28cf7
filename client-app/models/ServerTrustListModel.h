// The trust list of the connected server, managed remotely through its ServerConfiguration (OPC
// 10000-12 7.8.2 TrustListType, 7.10 ServerConfigurationType; push certificate management, as
// UaExpert's and a GDS's "manage server certificates" do), for the client window's "Manage server
// certificates" dialog (window/ServerCertificatesDialog.h).
//
// reload() reads the DefaultApplicationGroup's TrustList file (i=12642): Open(Read), Read in 64 KiB
// pieces, Close, and shows every entry of the decoded TrustListDataType, one row each (the kind:
// trusted certificate or CRL, issuer certificate or CRL; subject; thumbprint; valid until).
// addCertificate() and removeRow() call AddCertificate / RemoveCertificate; the server holds them
// in a transaction until applyChanges() (ApplyChanges, then a reload), cancelChanges() drops them.
// Every call goes through the Connection's operations and service log. The server answers
// Bad_UserAccessDenied without the SecurityAdmin Role and Bad_SecurityModeInsufficient over an
// unencrypted channel: finished() carries the status and a sentence for the dialog.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through the stack's headers) before one.
#include <QAbstractTableModel>
#include <QByteArray>
#include <QPointer>
#include <QString>

#include "ua/encoding/generated/Types.h"

#include <functional>
#include <vector>

namespace ua::clientapp {

class Connection;

class ServerTrustListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, SubjectColumn, ThumbprintColumn, ValidToColumn, ColumnCount };
    enum class Kind { TrustedCertificate, TrustedCrl, IssuerCertificate, IssuerCrl };
    struct Entry {
        Kind kind = Kind::TrustedCertificate;
        QByteArray der;
        QString subject;     // a certificate's subject, a CRL's issuer
        QString thumbprint;  // SHA-1 of the DER, upper-case hex
        QString validTo;     // a certificate's notAfter, a CRL's nextUpdate ("" when unknown)
    };

    explicit ServerTrustListModel(Connection* connection, QObject* parent = nullptr);

    // Reads the trust list again (the rows stay until it arrives).
    void reload();
    // AddCertificate(der, IsTrustedCertificate = true).
    void addCertificate(const QByteArray& der);
    // RemoveCertificate(thumbprint, IsTrustedCertificate) of a certificate row; a CRL row cannot be
    // removed on its own (the server removes a CA's CRLs with it): Bad_InvalidArgument locally.
    void removeRow(int row);
    void applyChanges();   // ApplyChanges, then reload()
    void cancelChanges();  // CancelChanges
    // Whether changes were made since the last ApplyChanges or CancelChanges.
    bool changesPending() const { return m_pending; }
    bool busy() const { return m_busy; }
    const std::vector<Entry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString kindName(Kind kind);

signals:
    // After each action: its name ("Read the trust list", "AddCertificate", ...), the status and a
    // sentence for the user.
    void finished(const QString& action, ua::StatusCode status, const QString& message);
    void busyChanged(bool busy);

private:
    using Outputs = std::vector<ua::Variant>;
    void call(uint32_t objectId, uint32_t methodId, std::vector<ua::Variant> inputs, const QString& action,
              std::function<void(ua::StatusCode, const Outputs&)> done);
    void readPiece(uint32_t handle, QByteArray file);
    void setEntries(const ua::TrustListDataType& list);
    void finish(const QString& action, ua::StatusCode status);
    void setBusy(bool busy);

    QPointer<Connection> m_connection;
    std::vector<Entry> m_entries;
    bool m_pending = false;
    bool m_busy = false;
};

} // namespace ua::clientapp
