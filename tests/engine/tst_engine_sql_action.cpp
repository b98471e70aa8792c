// Rule actions (service-bus-rules.md R4, R5) as a component: engine/sql/ compiles SET and REMOVE
// statements and applies them to a copy of a message. Not yet wired into Rule or the broker.
#include "SqlTestMessages.h"
#include "sql/SqlAction.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::sqltest;

namespace {

enum Outcome { Applied, Refused, EvaluationError };

int g_row = 0;

QVariantMap with(QVariantMap properties, const QString& name, const QVariant& value) {
    properties.insert(name, value);
    return properties;
}

QVariantMap without(QVariantMap properties, const QString& name) {
    properties.remove(name);
    return properties;
}

// One action on the default message; `after` is the application properties it should leave and
// `subject` its sys.Label (Subject) afterwards.
void row(const char* action, int outcome, const QVariantMap& after = {},
         const QString& subject = QStringLiteral("Store1"),
         const QVariantMap& before = defaultProperties()) {
    QTest::addRow("%02d %s", ++g_row, action)
        << QString::fromUtf8(action) << before << outcome << after << subject;
}

QString describe(const QVariantMap& map) {
    QStringList parts;
    for (auto it = map.begin(); it != map.end(); ++it)
        parts << QStringLiteral("%1=%2(%3)")
                     .arg(it.key(), it.value().toString(), QLatin1String(it.value().typeName()));
    return parts.join(QStringLiteral(", "));
}

// Same keys, same meta types, same values.
bool sameProperties(const QVariantMap& a, const QVariantMap& b) {
    if (a.keys() != b.keys())
        return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
        const QVariant& other = b.value(it.key());
        if (it.value().metaType() != other.metaType())
            return false;
        if (it.value().metaType().id() != QMetaType::Nullptr && it.value() != other)
            return false;
    }
    return true;
}

} // namespace

class TestSqlAction : public QObject {
    Q_OBJECT

private slots:
    void R4_actions_data();
    void R4_actions();
    void R4_action_changes_only_the_copy();
    void R4_action_sets_system_properties();
    void R4_action_newid();
    void R4_action_error_leaves_no_half_change();
    void R5_action_limits();
    void R5_action_parse_error_shape();
};

void TestSqlAction::R4_actions_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QVariantMap>("before");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QVariantMap>("after");
    QTest::addColumn<QString>("subject");
    g_row = 0;
    const QVariantMap d = defaultProperties();
    const QString red = QStringLiteral("red");

    row("SET color = 'blue'", Applied, with(d, QStringLiteral("color"), QStringLiteral("blue")));
    row("SET user.color = 'blue'", Applied,
        with(d, QStringLiteral("color"), QStringLiteral("blue")));
    row("SET COLOR = 'blue'", Applied, with(d, QStringLiteral("color"), QStringLiteral("blue")));
    row("SET newprop = 5", Applied, with(d, QStringLiteral("newprop"), QVariant(qlonglong(5))));
    row("SET total = quantity * 2", Applied,
        with(d, QStringLiteral("total"), QVariant(qlonglong(24))));
    row("SET half = quantity / 2.0", Applied, with(d, QStringLiteral("half"), QVariant(6.0)));
    row("SET q = quantity", Applied, with(d, QStringLiteral("q"), QVariant(int(12))));
    row("SET copy = color", Applied, with(d, QStringLiteral("copy"), red));
    row("SET flagged = quantity > 10", Applied, with(d, QStringLiteral("flagged"), true));
    row("SET a = NULL", Applied, with(d, QStringLiteral("a"), QVariant::fromValue(nullptr)));
    row("SET a = missing", Applied, with(d, QStringLiteral("a"), QVariant::fromValue(nullptr)));
    row("SET [my prop] = 'x'", Applied, with(d, QStringLiteral("my prop"), QStringLiteral("x")));
    row("REMOVE color", Applied, without(d, QStringLiteral("color")));
    row("REMOVE user.COLOR", Applied, without(d, QStringLiteral("color")));
    row("REMOVE missing", Applied, d);
    row("SET a = 1; SET b = 2", Applied,
        with(with(d, QStringLiteral("a"), qlonglong(1)), QStringLiteral("b"), qlonglong(2)));
    row("SET a = 1 SET b = 2", Applied,
        with(with(d, QStringLiteral("a"), qlonglong(1)), QStringLiteral("b"), qlonglong(2)));
    row("SET a = 1; SET b = a + 1", Applied,
        with(with(d, QStringLiteral("a"), qlonglong(1)), QStringLiteral("b"), qlonglong(2)));
    row("SET a = 1;;; REMOVE color;", Applied,
        with(without(d, QStringLiteral("color")), QStringLiteral("a"), qlonglong(1)));
    row("set A = 'x'; remove B", Applied, {{QStringLiteral("A"), QStringLiteral("x")}}, "Store1",
        {{QStringLiteral("b"), QVariant(int(1))}});
    row("SET color = 'blue'; REMOVE color; SET color = 'green'", Applied,
        with(d, QStringLiteral("color"), QStringLiteral("green")));
    row("SET sys.Label = 'Store2'", Applied, d, QStringLiteral("Store2"));
    row("SET sys.Subject = color", Applied, d, red);
    row("SET sys.label = sys.Label", Applied, d);
    row("REMOVE sys.Label", Applied, d, QString());
    row("SET sys.Label = NULL", Applied, d, QString());
    row("SET sys.Label = property('color')", Applied, d, red);
    row("SET sys.Label = 1", EvaluationError);
    row("SET a = 1 / 0", EvaluationError);
    row("SET a = color + 1", EvaluationError);
    row("SET sys.SequenceNumber = 1", Refused);
    row("SET sys.EnqueuedTimeUtc = when", Refused);
    row("SET sys.Colour = 'x'", Refused);
    row("SET other.a = 1", Refused);
    row("", Refused);
    row(";", Refused);
    row("SET", Refused);
    row("SET a 1", Refused);
    row("SET a = ", Refused);
    row("DELETE a", Refused);
    row("SET a = 1 b", Refused);
    row("REMOVE a = 1", Refused);
}

