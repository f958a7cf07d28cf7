// The value editors of the attributes view (issue 7 items 4, 12) against our Server in process
// (offscreen): ValueEditorDelegate opens the editor of the Value's built-in type (QComboBox for
// Boolean, QSpinBox with the type's range for Byte / Int32, QLineEdit for Double / String / Int64,
// QDateTimeEdit for DateTime, a button for an array), a value set in each editor and committed with
// Enter is written (the model reads the Value from the server again), ArrayEditorDialog adds an
// element and writes the whole array, and an Int64 text out of range is refused with
// Bad_OutOfRange before anything is sent. A custom structure (tests/interop/data/
// custom-types.NodeSet2.xml) changes shape from the attributes view's context menu: "Add field" on
// the Recipe's absent Comment, "Add element" on its Steps, "Remove element" on the new step,
// "Remove field" on the Comment, "Choose union field" > Count on a Measurement; a plain field's row
// has no such menu.
#include "core/Connection.h"
#include "core/ServiceLog.h"
#include "ValueText.h"
#include "models/AttributesModel.h"
#include "window/AddressPanel.h"
#include "window/ArrayEditorDialog.h"
#include "window/MainWindow.h"
#include "window/NodePanel.h"
#include "WindowTestUtil.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDoubleValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestClientWindowEditors : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void editsEachScalarType_data();
    void editsEachScalarType();
    void editsAnArrayInTheDialog();
    void refusesAnInt64OutOfRange();
    void offersAnEnumerationsNames();
    void changesAStructuresShapeFromTheMenu();

private:
    bool goTo(const QString& path);
    QWidget* openValueEditor();

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<MainWindow> m_window;
};

static const QString kDemoNs = QStringLiteral("nsu=urn:ua-workbench:demo;s=");

