// The event history (libua/ua/server/history/EventHistory.h; OPC 10000-11 6.5.2) over a real
// SQLite file: events of one notifier at 5:00, 5:02 (two), 5:03 and 5:05 and of another notifier
// at 5:01; the time domains of Read Event forward, backward and at an instant; the select clauses
// (a field an event lacks is Null) and the where clause; numValuesPerNode with ContinuationPoints
// that add up to the whole answer (through the two events of one instant); the encoding of an
// event and a damaged row; trimming by age; and the events surviving a reopen of the file.
#include "ua/server/history/EventHistory.h"
#include "ua/server/history/HistoryStore.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"

#include <QTemporaryDir>
#include <QTest>
#include "TestMain.h"

using namespace ua;

namespace {

constexpr int64_t kEvFiveOClock = 133000000000000000LL;
constexpr int64_t kEvMinute = 60LL * 10000000;
constexpr int kUnset = -99;
DateTime minute(int m) { return DateTime{kEvFiveOClock + m * kEvMinute}; }

SimpleAttributeOperand eventField(const char* name, uint32_t type = id::BaseEventType) {
    SimpleAttributeOperand op;
    op.typeDefinitionId = NodeId(type);
    op.browsePath = Array<QualifiedName>{QualifiedName{0, String(name)}};
    op.attributeId = uint32_t(AttributeId::Value);
    return op;
}

// Selects Message and Time (and, as a third field, one the events lack: AuditEventType's Status).
EventFilter messageAndTime(ContentFilter whereClause = {}) {
    EventFilter f;
    f.selectClauses = Array<SimpleAttributeOperand>{eventField("Message"), eventField("Time"), eventField("Status", id::AuditEventType)};
    f.whereClause = std::move(whereClause);
    return f;
}

EventPtr eventAt(int m, const std::string& text, uint16_t severity = 500) {
    auto e = makeEvent(NodeId(id::BaseEventType), NodeId(id::Server), "Test", text, severity);
    e->set("Time", Variant(minute(m)));
    return e;
}

// "a@5:00 b@5:02" from the Message and Time fields of each event.
QString describeEvents(const HistoryEvent& h) {
    QStringList out;
    for (const HistoryEventFieldList& f : h.events) {
        const LocalizedText* text = f.eventFields.size() > 0 ? f.eventFields[0].get<LocalizedText>() : nullptr;
        const DateTime* t = f.eventFields.size() > 1 ? f.eventFields[1].get<DateTime>() : nullptr;
        const int64_t m = t ? (t->ticks - kEvFiveOClock) / kEvMinute : -1;
        out << QStringLiteral("%1@5:%2").arg(text ? QString::fromStdString(text->text.str()) : QStringLiteral("?")).arg(m, 2, 10, QLatin1Char('0'));
    }
    return out.join(u' ');
}

} // namespace

class tst_event_history : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<HistoryStore> m_store;
    std::unique_ptr<EventHistory> m_events;
    AddressSpace m_space;
    CompiledEventFilter m_filter;
    const std::string m_notifier = NodeId(id::Server).toString();

    ReadEventDetails details(int start, int end, uint32_t n) const {
        ReadEventDetails d;
        if (start != kUnset) d.startTime = minute(start);
        if (end != kUnset) d.endTime = minute(end);
        d.numValuesPerNode = n;
        return d;
    }

