#include "window/CallDialog.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/MethodCallModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::clientapp {

namespace {

QTableView* table(QAbstractItemModel* model, const QString& name) {
    auto* view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(22);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setAlternatingRowColors(true);
    return view;
}

} // namespace

CallDialog::CallDialog(Connection* connection, const NodeId& method, const NodeId& object, QWidget* parent)
    : QDialog(parent), m_connection(connection), m_model(new MethodCallModel(connection, this)) {
    setObjectName(QStringLiteral("callDialog"));
    setWindowTitle(tr("Call %1").arg(QString::fromStdString(method.toString())));
    resize(640, 440);
    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel(tr("Method <b>%1</b> on object <b>%2</b>")
                             .arg(QString::fromStdString(method.toString()),
                                  object.isNull() ? tr("(its parent)") : QString::fromStdString(object.toString())));
    layout->addWidget(m_title);
    layout->addWidget(new QLabel(tr("Input arguments (double-click a value to type it; arrays as [1, 2, 3]):")));
    m_inputs = table(m_model, QStringLiteral("callInputs"));
    m_inputs->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_inputs->setColumnWidth(MethodCallModel::NameColumn, 120);
    m_inputs->setColumnWidth(MethodCallModel::DataTypeColumn, 100);
    m_inputs->setColumnWidth(MethodCallModel::ValueColumn, 220);
    layout->addWidget(m_inputs, 1);
    layout->addWidget(new QLabel(tr("Output arguments:")));
    m_outputs = table(m_model->outputs(), QStringLiteral("callOutputs"));
    m_outputs->setColumnWidth(0, 120);
    m_outputs->setColumnWidth(1, 100);
    layout->addWidget(m_outputs, 1);
    m_status = new QLabel(tr("Reading the arguments..."));
    m_status->setObjectName(QStringLiteral("callStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox;
    m_call = buttons->addButton(tr("Call"), QDialogButtonBox::ActionRole);
    m_call->setObjectName(QStringLiteral("callButton"));
    m_call->setDefault(true);
    m_cancel = buttons->addButton(tr("Cancel call"), QDialogButtonBox::ActionRole);
    m_cancel->setObjectName(QStringLiteral("cancelCallButton"));
    m_cancel->setEnabled(false);
    buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    connect(m_call, &QPushButton::clicked, this, &CallDialog::call);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_connection->cancelOperations();
        setCalling(false);
        m_status->setText(tr("Cancelled: the result will not be shown (the server may still run the Method)."));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_model, &MethodCallModel::loaded, this, [this](StatusCode status) {
        m_status->setText(status.isGood() ? tr("%1 input(s), %2 output(s). Type the inputs, then Call.")
                                                .arg(m_model->rowCount())
                                                .arg(m_model->outputs()->rowCount())
                                          : tr("The arguments could not be read: %1").arg(app::statusName(status)));
        m_inputs->resizeColumnToContents(MethodCallModel::DataTypeColumn);
        if (m_model->rowCount() > 0) m_inputs->setCurrentIndex(m_model->index(0, MethodCallModel::ValueColumn));
    });
    connect(m_model, &MethodCallModel::callFinished, this, [this](StatusCode status, const QString& message) {
        setCalling(false);
        m_status->setStyleSheet(status.isGood() ? QStringLiteral("color: #1b5e20") : QStringLiteral("color: #b00020"));
        m_status->setText(tr("Result: %1").arg(message.isEmpty() ? app::statusName(status) : message));
    });
    m_model->setMethod(method, object);
}

void CallDialog::call() {
    m_status->setStyleSheet({});
    m_status->setText(tr("Calling..."));
    setCalling(true);
    m_model->call();
    if (!m_model->isCalling()) setCalling(false);  // failed locally (callFinished came already)
}

void CallDialog::setCalling(bool calling) {
    m_call->setEnabled(!calling);
    m_cancel->setEnabled(calling);
}

} // namespace ua::clientapp
