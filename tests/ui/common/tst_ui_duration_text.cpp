// The one parser behind every duration field: what people type ("2m", "1h30m", "00:02:00",
// "1.00:00:00", "PT2M") read as the duration they mean, and nonsense refused with a reason.

#include "common/DurationText.h"

#include <QTest>

using namespace hourglass;
using hourglass::ui::parseHumanDuration;

Q_DECLARE_METATYPE(std::optional<hourglass::Millis>)

class TestUiDurationText : public QObject {
    Q_OBJECT
private slots:
    void parseHumanDuration_readsWhatPeopleType_data();
    void parseHumanDuration_readsWhatPeopleType();
    void parseHumanDuration_refusesNonsense_data();
    void parseHumanDuration_refusesNonsense();
};

void TestUiDurationText::parseHumanDuration_readsWhatPeopleType_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Millis>("expected");
    // Units, alone and combined, in any case, with spaces between parts.
    QTest::newRow("seconds") << "90s" << seconds(90);
    QTest::newRow("minutes") << "2m" << minutes(2);
    QTest::newRow("hours") << "1h" << hours(1);
    QTest::newRow("days") << "1d" << days(1);
    QTest::newRow("hours and minutes") << "1h30m" << minutes(90);
    QTest::newRow("days and hours") << "1d2h" << days(1) + hours(2);
    QTest::newRow("every unit") << "1d2h3m4s" << days(1) + hours(2) + minutes(3) + seconds(4);
    QTest::newRow("spaces between parts") << "1h 30m" << minutes(90);
    QTest::newRow("space before the unit") << "5 m" << minutes(5);
    QTest::newRow("upper case") << "2M" << minutes(2);
    QTest::newRow("surrounding blanks") << "  45s " << seconds(45);
    QTest::newRow("fraction of an hour") << "1.5h" << minutes(90);
    QTest::newRow("milliseconds") << "250ms" << Millis(250);
    QTest::newRow("seconds and milliseconds") << "1s500ms" << Millis(1500);
    QTest::newRow("zero") << "0s" << Millis(0);
    // The .NET TimeSpan clock form of config files.
    QTest::newRow("hh:mm:ss") << "00:02:00" << minutes(2);
    QTest::newRow("hh:mm") << "01:30" << minutes(90);
    QTest::newRow("d.hh:mm:ss") << "1.00:00:00" << days(1);
    QTest::newRow("d.hh:mm:ss, all parts")
        << "2.03:04:05" << days(2) + hours(3) + minutes(4) + seconds(5);
    QTest::newRow("fractional seconds") << "00:00:30.5" << Millis(30500);
    QTest::newRow("seven fraction digits") << "00:00:01.2500000" << Millis(1250);
    // ISO-8601, as before.
    QTest::newRow("ISO minutes") << "PT2M" << minutes(2);
    QTest::newRow("ISO days") << "P1D" << days(1);
    QTest::newRow("ISO days and hours") << "P1DT2H" << days(1) + hours(2);
    QTest::newRow("ISO lower case") << "pt30s" << seconds(30);
    // Infinite, in words and as .NET's TimeSpan.MaxValue.
    QTest::newRow("infinite") << "infinite" << kInfinite;
    QTest::newRow("never") << "Never" << kInfinite;
    QTest::newRow("TimeSpan.MaxValue") << "P10675199DT2H48M5.4775807S" << kInfinite;
}

void TestUiDurationText::parseHumanDuration_readsWhatPeopleType() {
    QFETCH(QString, text);
    QFETCH(Millis, expected);
    QString why;
    const std::optional<Millis> parsed = parseHumanDuration(text, &why);
    QVERIFY2(parsed.has_value(), qPrintable(text + QStringLiteral(": ") + why));
    QCOMPARE(*parsed, expected);
}

void TestUiDurationText::parseHumanDuration_refusesNonsense_data() {
    QTest::addColumn<QString>("text");
    // A word the reason must contain, so the user learns what was wrong.
    QTest::addColumn<QString>("reasonMentions");
    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("blank") << "   "
                           << "empty";
    QTest::newRow("a bare number") << "5"
                                   << "unit";
    QTest::newRow("a word") << "soon"
                            << "2m";
    QTest::newRow("an unknown unit") << "5w"
                                     << "'w'";
    QTest::newRow("a unit spelled out") << "10 minutes"
                                        << "'minutes'";
    QTest::newRow("a unit twice") << "1m2m"
                                  << "twice";
    QTest::newRow("a unit without a number") << "1h m"
                                             << "number";
    QTest::newRow("a number without a unit at the end") << "1h30"
                                                        << "unit";
    QTest::newRow("negative units") << "-5m"
                                    << "negative";
    QTest::newRow("negative clock form") << "-00:01:00"
                                         << "negative";
    QTest::newRow("two dots in a number") << "1.2.3s"
                                          << "number";
    QTest::newRow("minutes past 59") << "00:60:00"
                                     << "minutes";
    QTest::newRow("seconds past 59") << "00:00:75"
                                     << "seconds";
    QTest::newRow("hours past 23") << "24:00:00"
                                   << "hours";
    QTest::newRow("too many colons") << "1:2:3:4"
                                     << "hh:mm";
    QTest::newRow("empty clock part") << "00::00"
                                      << "hh:mm";
    QTest::newRow("letters in the clock form") << "00:0a:00"
                                               << "hh:mm";
    QTest::newRow("ISO without a unit") << "PT"
                                        << "PT";
    QTest::newRow("ISO nonsense") << "P1X"
                                  << "P1X";
    QTest::newRow("longer than TimeSpan.MaxValue") << "99999999999d"
                                                   << "infinite";
}

void TestUiDurationText::parseHumanDuration_refusesNonsense() {
    QFETCH(QString, text);
    QFETCH(QString, reasonMentions);
    QString why;
    const std::optional<Millis> parsed = parseHumanDuration(text, &why);
    QVERIFY2(!parsed.has_value(), qPrintable(text));
    QVERIFY2(why.contains(reasonMentions, Qt::CaseInsensitive),
             qPrintable(text + QStringLiteral(" -> ") + why));
}

QTEST_GUILESS_MAIN(TestUiDurationText)
#include "tst_ui_duration_text.moc"
