// LogCapture, LogModel and LogFilterModel: messages from any thread reach the model in batches (a
// flood of 10,000 from four threads in far fewer queued flushes), the previous handler still gets
// every message, the ring keeps the newest records, and the filter's level, category and search.
#include "models/LogModel.h"

#include <QAbstractItemModelTester>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include "TestMain.h"
#include <array>
#include <atomic>
#include <cstdio>

Q_LOGGING_CATEGORY(lcServer, "ua.server")
Q_LOGGING_CATEGORY(lcChannel, "ua.channel")

using namespace ua::serverapp;

namespace {
std::atomic<int> g_previousCalls{0};
void countingHandler(QtMsgType, const QMessageLogContext&, const QString&) { ++g_previousCalls; }
} // namespace

class TestLogModel : public QObject {
    Q_OBJECT
private slots:
    void capturesAndChains();
    void floodFromThreadsInBatches();
    void filter();
};

void TestLogModel::capturesAndChains() {
    LogCapture capture;
    LogModel model(100);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.attach(&capture);
    QSignalSpy categories(&model, &LogModel::categoriesChanged);
    // QtTest's own handler is the previous one: ignoreMessage only passes if the message reached it.
    QTest::ignoreMessage(QtWarningMsg, "channel 7 closed: Bad_Timeout");
    qCWarning(lcChannel, "channel 7 closed: %s", "Bad_Timeout");
    qCInfo(lcServer) << "listening on port" << 4840;
    QTRY_COMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, LogModel::Level).data().toString(), QStringLiteral("warning"));
    QCOMPARE(model.index(0, LogModel::Category).data().toString(), QStringLiteral("ua.channel"));
    QCOMPARE(model.index(0, LogModel::Message).data().toString(), QStringLiteral("channel 7 closed: Bad_Timeout"));
    QCOMPARE(model.index(1, LogModel::Message).data().toString(), QStringLiteral("listening on port 4840"));
    QCOMPARE(model.index(1, LogModel::Level).data(LogModel::SeverityRole).toInt(), logSeverity(QtInfoMsg));
    QVERIFY(model.index(1, LogModel::Time).data(LogModel::TimeRole).toDateTime().isValid());
    QCOMPARE(model.categories(), (QStringList{"ua.channel", "ua.server"}));
    QVERIFY(categories.count() >= 1);
}

void TestLogModel::floodFromThreadsInBatches() {
    g_previousCalls = 0;
    QtMessageHandler qtTest = qInstallMessageHandler(countingHandler);  // a quiet previous handler
    int rows = 0;
    int batches = 0;
    quint64 dropped = 0;
    {
        LogCapture capture(20000);
        LogModel model(5000);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.attach(&capture);
        connect(&capture, &LogCapture::recordsCaptured, this, [&](const QList<LogRecord>&) { ++batches; });
        std::vector<QThread*> threads;
        for (int t = 0; t < 4; ++t) {
            threads.push_back(QThread::create([t] {
                for (int i = 0; i < 2500; ++i) qCDebug(lcServer, "thread %d message %d", t, i);
            }));
            threads.back()->start();
        }
        // The model's thread keeps processing events (flushes) while the threads log, as the GUI does.
        for (QThread* t : threads) {
            QTRY_VERIFY_WITH_TIMEOUT(t->isFinished(), 30000);
            t->wait();
            delete t;
        }
        QTRY_COMPARE(g_previousCalls.load(), 10000);
        QTest::qWait(50);
        QCoreApplication::processEvents();
        rows = model.rowCount();
        dropped = capture.dropped();
        // The ring holds the newest records: of each thread, a suffix of its messages, in order.
        std::array<std::vector<int>, 4> seen;
        for (int r = 0; r < model.rowCount(); ++r) {
            int t = -1, i = -1;
            QVERIFY(std::sscanf(model.record(r).message.toLatin1().constData(), "thread %d message %d", &t, &i) == 2);
            seen[std::size_t(t)].push_back(i);
        }
        for (const auto& s : seen)
            for (std::size_t k = 0; k < s.size(); ++k) QCOMPARE(s[k], 2500 - int(s.size()) + int(k));
    }
    qInstallMessageHandler(qtTest);
    QCOMPARE(dropped, 0u);
    QCOMPARE(rows, 5000);
    qInfo("10,000 messages from 4 threads arrived in %d batches", batches);
    QVERIFY(batches >= 1);
    QVERIFY2(batches < 1000, qPrintable(QString::number(batches)));
}

void TestLogModel::filter() {
    LogModel model(100);
    LogFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QDateTime now = QDateTime::currentDateTime();
    model.append({{now, QtDebugMsg, "ua.server", "sampling tick"},
                  {now, QtWarningMsg, "ua.channel", "channel 3: Bad_SecurityChecksFailed"},
                  {now, QtInfoMsg, "ua.server", "session created"},
                  {now, QtCriticalMsg, "ua.pki", "cannot write rejected/certs"}});
    QCOMPARE(filter.rowCount(), 4);
    filter.setMinimumLevel(QtInfoMsg);
    QCOMPARE(filter.rowCount(), 3);
    filter.setMinimumLevel(QtWarningMsg);
    QCOMPARE(filter.rowCount(), 2);
    filter.setSearchText("SECURITY");
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, LogModel::Category).data().toString(), QStringLiteral("ua.channel"));
    filter.setSearchText("pki");  // matches the category
    QCOMPARE(filter.rowCount(), 1);
    filter.setSearchText({});
    filter.setMinimumLevel(QtDebugMsg);
    filter.setCategory("ua.server");
    QCOMPARE(filter.rowCount(), 2);
    // New records pass through the filter as they arrive.
    model.append({{now, QtInfoMsg, "ua.server", "session closed"}, {now, QtInfoMsg, "ua.channel", "x"}});
    QCOMPARE(filter.rowCount(), 3);
    filter.setCategory({});
    QCOMPARE(filter.rowCount(), 6);
    // Capacity: a batch larger than the ring keeps its newest records only.
    QList<LogRecord> many;
    for (int i = 0; i < 150; ++i) many.append({now, QtInfoMsg, "bulk", QString::number(i)});
    model.append(many);
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.record(0).message, QStringLiteral("50"));
    QCOMPARE(model.record(99).message, QStringLiteral("149"));
    model.clear();
    QCOMPARE(filter.rowCount(), 0);
    QVERIFY(model.categories().isEmpty());
}

UA_TEST_GUILESS_MAIN(TestLogModel)
#include "tst_log_model.moc"
