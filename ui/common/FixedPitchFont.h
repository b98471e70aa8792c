#pragma once
// A font that really is fixed-pitch, for message bodies and counters. The system's fixed font is
// only a request ("monospace"): fontconfig may answer it with a face that is not fixed-pitch once
// more fonts are installed (with fonts-noto-core and imagemagick's fonts, "monospace" resolves to
// Noto Sans Mono, which Qt does not report as fixed-pitch), so the answer is checked with QFontInfo
// and, when it is not fixed-pitch, known fixed-pitch families are tried, then any installed one.

#include <QFont>
#include <QFontDatabase>

namespace hourglass::ui {

// `base` with its family replaced by the first candidate that resolves to a fixed-pitch face
// (size and weight kept): `base` itself, `base` with a monospace style hint, DejaVu Sans Mono,
// Liberation Mono, Noto Mono, Noto Sans Mono, monospace, Courier New, Courier, then the first
// fixed-pitch family installed. `base` unchanged when no font on the machine is fixed-pitch.
QFont fixedPitchFont(const QFont& base = QFontDatabase::systemFont(QFontDatabase::FixedFont));

} // namespace hourglass::ui