void TestClientWindowEditors::initTestCase() {
    QVERIFY(m_dir.isValid());
    ServerConfig cfg;
    cfg.port = 0;
    cfg.hostName = QStringLiteral("127.0.0.1");
    cfg.ioThreads = 1;
    cfg.security.users.anonymousRoles |= roleBit(Role::Operator);  // the window writes anonymously
    cfg.nodeSetFiles = {QStringLiteral(UA_INTEROP_DIR "/data/custom-types.NodeSet2.xml")};
    m_server = std::make_unique<Server>(cfg);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    WindowOptions options;
    options.historyFile = m_dir.filePath(QStringLiteral("history.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    ConnectionSettings s;
    s.endpointUrl = m_server->endpointUrl();
    QSignalSpy finished(m_window->connection(), &Connection::connectFinished);
    m_window->connectTo(s);
    QVERIFY(finished.wait(15000));
    QCOMPARE(m_window->connection()->state(), ClientState::Connected);
}

void TestClientWindowEditors::cleanupTestCase() {
    m_window.reset();
    m_server.reset();
}

// Goes to the demo node `path` ("Demo.Scalars.Byte") and waits for its attributes.
bool TestClientWindowEditors::goTo(const QString& path) {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(kDemoNs + path);
    if (!done.wait(10000) || !done.at(0).at(0).value<StatusCode>().isGood()) return false;
    AttributesModel* attributes = m_window->nodePanel()->attributes();
    const auto loaded = [&] {
        return QString::fromStdString(attributes->node().toString()).endsWith(QStringLiteral("s=") + path) &&
               attributes->valueIndex().isValid() && attributes->attribute(AttributeId::DataType);
    };
    QDeadlineTimer deadline(5000);
    while (!loaded() && !deadline.hasExpired()) QTest::qWait(20);
    return loaded();
}

QWidget* TestClientWindowEditors::openValueEditor() {
    NodePanel* node = m_window->nodePanel();
    const QModelIndex value = node->attributes()->valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    if (!node->editValue()) return nullptr;
    QTest::qWait(0);
    return node->attributesView()->indexWidget(value);
}

void TestClientWindowEditors::editsEachScalarType_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("editorClass");
    QTest::addColumn<QString>("written");  // the Value's text after the write
    QTest::newRow("Boolean") << "Demo.Scalars.Boolean" << "QComboBox" << "";
    QTest::newRow("Byte") << "Demo.Scalars.Byte" << "QSpinBox" << "200";
    QTest::newRow("Int32") << "Demo.Scalars.Int32" << "QSpinBox" << "-123456";
    QTest::newRow("Double") << "Demo.Scalars.Double" << "QLineEdit" << "2.5e-07";
    QTest::newRow("DateTime") << "Demo.Scalars.DateTime" << "QDateTimeEdit" << "2026-11-30T10:00:00.123Z";
    QTest::newRow("String") << "Demo.Scalars.String" << "QLineEdit" << "hello \"editor\", [1]";
}

void TestClientWindowEditors::editsEachScalarType() {
    QFETCH(QString, path);
    QFETCH(QString, editorClass);
    QFETCH(QString, written);
    QVERIFY(goTo(path));
    AttributesModel* attributes = m_window->nodePanel()->attributes();
    const QModelIndex value = attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    QVERIFY(value.flags() & Qt::ItemIsEditable);
    QCOMPARE(value.data(AttributesModel::IsArrayRole).toBool(), false);
    QWidget* editor = openValueEditor();
    QVERIFY(editor);
    QCOMPARE(QString::fromLatin1(editor->metaObject()->className()), editorClass);

    const QString before = value.data().toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->itemText(0), QStringLiteral("false"));
        QCOMPARE(combo->currentText(), before);  // the current value is selected
        written = before == QStringLiteral("true") ? QStringLiteral("false") : QStringLiteral("true");
        combo->setCurrentText(written);
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        if (path.endsWith(QStringLiteral("Byte"))) {
            QCOMPARE(spin->minimum(), 0);
            QCOMPARE(spin->maximum(), 255);
        } else {
            QCOMPARE(spin->minimum(), std::numeric_limits<int32_t>::min());
            QCOMPARE(spin->maximum(), std::numeric_limits<int32_t>::max());
        }
        QCOMPARE(QString::number(spin->value()), before);
        spin->setValue(written.toInt());
    } else if (auto* dt = qobject_cast<QDateTimeEdit*>(editor)) {
        QCOMPARE(dt->timeSpec(), Qt::UTC);
        QVERIFY(dt->calendarPopup());
        QVERIFY(dt->displayFormat().contains(QStringLiteral("zzz")));  // ms precision
        dt->setDateTime(QDateTime::fromString(written, Qt::ISODateWithMs));
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        QCOMPARE(line->text(), before);
        if (path.endsWith(QStringLiteral("Double"))) {
            QVERIFY(qobject_cast<const QDoubleValidator*>(line->validator()));
            QString bad = QStringLiteral("abc");
            int pos = 0;
            QCOMPARE(line->validator()->validate(bad, pos), QValidator::Invalid);
        }
        line->setText(written);
    } else {
        QFAIL("unexpected editor");
    }
    QSignalSpy finished(attributes, &AttributesModel::writeFinished);
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(finished.wait(5000));
    QCOMPARE(app::statusName(finished.at(0).at(0).value<StatusCode>()), QStringLiteral("Good"));
    // The model reads the Value from the server again after a Good write.
    QTRY_COMPARE_WITH_TIMEOUT(attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString(), written, 5000);
}

