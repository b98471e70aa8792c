#pragma once
// The presented entity's counts as five big tiles (Active, Scheduled, Locked, Deferred,
// Dead-lettered), readable from the back of a room: a large number over a small caption, each
// tile marked with the colour its line has in the presentation chart, so the room links a tile
// to its curve without a legend.
//
// Object names: the number labels are "presentationActive", "presentationScheduled",
// "presentationLocked", "presentationDeferred", "presentationDeadLettered".

#include "demo/EngineTimeCharts.h"
#include "hourglass/Broker.h"

#include <QColor>
#include <QList>
#include <QWidget>

class QFrame;
class QLabel;

namespace hourglass::ui {

class PresentationCountTiles : public QWidget {
    Q_OBJECT
public:
    explicit PresentationCountTiles(QWidget* parent = nullptr);

    void setCounts(const EntityCounts& counts);
    // Shows a dash on every tile: the counts are not known (yet).
    void clear();

    // The colour of one count, on tiles and chart lines alike: mid tones that read on light and
    // dark palettes.
    static QColor accent(charts::CountsSeries series);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Tile {
        charts::CountsSeries series;
        QFrame* frame = nullptr;
        QLabel* number = nullptr;
        QFrame* stripe = nullptr; // the accent
    };
    void addTile(charts::CountsSeries series, const QString& objectName, const QString& caption);
    void applyStyle();

    QList<Tile> m_tiles;
};

} // namespace hourglass::ui
