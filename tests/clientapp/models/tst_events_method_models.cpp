// EventsModel and MethodCallModel against our server in process, under QAbstractItemModelTester:
// an event raised by Methods/GenerateEvent appears in the events table of the Server object with its
// message, severity and type; other fields selected; the rows bounded; Methods/Scale's arguments
// read, called with inputs typed as text, its outputs; a missing and an extra argument
// (Bad_ArgumentsMissing, Bad_TooManyArguments from the server); a text that does not parse (not
// sent); a bad Severity (Bad_InvalidArgument from the Method, Bad_OutOfRange for that argument).
#include "ModelsTestUtil.h"
#include "models/EventsModel.h"
#include "models/MethodCallModel.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QAbstractItemModelTester>
#include "TestMain.h"

using namespace ua;
using namespace ua::clientapp;

class TestEventsMethodModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void generatedEventAppears();
    void fieldsAndCapacity();
    void callScale();
    void failedCallClearsOutputs();
    void wrongArguments();

private:
    // Calls Methods/GenerateEvent(message, severity) with our Client; its status.
    StatusCode generateEvent(const QString& message, uint16_t severity);
    // The row whose Message column is message, or -1.
    static int rowWithMessage(const EventsModel& m, const QString& message);

    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Connection> m_connection;
};

void TestEventsMethodModels::initTestCase() {
    qRegisterMetaType<ua::StatusCode>();
    m_server = test::startDemoServer();
    QVERIFY(m_server);
    m_connection = std::make_unique<Connection>(m_dir.filePath(QStringLiteral("pki")));
    QCOMPARE(test::connectApp(*m_connection, m_server->endpointUrl()), StatusCode());
}

void TestEventsMethodModels::cleanupTestCase() {
    m_connection.reset();
    m_server.reset();
}

StatusCode TestEventsMethodModels::generateEvent(const QString& message, uint16_t severity) {
    test::Awaited<ServiceResult<CallResponse>> r;
    m_connection->client()->callMethod(test::demoNode(*m_connection, "Demo.Methods"),
                                       test::demoNode(*m_connection, "Demo.Methods.GenerateEvent"),
                                       {Variant(String::fromQString(message)), Variant(severity)}, this, r.callback());
    if (!r.wait()) return status::BadTimeout;
    if (r->status.isBad()) return r->status;
    return r->response.results.empty() ? StatusCode(status::BadUnknownResponse) : r->response.results[0].statusCode;
}

int TestEventsMethodModels::rowWithMessage(const EventsModel& m, const QString& message) {
    const int col = m.fields().indexOf(QStringLiteral("Message"));
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, col).data().toString() == message) return r;
    return -1;
}

void TestEventsMethodModels::generatedEventAppears() {
    EventsModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.notifier(), NodeId(id::Server));
    QCOMPARE(model.fields(), EventsModel::defaultFields());
    QCOMPARE(model.columnCount(), 5);
    QCOMPARE(model.headerData(4, Qt::Horizontal).toString(), QStringLiteral("Message"));
    QSignalSpy status(&model, &EventsModel::statusChanged);
    model.start();
    QVERIFY(model.isRunning());
    QTRY_COMPARE(model.status(), StatusCode());
    QCOMPARE(generateEvent(QStringLiteral("hello from the models test"), 600), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(rowWithMessage(model, QStringLiteral("hello from the models test")) >= 0, 10000);
    const int row = rowWithMessage(model, QStringLiteral("hello from the models test"));
    QCOMPARE(model.index(row, 3).data().toString(), QStringLiteral("600"));                 // Severity
    QCOMPARE(model.index(row, 0).data(EventsModel::SeverityRole).toInt(), 600);
    QTRY_COMPARE(model.index(row, 2).data().toString(), QStringLiteral("BaseEventType"));  // EventType
    QVERIFY(!model.index(row, 1).data().toString().isEmpty());                             // SourceName
    const QDateTime time = QDateTime::fromString(model.index(row, 0).data().toString(), QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    QVERIFY(time.isValid());
    QVERIFY(std::abs(time.secsTo(QDateTime::currentDateTime())) < 60);
    QCOMPARE(model.eventAt(row)->size(), std::size_t(5));
    QVERIFY(test::logCount(*m_connection, QStringLiteral("CreateMonitoredItems")) >= 1);

    // stop(): no more rows.
    model.stop();
    const int rows = model.rowCount();
    QCOMPARE(generateEvent(QStringLiteral("after stop"), 100), StatusCode());
    QTest::qWait(600);
    QCOMPARE(model.rowCount(), rows);
    QCOMPARE(rowWithMessage(model, QStringLiteral("after stop")), -1);
}

void TestEventsMethodModels::fieldsAndCapacity() {
    EventsModel model(m_connection.get(), 3);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFields({QStringLiteral("Message"), QStringLiteral("Severity"), QStringLiteral("EventId")});
    model.start();
    QTRY_COMPARE(model.status(), StatusCode());
    for (int i = 0; i < 5; ++i) QCOMPARE(generateEvent(QStringLiteral("event %1").arg(i), uint16_t(100 + i)), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(rowWithMessage(model, QStringLiteral("event 4")) >= 0, 10000);
    QCOMPARE(model.rowCount(), 3);  // bounded: the newest three
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("event 4"));  // newest last
    QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("104"));
    QVERIFY(model.index(2, 2).data().toString().startsWith(QStringLiteral("0x")));  // EventId, a ByteString
    QCOMPARE(rowWithMessage(model, QStringLiteral("event 0")), -1);

    // Other fields: the item is created again, the columns change.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setFields({QStringLiteral("SourceName"), QStringLiteral("Message")});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.rowCount(), 0);
    QTRY_COMPARE(model.status(), StatusCode());
    QCOMPARE(generateEvent(QStringLiteral("with two fields"), 300), StatusCode());
    QTRY_VERIFY_WITH_TIMEOUT(rowWithMessage(model, QStringLiteral("with two fields")) >= 0, 10000);

    // A notifier that does not exist: the item's status.
    model.setNotifier(NodeId(0, 999999u));
    QTRY_COMPARE(model.status(), StatusCode(status::BadNodeIdUnknown));
}

