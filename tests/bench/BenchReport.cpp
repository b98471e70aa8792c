#include "BenchReport.h"

#include <algorithm>
#include <cstdio>

namespace hourglass::bench {

namespace {

QString formatNumber(double value) {
    if (value >= 1000)
        return QString::number(value, 'f', 0);
    if (value >= 10)
        return QString::number(value, 'f', 1);
    return QString::number(value, 'f', 3);
}

QString pad(const QString& text, int width) {
    return text.leftJustified(width, QLatin1Char(' '));
}

} // namespace

std::optional<double> Figure::ratio() const {
    if (!baseline || *baseline == 0)
        return std::nullopt;
    // A ratio above 1 always means "the engine does better than the baseline".
    return better == Better::Higher ? value / *baseline : *baseline / value;
}

QString Figure::verdict() const {
    if (!target)
        return QStringLiteral("-");
    if (targetIsRatio) {
        const auto r = ratio();
        return r && *r >= *target ? QStringLiteral("PASS") : QStringLiteral("MISS");
    }
    const bool met = better == Better::Higher ? value >= *target : value <= *target;
    return met ? QStringLiteral("PASS") : QStringLiteral("MISS");
}

void BenchReport::add(const Figure& figure) {
    m_figures.append(figure);
    // Each figure is also printed as it is measured, so a long run shows progress.
    std::printf("  measured %s %s: %s %s\n", qPrintable(figure.id), qPrintable(figure.name),
                qPrintable(formatNumber(figure.value)), qPrintable(figure.unit));
    std::fflush(stdout);
}

void BenchReport::note(const QString& line) {
    m_notes.append(line);
}

int BenchReport::print() const {
    const QString header = pad(QStringLiteral("#"), 4) + pad(QStringLiteral("figure"), 60) +
                           pad(QStringLiteral("value"), 12) + pad(QStringLiteral("unit"), 10) +
                           pad(QStringLiteral("baseline"), 12) + pad(QStringLiteral("ratio"), 8) +
                           pad(QStringLiteral("target"), 14) + QStringLiteral("result");
    std::printf("\n%s\n%s\n", qPrintable(header), qPrintable(QString(header.size(), '-')));
    int missed = 0;
    for (const Figure& f : m_figures) {
        const auto r = f.ratio();
        QString target = QStringLiteral("-");
        if (f.target) {
            const QString relation =
                f.better == Figure::Better::Higher ? QStringLiteral(">=") : QStringLiteral("<=");
            target = f.targetIsRatio
                         ? QStringLiteral("ratio>=%1%").arg(*f.target * 100, 0, 'f', 0)
                         : QStringLiteral("%1 %2").arg(relation, formatNumber(*f.target));
        }
        const QString verdict = f.verdict();
        if (verdict == QLatin1String("MISS"))
            ++missed;
        std::printf(
            "%s%s%s%s%s%s%s%s\n", qPrintable(pad(f.id, 4)), qPrintable(pad(f.name, 60)),
            qPrintable(pad(formatNumber(f.value), 12)), qPrintable(pad(f.unit, 10)),
            qPrintable(pad(f.baseline ? formatNumber(*f.baseline) : QStringLiteral("-"), 12)),
            qPrintable(
                pad(r ? QStringLiteral("%1%").arg(*r * 100, 0, 'f', 0) : QStringLiteral("-"), 8)),
            qPrintable(pad(target, 14)), qPrintable(verdict));
    }
    std::printf("\nBaselines (raw SQLite, same run, same pragmas and durability as the engine):\n");
    for (const Figure& f : m_figures) {
        if (f.baseline)
            std::printf("  %s: %s\n", qPrintable(f.id), qPrintable(f.baselineName));
    }
    if (!m_notes.isEmpty()) {
        std::printf("\nNotes:\n");
        for (const QString& line : m_notes)
            std::printf("  %s\n", qPrintable(line));
    }
    std::printf(
        "\n%d of %lld targets missed\n", missed,
        static_cast<long long>(std::count_if(m_figures.begin(), m_figures.end(),
                                             [](const Figure& f) { return bool(f.target); })));
    std::fflush(stdout);
    return missed;
}

} // namespace hourglass::bench
