#include "window/TrustDialog.h"

#include "core/ConnectErrors.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/types/DateTime.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ua::clientapp {

namespace {

QString why(StatusCode reason) {
    if (reason == StatusCode(status::BadCertificateUntrusted))
        return QObject::tr("Neither this certificate nor an issuer of it is in the client's trust list (pki/trusted).");
    return QString::fromStdString(reason.name());
}

QLabel* selectable(const QString& text) {
    auto* l = new QLabel(text);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

} // namespace

TrustDialog::TrustDialog(const Certificate& certificate, StatusCode reason, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Untrusted server certificate"));
    setObjectName(QStringLiteral("trustDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(tr("<b>The server presented a certificate that this client does not trust.</b>"));
    layout->addWidget(heading);
    auto* form = new QFormLayout;
    const QDateTime from = certificate.notBefore().toQDateTime();
    const QDateTime to = certificate.notAfter().toQDateTime();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QString validity = tr("%1 to %2").arg(from.toString(Qt::ISODate), to.toString(Qt::ISODate));
    if (now < from) validity += tr(" (not valid yet)");
    else if (now > to) validity += tr(" (expired)");
    QStringList hosts;
    for (const auto& d : certificate.dnsNames()) hosts << QString::fromStdString(d);
    for (const auto& ip : certificate.ipAddresses()) hosts << QString::fromStdString(ip);
    form->addRow(tr("Subject:"), selectable(QString::fromStdString(certificate.subjectName())));
    form->addRow(tr("Issuer:"), selectable(QString::fromStdString(certificate.issuerName()) +
                                           (certificate.isSelfSigned() ? tr(" (self-signed)") : QString())));
    form->addRow(tr("Valid:"), selectable(validity));
    form->addRow(tr("Application URI:"), selectable(QString::fromStdString(certificate.applicationUri())));
    form->addRow(tr("Host names:"), selectable(hosts.join(QStringLiteral(", "))));
    form->addRow(tr("Key:"), selectable(tr("RSA %1 bits, SHA-%2 signature").arg(certificate.keyBits()).arg(certificate.signatureHashBits())));
    form->addRow(tr("Thumbprint (SHA-1):"), selectable(colonHex(QString::fromStdString(certificate.thumbprintHex()))));
    auto* reasonLabel = selectable(why(reason));
    reasonLabel->setObjectName(QStringLiteral("trustReason"));
    form->addRow(tr("Why untrusted:"), reasonLabel);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox;
    auto* trust = buttons->addButton(tr("Trust permanently"), QDialogButtonBox::AcceptRole);
    auto* once = buttons->addButton(tr("Accept for this session"), QDialogButtonBox::AcceptRole);
    auto* rejectButton = buttons->addButton(tr("Reject"), QDialogButtonBox::RejectRole);
    trust->setObjectName(QStringLiteral("trustPermanently"));
    once->setObjectName(QStringLiteral("acceptOnce"));
    rejectButton->setObjectName(QStringLiteral("reject"));
    // Return must never trust (issue 27 item 3): Reject is the default button and has the focus, and
    // the trust buttons are not auto-default, so Return on them (after Tab) still rejects. Trusting
    // takes a click (or Space on a focused trust button).
    trust->setAutoDefault(false);
    once->setAutoDefault(false);
    m_reject = rejectButton;
    connect(trust, &QPushButton::clicked, this, [this] { m_decision = TrustDecision::TrustPermanently; accept(); });
    connect(once, &QPushButton::clicked, this, [this] { m_decision = TrustDecision::AcceptOnce; accept(); });
    connect(rejectButton, &QPushButton::clicked, this, [this] { m_decision = TrustDecision::Reject; reject(); });
    layout->addWidget(buttons);
    // Only now, inside the dialog: QDialog remembers it as its default (before, the button's window
    // was the button box, and QDialog chose the first auto-default button, Trust permanently).
    rejectButton->setDefault(true);
}

void TrustDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    m_reject->setFocus(Qt::OtherFocusReason);
}

TrustDecision TrustDialog::ask(const Certificate& certificate, StatusCode reason, QWidget* parent) {
    TrustDialog dialog(certificate, reason, parent);
    dialog.exec();
    return dialog.decision();
}

} // namespace ua::clientapp
