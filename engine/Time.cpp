#include "hourglass/Time.h"

#include <QDateTime>

namespace hourglass {

namespace {
// TimeSpan.MaxValue is 922337203685477.5807 ms; anything that reaches it means infinite.
constexpr qint64 kTimeSpanMaxMillis = 922337203685477LL;

bool fail(QString* why, const QString& text) {
    if (why)
        *why = text;
    return false;
}

// Reads one "<number><unit>" component; the number may carry a fraction (seconds only, by ISO).
bool readComponent(const QString& text, int& pos, long double& number, QChar& unit, QString* why) {
    const int start = pos;
    while (pos < text.size() && (text[pos].isDigit() || text[pos] == u'.' || text[pos] == u','))
        ++pos;
    if (pos == start || pos >= text.size())
        return fail(why, QStringLiteral("expected a number followed by a unit"));
    QString digits = text.mid(start, pos - start);
    digits.replace(u',', u'.');
    bool ok = false;
    number = static_cast<long double>(digits.toDouble(&ok));
    if (!ok)
        return fail(why, QStringLiteral("'%1' is not a number").arg(digits));
    // Keep full precision for long integer parts (double loses digits past 2^53).
    if (!digits.contains(u'.')) {
        const qulonglong whole = digits.toULongLong(&ok);
        if (ok)
            number = static_cast<long double>(whole);
    }
    unit = text[pos].toUpper();
    ++pos;
    return true;
}
} // namespace

std::optional<Millis> parseIsoDuration(const QString& rawText, QString* why) {
    const QString text = rawText.trimmed();
    if (text.isEmpty()) {
        fail(why, QStringLiteral("an empty duration"));
        return std::nullopt;
    }
    if (text.startsWith(u'-')) {
        fail(why, QStringLiteral("a negative duration"));
        return std::nullopt;
    }
    if (text[0].toUpper() != u'P' || text.size() < 2) {
        fail(why, QStringLiteral("'%1' is not an ISO-8601 duration such as PT10M").arg(text));
        return std::nullopt;
    }
    long double total = 0; // milliseconds
    bool inTime = false;
    bool any = false;
    int pos = 1;
    QString lastUnits;
    while (pos < text.size()) {
        if (text[pos].toUpper() == u'T') {
            if (inTime) {
                fail(why, QStringLiteral("'%1' has two T separators").arg(text));
                return std::nullopt;
            }
            inTime = true;
            ++pos;
            if (pos >= text.size()) {
                fail(why, QStringLiteral("'%1' ends after T").arg(text));
                return std::nullopt;
            }
            continue;
        }
        long double number = 0;
        QChar unit;
        QString reason;
        if (!readComponent(text, pos, number, unit, &reason)) {
            fail(why, QStringLiteral("'%1': %2").arg(text, reason));
            return std::nullopt;
        }
        long double factor = 0;
        if (!inTime) {
            if (unit == u'Y')
                factor = 365.0L * 86400000.0L;
            else if (unit == u'M')
                factor = 30.0L * 86400000.0L;
            else if (unit == u'W')
                factor = 7.0L * 86400000.0L;
            else if (unit == u'D')
                factor = 86400000.0L;
        } else {
            if (unit == u'H')
                factor = 3600000.0L;
            else if (unit == u'M')
                factor = 60000.0L;
            else if (unit == u'S')
                factor = 1000.0L;
        }
        if (factor == 0) {
            fail(why, QStringLiteral("'%1': unexpected unit '%2'").arg(text, QString(unit)));
            return std::nullopt;
        }
        const QString key = QString(inTime ? u'T' : u'P') + unit;
        if (lastUnits.contains(key)) {
            fail(why, QStringLiteral("'%1' repeats a unit").arg(text));
            return std::nullopt;
        }
        lastUnits += key;
        total += number * factor;
        any = true;
    }
    if (!any) {
        fail(why, QStringLiteral("'%1' has no components").arg(text));
        return std::nullopt;
    }
    if (total >= static_cast<long double>(kTimeSpanMaxMillis))
        return kInfinite;
    return static_cast<Millis>(total + 0.5L);
}

QString formatIsoDuration(Millis duration) {
    if (duration == kInfinite || duration >= kTimeSpanMaxMillis)
        return QString::fromLatin1(kInfiniteIso);
    if (duration <= 0)
        return QStringLiteral("PT0S");
    qint64 rest = duration;
    const qint64 d = rest / 86400000;
    rest %= 86400000;
    const qint64 h = rest / 3600000;
    rest %= 3600000;
    const qint64 m = rest / 60000;
    rest %= 60000;
    const qint64 s = rest / 1000;
    const qint64 ms = rest % 1000;
    QString out = QStringLiteral("P");
    if (d)
        out += QString::number(d) + u'D';
    if (h || m || s || ms) {
        out += u'T';
        if (h)
            out += QString::number(h) + u'H';
        if (m)
            out += QString::number(m) + u'M';
        if (s || ms) {
            out += QString::number(s);
            if (ms) {
                QString frac = QStringLiteral("%1").arg(ms, 3, 10, QLatin1Char('0'));
                while (frac.endsWith(u'0'))
                    frac.chop(1);
                out += u'.' + frac;
            }
            out += u'S';
        }
    }
    return out;
}

QString formatInstant(Instant instant) {
    if (instant == kNever)
        return QStringLiteral("Never");
    return QDateTime::fromMSecsSinceEpoch(instant, Qt::UTC).toString(Qt::ISODateWithMs);
}

std::optional<Instant> parseInstant(const QString& text) {
    if (text.compare(QLatin1String("Never"), Qt::CaseInsensitive) == 0)
        return kNever;
    QDateTime parsed = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!parsed.isValid())
        parsed = QDateTime::fromString(text, Qt::ISODate);
    if (!parsed.isValid())
        return std::nullopt;
    if (parsed.timeSpec() == Qt::LocalTime && !text.endsWith(u'Z'))
        parsed.setTimeSpec(Qt::UTC);
    return parsed.toMSecsSinceEpoch();
}

} // namespace hourglass
