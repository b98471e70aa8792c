#include "demo/EngineTimeCharts.h"

#include "demo/ChartHistories.h"
#include "demo/CountsHistory.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFontMetrics>
#include <QPen>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>

#include <vector>

namespace hourglass::ui::charts {

namespace {
constexpr int kValueTicks = 5; // QValueAxis's default
constexpr int kTimeTicks = 4;  // at most: room for "HH:mm:ss" labels in the narrower charts

QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::charts", text);
}
} // namespace

void fitToWidth(QChart* chart) {
    QLegend* legend = chart->legend();
    const QFontMetrics metrics(legend->font());
    // Per entry: its marker (about a line high) and the gaps around it, then the name.
    const int perEntry = metrics.height() + 2 * metrics.averageCharWidth();
    int row = 0;
    int widest = 0;
    for (const QAbstractSeries* series : chart->series()) {
        const int name = metrics.horizontalAdvance(series->name());
        row += perEntry + name;
        widest = std::max(widest, perEntry + name);
    }
    const QMarginsF margins = chart->margins();
    const qreal available = chart->size().width() - margins.left() - margins.right();
    const bool below = row <= available;
    const Qt::Alignment wanted = below ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != wanted)
        legend->setAlignment(wanted);
    // On the right the chart would give the legend too little room for the longest name.
    legend->setMinimumWidth(below ? -1 : widest + 4 * metrics.averageCharWidth());

    auto* x = qobject_cast<QDateTimeAxis*>(chart->axes(Qt::Horizontal).value(0));
    if (!x)
        return;
    // The plot is what the legend and the value labels leave; a time label takes a label in
    // the axis's format ("HH:mm:ss", or "MM-dd HH:mm" over a day) and a gap.
    const QFontMetrics labels(x->labelsFont());
    const qreal plot =
        available - (below ? 0 : widest) - labels.horizontalAdvance(QStringLiteral("0000.0"));
    const QString widestLabel =
        QDateTime(QDate(2000, 12, 28), QTime(20, 58, 58)).toString(x->format());
    const int perLabel = labels.horizontalAdvance(widestLabel) + 3 * labels.averageCharWidth();
    const int ticks = std::clamp(int(plot / perLabel), 2, kTimeTicks);
    if (x->tickCount() != ticks)
        x->setTickCount(ticks);
}

void addLineSeries(QChart* chart, const QStringList& names) {
    auto* x = new QDateTimeAxis(chart);
    x->setTickCount(kTimeTicks);
    x->setFormat(QStringLiteral("HH:mm:ss")); // fitAxes switches to dates over a day
    auto* y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (const QString& name : names) {
        auto* series = new QLineSeries(chart);
        series->setName(name);
        // Markers show where the samples really are: the line between two samples (after a
        // jump of the clock, say) is only a join, not a measurement.
        series->setPointsVisible(true); // while they stand apart (fitMarkers)
        series->setMarkerSize(4);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, chart,
                     [chart] { fitToWidth(chart); });
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] { fitMarkers(chart); });
    fitToWidth(chart);
}

void fitMarkers(QChart* chart) {
    auto* x = qobject_cast<QDateTimeAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* first = qobject_cast<QLineSeries*>(chart->series().value(0));
    if (!x || !first)
        return;
    // Every series has a point at each sample: the first one's gaps are everyone's.
    const QList<QPointF> points = first->points();
    std::vector<double> gaps;
    for (qsizetype i = 1; i < points.size(); ++i)
        gaps.push_back(points[i].x() - points[i - 1].x());
    const double span = double(x->max().toMSecsSinceEpoch() - x->min().toMSecsSinceEpoch());
    const double width = chart->plotArea().width();
    double usualGap = width; // one sample, or no layout yet: nothing to crowd
    if (!gaps.empty() && span > 0 && width > 0) {
        const auto middle = gaps.begin() + std::ptrdiff_t(gaps.size() / 2);
        std::nth_element(gaps.begin(), middle, gaps.end());
        usualGap = *middle / span * width;
    }
    for (QAbstractSeries* series : chart->series()) {
        auto* line = static_cast<QLineSeries*>(series);
        const bool apart = usualGap >= 2 * line->markerSize();
        if (line->pointsVisible() != apart)
            line->setPointsVisible(apart);
    }
}