private slots:
    void initTestCase() {
        Ns0NodeManager ns0;
        QVERIFY(ns0.install(m_space).isGood());
        EventFilterResult result;
        bool errors = false;
        QCOMPARE(m_filter.compile(m_space, messageAndTime(), result, errors), StatusCode(status::Good));
        m_store = std::make_unique<HistoryStore>(m_dir.filePath("events.sqlite"));
        QVERIFY(m_store->ok());
        m_events = std::make_unique<EventHistory>(m_store->database());
        // Recorded out of order: the store orders by Time, then by arrival.
        m_events->record(eventAt(3, "d"), {m_notifier});
        m_events->record(eventAt(0, "a"), {m_notifier});
        m_events->record(eventAt(2, "b"), {m_notifier});
        m_events->record(eventAt(2, "c"), {m_notifier});
        m_events->record(eventAt(5, "e"), {m_notifier});
        m_events->record(eventAt(1, "other"), {"ns=1;i=5"});
        QCOMPARE(m_events->flush(), 6);
    }

    // OPC 10000-11 6.5.2.2: startTime included, endTime excluded; backward when endTime <
    // startTime or with only endTime; an instant when they are equal.
    void timeDomains_data() {
        QTest::addColumn<int>("start");
        QTest::addColumn<int>("end");
        QTest::addColumn<uint32_t>("n");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<uint32_t>("status");
        QTest::newRow("5:00-5:05") << 0 << 5 << 0u << "a@5:00 b@5:02 c@5:02 d@5:03" << uint32_t(status::Good);
        QTest::newRow("5:01-5:06") << 1 << 6 << 0u << "b@5:02 c@5:02 d@5:03 e@5:05" << uint32_t(status::Good);
        QTest::newRow("5:05-5:00 backward") << 5 << 0 << 0u << "e@5:05 d@5:03 c@5:02 b@5:02" << uint32_t(status::Good);
        QTest::newRow("5:02 instant") << 2 << 2 << 0u << "b@5:02 c@5:02" << uint32_t(status::Good);
        QTest::newRow("5:04 instant, nothing") << 4 << 4 << 0u << "" << uint32_t(status::GoodNoData);
        QTest::newRow("from 5:02, 2 of them") << 2 << kUnset << 2u << "b@5:02 c@5:02" << uint32_t(status::GoodMoreData);
        QTest::newRow("up to 5:03, 2 backward") << kUnset << 3 << 2u << "d@5:03 c@5:02" << uint32_t(status::GoodMoreData);
        QTest::newRow("after the history") << 6 << 9 << 0u << "" << uint32_t(status::GoodNoData);
    }
    void timeDomains() {
        QFETCH(int, start);
        QFETCH(int, end);
        QFETCH(uint32_t, n);
        QFETCH(QString, expected);
        QFETCH(uint32_t, status);
        const EventReadOutcome r = m_events->read(m_notifier, details(start, end, n), m_filter, m_space, {});
        QCOMPARE(describeEvents(r.events), expected);
        QCOMPARE(r.status, StatusCode(status));
        QCOMPARE(r.more, status == uint32_t(status::GoodMoreData));
    }

    // Every selected field in select clause order; one the event lacks is Null.
    void selectClauses() {
        const EventReadOutcome r = m_events->read(m_notifier, details(0, 1, 0), m_filter, m_space, {});
        QCOMPARE(r.events.events.size(), std::size_t(1));
        const HistoryEventFieldList& f = r.events.events[0];
        QCOMPARE(f.eventFields.size(), std::size_t(3));
        QVERIFY(f.eventFields[0].get<LocalizedText>());
        QCOMPARE(f.eventFields[1].get<DateTime>()->ticks, minute(0).ticks);
        QVERIFY(f.eventFields[2].isNull());
    }

    // The where clause picks the events: Message equal to "c".
    void whereClause() {
        ContentFilterElement eq;
        eq.filterOperator = FilterOperator::Equals;
        eq.filterOperands = Array<ExtensionObject>{ExtensionObject::make(eventField("Message")), ExtensionObject::make(LiteralOperand{Variant(String("c"))})};
        ContentFilter w;
        w.elements = Array<ContentFilterElement>{eq};
        CompiledEventFilter onlyC;
        EventFilterResult result;
        bool errors = false;
        QCOMPARE(onlyC.compile(m_space, messageAndTime(w), result, errors), StatusCode(status::Good));
        QCOMPARE(describeEvents(m_events->read(m_notifier, details(0, 9, 0), onlyC, m_space, {}).events), QStringLiteral("c@5:02"));
    }

    // Paused by numValuesPerNode, the pieces add up to the whole answer, both ways, through the
    // two events of 5:02.
    void continuationsAddUp() {
        for (const bool backward : {false, true}) {
            const QString whole = describeEvents(m_events->read(m_notifier, backward ? details(9, 0, 0) : details(0, 9, 0), m_filter, m_space, {}).events);
            for (uint32_t n = 1; n <= 5; ++n) {
                const ReadEventDetails d = backward ? details(9, 0, n) : details(0, 9, n);
                QStringList pieces;
                EventReadPosition at;
                int reads = 0;
                for (;;) {
                    const EventReadOutcome r = m_events->read(m_notifier, d, m_filter, m_space, at);
                    QVERIFY(r.events.events.size() <= n);
                    if (!r.events.events.empty()) pieces << describeEvents(r.events);
                    ++reads;
                    if (!r.more) break;
                    at = r.next;
                    QVERIFY(reads < 20);
                }
                QCOMPARE(pieces.join(u' '), whole);
                // Forward 5 events; backward 4 (endTime 5:00 is excluded). No empty last read: a
                // pause knows that one more exists.
                const int count = int(whole.split(u' ').size());
                QCOMPARE(count, backward ? 4 : 5);
                QCOMPARE(reads, int((count + n - 1) / n));
            }
        }
    }

    // Another notifier's events are its own.
    void notifiersApart() {
        QCOMPARE(describeEvents(m_events->read("ns=1;i=5", details(0, 9, 0), m_filter, m_space, {}).events), QStringLiteral("other@5:01"));
        QCOMPARE(m_events->read("ns=1;i=6", details(0, 9, 0), m_filter, m_space, {}).status, StatusCode(status::GoodNoData));
    }

    void tooFewParameters() {
        QCOMPARE(checkReadEventDetails(details(0, kUnset, 0)), StatusCode(status::BadInvalidTimestampArgument));
        QCOMPARE(checkReadEventDetails(details(kUnset, kUnset, 5)), StatusCode(status::BadInvalidTimestampArgument));
        QCOMPARE(m_events->read(m_notifier, details(kUnset, 3, 0), m_filter, m_space, {}).status, StatusCode(status::BadInvalidTimestampArgument));
        QCOMPARE(checkReadEventDetails(details(kUnset, 3, 1)), StatusCode(status::Good));
    }

    void encodingRoundTripAndDamage() {
        const EventPtr e = eventAt(7, "round trip", 900);
        const QByteArray bytes = encodeEvent(*e);
        QVERIFY(!bytes.isEmpty());
        const std::shared_ptr<Event> back = decodeEvent(bytes);
        QVERIFY(back);
        QCOMPARE(back->eventType(), e->eventType());
        QCOMPARE(back->fields().size(), e->fields().size());
        for (const Event::Field& f : e->fields()) {
            QVERIFY2(back->field(f.key), f.key.c_str());
            QVERIFY(*back->field(f.key) == f.value);
        }
        QVERIFY(!decodeEvent(bytes.left(bytes.size() - 3)));
        QVERIFY(!decodeEvent(bytes + QByteArray("x")));
        QVERIFY(!decodeEvent(QByteArray("\xff\xff\xff\xff\xff", 5)));
    }

    // Trimming removes the events older than the time given, and nothing else; then the file
    // reopens with what was left.
    void trimThenReopen() {
        m_events->trim(m_notifier, minute(3).ticks);
        QCOMPARE(describeEvents(m_events->read(m_notifier, details(0, 9, 0), m_filter, m_space, {}).events), QStringLiteral("d@5:03 e@5:05"));
        m_events.reset();
        m_store.reset();
        HistoryStore reopened(m_dir.filePath("events.sqlite"));
        QVERIFY(reopened.ok());
        EventHistory again(reopened.database());
        QCOMPARE(describeEvents(again.read(m_notifier, details(0, 9, 0), m_filter, m_space, {}).events), QStringLiteral("d@5:03 e@5:05"));
        QCOMPARE(describeEvents(again.read("ns=1;i=5", details(0, 9, 0), m_filter, m_space, {}).events), QStringLiteral("other@5:01"));
    }
};

UA_TEST_GUILESS_MAIN(tst_event_history)
#include "tst_event_history.moc"
