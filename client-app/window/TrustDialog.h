// The question "trust this server certificate?" (issue 7 item 1; OPC 10000-4 6.1.3): the server's
// certificate (subject, issuer, validity, thumbprint, application URI, host names) and why it is
// not trusted, with Trust permanently / Accept for this session / Reject. Connection::setTrustPrompt
// runs it modally on the GUI thread while the Client's I/O thread waits for the answer.
#pragma once

#include "ua/client/common/UserIdentity.h"

#include <QDialog>

class QPushButton;

namespace ua::clientapp {

class TrustDialog : public QDialog {
    Q_OBJECT
public:
    TrustDialog(const Certificate& certificate, StatusCode reason, QWidget* parent = nullptr);
    // The user's answer: Reject when the dialog was closed in any other way.
    TrustDecision decision() const { return m_decision; }

    // Runs the dialog modally and returns the answer (a TrustPrompt).
    static TrustDecision ask(const Certificate& certificate, StatusCode reason, QWidget* parent);

protected:
    // Gives Reject the focus once the dialog is up (before, QDialog's own choice would win).
    void showEvent(QShowEvent* event) override;

private:
    TrustDecision m_decision = TrustDecision::Reject;
    QPushButton* m_reject = nullptr;
};

} // namespace ua::clientapp
