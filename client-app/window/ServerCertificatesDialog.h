// "Manage server certificates" (issue 32 item 2; OPC 10000-12 push certificate management): the
// connected server's application instance certificate (ServerCertificateBox: a signing request, a
// CA that signs it, UpdateCertificate) and its trust list as its ServerConfiguration serves it
// (ServerTrustListModel), with Reload, Add certificate... (a DER or PEM file), Remove, Apply changes
// and Cancel changes. The server holds a new certificate, additions and removals until Apply
// changes (one transaction). Non-modal; each action's outcome in
// the status line (a server that refuses says why: the SecurityAdmin role, Sign & Encrypt).
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through the stack's headers) before one.
#include <QDialog>

class QLabel;
class QPushButton;
class QTableView;

namespace ua::clientapp {

class Connection;
class ServerCertificateBox;
class ServerCertificateModel;
class ServerTrustListModel;

class ServerCertificatesDialog : public QDialog {
    Q_OBJECT
public:
    explicit ServerCertificatesDialog(Connection* connection, QWidget* parent = nullptr);

    ServerTrustListModel* model() const { return m_model; }
    ServerCertificateModel* certificateModel() const { return m_certificateModel; }
    ServerCertificateBox* certificateBox() const { return m_certificateBox; }
    QTableView* view() const { return m_view; }
    // Adds the certificate in a .der/.pem/.crt file (the button asks for one); false when the file
    // holds no certificate (said in the status line).
    bool addCertificateFile(const QString& path);

private:
    void updateButtons();

    ServerTrustListModel* m_model;
    ServerCertificateModel* m_certificateModel;
    ServerCertificateBox* m_certificateBox;
    QTableView* m_view;
    QLabel* m_status;
    QPushButton* m_reload;
    QPushButton* m_add;
    QPushButton* m_remove;
    QPushButton* m_apply;
    QPushButton* m_cancel;
};

} // namespace ua::clientapp
