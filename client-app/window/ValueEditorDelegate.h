// The editors of values (issue 7 items 4, 12): a delegate for the Value cell of the attributes view
// (and its array element cells) and for the element table of ArrayEditorDialog. The editor is
// chosen by the cell's built-in type (AttributesModel::BuiltInTypeRole, OPC 10000-6 5.1.2):
//   Boolean                       QComboBox false / true
//   SByte, Byte, Int16, UInt16,   QSpinBox with the type's exact range
//   Int32
//   UInt32, Int64, UInt64         QLineEdit accepting digits (QSpinBox holds an int only); the
//                                 range is checked by parseValue (Bad_OutOfRange, nothing written)
//   Float, Double                 QLineEdit with a QDoubleValidator (also nan, inf, -inf)
//   DateTime                      QDateTimeEdit in UTC, ms precision, calendar popup
//   String, LocalizedText,        QLineEdit
//   XmlElement
//   other types (Guid, NodeId,    QLineEdit with the ValueText form as placeholder
//   QualifiedName, ByteString, StatusCode, ...)
// An enumeration (AttributesModel::EnumNamesRole not empty) gets a QComboBox of "Name (value)"
// items, written as the value; without names it is an Int32 spin box.
// An array value (AttributesModel::IsArrayRole) gets a button "Edit array..." that emits
// arrayEditRequested (NodePanel opens ArrayEditorDialog). setModelData turns the editor's content
// into the ValueText text (ValueText.h) and calls setData(EditRole, text), so the model's parse
// errors (Bad_TypeMismatch / Bad_OutOfRange) and the Write's status are reported as before.
// Cells without a BuiltInTypeRole get the default editor.
#pragma once

#include <QStyledItemDelegate>

namespace ua::clientapp {

class ValueEditorDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ValueEditorDelegate(QObject* parent = nullptr);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;

    // The text (ValueText form) an editor made by this delegate holds; "" for an array button.
    static QString editorText(const QWidget* editor);

signals:
    // The "Edit array..." button of an array cell was clicked.
    void arrayEditRequested(const QModelIndex& index) const;
};

} // namespace ua::clientapp