void TestClientWindowEditors::editsAnArrayInTheDialog() {
    QVERIFY(goTo(QStringLiteral("Demo.Arrays.Int32")));
    NodePanel* node = m_window->nodePanel();
    AttributesModel* attributes = node->attributes();
    const QModelIndex valueRow = attributes->valueIndex();
    const QModelIndex value = valueRow.siblingAtColumn(AttributesModel::ValueColumn);
    QCOMPARE(value.data(AttributesModel::IsArrayRole).toBool(), true);
    QCOMPARE(value.data(AttributesModel::BuiltInTypeRole).toInt(), int(BuiltInType::Int32));
    const DataValue* dv = attributes->attribute(AttributeId::Value);
    QVERIFY(dv && dv->value.isArray());
    const std::size_t before = dv->value.arrayLength();
    QVERIFY(before >= 1);

    // An element row in place: a spin box of the element type.
    const QModelIndex element0 = attributes->index(0, AttributesModel::ValueColumn, valueRow);
    QCOMPARE(element0.data(AttributesModel::BuiltInTypeRole).toInt(), int(BuiltInType::Int32));
    node->attributesView()->setCurrentIndex(element0);
    node->attributesView()->edit(element0);
    QTRY_VERIFY(qobject_cast<QSpinBox*>(node->attributesView()->indexWidget(element0)));
    QTest::keyClick(node->attributesView()->indexWidget(element0), Qt::Key_Escape);

    // The Value cell: a button that opens the dialog.
    auto* button = qobject_cast<QPushButton*>(openValueEditor());
    QVERIFY(button);
    QCOMPARE(button->objectName(), QStringLiteral("arrayEditButton"));
    QTest::mouseClick(button, Qt::LeftButton);
    ArrayEditorDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = node->findChild<ArrayEditorDialog*>()) != nullptr);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(dialog->elementType(), BuiltInType::Int32);
    QCOMPARE(std::size_t(dialog->elements()->rowCount()), before);

    // Add, then edit the new element with the delegate's spin box.
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("addElement")), Qt::LeftButton);
    QCOMPARE(std::size_t(dialog->elements()->rowCount()), before + 1);
    const QModelIndex last = dialog->elements()->index(int(before), 0);
    dialog->table()->setCurrentIndex(last);
    dialog->table()->edit(last);
    QTRY_VERIFY(dialog->table()->indexWidget(last));
    auto* spin = qobject_cast<QSpinBox*>(dialog->table()->indexWidget(last));
    QVERIFY(spin);
    spin->setValue(-4242);
    QTest::keyClick(spin, Qt::Key_Return);
    QTRY_COMPARE(last.data().toString(), QStringLiteral("-4242"));  // committed from the event loop
    // Move it to the top and back down again: the order is what is written.
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("moveUp")), Qt::LeftButton);
    QCOMPARE(dialog->elements()->index(int(before) - 1, 0).data().toString(), QStringLiteral("-4242"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("moveDown")), Qt::LeftButton);
    QVERIFY(dialog->arrayText().endsWith(QStringLiteral(", -4242]")));

    QSignalSpy finished(attributes, &AttributesModel::writeFinished);
    dialog->accept();
    QVERIFY(finished.wait(5000));
    QCOMPARE(app::statusName(finished.at(0).at(0).value<StatusCode>()), QStringLiteral("Good"));
    // The server has it: the Value read again is one longer and ends with the new element.
    QTRY_VERIFY_WITH_TIMEOUT(attributes->attribute(AttributeId::Value) &&
                                 attributes->attribute(AttributeId::Value)->value.arrayLength() == before + 1,
                             5000);
    const Array<int32_t>* values = attributes->attribute(AttributeId::Value)->value.get<Array<int32_t>>();
    QVERIFY(values);
    QCOMPARE((*values)[before], -4242);
}

