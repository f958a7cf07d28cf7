#include "models/CertificatesModel.h"

#include "ua/pki/CertificateStore.h"

namespace ua::serverapp {

CertificateDetails describeCertificate(const Certificate& c) {
    CertificateDetails d;
    if (c.isNull()) return d;
    d.valid = true;
    d.commonName = QString::fromStdString(c.commonName());
    d.subject = QString::fromStdString(c.subjectName());
    d.issuer = QString::fromStdString(c.issuerName());
    d.applicationUri = QString::fromStdString(c.applicationUri());
    for (const std::string& n : c.dnsNames()) d.hostNames << QString::fromStdString(n);
    for (const std::string& n : c.ipAddresses()) d.hostNames << QString::fromStdString(n);
    d.notBefore = c.notBefore().toQDateTime();
    d.notAfter = c.notAfter().toQDateTime();
    d.thumbprint = QString::fromStdString(c.thumbprintHex());
    d.keyBits = c.keyBits();
    switch (c.keyType()) {
    case KeyType::Rsa: d.keyKind = QStringLiteral("RSA %1 bits").arg(d.keyBits); break;
    case KeyType::EccNistP256: d.keyKind = QStringLiteral("ECC nistP256"); break;
    case KeyType::EccNistP384: d.keyKind = QStringLiteral("ECC nistP384"); break;
    case KeyType::Other: d.keyKind = QStringLiteral("%1 bits").arg(d.keyBits); break;
    }
    d.selfSigned = c.isSelfSigned();
    d.isCA = c.isCA();
    return d;
}

CertificatesModel::CertificatesModel(CertificateStore* store, List list, QObject* parent)
    : KeyedTableModel(parent), m_store(store), m_list(list) {
    reload();
}

CertificateDetails CertificatesModel::ownCertificate(KeyType type) const {
    return m_store ? describeCertificate(m_store->ownCertificate(type)) : CertificateDetails{};
}

Certificate CertificatesModel::certificate(int row) const {
    return row >= 0 && row < rowCount() ? rowAt(row) : Certificate();
}

void CertificatesModel::reload() {
    if (!m_store) return;
    switch (m_list) {
    case List::Trusted: replaceRows(m_store->trusted()); break;
    case List::Rejected: replaceRows(m_store->rejected()); break;
    case List::Issuers: replaceRows(m_store->issuers()); break;
    }
}

bool CertificatesModel::act(int row, Action action) {
    const Certificate c = certificate(row);
    if (!m_store || c.isNull()) return false;
    bool ok = false;
    switch (action) {
    case Action::Trust: ok = m_store->addTrusted(c); break;
    case Action::Reject: ok = m_store->reject(c); break;
    case Action::Remove: ok = m_store->remove(c); break;
    }
    reload();
    emit storeChanged();
    // The audit line, and the Audit event when the trust list (trusted/ and issuers/) changed.
    const QString name = auditName(c);
    const QString from = m_list == List::Trusted ? tr("the trusted list") : m_list == List::Rejected ? tr("the rejected list")
                                                                                                     : tr("the issuers");
    switch (action) {
    case Action::Trust:
        m_audit.line(ok, tr("trusted the certificate %1 (from %2)").arg(name, from),
                     tr("could not trust the certificate %1").arg(name), tr("the certificate store failed"));
        break;
    case Action::Reject:
        m_audit.line(ok, tr("rejected the certificate %1 (moved from %2 to the rejected list)").arg(name, from),
                     tr("could not reject the certificate %1").arg(name), tr("the certificate store failed"));
        break;
    case Action::Remove:
        m_audit.line(ok, tr("deleted the certificate %1 (from %2)").arg(name, from),
                     tr("could not delete the certificate %1").arg(name), tr("the certificate store failed"));
        break;
    }
    const bool wasTrusted = m_list != List::Rejected;
    const bool isTrusted = action == Action::Trust;
    if (ok && wasTrusted != isTrusted) m_audit.trustListUpdated(isTrusted, c);
    return ok;
}

bool CertificatesModel::trust(int row) { return act(row, Action::Trust); }
bool CertificatesModel::reject(int row) { return act(row, Action::Reject); }
bool CertificatesModel::remove(int row) { return act(row, Action::Remove); }

void CertificatesModel::link(CertificatesModel& other) {
    connect(this, &CertificatesModel::storeChanged, &other, &CertificatesModel::reload);
    connect(&other, &CertificatesModel::storeChanged, this, &CertificatesModel::reload);
}

QVariant CertificatesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Certificate& c = rowAt(index.row());
    const bool sort = role == SortRole;
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name: return QString::fromStdString(c.subjectName());
        case Issuer: return QString::fromStdString(c.issuerName());
        case ValidTo:
            return c.notAfter().toQDateTime() < QDateTime::currentDateTimeUtc() ? tr("expired") : QVariant();
        default: return {};
        }
    }
    if (role != Qt::DisplayRole && !sort) return {};
    switch (Column(index.column())) {
    case Name: return QString::fromStdString(c.commonName());
    case ApplicationUri: return QString::fromStdString(c.applicationUri());
    case Issuer: return c.isSelfSigned() ? tr("self-signed") : QString::fromStdString(c.issuerName());
    case ValidFrom: {
        const QDateTime t = c.notBefore().toQDateTime();
        return sort ? QVariant(t) : QVariant(t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm")));
    }
    case ValidTo: {
        const QDateTime t = c.notAfter().toQDateTime();
        return sort ? QVariant(t) : QVariant(t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm")));
    }
    case Thumbprint: return QString::fromStdString(c.thumbprintHex());
    case ColumnCount: break;
    }
    return {};
}

QVariant CertificatesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case Name: return tr("Name");
    case ApplicationUri: return tr("Application URI");
    case Issuer: return tr("Issuer");
    case ValidFrom: return tr("Valid from");
    case ValidTo: return tr("Valid to");
    case Thumbprint: return tr("Thumbprint");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ua::serverapp
