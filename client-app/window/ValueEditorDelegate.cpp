#include "window/ValueEditorDelegate.h"

#include "models/AttributesModel.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDoubleValidator>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <limits>

namespace ua::clientapp {

namespace {

constexpr const char* kTypeProperty = "uaBuiltInType";

// A Double validator that also takes nan / inf / -inf (ValueText's forms).
class FloatValidator : public QDoubleValidator {
public:
    using QDoubleValidator::QDoubleValidator;
    State validate(QString& input, int& pos) const override {
        const QString t = input.trimmed().toLower();
        if (t == u"nan" || t == u"inf" || t == u"-inf" || t == u"+inf") return Acceptable;
        if (QStringLiteral("nan").startsWith(t) || QStringLiteral("inf").startsWith(t) || QStringLiteral("-inf").startsWith(t))
            return Intermediate;
        return QDoubleValidator::validate(input, pos);
    }
};

QString placeholderOf(BuiltInType t) {
    switch (t) {
    case BuiltInType::Guid: return QStringLiteral("{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}");
    case BuiltInType::ByteString: return QStringLiteral("0x0a1b... or b64:...");
    case BuiltInType::NodeId:
    case BuiltInType::ExpandedNodeId: return QStringLiteral("i=85, ns=2;s=Name, nsu=<uri>;i=1");
    case BuiltInType::StatusCode: return QStringLiteral("Good, Bad_NodeIdUnknown or 0x80340000");
    case BuiltInType::QualifiedName: return QStringLiteral("2:Name");
    case BuiltInType::LocalizedText: return QStringLiteral("text or en-US|text");
    case BuiltInType::UInt32:
    case BuiltInType::UInt64: return QStringLiteral("0, 1, 2, ...");
    case BuiltInType::Int64: return QStringLiteral("-1, 0, 1, ...");
    case BuiltInType::Float:
    case BuiltInType::Double: return QStringLiteral("1.5, 1e-3, nan, inf");
    default: return {};
    }
}

QSpinBox* spinBox(QWidget* parent, int min, int max) {
    auto* s = new QSpinBox(parent);
    s->setRange(min, max);
    return s;
}

} // namespace

ValueEditorDelegate::ValueEditorDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QWidget* ValueEditorDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QVariant typeData = index.data(AttributesModel::BuiltInTypeRole);
    if (!typeData.isValid() || typeData.toInt() < 0) return QStyledItemDelegate::createEditor(parent, option, index);
    const auto type = BuiltInType(typeData.toInt());
    QWidget* editor = nullptr;
    if (index.data(AttributesModel::IsArrayRole).toBool()) {
        auto* button = new QPushButton(tr("Edit array..."), parent);
        button->setObjectName(QStringLiteral("arrayEditButton"));
        const QPersistentModelIndex persistent(index);
        connect(button, &QPushButton::clicked, this, [this, persistent] {
            if (persistent.isValid()) emit arrayEditRequested(persistent);
        });
        editor = button;
    } else if (const QStringList names = index.data(AttributesModel::EnumNamesRole).toStringList(); !names.isEmpty()) {
        // An enumeration: its names, each with its value (written as the number).
        const QVariantList values = index.data(AttributesModel::EnumValuesRole).toList();
        auto* c = new QComboBox(parent);
        c->setObjectName(QStringLiteral("enumEditor"));
        for (int i = 0; i < names.size() && i < values.size(); ++i)
            c->addItem(QStringLiteral("%1 (%2)").arg(names[i]).arg(values[i].toLongLong()), values[i]);
        editor = c;
    } else {
        switch (type) {
        case BuiltInType::Boolean: {
            auto* c = new QComboBox(parent);
            c->addItems({QStringLiteral("false"), QStringLiteral("true")});
            editor = c;
            break;
        }
        case BuiltInType::SByte: editor = spinBox(parent, -128, 127); break;
        case BuiltInType::Byte: editor = spinBox(parent, 0, 255); break;
        case BuiltInType::Int16: editor = spinBox(parent, -32768, 32767); break;
        case BuiltInType::UInt16: editor = spinBox(parent, 0, 65535); break;
        case BuiltInType::Int32:
            editor = spinBox(parent, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
            break;
        case BuiltInType::UInt32:
        case BuiltInType::UInt64:
        case BuiltInType::Int64: {
            auto* e = new QLineEdit(parent);
            const bool isSigned = type == BuiltInType::Int64;
            e->setValidator(new QRegularExpressionValidator(
                QRegularExpression(isSigned ? QStringLiteral("[-+]?[0-9]{0,25}") : QStringLiteral("\\+?[0-9]{0,25}")), e));
            editor = e;
            break;
        }
        case BuiltInType::Float:
        case BuiltInType::Double: {
            auto* e = new QLineEdit(parent);
            auto* v = new FloatValidator(e);
            v->setLocale(QLocale::c());
            v->setNotation(QDoubleValidator::ScientificNotation);
            e->setValidator(v);
            editor = e;
            break;
        }
        case BuiltInType::DateTime: {
            auto* d = new QDateTimeEdit(parent);
            d->setTimeSpec(Qt::UTC);
            // The DateTime range (OPC 10000-6 5.2.2.5: 1601-01-01 is the minimum, 0 ticks).
            d->setMinimumDateTime(QDateTime(QDate(1601, 1, 1), QTime(0, 0), Qt::UTC));
            d->setMaximumDateTime(QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC));
            d->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
            d->setCalendarPopup(true);
            editor = d;
            break;
        }
        default:
            editor = new QLineEdit(parent);
            break;
        }
        if (auto* e = qobject_cast<QLineEdit*>(editor)) e->setPlaceholderText(placeholderOf(type));
    }
    editor->setProperty(kTypeProperty, int(type));
    editor->setAutoFillBackground(true);
    return editor;
}

void ValueEditorDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    if (!editor->property(kTypeProperty).isValid()) return QStyledItemDelegate::setEditorData(editor, index);
    const QString text = index.data(Qt::EditRole).toString();
    if (auto* c = qobject_cast<QComboBox*>(editor); c && c->itemData(0).isValid()) {
        const int i = c->findData(QVariant(text.toLongLong()));
        if (i >= 0) c->setCurrentIndex(i);
    } else if (c) {
        c->setCurrentIndex(text == u"true" || text == u"1" ? 1 : 0);
    } else if (auto* s = qobject_cast<QSpinBox*>(editor)) {
        s->setValue(text.toInt());
    } else if (auto* d = qobject_cast<QDateTimeEdit*>(editor)) {
        QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!t.isValid()) t = QDateTime::currentDateTimeUtc();
        d->setDateTime(t.toUTC());
    } else if (auto* e = qobject_cast<QLineEdit*>(editor)) {
        e->setText(text);
    }
}

QString ValueEditorDelegate::editorText(const QWidget* editor) {
    if (auto* c = qobject_cast<const QComboBox*>(editor))
        return c->currentData().isValid() ? QString::number(c->currentData().toLongLong()) : c->currentText();
    if (auto* s = qobject_cast<const QSpinBox*>(editor)) return QString::number(s->value());
    if (auto* d = qobject_cast<const QDateTimeEdit*>(editor)) return d->dateTime().toUTC().toString(Qt::ISODateWithMs);
    if (auto* e = qobject_cast<const QLineEdit*>(editor)) return e->text();
    return {};
}

void ValueEditorDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    if (!editor->property(kTypeProperty).isValid()) return QStyledItemDelegate::setModelData(editor, model, index);
    if (qobject_cast<QPushButton*>(editor)) return;  // arrays are written by ArrayEditorDialog
    model->setData(index, editorText(editor), Qt::EditRole);
}

} // namespace ua::clientapp
