#pragma once
// Presentation mode: one entity, full screen, for a room of stakeholders. No menus,
// toolbars, tree or status bar: the entity's name and the engine clock in large type
// (PresentationHeader), its five counts as big tiles (PresentationCountTiles), its messages with
// live countdowns (MessageListModel + CountdownDelegate + CountdownTicker, only the columns a room
// needs) and its counts over engine time (the Charts tab's counts chart: EngineTimeCharts over
// the entity's CountsHistory from the database's ChartHistories, so the chart opens with the
// history the Charts tab gathered). Everything uses a font about 1.6x the application's.
//
// Keys: Esc asks to leave (exitRequested), Left/Right (or PageUp/PageDown) step to the previous
// or next queue or subscription of the namespace, Space pauses or plays a VirtualClock as the
// time toolbar does. A faint line at the bottom says so.
//
// Live: counts re-read (off the GUI thread) when the change feed names the entity; an entity
// that does not exist (yet) or was deleted shows an empty state and comes back by itself when
// it is created (a scenario creating its queues after the view opened).
//
// Object names: "presentationView", header labels (PresentationHeader.h), tiles
// (PresentationCountTiles.h), "presentationMessages" (the table), "presentationMessagesEmpty",
// "presentationChart", "presentationEmpty" (unknown entity), "presentationHint", actions
// "presentationExit", "presentationPrevious", "presentationNext", "presentationPlayPause".

#include "common/CoalescedRefresh.h"
#include "hourglass/Status.h"
#include "tree/NamespaceTreeModel.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QAction;
class QChartView;
class QLabel;
class QStackedWidget;
class QTableView;

namespace hourglass {
struct ChangeBatch;
struct EntityInfo;
} // namespace hourglass

namespace hourglass::ui {

class BrokerClient;
class CountdownTicker;
class CountsHistory;
class MessageListModel;
class PresentationCountTiles;
class PresentationHeader;

class PresentationView : public QWidget {
    Q_OBJECT
public:
    // The view's font relative to the application's.
    static constexpr double kFontScale = 1.6;

    explicit PresentationView(BrokerClient& client, QWidget* parent = nullptr);

    // The entity shown ("ns:path", kind from NamespaceTreeModel; "/$deadletterqueue" paths
    // allowed). A namespace or topic shows why there is nothing to present.
    void setEntity(const QString& qualifiedPath, NamespaceTreeModel::NodeKind kind);
    QString entityPath() const { return m_path; }
    NamespaceTreeModel::NodeKind entityKind() const { return m_kind; }
    // A line under the title, e.g. the scenario step being played; empty hides it.
    void setCaption(const QString& text);
    // The clock badge while a scenario drives the clock (PresentationHeader::setClockBadge).
    void setClockBadge(const QString& badge);

    MessageListModel* messageModel() const { return m_messages; }
    // The history charted (shared with the Charts tab), null when none.
    CountsHistory* history() const;
    QList<QAction*> actions() const { return {m_exit, m_previous, m_next, m_playPause}; }
    // Space: plays or pauses the clock (off while a scenario drives it: PresentationMode).
    QAction* playPauseAction() const { return m_playPause; }

signals:
    void exitRequested();
    void errorOccurred(const hourglass::Error& error);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QAction* addKeyAction(const QString& objectName, const QString& text,
                          const QList<QKeySequence>& keys);
    void buildTable();
    void buildChart();
    void applyChartLook();
    // Charts the kept history of `entity` (none when it is empty).
    void bindHistory(const QString& entity);
    void plotHistory();
    void showMissing(const QString& text);
    void updateHint();
    // The entity does not exist (any more): stop reading it and say so.
    void showGone(const QString& text);
    void readCounts();
    void updateMessagesEmpty();
    void onChanged(const hourglass::ChangeBatch& batch);
    // Steps through the namespace's queues and subscriptions (wrapping around).
    void step(int delta);
    void togglePlayPause();

    BrokerClient& m_client;
    QString m_path;   // as given: "ns:q", "ns:q/$deadletterqueue"
    QString m_entity; // whose counts and chart: the owner of a dead-letter queue
    NamespaceTreeModel::NodeKind m_kind = NamespaceTreeModel::NodeKind::Namespace;
    quint64 m_generation = 0;      // drops replies meant for a previous entity
    CoalescedRefresh m_countsRead; // one counts read at a time, one more queued
    bool m_missing = false;

    PresentationHeader* m_header = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_content = nullptr;
    QLabel* m_missingLabel = nullptr;
    QLabel* m_hint = nullptr;
    bool m_scenarioDriven = false; // a scenario drives the clock: Space plays it
    PresentationCountTiles* m_tiles = nullptr;
    QStackedWidget* m_tableStack = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_tableEmpty = nullptr;
    MessageListModel* m_messages = nullptr;
    CountdownTicker* m_ticker = nullptr;
    QPointer<CountsHistory> m_history; // ChartHistories drops a deleted entity's
    QChartView* m_chart = nullptr;
    QAction* m_exit = nullptr;
    QAction* m_previous = nullptr;
    QAction* m_next = nullptr;
    QAction* m_playPause = nullptr;
};

} // namespace hourglass::ui
