// The Server page's configuration form (SettingsEditor) under the offscreen platform: every limit
// of SettingLimits.h has a field (found by objectName limit_<key>), shows the settings it was given,
// and a value typed into it comes back in settings() and in the ServerConfig it maps to. The
// Reverse Connect client URLs (issue 32 item 4): one a line, checked as the file and the command
// line check them; the Server page does not save a form with a bad one.
#include "ServerPage.h"
#include "SettingLimits.h"
#include "SettingsEditor.h"

#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua::app;

class TestSettingsEditor : public QObject {
    Q_OBJECT
private slots:
    void everyLimitHasAField();
    void reverseConnectUrls();
};

void TestSettingsEditor::everyLimitHasAField() {
    SettingsEditor editor;
    ServerSettings s;
    s.subscriptions.maxPublishRequestsPerSession = 41;
    s.subscriptions.minSamplingIntervalMs = 3;
    s.maxSessionTimeoutMs = 120'000;
    editor.setSettings(s);
    std::vector<SettingLimit> all = subscriptionLimits();
    all.insert(all.end(), sessionLimits().begin(), sessionLimits().end());
    for (const SettingLimit& l : all) {
        const QString name = QStringLiteral("limit_%1").arg(QLatin1String(l.key));
        if (l.isCount()) {
            auto* box = editor.findChild<QSpinBox*>(name);
            QVERIFY2(box, qPrintable(name));
            QCOMPARE(double(box->value()), l.get(s));
        } else {
            auto* box = editor.findChild<QDoubleSpinBox*>(name);
            QVERIFY2(box, qPrintable(name));
            QCOMPARE(box->value(), l.get(s));
        }
    }
    QSignalSpy edited(&editor, &SettingsEditor::edited);
    editor.findChild<QSpinBox*>(QStringLiteral("limit_maxSubscriptionsPerSession"))->setValue(12);
    editor.findChild<QDoubleSpinBox*>(QStringLiteral("limit_minPublishingIntervalMs"))->setValue(50);
    QCOMPARE(edited.size(), 2);
    const ServerSettings back = editor.settings();
    QCOMPARE(back.subscriptions.maxSubscriptionsPerSession, 12u);
    QCOMPARE(back.subscriptions.minPublishingIntervalMs, 50.0);
    QCOMPARE(back.subscriptions.maxPublishRequestsPerSession, 41u);
    QCOMPARE(back.maxSessionTimeoutMs, 120'000.0);
    QCOMPARE(back.toServerConfig().subscriptions.maxSubscriptionsPerSession, 12u);
    // A range check from the table: the publish queue cannot be set to 0 in the form either.
    auto* queue = editor.findChild<QSpinBox*>(QStringLiteral("limit_maxPublishRequestsPerSession"));
    queue->setValue(0);
    QCOMPARE(queue->value(), 1);
}

void TestSettingsEditor::reverseConnectUrls() {
    SettingsEditor editor;
    editor.show();
    ServerSettings s;
    s.reverseConnect.clientUrls = {QStringLiteral("opc.tcp://scada:4843"), QStringLiteral("opc.tcp://10.0.0.7:4844")};
    editor.setSettings(s);
    auto* urls = editor.findChild<QPlainTextEdit*>(QStringLiteral("reverseConnectUrls"));
    auto* problem = editor.findChild<QLabel*>(QStringLiteral("reverseConnectProblem"));
    QVERIFY(urls && problem);
    QCOMPARE(urls->toPlainText(), QStringLiteral("opc.tcp://scada:4843\nopc.tcp://10.0.0.7:4844"));
    QVERIFY(!problem->isVisible());
    QVERIFY(editor.problem().isEmpty());

    // Blank lines and spaces around a URL do not count; an added line comes back in the settings and
    // the ServerConfig.
    QSignalSpy edited(&editor, &SettingsEditor::edited);
    urls->setPlainText(QStringLiteral("opc.tcp://scada:4843\n\n  opc.tcp://historian:4845  \n"));
    QVERIFY(edited.size() >= 1);
    QCOMPARE(editor.settings().reverseConnect.clientUrls,
             (QStringList{QStringLiteral("opc.tcp://scada:4843"), QStringLiteral("opc.tcp://historian:4845")}));
    QCOMPARE(editor.settings().toServerConfig().reverseConnect.clientUrls.size(), 2);
    QVERIFY(editor.problem().isEmpty());

    // Not opc.tcp, or no host: said under the field, and the Server page does not save it.
    urls->setPlainText(QStringLiteral("opc.tcp://scada:4843\nhttp://historian:4845"));
    QVERIFY2(editor.problem().contains(QStringLiteral("\"http://historian:4845\" is not an opc.tcp://host:port URL")),
             qPrintable(editor.problem()));
    QVERIFY(problem->isVisible());
    QCOMPARE(problem->text(), editor.problem());
    urls->setPlainText(QStringLiteral("opc.tcp://:4843"));
    QVERIFY(!editor.problem().isEmpty());
    urls->clear();
    QVERIFY(editor.problem().isEmpty());
    QVERIFY(!problem->isVisible());
    QVERIFY(editor.settings().reverseConnect.clientUrls.isEmpty());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("ua-server.json"));
    ServerPage page(ServerSettings{}, file);
    auto* pageUrls = page.findChild<QPlainTextEdit*>(QStringLiteral("reverseConnectUrls"));
    QVERIFY(pageUrls);
    pageUrls->setPlainText(QStringLiteral("tcp://plc:4843"));
    QString error;
    QVERIFY(!page.save(&error));
    QVERIFY2(error.contains(QStringLiteral("tcp://plc:4843")), qPrintable(error));
    QVERIFY(!QFile::exists(file));
    pageUrls->setPlainText(QStringLiteral("opc.tcp://plc:4843"));
    QVERIFY2(page.save(&error), qPrintable(error));
    ServerSettings saved;
    QVERIFY2(saved.load(file, &error), qPrintable(error));
    QCOMPARE(saved.reverseConnect.clientUrls, QStringList{QStringLiteral("opc.tcp://plc:4843")});
}

UA_TEST_MAIN(TestSettingsEditor)
#include "tst_settings_editor.moc"
