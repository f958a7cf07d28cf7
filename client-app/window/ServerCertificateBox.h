// The "Server certificate" part of the Manage server certificates dialog (ServerCertificatesDialog.h;
// OPC 10000-12 7.10 push certificate management): the certificate the server uses, a signing
// request made by the server (a subject, a new key or the current one), saved to a file for a CA
// elsewhere, or signed here by a CA whose certificate and private key the user picks, and a
// certificate signed elsewhere installed. The server holds the new certificate until the dialog's
// Apply changes. Its model: models/ServerCertificateModel.h.
#pragma once

// A Qt header first: moc cannot parse <concepts> (reached through the stack's headers) before one.
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ua::clientapp {

class ServerCertificateModel;

class ServerCertificateBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ServerCertificateBox(ServerCertificateModel* model, QWidget* parent = nullptr);

    // What the buttons do after their file dialogs (for tests and scripts).
    void signWithCa(const QString& caCertificateFile, const QString& caKeyFile, const QString& password);
    QLineEdit* subjectEdit() const { return m_subject; }
    QCheckBox* newKeyBox() const { return m_newKey; }

private:
    void updateView();

    ServerCertificateModel* m_model;
    QComboBox* m_type;
    QLabel* m_certificate;
    QLabel* m_request;
    QLineEdit* m_subject;
    QCheckBox* m_newKey;
    QSpinBox* m_validity;
    QPushButton* m_createRequest;
    QPushButton* m_saveRequest;
    QPushButton* m_signWithCa;
    QPushButton* m_install;
};

} // namespace ua::clientapp