void TestEventsMethodModels::callScale() {
    MethodCallModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester outTester(model.outputs(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &MethodCallModel::loaded);
    model.setMethod(test::demoNode(*m_connection, "Demo.Methods.Scale"));  // the Object found by an inverse Browse
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(model.objectId(), test::demoNode(*m_connection, "Demo.Methods"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, MethodCallModel::NameColumn).data().toString(), QStringLiteral("Values"));
    QCOMPARE(model.index(0, MethodCallModel::DataTypeColumn).data().toString(), QStringLiteral("Double[]"));
    QCOMPARE(model.index(1, MethodCallModel::NameColumn).data().toString(), QStringLiteral("Factor"));
    QCOMPARE(model.index(1, MethodCallModel::DataTypeColumn).data().toString(), QStringLiteral("Double"));
    QCOMPARE(model.outputs()->rowCount(), 2);
    QCOMPARE(model.outputs()->index(0, MethodOutputsModel::NameColumn).data().toString(), QStringLiteral("Scaled"));
    QCOMPARE(model.outputs()->index(1, MethodOutputsModel::NameColumn).data().toString(), QStringLiteral("Sum"));

    QVERIFY(model.setData(model.index(0, MethodCallModel::ValueColumn), QStringLiteral("[1, 2.5, -3]")));
    QVERIFY(model.setData(model.index(1, MethodCallModel::ValueColumn), QStringLiteral("2")));
    QSignalSpy finished(&model, &MethodCallModel::callFinished);
    model.call();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).value<StatusCode>(), StatusCode());
    QCOMPARE(model.methodStatus(), StatusCode());
    const std::vector<Variant>& out = model.outputs()->values();
    QCOMPARE(out.size(), std::size_t(2));
    QCOMPARE(out[0], Variant(Array<double>{2, 5, -6}));
    QCOMPARE(out[1], Variant(1.0));
    QCOMPARE(model.outputs()->index(0, MethodOutputsModel::ValueColumn).data().toString(), QStringLiteral("[2, 5, -6]"));
    QCOMPARE(model.outputs()->index(1, MethodOutputsModel::ValueColumn).data().toString(), QStringLiteral("1"));
    QVERIFY(test::logCount(*m_connection, QStringLiteral("Call")) >= 1);
}

