#pragma once
// Chart pictures for a file or a slide: large enough to read when shown full screen, and saying
// what they show. The Charts tab saves its charts through this.

#include "hourglass/Time.h"

#include <QImage>
#include <QString>

class QWidget;

namespace hourglass::ui::charts {

// The narrowest saved picture, in pixels.
constexpr int kMinImageWidth = 1600;

// `widget` drawn at least kMinImageWidth pixels wide (at a higher pixel ratio, so its text grows
// with it and stays sharp), under a band with `title` in large type.
QImage titledImage(QWidget* widget, const QString& title);

// "27 Nov 2026 10:00:00 – 10:19:00" (engine time; the date again when the range spans days).
QString rangeText(Instant first, Instant last);

// A file name (without extension) naming the entity and the range: "webshop-jobs_2026-11-27_
// 100000-101900", with `chart` ("counts") after the entity when one chart is saved.
QString imageFileBase(const QString& entityPath, const QString& chart, Instant first, Instant last);

} // namespace hourglass::ui::charts
