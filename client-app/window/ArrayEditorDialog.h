// Edits the node's array Value as a whole (issue 7 item 4, "an editor per built-in type for ...
// arrays"): a table of the elements, one row each, edited with ValueEditorDelegate for the element
// type; Add appends an element (0 / false / now / ""), Remove, Move up / Move down. OK parses every
// element (parseValue as a scalar of the element type; an element that does not parse keeps the
// dialog open with its error, nothing written) and writes the whole array through
// AttributesModel::writeText as the ValueText array form "[a, b, c]" (text types JSON-quoted), so the
// Write's status shows in the attributes view as for an edit in place (OPC 10000-4 5.10.4).
// One-dimensional: a matrix is shown flat and written as one dimension.
#pragma once

#include <QDialog>

#include "ua/types/Variant.h"

class QLabel;
class QStandardItemModel;
class QTableView;

namespace ua::clientapp {

class AttributesModel;

class ArrayEditorDialog : public QDialog {
    Q_OBJECT
public:
    // The elements of model's current Value (element type: model->valueBuiltInType()).
    explicit ArrayEditorDialog(AttributesModel* model, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    QStandardItemModel* elements() const { return m_elements; }
    BuiltInType elementType() const { return m_type; }
    // The array text OK writes ("[1, 2]"); empty with *error set when an element does not parse.
    QString arrayText(QString* error = nullptr) const;

    void addElement();
    void removeElement();
    void moveElement(int delta);  // -1 up, +1 down (the current row)

    void accept() override;

private:
    void appendRow(const QString& text);

    AttributesModel* m_model;
    BuiltInType m_type = BuiltInType::Null;
    QStandardItemModel* m_elements;
    QTableView* m_table;
    QLabel* m_error;
};

} // namespace ua::clientapp