void TestSqlAction::R4_actions() {
    QFETCH(QString, action);
    QFETCH(QVariantMap, before);
    QFETCH(int, outcome);
    QFETCH(QVariantMap, after);
    QFETCH(QString, subject);

    auto compiled = SqlAction::compile(action);
    if (outcome == Refused) {
        QVERIFY(!compiled.ok());
        QCOMPARE(compiled.error().code, ErrorCode::InvalidArgument);
        return;
    }
    QVERIFY2(compiled.ok(), qPrintable(compiled.ok() ? QString() : compiled.error().description));
    auto changed = compiled->applyTo(message(before), brokerFields());
    if (outcome == EvaluationError) {
        QVERIFY(!changed.ok());
        QVERIFY(changed.error().code != ErrorCode::InvalidArgument);
        QVERIFY(!changed.error().description.isEmpty());
        return;
    }
    QVERIFY2(changed.ok(), qPrintable(changed.ok() ? QString() : changed.error().description));
    QVERIFY2(sameProperties(changed->applicationProperties, after),
             qPrintable(QStringLiteral("got %1\nwanted %2")
                            .arg(describe(changed->applicationProperties), describe(after))));
    QCOMPARE(changed->subject, subject);
}

// "Changes are private to that copy": the message given stays as it was.
void TestSqlAction::R4_action_changes_only_the_copy() {
    auto action = SqlAction::compile(
        QStringLiteral("SET color = 'blue'; REMOVE quantity; SET sys.Label = 'Store9'"));
    QVERIFY(action.ok());
    const OutgoingMessage original = message(defaultProperties());
    auto first = action->applyTo(original);
    QVERIFY(first.ok());
    QCOMPARE(original.applicationProperties, defaultProperties());
    QCOMPARE(original.subject, QStringLiteral("Store1"));
    QCOMPARE(first->applicationProperties.value(QStringLiteral("color")).toString(),
             QStringLiteral("blue"));
    QVERIFY(!first->applicationProperties.contains(QStringLiteral("quantity")));
    QCOMPARE(first->subject, QStringLiteral("Store9"));
    QCOMPARE(first->body, original.body);
    QCOMPARE(first->messageId, original.messageId);

    // A second copy from the same original gets the same result, not the first copy's.
    auto second = action->applyTo(original);
    QVERIFY(second.ok());
    QCOMPARE(second->applicationProperties, first->applicationProperties);
}

