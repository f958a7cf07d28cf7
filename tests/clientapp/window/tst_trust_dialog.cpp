// The "Untrusted server certificate" dialog answers Reject to Return (issue 27 item 3): Reject is the
// default button and has the focus when the dialog opens; Return on a focused trust button still
// rejects; only a click trusts. Keys go through QTest to the focused widget, as a user's would.
#include "window/TrustDialog.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateCreator.h"

#include <QPushButton>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestTrustDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void returnRejects();
    void returnOnATrustButtonRejects();
    void aClickAnswers_data();
    void aClickAnswers();

private:
    // Opens the dialog as the Client's question does (modal) and waits until it has the focus.
    bool show(TrustDialog& dialog);

    Certificate m_certificate;
};

void TestTrustDialog::initTestCase() {
    CertificateRequest request;
    request.applicationUri = "urn:test:untrusted-server";
    request.applicationName = "Untrusted Test Server";
    request.hostNames = {"localhost"};
    std::string error;
    m_certificate = createSelfSignedCertificate(request, PrivateKey::generateRsa(2048), &error);
    QVERIFY2(!m_certificate.isNull(), error.c_str());
}

bool TestTrustDialog::show(TrustDialog& dialog) {
    dialog.setModal(true);
    dialog.show();
    dialog.activateWindow();
    return QTest::qWaitForWindowActive(&dialog);
}

void TestTrustDialog::returnRejects() {
    TrustDialog dialog(m_certificate, StatusCode(status::BadCertificateUntrusted));
    QVERIFY(show(dialog));
    auto* reject = dialog.findChild<QPushButton*>(QStringLiteral("reject"));
    QVERIFY(reject);
    QVERIFY(reject->isDefault());
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(reject));

    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QCOMPARE(dialog.decision(), TrustDecision::Reject);
}

void TestTrustDialog::returnOnATrustButtonRejects() {
    for (const char* name : {"trustPermanently", "acceptOnce"}) {
        TrustDialog dialog(m_certificate, StatusCode(status::BadCertificateUntrusted));
        QVERIFY(show(dialog));
        auto* button = dialog.findChild<QPushButton*>(QString::fromLatin1(name));
        QVERIFY(button);
        QVERIFY(!button->autoDefault());
        button->setFocus(Qt::TabFocusReason);  // as Tab would
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(button));

        QTest::keyClick(button, Qt::Key_Return);
        QVERIFY2(!dialog.isVisible(), name);
        QCOMPARE(dialog.decision(), TrustDecision::Reject);
        QTest::keyClick(&dialog, Qt::Key_Enter);  // the keypad's Enter: nothing left to answer
        QCOMPARE(dialog.decision(), TrustDecision::Reject);
    }
}

void TestTrustDialog::aClickAnswers_data() {
    QTest::addColumn<QString>("button");
    QTest::addColumn<int>("decision");
    QTest::newRow("trust permanently") << QStringLiteral("trustPermanently") << int(TrustDecision::TrustPermanently);
    QTest::newRow("accept for this session") << QStringLiteral("acceptOnce") << int(TrustDecision::AcceptOnce);
    QTest::newRow("reject") << QStringLiteral("reject") << int(TrustDecision::Reject);
}

void TestTrustDialog::aClickAnswers() {
    QFETCH(QString, button);
    QFETCH(int, decision);
    TrustDialog dialog(m_certificate, StatusCode(status::BadCertificateUntrusted));
    QVERIFY(show(dialog));
    auto* b = dialog.findChild<QPushButton*>(button);
    QVERIFY(b);
    QTest::mouseClick(b, Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(int(dialog.decision()), decision);
}

UA_TEST_MAIN(TestTrustDialog)
#include "tst_trust_dialog.moc"
