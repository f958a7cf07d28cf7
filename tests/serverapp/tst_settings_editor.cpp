// The Server page's configuration form (SettingsEditor) under the offscreen platform: every limit
// of SettingLimits.h has a field (found by objectName limit_<key>), shows the settings it was given,
// and a value typed into it comes back in settings() and in the ServerConfig it maps to.
#include "SettingLimits.h"
#include "SettingsEditor.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include "TestMain.h"

using namespace ua::app;

class TestSettingsEditor : public QObject {
    Q_OBJECT
private slots:
    void everyLimitHasAField();
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

UA_TEST_MAIN(TestSettingsEditor)
#include "tst_settings_editor.moc"
