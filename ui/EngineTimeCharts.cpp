#include "EngineTimeCharts.h"

#include "CountsHistory.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QValueAxis>

namespace hourglass::ui::charts {

namespace {
constexpr int kValueTicks = 5; // QValueAxis's default

QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::charts", text);
}
} // namespace

void addLineSeries(QChart* chart, const QStringList& names) {
    auto* x = new QDateTimeAxis(chart);
    x->setTickCount(4); // room for "HH:mm:ss" labels in the narrower charts
    auto* y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (const QString& name : names) {
        auto* series = new QLineSeries(chart);
        series->setName(name);
        // Markers show where the samples really are: the line between two samples (after a
        // jump of the clock, say) is only a join, not a measurement.
        series->setPointsVisible(true);
        series->setMarkerSize(4);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

void fitAxes(QChart* chart, Instant first, Instant last, Millis minSpan, double maxValue,
             const QString& valueFormat) {
    auto* x = qobject_cast<QDateTimeAxis*>(chart->axes(Qt::Horizontal).value(0));
    // At least a second per tick interval, so that "HH:mm:ss" labels never repeat.
    last = std::max(last, first + std::max(minSpan, Millis(x->tickCount() - 1) * 1000));
    x->setFormat(last - first > 24 * 3600 * 1000 ? QStringLiteral("MM-dd HH:mm")
                                                 : QStringLiteral("HH:mm:ss"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(first), QDateTime::fromMSecsSinceEpoch(last));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    y->setLabelFormat(valueFormat);
    y->setRange(0, std::max(1.0, maxValue));
    // Nice numbers depend on the tick count in force: start from the same one every time.
    y->setTickCount(kValueTicks);
    y->applyNiceNumbers();
    // Whole numbers on a small range: one tick per unit, not "0 0 1 1 2" from rounded halves.
    if (valueFormat == QStringLiteral("%.0f") && y->max() < y->tickCount() - 1)
        y->setTickCount(int(y->max()) + 1);
}

void addCountsSeries(QChart* chart) {
    addLineSeries(
        chart, {tr("Active"), tr("Scheduled"), tr("Deferred"), tr("Locked"), tr("Dead-lettered")});
}

void plotCounts(QChart* chart, const CountsHistory& history, Instant now) {
    const QList<CountsHistory::Sample>& samples = history.samples();
    const double highest = plot(chart, samples, [](const CountsHistory::Sample& s) {
        return QList<double>{double(s.counts.active), double(s.counts.scheduled),
                             double(s.counts.deferred), double(s.counts.locked),
                             double(s.counts.deadLettered)};
    });
    const Instant first = samples.isEmpty() ? now : samples.first().at;
    const Instant last = samples.isEmpty() ? now : samples.last().at;
    fitAxes(chart, first, last, history.interval(), highest, QStringLiteral("%.0f"));
}

} // namespace hourglass::ui::charts
