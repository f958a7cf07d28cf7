#include "Confirmation.h"

#include <QMessageBox>
#include <QPushButton>

namespace ua::app {

bool confirmAction(QWidget* parent, const QString& title, const QString& text, const QString& doIt) {
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::NoButton, parent);
    box.setObjectName(QStringLiteral("confirmation"));
    QPushButton* yes = box.addButton(doIt, QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirmButton"));
    yes->setAutoDefault(false);
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    box.exec();
    return box.clickedButton() == yes;
}

} // namespace ua::app
