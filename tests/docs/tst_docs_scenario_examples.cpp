// Every ```json example of resources/docs/scenario-format.md goes through the scenario parser, so
// that the document cannot drift from the code: a whole scenario is parsed and played (every
// expectation must hold), a single step is parsed inside a scenario of its own, and the report
// example is the report the document's first scenario really writes. Every step type the parser
// knows has its row in the document's table of steps, and every error code a step can meet its
// row in the table of codes.

#include "hourglass/scenario/ScenarioRunner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <utility>
#include <variant>

using namespace hourglass;

namespace {

QString documentText() {
    QFile file(QStringLiteral(HOURGLASS_SCENARIO_FORMAT_DOC));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", HOURGLASS_SCENARIO_FORMAT_DOC);
    return QString::fromUtf8(file.readAll());
}

// The bodies of the ```json blocks, in document order.
QStringList jsonExamples(const QString& text) {
    static const QRegularExpression block(QStringLiteral("```json\\n(.*?)```"),
                                          QRegularExpression::DotMatchesEverythingOption);
    QStringList examples;
    for (auto it = block.globalMatch(text); it.hasNext();)
        examples << it.next().captured(1);
    return examples;
}

QJsonObject objectOf(const QString& example) {
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(example.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !json.isObject())
        return {};
    return json.object();
}

// Plays a whole scenario; the report, or an error that says why it could not run.
Result<ScenarioReport> play(const QString& example) {
    auto scenario = parseScenario(example.toUtf8());
    if (!scenario)
        return scenario.error();
    auto runner = ScenarioRunner::create(std::move(scenario).value());
    if (!runner)
        return runner.error();
    return (*runner)->run();
}

template <std::size_t... I> QStringList allStepNames(std::index_sequence<I...>) {
    return {stepName(StepAction(std::in_place_index<I>))...};
}

} // namespace

class DocsScenarioExamplesTest : public QObject {
    Q_OBJECT
private slots:
    void examples_data();
    void examples();
    void reportExampleIsWhatTheFirstScenarioWrites();
    void everyStepTypeHasItsRow();
    void everyErrorCodeHasItsRow();
};

void DocsScenarioExamplesTest::examples_data() {
    QTest::addColumn<QString>("example");
    const QStringList examples = jsonExamples(documentText());
    QVERIFY2(examples.size() >= 10, "the document lost its examples");
    for (qsizetype i = 0; i < examples.size(); ++i)
        QTest::addRow("example %d", int(i + 1)) << examples.at(i);
}

void DocsScenarioExamplesTest::examples() {
    QFETCH(QString, example);
    const QJsonObject json = objectOf(example);
    QVERIFY2(!json.isEmpty(), qPrintable(QStringLiteral("not a JSON object:\n") + example));
    if (json.contains(QStringLiteral("Scenario"))) {
        const auto report = play(example);
        QVERIFY2(report.ok(), qPrintable(report ? QString() : report.error().toString()));
        QVERIFY2(report->allPassed(), qPrintable(report->failureLines().join(u'\n')));
        return;
    }
    if (json.contains(QStringLiteral("At"))) {
        // A single step, as it appears in Steps.
        const QByteArray wrapped =
            QStringLiteral("{ \"Scenario\": { \"Steps\": [ %1 ] } }").arg(example).toUtf8();
        const auto scenario = parseScenario(wrapped);
        QVERIFY2(scenario.ok(), qPrintable(scenario ? QString() : scenario.error().toString()));
        QCOMPARE(scenario->steps.size(), 1);
        return;
    }
    if (json.contains(QStringLiteral("Expectations")))
        return; // the report: reportExampleIsWhatTheFirstScenarioWrites
    QFAIL(qPrintable(
        QStringLiteral("an example that is neither a scenario, a step nor a report:\n") + example));
}

void DocsScenarioExamplesTest::reportExampleIsWhatTheFirstScenarioWrites() {
    const QStringList examples = jsonExamples(documentText());
    QString firstScenario;
    QJsonObject reportExample;
    for (const QString& example : examples) {
        const QJsonObject json = objectOf(example);
        if (firstScenario.isEmpty() && json.contains(QStringLiteral("Scenario")))
            firstScenario = example;
        if (json.contains(QStringLiteral("Expectations")))
            reportExample = json;
    }
    QVERIFY2(!firstScenario.isEmpty(), "no scenario example");
    QVERIFY2(!reportExample.isEmpty(), "no report example");
    const auto report = play(firstScenario);
    QVERIFY2(report.ok(), qPrintable(report ? QString() : report.error().toString()));
    const QJsonObject written = report->toJson();
    QVERIFY2(written == reportExample,
             qPrintable(QStringLiteral("the run writes:\n") +
                        QString::fromUtf8(QJsonDocument(written).toJson())));
}

void DocsScenarioExamplesTest::everyStepTypeHasItsRow() {
    const QString text = documentText();
    const QStringList names =
        allStepNames(std::make_index_sequence<std::variant_size_v<StepAction>>());
    QCOMPARE(names.size(), int(std::variant_size_v<StepAction>));
    for (const QString& name : names)
        QVERIFY2(text.contains(QStringLiteral("\n| `%1` |").arg(name)),
                 qPrintable(QStringLiteral("the table of steps has no row for %1").arg(name)));
}

void DocsScenarioExamplesTest::everyErrorCodeHasItsRow() {
    const QString text = documentText();
    for (int i = 0; i <= static_cast<int>(ErrorCode::DatabaseInUse); ++i) {
        const auto code = static_cast<ErrorCode>(i);
        if (code == ErrorCode::DatabaseInUse)
            continue; // refuses opening a database, never a step
        const QString name = errorCodeName(code);
        QVERIFY2(
            text.contains(QStringLiteral("\n| `%1` |").arg(name)),
            qPrintable(QStringLiteral("the table of error codes has no row for %1").arg(name)));
    }
}

QTEST_GUILESS_MAIN(DocsScenarioExamplesTest)
#include "tst_docs_scenario_examples.moc"
