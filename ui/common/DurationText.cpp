#include "common/DurationText.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace hourglass::ui {

QString shortDuration(Millis remaining) {
    if (remaining == kInfinite)
        return QStringLiteral("never");
    if (remaining <= 0)
        return QStringLiteral("0s");
    const qint64 totalSeconds = (remaining + 999) / 1000;
    const qint64 days = totalSeconds / 86400;
    const qint64 hours = totalSeconds % 86400 / 3600;
    const qint64 minutes = totalSeconds % 3600 / 60;
    const qint64 secs = totalSeconds % 60;
    if (days > 0)
        return QStringLiteral("%1d %2h").arg(days).arg(hours);
    if (hours > 0)
        return QStringLiteral("%1h %2m").arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (minutes > 0)
        return QStringLiteral("%1m %2s").arg(minutes).arg(secs, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(secs);
}

namespace {
// TimeSpan.MaxValue in milliseconds: a typed duration at or past it is "infinite", said in words.
constexpr long double kLongestMillis = 922337203685477.0L;

bool refuse(QString* why, const QString& text) {
    if (why)
        *why = text;
    return false;
}

// "[d.]hh:mm[:ss[.fraction]]", the .NET TimeSpan form ("c" format) of config files.
bool parseClockForm(const QString& text, long double& millis, QString* why) {
    const QString expected =
        QObject::tr("'%1' is not a clock duration such as 00:02:00 ([d.]hh:mm[:ss[.f]])").arg(text);
    QStringList parts = text.split(u':');
    if (parts.size() < 2 || parts.size() > 3)
        return refuse(why, expected);
    qint64 daysPart = 0;
    // The days ride on the hours, "1.02:00:00".
    if (const int dot = parts[0].indexOf(u'.'); dot >= 0) {
        bool ok = false;
        daysPart = parts[0].left(dot).toLongLong(&ok);
        if (!ok || parts[0].left(dot).isEmpty())
            return refuse(why, expected);
        parts[0] = parts[0].mid(dot + 1);
    }
    double secondsPart = 0;
    if (parts.size() == 3) {
        const QString& s = parts[2];
        const bool digitsOnly =
            !s.isEmpty() && s[0].isDigit() &&
            std::all_of(s.begin(), s.end(), [](QChar c) { return c.isDigit() || c == u'.'; }) &&
            s.count(u'.') <= 1;
        if (!digitsOnly)
            return refuse(why, expected);
        secondsPart = s.toDouble();
    }
    const auto number = [](const QString& s, qint64& out) {
        bool ok = false;
        out = s.toLongLong(&ok);
        return ok && !s.isEmpty() &&
               std::all_of(s.begin(), s.end(), [](QChar c) { return c.isDigit(); });
    };
    qint64 hoursPart = 0;
    qint64 minutesPart = 0;
    if (!number(parts[0], hoursPart) || !number(parts[1], minutesPart))
        return refuse(why, expected);
    // As TimeSpan.Parse checks them: a clock reads 23:59:59 at most.
    if (hoursPart > 23)
        return refuse(why,
                      QObject::tr("'%1': hours go up to 23 (use 1.00:00:00 for a day)").arg(text));
    if (minutesPart > 59)
        return refuse(why, QObject::tr("'%1': minutes go up to 59").arg(text));
    if (secondsPart >= 60)
        return refuse(why, QObject::tr("'%1': seconds go up to 59").arg(text));
    // Wide enough that a huge day count cannot overflow before the caller's "too long" check.
    using Wide = long double;
    millis = Wide(days(1)) * Wide(daysPart) + Wide(hours(hoursPart)) + Wide(minutes(minutesPart)) +
             Wide(secondsPart) * 1000.0L;
    return true;
}

// "1h30m", "90s", "1d 2h", "250ms": numbers, each with one unit, each unit once.
bool parseUnitForm(const QString& text, long double& millis, QString* why) {
    struct Unit {
        const char* name;
        Millis size;
    };
    static const Unit kUnits[] = {
        {"ms", 1}, {"d", days(1)}, {"h", hours(1)}, {"m", minutes(1)}, {"s", seconds(1)}};
    QString usedUnits;
    millis = 0;
    int pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && text[pos].isSpace())
            ++pos;
        const int start = pos;
        while (pos < text.size() && (text[pos].isDigit() || text[pos] == u'.'))
            ++pos;
        const QString digits = text.mid(start, pos - start);
        bool ok = false;
        const double number = digits.toDouble(&ok);
        if (digits.isEmpty() || !ok)
            return refuse(
                why, QObject::tr("'%1': expected a number before '%2'").arg(text, text.mid(start)));
        while (pos < text.size() && text[pos].isSpace())
            ++pos;
        const int unitStart = pos;
        while (pos < text.size() && text[pos].isLetter())
            ++pos;
        const QString unit = text.mid(unitStart, pos - unitStart).toLower();
        if (unit.isEmpty())
            return refuse(why, QObject::tr("'%1': %2 needs a unit (d, h, m, s or ms), as in %2m")
                                   .arg(text, digits));
        const Unit* found = nullptr;
        for (const Unit& candidate : kUnits)
            if (unit == QLatin1String(candidate.name))
                found = &candidate;
        if (!found)
            return refuse(
                why, QObject::tr("'%1': '%2' is not a unit; use d, h, m, s or ms").arg(text, unit));
        const QString tag = QLatin1Char('|') + unit + QLatin1Char('|');
        if (usedUnits.contains(tag))
            return refuse(why, QObject::tr("'%1' gives '%2' twice").arg(text, unit));
        usedUnits += tag;
        millis += static_cast<long double>(number) * static_cast<long double>(found->size);
        while (pos < text.size() && text[pos].isSpace())
            ++pos;
    }
    return true;
}
} // namespace