void fitAxes(QChart* chart, Instant first, Instant last, Millis minSpan, double maxValue,
             const QString& valueFormat, double minTop) {
    auto* x = qobject_cast<QDateTimeAxis*>(chart->axes(Qt::Horizontal).value(0));
    // At least a second per tick interval, so that "HH:mm:ss" labels never repeat. A short
    // history widens to the left: the axis always ends at `last`, the engine's now (or close).
    first = std::min(first, last - std::max(minSpan, Millis(x->tickCount() - 1) * 1000));
    const QString format = last - first > 24 * 3600 * 1000 ? QStringLiteral("MM-dd HH:mm")
                                                           : QStringLiteral("HH:mm:ss");
    if (x->format() != format) {
        x->setFormat(format);
        fitToWidth(chart); // longer labels: perhaps fewer of them
    }
    x->setRange(QDateTime::fromMSecsSinceEpoch(first), QDateTime::fromMSecsSinceEpoch(last));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    y->setLabelFormat(valueFormat);
    y->setRange(0, std::max(minTop, maxValue));
    // Nice numbers depend on the tick count in force: start from the same one every time.
    y->setTickCount(kValueTicks);
    y->applyNiceNumbers();
    // Whole numbers on a small range: one tick per unit, not "0 0 1 1 2" from rounded halves.
    if (valueFormat == QStringLiteral("%.0f") && y->max() < y->tickCount() - 1)
        y->setTickCount(int(y->max()) + 1);
    fitMarkers(chart); // new points, or a new range
}

void addCountsSeries(QChart* chart) {
    addLineSeries(
        chart, {tr("Active"), tr("Scheduled"), tr("Deferred"), tr("Locked"), tr("Dead-lettered")});
}

void styleSeries(QChart* chart) {
    const QList<QAbstractSeries*> all = chart->series();
    for (qsizetype i = 0; i < all.size(); ++i) {
        auto* line = qobject_cast<QLineSeries*>(all[i]);
        if (!line)
            continue;
        QPen pen = line->pen();
        // From 4.5 px for the first series down to 2 px for the last (drawn on top).
        const qreal width =
            2.0 + 2.5 * qreal(all.size() - 1 - i) / qreal(std::max<qsizetype>(1, all.size() - 1));
        pen.setWidthF(width);
        pen.setStyle(i % 2 == 1 ? Qt::DashLine : Qt::SolidLine);
        pen.setCapStyle(Qt::FlatCap);
        line->setPen(pen);
    }
}

std::pair<Instant, Instant> shownRange(const CountsHistory* history, Instant now,
                                       TimeWindow window) {
    if (!history || history->samples().isEmpty())
        return {now, now};
    const Instant last = history->samples().last().at;
    const Instant first = history->samples().first().at;
    return {window > 0 ? std::max(first, last - window) : first, last};
}

namespace {
// The items of `items` at or after `from` (they are in time order).
template <typename Item> QList<Item> from(const QList<Item>& items, Instant start) {
    const auto it = std::lower_bound(items.begin(), items.end(), start,
                                     [](const Item& item, Instant at) { return item.at < at; });
    return QList<Item>(it, items.end());
}
} // namespace

void plotCounts(QChart* chart, const CountsHistory* history, Instant now, TimeWindow window) {
    const auto [first, last] = shownRange(history, now, window);
    const QList<CountsHistory::Sample> samples =
        history ? from(history->samples(), first) : QList<CountsHistory::Sample>();
    const double highest = plot(chart, samples, [](const CountsHistory::Sample& s) {
        return QList<double>{double(s.counts.active), double(s.counts.scheduled),
                             double(s.counts.deferred), double(s.counts.locked),
                             double(s.counts.deadLettered)};
    });
    fitAxes(chart, first, last, ChartHistories::kInterval, highest, QStringLiteral("%.0f"));
}

void plotThroughput(QChart* chart, const CountsHistory* history, Instant now, TimeWindow window) {
    // The first rate covers the interval that starts at the first sample; the axis ends with
    // the counts chart's, at the last sample (a jump back leaves no rate there yet).
    const auto [first, last] = shownRange(history, now, window);
    const QList<CountsHistory::Rate> rates =
        history ? from(history->rates(), first + 1) : QList<CountsHistory::Rate>();
    const double highest = plot(chart, rates, [](const CountsHistory::Rate& r) {
        return QList<double>{r.sent, r.received, r.completed, r.expired, r.deadLettered};
    });
    // Small rates get an axis of their own size, with the decimals to read them.
    const QString format = highest >= 10                  ? QStringLiteral("%.0f")
                           : highest >= 1 || highest == 0 ? QStringLiteral("%.1f")
                                                          : QStringLiteral("%.2f");
    fitAxes(chart, first, last, ChartHistories::kInterval, highest, format,
            highest > 0 ? 0.1 : 1.0);
}

} // namespace hourglass::ui::charts
