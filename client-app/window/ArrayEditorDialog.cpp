#include "window/ArrayEditorDialog.h"

#include "ValueText.h"
#include "models/AttributesModel.h"
#include "models/ValueTree.h"
#include "window/ValueEditorDelegate.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::clientapp {

namespace {

// Types written bare inside a ValueText array; every other type is a JSON string there.
bool isBare(BuiltInType t) {
    return (t >= BuiltInType::Boolean && t <= BuiltInType::Double) || t == BuiltInType::StatusCode;
}

QString jsonQuoted(const QString& s) {
    QString out;
    out.reserve(s.size() + 2);
    out += u'"';
    for (QChar c : s) {
        switch (c.unicode()) {
        case '"': out += QStringLiteral("\\\""); break;
        case '\\': out += QStringLiteral("\\\\"); break;
        case '\n': out += QStringLiteral("\\n"); break;
        case '\r': out += QStringLiteral("\\r"); break;
        case '\t': out += QStringLiteral("\\t"); break;
        default:
            if (c.unicode() < 0x20) out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else out += c;
        }
    }
    out += u'"';
    return out;
}

QString defaultText(BuiltInType t) {
    if (t == BuiltInType::Boolean) return QStringLiteral("false");
    if (t > BuiltInType::Boolean && t <= BuiltInType::Double) return QStringLiteral("0");
    if (t == BuiltInType::DateTime) return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    if (t == BuiltInType::StatusCode) return QStringLiteral("Good");
    if (t == BuiltInType::NodeId || t == BuiltInType::ExpandedNodeId) return QStringLiteral("i=0");
    if (t == BuiltInType::Guid) return QStringLiteral("{00000000-0000-0000-0000-000000000000}");
    if (t == BuiltInType::QualifiedName) return QStringLiteral("0:");
    if (t == BuiltInType::ByteString) return QStringLiteral("0x");
    return {};
}

} // namespace

ArrayEditorDialog::ArrayEditorDialog(AttributesModel* model, QWidget* parent)
    : QDialog(parent), m_model(model), m_elements(new QStandardItemModel(this)) {
    setObjectName(QStringLiteral("arrayEditor"));
    setWindowTitle(tr("Edit array - %1").arg(QString::fromStdString(model->node().toString())));
    if (auto t = model->valueBuiltInType()) m_type = *t;
    m_elements->setColumnCount(1);
    m_elements->setHorizontalHeaderLabels({tr("Value (%1)").arg(QString::fromLatin1(builtInTypeName(m_type)))});
    if (const DataValue* dv = model->attribute(AttributeId::Value)) {
        const Variant& v = dv->value;
        if (v.isArray())
            for (std::size_t i = 0; i < v.arrayLength(); ++i) appendRow(app::formatVariant(elementAt(v, i)));
    }

    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("arrayElements"));
    m_table->setModel(m_elements);
    m_table->setItemDelegate(new ValueEditorDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    row->addWidget(m_table, 1);
    auto* buttons = new QVBoxLayout;
    auto button = [&](const QString& name, const QString& text, auto slot) {
        auto* b = new QPushButton(text);
        b->setObjectName(name);
        b->setAutoDefault(false);
        connect(b, &QPushButton::clicked, this, slot);
        buttons->addWidget(b);
    };
    button(QStringLiteral("addElement"), tr("Add"), [this] { addElement(); });
    button(QStringLiteral("removeElement"), tr("Remove"), [this] { removeElement(); });
    button(QStringLiteral("moveUp"), tr("Move up"), [this] { moveElement(-1); });
    button(QStringLiteral("moveDown"), tr("Move down"), [this] { moveElement(+1); });
    buttons->addStretch();
    row->addLayout(buttons);
    layout->addLayout(row, 1);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("arrayError"));
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);
    layout->addWidget(m_error);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(box, &QDialogButtonBox::accepted, this, &ArrayEditorDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &ArrayEditorDialog::reject);
    layout->addWidget(box);
    resize(420, 360);
}

void ArrayEditorDialog::appendRow(const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(int(m_type), AttributesModel::BuiltInTypeRole);
    item->setData(-1, AttributesModel::ValueRankRole);
    item->setData(false, AttributesModel::IsArrayRole);
    m_elements->appendRow(item);
}

void ArrayEditorDialog::addElement() {
    appendRow(defaultText(m_type));
    const QModelIndex last = m_elements->index(m_elements->rowCount() - 1, 0);
    m_table->setCurrentIndex(last);
}

void ArrayEditorDialog::removeElement() {
    const int r = m_table->currentIndex().row();
    if (r >= 0) m_elements->removeRow(r);
}

void ArrayEditorDialog::moveElement(int delta) {
    const int r = m_table->currentIndex().row();
    const int to = r + delta;
    if (r < 0 || to < 0 || to >= m_elements->rowCount()) return;
    QList<QStandardItem*> items = m_elements->takeRow(r);
    m_elements->insertRow(to, items);
    m_table->setCurrentIndex(m_elements->index(to, 0));
}

QString ArrayEditorDialog::arrayText(QString* error) const {
    QStringList parts;
    for (int r = 0; r < m_elements->rowCount(); ++r) {
        const QString text = m_elements->index(r, 0).data(Qt::EditRole).toString();
        const app::ParseResult p = app::parseValue(text, m_type, -1);
        if (!p.ok()) {
            if (error) *error = tr("[%1]: %2 (%3)").arg(r).arg(p.error, app::statusName(p.status));
            return {};
        }
        parts << (isBare(m_type) ? app::formatVariant(p.value) : jsonQuoted(text));
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

void ArrayEditorDialog::accept() {
    m_table->setCurrentIndex({});  // an open element editor commits its text first
    QString error;
    const QString text = arrayText(&error);
    if (text.isEmpty()) {
        m_error->setText(error);
        return;
    }
    if (!m_model->writeText(text)) {
        m_error->setText(tr("Not written: the array does not parse as %1").arg(QString::fromLatin1(builtInTypeName(m_type))));
        return;
    }
    QDialog::accept();
}

} // namespace ua::clientapp
