#pragma once
// The columns of one view as its user arranges them. A view states its default layout (which
// columns, in which order, which shown, and a sample of each column's widest usual content); the
// layout sizes the columns to their samples, makes the header's sections movable and gives the
// header a context menu to hide or show each column and to reset them all.
//
// What the user changes (the order, the hidden columns) is remembered per view in QSettings
// under "columns/<view>/order" and "columns/<view>/hidden", written only when the user changes
// something, so a view nobody touched follows the defaults of the running version. Widths are
// not remembered: they follow the content (the samples) and the user's drags for the session.
//
// A column the current content lacks (the dead-letter columns away from a dead-letter queue) is
// "unavailable": hidden whatever the user chose and left out of the menu, without touching what
// is remembered.
//
// Object names for tests: the menu's actions on the header are "showColumn<logical index>" and
// "resetColumns".
//
// Threads: GUI thread only.

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

class QAction;
class QHeaderView;

namespace hourglass::ui {

class ColumnLayout : public QObject {
    Q_OBJECT
public:
    enum class Shown {
        ByDefault,    // shown until the user hides it
        NotByDefault, // in the menu, hidden until the user shows it
        Always,       // the column the view is about: never hidden, not in the menu
    };
    enum class SampleFont { Regular, Bold }; // bold: the countdowns' "expired" and "Lock lost"
    struct Column {
        int logical;
        Shown shown;
        // The widest usual content; the column is as wide as this or its title, whichever is
        // wider. Empty: as wide as its title.
        QString sample;
        SampleFont font = SampleFont::Regular;
        // Room the delegate draws besides the text (a countdown's bar margins and lock glyph).
        int extraWidth = 0;
    };

    // `defaults` lists the view's columns in their default order; model columns it does not
    // list stay hidden. The header's view must have its model: the layout is applied at once.
    ColumnLayout(QHeaderView* header, const QString& viewName, QList<Column> defaults);

    // Columns the current content lacks: hidden and out of the menu until available again.
    void setUnavailable(const QSet<int>& columns);
    // Applies the remembered (else the default) order and visibility again: after the view got a
    // new model, which resets its header.
    void apply();
    // Every column back to its default width.
    void applyDefaultWidths();
    // Forgets what the user chose: the default order, visibility and widths.
    void reset();

signals:
    // After "Reset columns": a view that sizes a column itself does it again.
    void columnsReset();

public:
    // The width a column starts with (its sample or its title, plus padding).
    int defaultWidth(int logical) const;
    // The settings group of a view ("columns/<viewName>"), for tests that start clean.
    static QString settingsGroup(const QString& viewName);

private:
    void rememberOrder();
    void toggle(int logical, bool shown);
    void updateActions();
    QList<int> order() const;
    QSet<int> hidden() const;

    QHeaderView* m_header;
    QString m_group;
    QList<Column> m_defaults;
    QSet<int> m_unavailable;
    QList<QAction*> m_actions; // one per default column that can be hidden, in default order
    bool m_applying = false;   // our own section moves are not the user's
};

} // namespace hourglass::ui
