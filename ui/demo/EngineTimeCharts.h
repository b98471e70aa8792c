#pragma once
// Line charts over ENGINE time, shared by the Charts tab (EntityChartsPanel) and the presentation
// view, so that both draw an entity's counts with the same code: one QDateTimeAxis of engine
// instants (a virtual clock's, when there is one), one value axis from zero, and markers where
// the samples really are.

#include "hourglass/Time.h"

#include <QList>
#include <QPointF>
#include <QStringList>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>

#include <algorithm>
#include <utility>

namespace hourglass::ui {
class CountsHistory;
}

namespace hourglass::ui::charts {

// Adds line series named `names`, sharing one engine-time axis and one value axis. The chart
// stays readable at any width (fitToWidth, on every resize).
void addLineSeries(QChart* chart, const QStringList& names);
// The legend below the plot when every entry fits in one row of the chart's width, else on the
// right, one entry per line (a row that does not fit elides each name to "S..."); and as many
// time labels as the plot's width shows whole.
void fitToWidth(QChart* chart);

// Markers show where the samples are while they stand apart: when the usual gap between two
// samples is less than two markers wide on screen (many samples, a narrow chart, or a long
// join after a jump that squeezes the rest), they hide and the line alone shows the shape.
// Runs whenever the plot area or the axis range changes.
void fitMarkers(QChart* chart);

// Fits the axes of a line chart: time from `first` to `last` (at least `minSpan` wide, and a
// second per tick, widened to the left so that the axis ends at `last`), values from zero to a
// round number above `maxValue`, and at least to `minTop` (whole ticks for "%.0f").
void fitAxes(QChart* chart, Instant first, Instant last, Millis minSpan, double maxValue,
             const QString& valueFormat, double minTop = 1.0);

// Lines that lie on top of each other stay visible: the series drawn first (under the others)
// get wider pens, every other one dashed, so a line hidden by a later one still shows along its
// edges. Call after QChart::setTheme, which resets the pens.
void styleSeries(QChart* chart);

// What the charts show of a history: all of it (0), or its last `window` of engine time.
using TimeWindow = Millis;

// Puts one point per item into each line series of the chart, in series order (valuesOf gives
// one value per series; item.at is the engine instant); returns the highest value.
template <typename Item, typename ValuesOf>
double plot(QChart* chart, const QList<Item>& items, ValuesOf valuesOf) {
    const QList<QAbstractSeries*> series = chart->series();
    QList<QList<QPointF>> points(series.size());
    double highest = 0;
    for (const Item& item : items) {
        const QList<double> values = valuesOf(item);
        for (int i = 0; i < series.size(); ++i) {
            points[i].append(QPointF(double(item.at), values.value(i)));
            highest = std::max(highest, values.value(i));
        }
    }
    for (int i = 0; i < series.size(); ++i)
        static_cast<QLineSeries*>(series[i])->replace(points[i]);
    return highest;
}

// The counts chart: one series per count, in this order.
enum CountsSeries {
    ActiveSeries,
    ScheduledSeries,
    DeferredSeries,
    LockedSeries,
    DeadLetteredSeries
};
void addCountsSeries(QChart* chart);
// Plots every sample of the history (none when it is null); `now` (the engine clock) places the
// axis before the first sample. The axis ends at the last sample, which is the engine's now
// within one sampling interval: CountsHistory drops the samples a jump back left in the future.
// With a window, only the samples within it are plotted and scaled to.
void plotCounts(QChart* chart, const CountsHistory* history, Instant now, TimeWindow window = 0);
// Plots the history's throughput (CountsHistory::rates; none when it is null) from its first
// sample on (or within the window). The value axis scales to the rates shown, however small:
// 0.2 messages a second reads as such, not as a line along the bottom.
void plotThroughput(QChart* chart, const CountsHistory* history, Instant now,
                    TimeWindow window = 0);
// The engine instants the charts span for this history and window ({now, now} when empty).
std::pair<Instant, Instant> shownRange(const CountsHistory* history, Instant now,
                                       TimeWindow window);

} // namespace hourglass::ui::charts
