#include "ServerCertificatesDialog.h"

#include "ServerCertificateBox.h"
#include "models/ServerCertificateModel.h"
#include "models/ServerTrustListModel.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/Certificate.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::clientapp {

ServerCertificatesDialog::ServerCertificatesDialog(Connection* connection, QWidget* parent)
    : QDialog(parent), m_model(new ServerTrustListModel(connection, this)),
      m_certificateModel(new ServerCertificateModel(connection, this)) {
    setObjectName(QStringLiteral("serverCertificatesDialog"));
    setWindowTitle(tr("Manage server certificates"));
    resize(1180, 600);
    auto* layout = new QVBoxLayout(this);
    m_certificateBox = new ServerCertificateBox(m_certificateModel);
    layout->addWidget(m_certificateBox);
    layout->addWidget(new QLabel(tr("The server's trust list (ServerConfiguration, DefaultApplicationGroup). Changes wait for "
                                    "<b>Apply changes</b>; the server asks for the SecurityAdmin role and Sign &amp; Encrypt.")));
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("trustListView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    for (const int c : {int(ServerTrustListModel::KindColumn), int(ServerTrustListModel::ThumbprintColumn),
                        int(ServerTrustListModel::ValidToColumn)})
        m_view->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ServerTrustListModel::SubjectColumn, QHeaderView::Stretch);
    m_view->verticalHeader()->hide();
    layout->addWidget(m_view, 1);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("trustListStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox;
    m_reload = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    m_add = buttons->addButton(tr("Add certificate..."), QDialogButtonBox::ActionRole);
    m_remove = buttons->addButton(tr("Remove"), QDialogButtonBox::ActionRole);
    m_apply = buttons->addButton(tr("Apply changes"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel changes"), QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    m_reload->setObjectName(QStringLiteral("reloadTrustList"));
    m_add->setObjectName(QStringLiteral("addCertificate"));
    m_remove->setObjectName(QStringLiteral("removeCertificate"));
    m_apply->setObjectName(QStringLiteral("applyChanges"));
    m_cancel->setObjectName(QStringLiteral("cancelChanges"));
    layout->addWidget(buttons);

    connect(m_reload, &QPushButton::clicked, m_model, &ServerTrustListModel::reload);
    connect(m_add, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Certificate to trust"), QString(),
                                                          tr("Certificates (*.der *.pem *.crt *.cer);;All files (*)"));
        if (!path.isEmpty()) addCertificateFile(path);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_view->selectionModel()->selectedRows();
        if (!rows.isEmpty()) m_model->removeRow(rows.first().row());
    });
    connect(m_apply, &QPushButton::clicked, m_model, &ServerTrustListModel::applyChanges);
    connect(m_cancel, &QPushButton::clicked, m_model, &ServerTrustListModel::cancelChanges);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_model, &ServerTrustListModel::finished, this, [this](const QString&, StatusCode, const QString& message) {
        m_status->setText(message + (m_model->changesPending() ? tr(" Changes wait for Apply changes.") : QString()));
        updateButtons();
    });
    connect(m_model, &ServerTrustListModel::busyChanged, this, &ServerCertificatesDialog::updateButtons);
    connect(m_certificateModel, &ServerCertificateModel::finished, this, [this](const QString&, StatusCode, const QString& message) {
        m_status->setText(message);
        updateButtons();
    });
    connect(m_certificateModel, &ServerCertificateModel::busyChanged, this, &ServerCertificatesDialog::updateButtons);
    // Applied: the certificate in use is read again (after the server's new channel, if it changed).
    connect(m_model, &ServerTrustListModel::finished, this, [this](const QString& action, StatusCode st, const QString&) {
        const bool ended = st.isGood() || st == StatusCode(status::BadNothingToDo);
        if (!ended || (action != tr("ApplyChanges") && action != tr("CancelChanges"))) return;
        m_certificateModel->changesApplied();
        if (action == tr("ApplyChanges")) m_certificateModel->reload();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ServerCertificatesDialog::updateButtons);
    updateButtons();
    m_certificateModel->reload();
    m_model->reload();
}

bool ServerCertificatesDialog::addCertificateFile(const QString& path) {
    const Certificate c = Certificate::load(path.toStdString());
    if (c.isNull()) {
        m_status->setText(tr("%1 holds no certificate (DER or PEM).").arg(path));
        return false;
    }
    m_model->addCertificate(QByteArray::fromStdString(c.der()));
    return true;
}

void ServerCertificatesDialog::updateButtons() {
    const bool idle = !m_model->busy() && !m_certificateModel->busy();
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const bool certificateRow =
        !rows.isEmpty() && rows.first().row() < int(m_model->entries().size()) &&
        (m_model->entries()[std::size_t(rows.first().row())].kind == ServerTrustListModel::Kind::TrustedCertificate ||
         m_model->entries()[std::size_t(rows.first().row())].kind == ServerTrustListModel::Kind::IssuerCertificate);
    m_reload->setEnabled(idle);
    m_add->setEnabled(idle);
    m_remove->setEnabled(idle && certificateRow);
    m_apply->setEnabled(idle);
    m_cancel->setEnabled(idle && (m_model->changesPending() || m_certificateModel->changesPending()));
}

} // namespace ua::clientapp
