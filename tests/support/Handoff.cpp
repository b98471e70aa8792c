#include "Handoff.h"

namespace hourglass::testing {

namespace {
// A separator that percent-encoding of the whole value keeps intact on the way.
constexpr QChar kLineBreak = QLatin1Char('\n');
} // namespace

void Handoff::put(const QString& key, const QString& value) {
    if (key.isEmpty() || key.contains(QLatin1Char(' ')) || key.contains(kLineBreak) ||
        key.startsWith(QLatin1Char('@')))
        qFatal("Handoff key '%s' is not a single word", qPrintable(key)); // a test's own mistake
    m_values.insert(key, value);
}

void Handoff::put(const QString& key, qint64 value) {
    put(key, QString::number(value));
}

void Handoff::put(const QString& key, const QUuid& value) {
    put(key, value.toString(QUuid::WithoutBraces));
}

void Handoff::put(const QString& key, const QStringList& lines) {
    put(key, lines.join(kLineBreak));
}

QStringList Handoff::lines(const QString& key) const {
    const QString joined = m_values.value(key);
    return joined.isEmpty() ? QStringList() : joined.split(kLineBreak);
}

QByteArray Handoff::encode() const {
    QByteArray text;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        text.append(it.key().toUtf8())
            .append(' ')
            .append(it.value().toUtf8().toPercentEncoding())
            .append('\n');
    return text;
}

std::optional<Handoff> Handoff::decode(const QByteArray& text) {
    Handoff handoff;
    for (const QByteArray& line : text.split('\n')) {
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        if (space <= 0)
            return std::nullopt;
        handoff.m_values.insert(
            QString::fromUtf8(line.left(space)),
            QString::fromUtf8(QByteArray::fromPercentEncoding(line.mid(space + 1))));
    }
    return handoff;
}

} // namespace hourglass::testing