void TestClientWindowEditors::refusesAnInt64OutOfRange() {
    QVERIFY(goTo(QStringLiteral("Demo.Scalars.Int64")));
    AttributesModel* attributes = m_window->nodePanel()->attributes();
    const QModelIndex value = attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    const QString before = value.data().toString();
    auto* line = qobject_cast<QLineEdit*>(openValueEditor());
    QVERIFY(line);
    QVERIFY(line->validator());
    QString letters = QStringLiteral("12a");
    int pos = 0;
    QCOMPARE(line->validator()->validate(letters, pos), QValidator::Invalid);
    const auto writes = [this] {
        int n = 0;
        for (const ServiceLogRecord& r : m_window->connection()->log()->records()) n += r.service == QStringLiteral("Write");
        return n;
    };
    const int writesBefore = writes();
    line->setText(QStringLiteral("9223372036854775808"));  // INT64_MAX + 1
    QSignalSpy finished(attributes, &AttributesModel::writeFinished);
    QTest::keyClick(line, Qt::Key_Return);
    QVERIFY(finished.count() == 1 || finished.wait(2000));
    QCOMPARE(app::statusName(finished.at(0).at(0).value<StatusCode>()), QStringLiteral("Bad_OutOfRange"));
    QVERIFY(attributes->valueIndex().siblingAtColumn(AttributesModel::StatusColumn).data().toString().contains(QStringLiteral("Bad_OutOfRange")));
    // Nothing was sent: no Write logged, and the server still has the old value.
    QTest::qWait(200);
    QCOMPARE(writes(), writesBefore);
    QSignalSpy loaded(attributes, &AttributesModel::loaded);
    attributes->refresh();
    QVERIFY(loaded.wait(5000));
    QCOMPARE(attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn).data().toString(), before);
}

// Server_ServerStatus_State (DataType ServerState, i=852): the names from its EnumStrings Property.
void TestClientWindowEditors::offersAnEnumerationsNames() {
    AddressPanel* address = m_window->addressPanel();
    QSignalSpy done(address, &AddressPanel::goToFinished);
    address->goTo(QStringLiteral("i=2259"));
    QVERIFY(done.wait(10000));
    AttributesModel* attributes = m_window->nodePanel()->attributes();
    QTRY_VERIFY_WITH_TIMEOUT(attributes->node() == NodeId(id::Server_ServerStatus_State) && attributes->valueIndex().isValid(), 5000);
    const QModelIndex value = attributes->valueIndex().siblingAtColumn(AttributesModel::ValueColumn);
    QTRY_VERIFY_WITH_TIMEOUT(!value.data(AttributesModel::EnumNamesRole).toStringList().isEmpty(), 5000);
    const QStringList names = value.data(AttributesModel::EnumNamesRole).toStringList();
    QCOMPARE(names.value(0), QStringLiteral("Running"));
    QCOMPARE(names.value(1), QStringLiteral("Failed"));
    QCOMPARE(value.data(AttributesModel::EnumValuesRole).toList().value(1).toLongLong(), 1);
    auto* combo = qobject_cast<QComboBox*>(openValueEditor());
    QVERIFY(combo);
    QCOMPARE(combo->objectName(), QStringLiteral("enumEditor"));
    QCOMPARE(combo->count(), names.size());
    QCOMPARE(combo->currentText(), QStringLiteral("Running (0)"));  // the server runs
    QTest::keyClick(combo, Qt::Key_Escape);
}

