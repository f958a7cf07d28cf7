#include "CertificatesPage.h"

#include "TableViews.h"
#include "UsersPanel.h"

#include "models/CertificatesModel.h"

#include "ua/server/runtime/Server.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTime>
#include <QVBoxLayout>

namespace ua::app {

CertificatesPage::CertificatesPage(std::function<bool(const UserDatabase&, QString*)> saveUsers, QWidget* parent)
    : QWidget(parent), m_saveUsers(std::move(saveUsers)) {
    setObjectName(QStringLiteral("certificatesPage"));
    auto* own = new QGroupBox(tr("This server's certificate"));
    (new QVBoxLayout(own))->addWidget(m_own = new QLabel);
    m_own->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_own->setObjectName(QStringLiteral("ownCertificate"));

    auto* lists = new QWidget;
    m_lists = new QVBoxLayout(lists);
    m_lists->setContentsMargins(0, 0, 0, 0);
    auto* users = new QGroupBox(tr("Users"));
    m_usersBox = new QVBoxLayout(users);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(lists);
    split->addWidget(users);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(own);
    layout->addWidget(split, 1);
    layout->addWidget(m_status = new QLabel);

    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!isVisible()) return;
        if (m_trusted) m_trusted->reload();
        if (m_rejected) m_rejected->reload();
    });
}

QWidget* CertificatesPage::makeList(const QString& title, const QString& objectName, serverapp::CertificatesModel* model,
                                    const QStringList& actions) {
    auto* box = new QGroupBox(title);
    QTableView* view = makeTableView(objectName, model, box, serverapp::CertificatesModel::Name);
    connect(model, &QAbstractItemModel::rowsInserted, view, [view] { fitColumns(view); });
    fitColumns(view);
    auto* buttons = new QHBoxLayout;
    QList<QAbstractButton*> rowButtons;
    for (const QString& action : actions) {
        auto* b = new QPushButton(action == QLatin1String("trust")    ? tr("Trust")
                                  : action == QLatin1String("reject") ? tr("Reject")
                                                                      : tr("Delete"));
        b->setObjectName(objectName + QLatin1Char('_') + action);
        buttons->addWidget(b);
        rowButtons << b;
        connect(b, &QPushButton::clicked, this, [this, view, model, action] {
            const QModelIndex i = view->currentIndex();
            if (!i.isValid()) return;
            const int row = static_cast<const QSortFilterProxyModel*>(view->model())->mapToSource(i).row();
            const QString name = model->index(row, serverapp::CertificatesModel::Name).data().toString();
            const bool ok = action == QLatin1String("trust")    ? model->trust(row)
                            : action == QLatin1String("reject") ? model->reject(row)
                                                                : model->remove(row);
            m_status->setText(ok ? tr("%1: %2 done.").arg(name, action) : tr("%1: %2 failed.").arg(name, action));
        });
    }
    buttons->addStretch();
    enableWithSelection(view, rowButtons);
    auto* l = new QVBoxLayout(box);
    l->addWidget(view, 1);
    l->addLayout(buttons);
    return box;
}

