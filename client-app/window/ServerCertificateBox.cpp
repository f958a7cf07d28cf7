#include "ServerCertificateBox.h"

#include "models/ServerCertificateModel.h"

#include "ua/pki/PrivateKey.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ua::clientapp {

ServerCertificateBox::ServerCertificateBox(ServerCertificateModel* model, QWidget* parent)
    : QGroupBox(tr("Server certificate (DefaultApplicationGroup)"), parent), m_model(model) {
    setObjectName(QStringLiteral("serverCertificateBox"));
    auto* form = new QFormLayout(this);
    // OPC 10000-12 7.8.4: RsaSha256, and the ECC types of a server with ECC endpoints.
    m_type = new QComboBox;
    m_type->setObjectName(QStringLiteral("certificateType"));
    m_type->setToolTip(tr("The certificate type the request and the installation concern (the server lists its types)."));
    form->addRow(tr("Certificate type:"), m_type);
    m_certificate = new QLabel;
    m_certificate->setObjectName(QStringLiteral("serverCertificate"));
    m_certificate->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("In use:"), m_certificate);

    auto* requestRow = new QHBoxLayout;
    m_subject = new QLineEdit;
    m_subject->setObjectName(QStringLiteral("requestSubject"));
    m_subject->setPlaceholderText(tr("CN=..., O=... (empty: keep the current subject)"));
    m_newKey = new QCheckBox(tr("New key pair"));
    m_newKey->setObjectName(QStringLiteral("requestNewKey"));
    m_newKey->setChecked(true);
    m_newKey->setToolTip(tr("The server makes a new key pair for the request and keeps it until a certificate for it is applied."));
    m_createRequest = new QPushButton(tr("Create signing request"));
    m_createRequest->setObjectName(QStringLiteral("createSigningRequest"));
    requestRow->addWidget(m_subject, 1);
    requestRow->addWidget(m_newKey);
    requestRow->addWidget(m_createRequest);
    form->addRow(tr("Subject:"), requestRow);

    auto* installRow = new QHBoxLayout;
    m_request = new QLabel;
    m_request->setObjectName(QStringLiteral("signingRequest"));
    m_request->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_saveRequest = new QPushButton(tr("Save request..."));
    m_saveRequest->setObjectName(QStringLiteral("saveSigningRequest"));
    m_validity = new QSpinBox;
    m_validity->setObjectName(QStringLiteral("validityDays"));
    m_validity->setRange(1, 3650);
    m_validity->setValue(365);
    m_validity->setSuffix(tr(" days"));
    m_signWithCa = new QPushButton(tr("Sign with CA and install..."));
    m_signWithCa->setObjectName(QStringLiteral("signWithCa"));
    m_signWithCa->setToolTip(tr("Pick the CA's certificate and private key: the request is signed here and sent to the server "
                                "with UpdateCertificate."));
    m_install = new QPushButton(tr("Install certificate..."));
    m_install->setObjectName(QStringLiteral("installCertificate"));
    m_install->setToolTip(tr("A certificate signed elsewhere for the server's key (and its CA certificates)."));
    installRow->addWidget(m_request, 1);
    installRow->addWidget(m_saveRequest);
    installRow->addWidget(m_validity);
    installRow->addWidget(m_signWithCa);
    installRow->addWidget(m_install);
    form->addRow(tr("Request:"), installRow);

    connect(m_type, &QComboBox::activated, this, [this](int index) { m_model->setCertificateType(index); });
    connect(m_createRequest, &QPushButton::clicked, this, [this] { m_model->createSigningRequest(m_subject->text().trimmed(), m_newKey->isChecked()); });
    connect(m_saveRequest, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the signing request"), QStringLiteral("server.csr"),
                                                          tr("Certificate requests (*.csr *.pem);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !m_model->saveSigningRequest(path, &error)) m_request->setText(tr("Not saved: %1").arg(error));
    });
    connect(m_signWithCa, &QPushButton::clicked, this, [this] {
        const QString cert = QFileDialog::getOpenFileName(this, tr("The CA's certificate"), QString(),
                                                          tr("Certificates (*.der *.pem *.crt *.cer);;All files (*)"));
        if (cert.isEmpty()) return;
        const QString key = QFileDialog::getOpenFileName(this, tr("The CA's private key"), QString(),
                                                         tr("Private keys (*.pem *.key *.der);;All files (*)"));
        if (key.isEmpty()) return;
        QString password;
        if (PrivateKey::load(key.toStdString()).isNull())  // encrypted (or not a key: the model says so)
            password = QInputDialog::getText(this, tr("The CA's private key"), tr("Password of %1:").arg(key), QLineEdit::Password);
        signWithCa(cert, key, password);
    });
    connect(m_install, &QPushButton::clicked, this, [this] {
        const QString cert = QFileDialog::getOpenFileName(this, tr("The server's new certificate"), QString(),
                                                          tr("Certificates (*.der *.pem *.crt *.cer);;All files (*)"));
        if (cert.isEmpty()) return;
        const QStringList issuers = QFileDialog::getOpenFileNames(this, tr("Its CA certificates (none: cancel)"), QString(),
                                                                  tr("Certificates (*.der *.pem *.crt *.cer);;All files (*)"));
        m_model->installCertificate(cert, issuers);
    });
    connect(m_model, &ServerCertificateModel::changed, this, &ServerCertificateBox::updateView);
    connect(m_model, &ServerCertificateModel::busyChanged, this, &ServerCertificateBox::updateView);
    updateView();
}

void ServerCertificateBox::signWithCa(const QString& caCertificateFile, const QString& caKeyFile, const QString& password) {
    m_model->installSignedBy(caCertificateFile, caKeyFile, password, m_validity->value());
}

void ServerCertificateBox::updateView() {
    const QStringList types = m_model->certificateTypeNames();
    QStringList shown;
    for (int i = 0; i < m_type->count(); ++i) shown << m_type->itemText(i);
    if (shown != types) {
        m_type->clear();
        m_type->addItems(types);
    }
    m_type->setCurrentIndex(m_model->certificateTypeIndex());
    m_certificate->setText(m_model->certificateSummary());
    m_request->setText(m_model->signingRequestSummary());
    const bool idle = !m_model->busy();
    const bool haveRequest = !m_model->signingRequest().isEmpty();
    m_type->setEnabled(idle);
    m_createRequest->setEnabled(idle);
    m_saveRequest->setEnabled(idle && haveRequest);
    m_signWithCa->setEnabled(idle && haveRequest);
    m_install->setEnabled(idle);
}

} // namespace ua::clientapp