// Issue 27 item 5: after a failed Call the previous call's outputs are gone (their names stay), for
// a failure found here (an input that does not parse) and one the server answers.
void TestEventsMethodModels::failedCallClearsOutputs() {
    MethodCallModel model(m_connection.get());
    QAbstractItemModelTester outTester(model.outputs(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &MethodCallModel::loaded);
    model.setMethod(test::demoNode(*m_connection, "Demo.Methods.Scale"), test::demoNode(*m_connection, "Demo.Methods"));
    QVERIFY(loaded.wait(10000));
    QSignalSpy finished(&model, &MethodCallModel::callFinished);
    const auto callGood = [&] {
        model.setInputText(0, QStringLiteral("[1, 2]"));
        model.setInputText(1, QStringLiteral("3"));
        model.call();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode());
        QCOMPARE(model.outputs()->values().size(), std::size_t(2));
        QCOMPARE(model.outputs()->index(0, MethodOutputsModel::ValueColumn).data().toString(), QStringLiteral("[3, 6]"));
    };
    const auto outputsEmpty = [&] {
        QVERIFY(model.outputs()->values().empty());
        QCOMPARE(model.outputs()->rowCount(), 2);  // the declared outputs, without values
        QCOMPARE(model.outputs()->index(0, MethodOutputsModel::NameColumn).data().toString(), QStringLiteral("Scaled"));
        QCOMPARE(model.outputs()->index(0, MethodOutputsModel::ValueColumn).data().toString(), QString());
        QCOMPARE(model.outputs()->index(1, MethodOutputsModel::ValueColumn).data().toString(), QString());
    };

    callGood();
    model.setInputText(1, QStringLiteral("three"));  // refused here, nothing sent
    model.call();
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadTypeMismatch));
    outputsEmpty();

    callGood();
    model.setInputText(1, QString());  // Factor missing: the server's Bad_ArgumentsMissing
    model.call();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadArgumentsMissing));
    outputsEmpty();
}

void TestEventsMethodModels::wrongArguments() {
    MethodCallModel model(m_connection.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &MethodCallModel::loaded);
    model.setMethod(test::demoNode(*m_connection, "Demo.Methods.Scale"), test::demoNode(*m_connection, "Demo.Methods"));
    QVERIFY(loaded.wait(10000));
    QSignalSpy finished(&model, &MethodCallModel::callFinished);

    // Factor left empty: only Values is sent; the server says an argument is missing.
    model.setInputText(0, QStringLiteral("[1, 2]"));
    model.call();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadArgumentsMissing));
    QCOMPARE(model.methodStatus(), StatusCode(status::BadArgumentsMissing));

    // An extra input: one too many.
    model.setInputText(1, QStringLiteral("3"));
    QVERIFY(model.insertRows(model.rowCount(), 1));
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(!model.insertRows(0, 1));  // only at the end
    model.setInputText(2, QStringLiteral("7"));
    model.call();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadTooManyArguments));
    QVERIFY(model.removeRows(2, 1));
    QVERIFY(!model.removeRows(1, 1));  // declared inputs stay

    // A text that is not a Double: refused here, nothing sent.
    const int calls = test::logCount(*m_connection, QStringLiteral("Call"));
    model.setInputText(1, QStringLiteral("three"));
    model.call();
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadTypeMismatch));
    QVERIFY(finished.last().at(1).toString().contains(QStringLiteral("Factor")));
    QCOMPARE(model.index(1, MethodCallModel::ResultColumn).data(MethodCallModel::StatusCodeRole).toUInt(), uint(status::BadTypeMismatch));
    QCOMPARE(test::logCount(*m_connection, QStringLiteral("Call")), calls);

    // GenerateEvent with a Severity out of 1..1000: the Method's Bad_OutOfRange.
    QVERIFY(QTest::qWaitFor([&] { return !model.isCalling(); }));
    loaded.clear();
    model.setMethod(test::demoNode(*m_connection, "Demo.Methods.GenerateEvent"), test::demoNode(*m_connection, "Demo.Methods"));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, MethodCallModel::DataTypeColumn).data().toString(), QStringLiteral("UInt16"));
    model.setInputText(0, QStringLiteral("too severe"));
    model.setInputText(1, QStringLiteral("5000"));
    model.call();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.last().at(0).value<StatusCode>(), StatusCode(status::BadInvalidArgument));
    QCOMPARE(model.index(0, MethodCallModel::ResultColumn).data().toString(), QStringLiteral("Good"));
    QCOMPARE(model.index(1, MethodCallModel::ResultColumn).data(MethodCallModel::StatusCodeRole).toUInt(), uint(status::BadOutOfRange));
    QCOMPARE(model.index(1, MethodCallModel::ResultColumn).data().toString(), QStringLiteral("Bad_OutOfRange"));
}

UA_TEST_MAIN(TestEventsMethodModels)
#include "tst_events_method_models.moc"