void CertificatesPage::attach(LiveServer* live) {
    m_timer.stop();
    m_live = live;
    // The lists and users belong to one server's stores: rebuilt on every start.
    while (QLayoutItem* item = m_lists->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    delete m_users;
    m_users = nullptr;
    delete m_trusted;
    delete m_rejected;
    m_trusted = m_rejected = nullptr;
    if (!live) {
        m_own->setText(tr("The server is not running."));
        return;
    }
    CertificateStore* store = live->server().certificateStore();
    m_trusted = new serverapp::CertificatesModel(store, serverapp::CertificatesModel::List::Trusted, this);
    m_rejected = new serverapp::CertificatesModel(store, serverapp::CertificatesModel::List::Rejected, this);
    m_trusted->link(*m_rejected);
    // Trust, Reject and Delete are audit lines and, for the trust list, Audit events of this server.
    for (serverapp::CertificatesModel* m : {m_trusted, m_rejected}) m->setAudit({serverapp::windowAdministrator(), &live->server()});
    auto* row = new QSplitter;
    row->addWidget(makeList(tr("Trusted client certificates"), QStringLiteral("trustedView"), m_trusted,
                            {QStringLiteral("reject"), QStringLiteral("delete")}));
    row->addWidget(makeList(tr("Rejected client certificates"), QStringLiteral("rejectedView"), m_rejected,
                            {QStringLiteral("trust"), QStringLiteral("delete")}));
    m_lists->addWidget(row);
    // A client changed the trust list through ServerConfiguration (OPC 10000-12 push management):
    // shown at once, whether the page is visible or not, with a line saying so.
    connect(&live->server(), &Server::trustListChangedRemotely, m_trusted, [this] {
        if (m_trusted) m_trusted->reload();
        if (m_rejected) m_rejected->reload();
        m_status->setText(tr("%1: the trust list was changed remotely (ServerConfiguration.ApplyChanges).")
                              .arg(QTime::currentTime().toString(QStringLiteral("hh:mm:ss"))));
    }, Qt::QueuedConnection);
    // A client installed a new application instance certificate (UpdateCertificate + ApplyChanges).
    connect(&live->server(), &Server::ownCertificateChanged, m_trusted, [this] {
        showOwnCertificate();
        m_status->setText(tr("%1: a new application instance certificate was installed remotely (ServerConfiguration.ApplyChanges).")
                              .arg(QTime::currentTime().toString(QStringLiteral("hh:mm:ss"))));
    }, Qt::QueuedConnection);
    m_users = new UsersPanel(live->server().userStore(), m_saveUsers);
    m_usersBox->addWidget(m_users);
    showOwnCertificate();
    m_timer.start(2000);
}

void CertificatesPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // Certificates rejected while the page was hidden.
    if (m_trusted) m_trusted->reload();
    if (m_rejected) m_rejected->reload();
}

void CertificatesPage::showOwnCertificate() {
    const serverapp::CertificateDetails d = m_trusted->ownCertificate();
    if (!d.valid) {
        m_own->setText(tr("No certificate: the server runs without a PKI folder (only SecurityPolicy None)."));
        return;
    }
    const int days = m_live->server().certificateExpiresInDays();
    const QString fmt = QStringLiteral("yyyy-MM-dd hh:mm 'UTC'");
    // The ECC certificates the ECC endpoints use, beside the RSA one (docs/Security.md "ECC security
    // policies"): one line each.
    QString ecc;
    for (KeyType type : {KeyType::EccNistP256, KeyType::EccNistP384}) {
        const serverapp::CertificateDetails e = m_trusted->ownCertificate(type);
        if (!e.valid) continue;
        ecc += tr("<tr><td><b>%1</b></td><td colspan=4>thumbprint %2, valid to %3%4</td></tr>")
                   .arg(e.keyKind, e.thumbprint, e.notAfter.toString(fmt), e.selfSigned ? tr(", self-signed") : QString());
    }
    m_own->setText(tr("<table>"
                      "<tr><td><b>Subject</b></td><td>%1</td><td width=24></td><td><b>Valid</b></td><td>%2 to %3 (%4 days left)</td></tr>"
                      "<tr><td><b>Application URI</b></td><td>%5</td><td></td><td><b>Key</b></td><td>%6%7</td></tr>"
                      "<tr><td><b>Host names</b></td><td>%8</td><td></td><td><b>Thumbprint</b></td><td>%9</td></tr>")
                       .arg(d.subject.toHtmlEscaped(), d.notBefore.toString(fmt), d.notAfter.toString(fmt))
                       .arg(days)
                       .arg(d.applicationUri.toHtmlEscaped())
                       .arg(d.keyKind)
                       .arg(d.selfSigned ? tr(", self-signed") : QString())
                       .arg(d.hostNames.join(QStringLiteral(", ")).toHtmlEscaped(), d.thumbprint) +
                   ecc + QStringLiteral("</table>"));
}

} // namespace ua::app
