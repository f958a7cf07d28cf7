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

namespace {

// A check box for each assignable Role (UsersModel::kAssignableRoles), checked as in `roles`,
// two a row; the boxes in Role order.
std::vector<QCheckBox*> addRoleBoxes(QFormLayout* form, RoleSet roles) {
    auto* grid = new QGridLayout;
    std::vector<QCheckBox*> boxes;
    for (Role r : serverapp::UsersModel::assignableRoles()) {
        auto* box = new QCheckBox(QString::fromLatin1(roleName(r)));
        box->setObjectName(QStringLiteral("role") + QString::fromLatin1(roleName(r)));
        box->setChecked(roles & roleBit(r));
        grid->addWidget(box, int(boxes.size()) / 2, int(boxes.size()) % 2);
        boxes.push_back(box);
    }
    form->addRow(UsersPanel::tr("Roles"), grid);
    auto* note = new QLabel(UsersPanel::tr("Anonymous and AuthenticatedUser are not assigned: a Session gets them from how it "
                                           "logs in."));
    note->setWordWrap(true);
    form->addRow(note);
    return boxes;
}

RoleSet checkedRoles(const std::vector<QCheckBox*>& boxes) {
    RoleSet set = kNoRoles;
    const std::vector<Role> roles = serverapp::UsersModel::assignableRoles();
    for (std::size_t i = 0; i < boxes.size(); ++i)
        if (boxes[i]->isChecked()) set |= roleBit(roles[i]);
    return set;
}

QDialogButtonBox* addOkCancel(QFormLayout* form, QDialog* dialog) {
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(bb);
    QObject::connect(bb, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(bb, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return bb;
}

} // namespace

UsersPanel::UsersPanel(UserStore& store, std::function<bool(const UserDatabase&, QString*)> save, QWidget* parent)
    : QWidget(parent) {
    m_model = new serverapp::UsersModel(store, this);
    m_model->setSaveFunction([save = std::move(save)](const UserStore& s, QString* error) { return save(*s.snapshot(), error); });
    m_view = makeTableView(QStringLiteral("usersView"), m_model, this, serverapp::UsersModel::Name);
    auto* add = new QPushButton(tr("Add..."));
    auto* remove = new QPushButton(tr("Remove"));
    auto* password = new QPushButton(tr("Set password..."));
    auto* roles = new QPushButton(tr("Roles..."));
    auto* unlock = new QPushButton(tr("Unlock"));
    roles->setObjectName(QStringLiteral("editRolesButton"));
    roles->setToolTip(tr("Change the selected user's Roles (or double-click the user)"));
    add->setObjectName(QStringLiteral("addUserButton"));
    remove->setObjectName(QStringLiteral("removeUserButton"));
    password->setObjectName(QStringLiteral("setPasswordButton"));
    unlock->setObjectName(QStringLiteral("unlockUserButton"));
    auto* buttons = new QHBoxLayout;
    for (auto* b : {add, remove, password, roles, unlock}) buttons->addWidget(b);
    buttons->addWidget(m_status = new QLabel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, &UsersPanel::addUser);
    connect(password, &QPushButton::clicked, this, &UsersPanel::setPassword);
    connect(roles, &QPushButton::clicked, this, &UsersPanel::editRoles);
    connect(m_view, &QAbstractItemView::doubleClicked, this, &UsersPanel::editRoles);
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
    enableWithSelection(m_view, {remove, password, roles, unlock});
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
    dialog.setObjectName(QStringLiteral("addUserDialog"));
    dialog.setWindowTitle(tr("Add user"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit;
    auto* password = new QLineEdit;
    password->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Name"), name);
    form->addRow(tr("Password"), password);
    const std::vector<QCheckBox*> boxes = addRoleBoxes(form, roleBit(Role::Operator));
    addOkCancel(form, &dialog);
    if (dialog.exec() != QDialog::Accepted) return;
    report(m_model->addUser(name->text(), password->text(), checkedRoles(boxes)), tr("Added %1.").arg(name->text()));
}

void UsersPanel::editRoles() {
    const int row = currentRow();
    if (row < 0) return;
    const QString name = m_model->userName(row);
    const RoleSet current = RoleSet(m_model->index(row, serverapp::UsersModel::Roles).data(serverapp::SortRole).toULongLong());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("editRolesDialog"));
    dialog.setWindowTitle(tr("Roles of %1").arg(name));
    auto* form = new QFormLayout(&dialog);
    const std::vector<QCheckBox*> boxes = addRoleBoxes(form, current);
    addOkCancel(form, &dialog);
    if (dialog.exec() != QDialog::Accepted) return;
    const RoleSet chosen = checkedRoles(boxes);
    if (chosen == (current & serverapp::UsersModel::kAssignableRoles)) return;
    report(m_model->setRoles(row, chosen), tr("Roles of %1 set.").arg(name));
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
