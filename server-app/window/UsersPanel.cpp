#include "UsersPanel.h"

#include "TableViews.h"

#include "models/UsersModel.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QVBoxLayout>

namespace ua::app {

UsersPanel::UsersPanel(UserStore& store, std::function<bool(const UserDatabase&, QString*)> save, QWidget* parent)
    : QWidget(parent) {
    m_model = new serverapp::UsersModel(store, this);
    m_model->setSaveFunction([save = std::move(save)](const UserStore& s, QString* error) { return save(*s.snapshot(), error); });
    m_view = makeTableView(QStringLiteral("usersView"), m_model, this, serverapp::UsersModel::Name);
    auto* add = new QPushButton(tr("Add..."));
    auto* remove = new QPushButton(tr("Remove"));
    auto* password = new QPushButton(tr("Set password..."));
    auto* unlock = new QPushButton(tr("Unlock"));
    add->setObjectName(QStringLiteral("addUserButton"));
    remove->setObjectName(QStringLiteral("removeUserButton"));
    password->setObjectName(QStringLiteral("setPasswordButton"));
    unlock->setObjectName(QStringLiteral("unlockUserButton"));
    auto* buttons = new QHBoxLayout;
    for (auto* b : {add, remove, password, unlock}) buttons->addWidget(b);
    buttons->addWidget(m_status = new QLabel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, &UsersPanel::addUser);
    connect(password, &QPushButton::clicked, this, &UsersPanel::setPassword);
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        const QString name = m_model->userName(row);
        if (row >= 0) report(m_model->removeUser(row), tr("Removed %1.").arg(name));
    });
    connect(unlock, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row >= 0) report(m_model->unlock(row), tr("Unlocked %1.").arg(m_model->userName(row)));
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, m_view, [this] { fitColumns(m_view); });
    connect(m_model, &QAbstractItemModel::dataChanged, m_view, [this] { fitColumns(m_view); });
    fitColumns(m_view);
    enableWithSelection(m_view, {remove, password, unlock});
    // The lockout column changes with time and failed logins.
    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, m_model, [this] {
        if (isVisible()) m_model->refresh();
    });
    timer->start(2000);
}

int UsersPanel::currentRow() const {
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? static_cast<const QSortFilterProxyModel*>(m_view->model())->mapToSource(i).row() : -1;
}

void UsersPanel::report(bool ok, const QString& what) {
    m_status->setText(ok ? what : m_model->lastError());
}

void UsersPanel::addUser() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Add user"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit;
    auto* password = new QLineEdit;
    password->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Name"), name);
    form->addRow(tr("Password"), password);
    auto* roles = new QGridLayout;
    std::vector<QCheckBox*> boxes;
    const QStringList names = serverapp::UsersModel::allRoleNames();
    for (int r = 0; r < names.size(); ++r) {
        auto* box = new QCheckBox(names[r]);
        box->setChecked(Role(r) == Role::Operator);
        roles->addWidget(box, r / 2, r % 2);
        boxes.push_back(box);
    }
    form->addRow(tr("Roles"), roles);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(bb);
    connect(bb, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return;
    RoleSet set = kNoRoles;
    for (std::size_t r = 0; r < boxes.size(); ++r)
        if (boxes[r]->isChecked()) set |= roleBit(Role(r));
    report(m_model->addUser(name->text(), password->text(), set), tr("Added %1.").arg(name->text()));
}

void UsersPanel::setPassword() {
    const int row = currentRow();
    if (row < 0) return;
    bool ok = false;
    const QString name = m_model->userName(row);
    const QString password =
        QInputDialog::getText(this, tr("Set password"), tr("New password for %1").arg(name), QLineEdit::Password, {}, &ok);
    if (ok) report(m_model->setPassword(row, password), tr("Password of %1 set.").arg(name));
}

} // namespace ua::app