void TestSqlAction::R4_action_sets_system_properties() {
    auto action = SqlAction::compile(QStringLiteral(
        "SET sys.MessageId = 'm-2'; SET sys.CorrelationId = 'c-2'; SET sys.To = 'to-2';\n"
        "SET sys.ReplyTo = 'r-2'; SET sys.SessionId = 's-2'; SET sys.ReplyToSessionId = 'rs-2';\n"
        "SET sys.ContentType = 'text/plain'; SET sys.TimeToLive = 30000;\n"
        "SET sys.ScheduledEnqueueTimeUtc = when"));
    QVERIFY2(action.ok(), qPrintable(action.ok() ? QString() : action.error().description));
    QCOMPARE(action->statementCount(), 9);
    auto changed = action->applyTo(message(defaultProperties()));
    QVERIFY2(changed.ok(), qPrintable(changed.ok() ? QString() : changed.error().description));
    QCOMPARE(changed->messageId, QStringLiteral("m-2"));
    QCOMPARE(changed->correlationId, QStringLiteral("c-2"));
    QCOMPARE(changed->to, QStringLiteral("to-2"));
    QCOMPARE(changed->replyTo, QStringLiteral("r-2"));
    QCOMPARE(changed->sessionId, QStringLiteral("s-2"));
    QCOMPARE(changed->replyToSessionId, QStringLiteral("rs-2"));
    QCOMPARE(changed->contentType, QStringLiteral("text/plain"));
    QCOMPARE(changed->timeToLive, std::optional<Millis>(30000));
    QCOMPARE(changed->scheduledEnqueueTime, std::optional<Instant>(when().toMSecsSinceEpoch()));

    auto clear =
        SqlAction::compile(QStringLiteral("REMOVE sys.TimeToLive; REMOVE sys.CorrelationId"));
    QVERIFY(clear.ok());
    auto cleared = clear->applyTo(*changed);
    QVERIFY(cleared.ok());
    QVERIFY(!cleared->timeToLive);
    QVERIFY(cleared->correlationId.isEmpty());

    auto badTtl = SqlAction::compile(QStringLiteral("SET sys.TimeToLive = 'soon'"));
    QVERIFY(badTtl.ok());
    QVERIFY(!badTtl->applyTo(message({})).ok());
}

void TestSqlAction::R4_action_newid() {
    auto action = SqlAction::compile(QStringLiteral("SET id = newid(); SET sys.MessageId = 'x'"));
    QVERIFY(action.ok());
    auto first = action->applyTo(message({}));
    auto second = action->applyTo(message({}));
    QVERIFY(first.ok() && second.ok());
    const QVariant a = first->applicationProperties.value(QStringLiteral("id"));
    QCOMPARE(a.metaType(), QMetaType::fromType<QUuid>());
    QVERIFY(!a.toUuid().isNull());
    QVERIFY(a != second->applicationProperties.value(QStringLiteral("id")));
}

void TestSqlAction::R4_action_error_leaves_no_half_change() {
    auto action = SqlAction::compile(QStringLiteral("SET a = 1; SET b = 1 / 0"));
    QVERIFY(action.ok());
    const OutgoingMessage original = message({});
    auto changed = action->applyTo(original);
    QVERIFY(!changed.ok());
    QVERIFY2(changed.error().description.contains(QStringLiteral("Division by zero")),
             qPrintable(changed.error().description));
    QVERIFY(original.applicationProperties.isEmpty());
}

void TestSqlAction::R5_action_limits() {
    QStringList statements;
    for (int i = 0; i < kSqlMaxStatements; ++i)
        statements << QStringLiteral("SET p%1 = %1").arg(i);
    auto atLimit = SqlAction::compile(statements.join(QStringLiteral("; ")));
    QVERIFY2(atLimit.ok(), qPrintable(atLimit.ok() ? QString() : atLimit.error().description));
    QCOMPARE(atLimit->statementCount(), 32);
    auto applied = atLimit->applyTo(message({}));
    QVERIFY(applied.ok());
    QCOMPARE(applied->applicationProperties.size(), 32);

    statements << QStringLiteral("REMOVE p0");
    auto past = SqlAction::compile(statements.join(QStringLiteral("; ")));
    QVERIFY(!past.ok());
    QCOMPARE(past.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(past.error().description.contains(QStringLiteral("32")),
             qPrintable(past.error().description));

    QString text = QStringLiteral("SET a = '");
    text += QString(kSqlMaxTextLength - text.size() - 1, u'x') + u'\'';
    QCOMPARE(text.size(), 1024);
    QVERIFY(SqlAction::compile(text).ok());
    text.insert(9, u'x');
    auto tooLong = SqlAction::compile(text);
    QVERIFY(!tooLong.ok());
    QCOMPARE(tooLong.error().code, ErrorCode::InvalidArgument);
}

void TestSqlAction::R5_action_parse_error_shape() {
    auto action = SqlAction::compile(QStringLiteral("SET a = 1;\nSET sys.SequenceNumber = 2"));
    QVERIFY(!action.ok());
    QCOMPARE(action.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(action.error().description.startsWith(
                 QStringLiteral("There was an error parsing the SQL expression. [Token line=2, "
                                "column=5, Token in error= sys, Additional details= ")),
             qPrintable(action.error().description));

    auto bad = SqlAction::compile(QStringLiteral("SET a = 1 DELETE b"));
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().description.contains(
                 QStringLiteral("[Token line=1, column=11, Token in error= DELETE,")),
             qPrintable(bad.error().description));
}

QTEST_GUILESS_MAIN(TestSqlAction)
#include "tst_engine_sql_action.moc"
