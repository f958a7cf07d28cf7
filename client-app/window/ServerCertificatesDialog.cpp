#include "ServerCertificatesDialog.h"

#include "models/ServerTrustListModel.h"

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
    : QDialog(parent), m_model(new ServerTrustListModel(connection, this)) {
    setObjectName(QStringLiteral("serverCertificatesDialog"));
    setWindowTitle(tr("Manage server certificates"));
    resize(1180, 420);
    auto* layout = new QVBoxLayout(this);
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
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ServerCertificatesDialog::updateButtons);
    updateButtons();
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
    const bool idle = !m_model->busy();
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const bool certificateRow =
        !rows.isEmpty() && rows.first().row() < int(m_model->entries().size()) &&
        (m_model->entries()[std::size_t(rows.first().row())].kind == ServerTrustListModel::Kind::TrustedCertificate ||
         m_model->entries()[std::size_t(rows.first().row())].kind == ServerTrustListModel::Kind::IssuerCertificate);
    m_reload->setEnabled(idle);
    m_add->setEnabled(idle);
    m_remove->setEnabled(idle && certificateRow);
    m_apply->setEnabled(idle);
    m_cancel->setEnabled(idle && m_model->changesPending());
}

} // namespace ua::clientapp