void TestClientWindowEditors::changesAStructuresShapeFromTheMenu() {
    NodePanel* node = m_window->nodePanel();
    AttributesModel* attributes = node->attributes();
    QTreeView* view = node->attributesView();
    const auto child = [&](const QModelIndex& parent, const QString& name) -> QModelIndex {
        for (int r = 0; r < attributes->rowCount(parent); ++r)
            if (attributes->index(r, 0, parent).data().toString() == name) return attributes->index(r, 0, parent);
        return {};
    };
    const auto show = [&](uint32_t id, int valueRows) {
        QSignalSpy done(m_window->addressPanel(), &AddressPanel::goToFinished);
        m_window->addressPanel()->goTo(QStringLiteral("nsu=urn:ua-workbench:test:custom-types;i=%1").arg(id));
        if (!done.wait(10000)) return false;
        return QTest::qWaitFor([&] { return attributes->valueIndex().isValid() && attributes->rowCount(attributes->valueIndex()) >= valueRows; }, 10000);
    };
    QSignalSpy written(attributes, &AttributesModel::writeFinished);
    const auto writtenGood = [&] {
        if (written.isEmpty() && !written.wait(10000)) return false;
        return written.takeFirst().at(0).value<StatusCode>().isGood();
    };
    QVERIFY(show(5003, 4));
    view->expand(attributes->valueIndex());

    // A field that is neither optional nor an array: no menu.
    QMenu plain;
    node->fillStructureMenu(&plain, child(attributes->valueIndex(), QStringLiteral("Title")));
    QVERIFY(plain.isEmpty());

    // Add field: the Comment, present at "" and now edited in place.
    QMenu offered;
    node->fillStructureMenu(&offered, child(attributes->valueIndex(), QStringLiteral("Comment")));
    QCOMPARE(offered.actions().size(), 1);
    QCOMPARE(offered.actions().front()->objectName(), QStringLiteral("addFieldAction"));
    QVERIFY(test::chooseContextAction(view, child(attributes->valueIndex(), QStringLiteral("Comment")), QStringLiteral("addFieldAction")));
    QVERIFY(writtenGood());
    QTRY_VERIFY_WITH_TIMEOUT(child(attributes->valueIndex(), QStringLiteral("Comment")).siblingAtColumn(AttributesModel::ValueColumn).flags() &
                                 Qt::ItemIsEditable,
                             10000);
    QCOMPARE(node->findChild<QLabel*>(QStringLiteral("writeStatus"))->text(), QStringLiteral("Write: Good"));

    // Add element on Steps, then Remove element on the new one.
    const auto steps = [&] { return child(attributes->valueIndex(), QStringLiteral("Steps")); };
    const int before = attributes->rowCount(steps());
    QVERIFY(test::chooseContextAction(view, steps(), QStringLiteral("addElementAction")));
    QVERIFY(writtenGood());
    QTRY_COMPARE_WITH_TIMEOUT(attributes->rowCount(steps()), before + 1, 10000);
    view->expand(attributes->valueIndex());
    view->expand(steps());
    QVERIFY(test::chooseContextAction(view, attributes->index(before, 0, steps()), QStringLiteral("removeElementAction")));
    QVERIFY(writtenGood());
    QTRY_COMPARE_WITH_TIMEOUT(attributes->rowCount(steps()), before, 10000);

    // Remove field: the Comment absent again.
    view->expand(attributes->valueIndex());
    QVERIFY(test::chooseContextAction(view, child(attributes->valueIndex(), QStringLiteral("Comment")), QStringLiteral("removeFieldAction")));
    QVERIFY(writtenGood());
    QTRY_COMPARE_WITH_TIMEOUT(child(attributes->valueIndex(), QStringLiteral("Comment")).siblingAtColumn(AttributesModel::ValueColumn).data().toString(),
                              QStringLiteral("(absent)"), 10000);

    // Choose union field > Count on the Measurement's Value row (the submenu lists (none) and each field).
    QVERIFY(show(5004, 1));
    QMenu unionMenu;
    node->fillStructureMenu(&unionMenu, attributes->valueIndex());
    auto* choose = unionMenu.findChild<QMenu*>(QStringLiteral("chooseUnionFieldMenu"));
    QVERIFY(choose);
    QCOMPARE(choose->actions().size(), 4);
    QVERIFY(test::chooseContextAction(view, attributes->valueIndex(), QStringLiteral("unionFieldAction_Count")));
    QVERIFY(writtenGood());
    QTRY_VERIFY_WITH_TIMEOUT(child(attributes->valueIndex(), QStringLiteral("Count")).isValid(), 10000);
    QCOMPARE(attributes->valueIndex().data(AttributesModel::UnionChoiceRole).toInt(), 0);
}

UA_TEST_MAIN(TestClientWindowEditors)
#include "tst_client_window_editors.moc"
