// The error table of resources/docs/amqp-endpoint.md is the endpoint's own mapping: each engine
// code's row names the AMQP condition and the status code that WireErrors gives it, every code
// the endpoint maps has its row, and the conditions the endpoint raises itself are listed.

#include "hourglass/amqpcodec/WireErrors.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace hourglass;

namespace {

QString documentText() {
    QFile file(QStringLiteral(HOURGLASS_AMQP_DOC));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", HOURGLASS_AMQP_DOC);
    return QString::fromUtf8(file.readAll());
}

// "| `MessageLockLost` | `com.microsoft:message-lock-lost` | 410 |" -> {condition, status}.
QMap<QString, QPair<QString, int>> documentedRows(const QString& text) {
    static const QRegularExpression row(
        QStringLiteral("^\\| `([A-Za-z]+)` \\| `([a-z:.-]+)` \\| ([0-9]+) \\|$"),
        QRegularExpression::MultilineOption);
    QMap<QString, QPair<QString, int>> rows;
    for (auto it = row.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        rows.insert(match.captured(1), {match.captured(2), match.captured(3).toInt()});
    }
    return rows;
}

} // namespace

class DocsAmqpErrorsTest : public QObject {
    Q_OBJECT
private slots:
    void everyMappedCodeHasItsRow() {
        const QString text = documentText();
        const auto rows = documentedRows(text);
        QVERIFY2(rows.size() >= 10, "the error table is gone");
        const QByteArray fallback = QByteArrayLiteral("amqp:internal-error");
        for (int i = 0; i <= static_cast<int>(ErrorCode::DatabaseInUse); ++i) {
            const auto code = static_cast<ErrorCode>(i);
            const QString name = errorCodeName(code);
            const QByteArray condition = amqp::wireCondition(code);
            const int status = amqp::wireStatusCode(code);
            if (condition == fallback) {
                // "anything else": no row of its own.
                QVERIFY2(!rows.contains(name), qPrintable(name));
                QCOMPARE(status, 500);
                continue;
            }
            QVERIFY2(rows.contains(name), qPrintable(QStringLiteral("no row for ") + name));
            QCOMPARE(rows.value(name).first, QString::fromLatin1(condition));
            QCOMPARE(rows.value(name).second, status);
        }
        QVERIFY(text.contains(QStringLiteral("| anything else | `amqp:internal-error` | 500 |")));
        // No row for a code the engine does not have.
        for (const QString& name : rows.keys())
            QVERIFY2(errorCodeFromName(name).has_value(), qPrintable(name));
    }

    void endpointConditionsAreListed() {
        const QString text = documentText();
        for (const QByteArray& condition :
             {amqp::kUnauthorizedAccess, amqp::kNotAllowed, amqp::kDecodeError,
              amqp::kNotImplemented, amqp::kDeadLetterCondition})
            QVERIFY2(text.contains(u'`' + QString::fromLatin1(condition) + u'`'),
                     condition.constData());
    }
};

QTEST_GUILESS_MAIN(DocsAmqpErrorsTest)
#include "tst_docs_amqp_errors.moc"