std::optional<Millis> parseHumanDuration(const QString& rawText, QString* why) {
    const QString text = rawText.trimmed();
    if (text.isEmpty()) {
        refuse(why, QObject::tr("empty: type a duration such as 2m, 1h30m or PT2M"));
        return std::nullopt;
    }
    if (text.compare(QLatin1String("infinite"), Qt::CaseInsensitive) == 0 ||
        text.compare(QLatin1String("never"), Qt::CaseInsensitive) == 0)
        return kInfinite;
    if (text.startsWith(u'-')) {
        refuse(why, QObject::tr("'%1' is negative; a duration is zero or more").arg(text));
        return std::nullopt;
    }
    if (text[0] == u'P' || text[0] == u'p')
        return parseIsoDuration(text, why); // the engine's reading, and its wording
    long double millis = 0;
    if (text.contains(u':')) {
        if (!parseClockForm(text, millis, why))
            return std::nullopt;
    } else if (std::all_of(text.begin(), text.end(),
                           [](QChar c) { return c.isDigit() || c == u'.'; })) {
        refuse(why, QObject::tr("'%1' needs a unit: %1s, %1m, %1h or %1d").arg(text));
        return std::nullopt;
    } else if (!text[0].isDigit() && text[0] != u'.') {
        refuse(why,
               QObject::tr("'%1' is not a duration; type one such as 2m, 90s, 1h30m, 00:02:00 or "
                           "PT2M")
                   .arg(text));
        return std::nullopt;
    } else if (!parseUnitForm(text, millis, why)) {
        return std::nullopt;
    }
    if (millis >= kLongestMillis) {
        refuse(
            why,
            QObject::tr("'%1' is longer than any duration; type infinite for no limit").arg(text));
        return std::nullopt;
    }
    return Millis(millis + 0.5L); // to the nearest millisecond
}

namespace {
double fractionOf(Millis remaining, Millis span) {
    if (span <= 0 || span == kInfinite)
        return 1.0;
    // A scheduled message's TTL starts when it becomes active, so more than the span may remain.
    return std::clamp(double(remaining) / double(span), 0.0, 1.0);
}
} // namespace

Countdown ttlCountdown(Instant expiresAt, Millis effectiveTimeToLive, bool expired, bool locked,
                       Instant now) {
    Countdown c;
    c.locked = locked;
    if (expiresAt == kNever) {
        c.kind = Countdown::Kind::Never;
        c.remaining = kInfinite;
        c.text = QStringLiteral("never");
        return c;
    }
    c.remaining = expiresAt - now;
    if (expired || c.remaining <= 0) {
        c.remaining = 0;
        c.kind = locked ? Countdown::Kind::HeldByLock : Countdown::Kind::Expired;
        c.text = locked ? QStringLiteral("expired, held by lock") : QStringLiteral("expired");
        return c;
    }
    c.kind = Countdown::Kind::Running;
    c.fraction = fractionOf(c.remaining, effectiveTimeToLive);
    c.text = shortDuration(c.remaining);
    return c;
}

Countdown lockCountdown(bool locked, Instant lockedUntil, Millis lockDuration, Instant now) {
    Countdown c;
    if (!locked)
        return c;
    c.locked = true;
    c.kind = Countdown::Kind::Running;
    c.remaining = std::max<Millis>(0, lockedUntil - now);
    c.fraction = fractionOf(c.remaining, lockDuration);
    c.text = shortDuration(c.remaining);
    return c;
}

} // namespace hourglass::ui
