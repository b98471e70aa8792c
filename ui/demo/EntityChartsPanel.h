#pragma once
// Charts of one queue or subscription: its counts over time (active, scheduled,
// deferred, locked, dead-lettered), its throughput per second (sent, received, completed,
// expired, dead-lettered: Broker::flow), and its dead-letter reasons
// as horizontal bars. The time axes are ENGINE time (ChartHistories samples the engine's clock),
// so with a virtual clock the charts move as fast as virtual time does, stand still while it is
// paused, and end at the new instant after a jump either way. The counts and throughput come
// from the entity's history in the database's ChartHistories: selecting another entity and
// coming back, or opening presentation mode, shows the history gathered so far. The reasons come
// from a DeadLetterReasonsModel, which re-reads them whenever the change feed touches the
// dead-letter queue.
//
// The time axes show the whole history (CountsHistory thins old samples rather than dropping
// them) or the last 1, 5 or 15 minutes of engine time, as the "Show" box beside the title says;
// the value axes scale to what is shown.
//
// Every chart can be saved as a PNG: from its context menu, or all three at once with the
// panel's "Save charts as PNG..." action (Ctrl+Shift+G, a non-blocking file dialog that starts in
// the Pictures folder, with a file name naming the entity and the time range). The picture is
// at least charts::kMinImageWidth pixels wide, under a title naming the entity and the range.
// Names that do not fit (the title, legend entries, reasons) are elided; the title's tooltip, a
// legend entry's or a bar's hover shows the whole text.
// A DeadLetterQueue node charts its owner entity; a topic or namespace shows why there is
// nothing to chart; an empty path shows the empty state.
//
// On an entity that requires sessions the title has the session counts beside it (SessionSummary).
//
// The three chart views are made when the panel is first shown (or first saved), not with it:
// they are most of its cost, and the window builds every tab's panel when it opens a namespace.
// The history is kept from setEntity on all the same (ChartHistories), and drawn once they are.
//
// Object names for tests: "chartsTitle", "chartsSessions", "chartsEmpty", "chartsScroll",
// "chartsTimeWindow" (combo), chart views "countsChart", "throughputChart", "reasonsChart",
// action "saveChartsPng", dialog "saveChartsDialog".

#include "hourglass/Status.h"
#include "hourglass/Time.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreeModel.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QAction;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QScrollArea;
class QStackedWidget;

namespace hourglass {
struct ChangeBatch;
}

namespace hourglass::ui {

class BrokerClient;
class ChartHistories;
class CountsHistory;
class DeadLetterReasonsModel;
class SessionSummary;

class EntityChartsPanel : public EntityPanel {
    Q_OBJECT
public:
    explicit EntityChartsPanel(BrokerClient& client, QWidget* parent = nullptr);

    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    // The entity charted ("ns:orders"), empty when none.
    QString entityPath() const { return m_path; }
    // The history charted (shared with presentation mode), null when none.
    CountsHistory* history() const;
    // The dead-letter reasons the bars show.
    DeadLetterReasonsModel* reasonsModel() const { return m_reasons; }

    // Saves one chart view (by objectName) as a PNG; false when there is no such chart or the
    // file cannot be written.
    bool saveChart(const QString& objectName, const QString& filePath);
    // Saves the three charts as one PNG.
    bool saveAllCharts(const QString& filePath);
    // The title a saved picture carries, and the file name the save dialog suggests, for one
    // chart (by objectName) or all three (empty).
    QString imageTitle(const QString& chartName) const;
    QString suggestedFileName(const QString& chartName) const;
    // How much engine time the time axes show; 0 for the whole history.
    Millis timeWindow() const;

    QList<QAction*> actions() const { return {m_saveAction}; }

    void setVisible(bool visible) override;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Makes the chart views and draws what the panel charts (once; at the first show).
    void makeViews();
    QChartView* addChartView(const QString& objectName, const QString& title);
    void showEmpty(const QString& text);
    void setTitle(const QString& text);
    void elideTitle();
    // Full names on hover where the chart elides them.
    void addHoverTips(QChart* chart);
    void applyChartTheme();
    // Charts the kept history of m_path (none when it is empty).
    void bindHistory();
    void updateCounts();
    void updateThroughput();
    void updateReasons();
    void onChanged(const hourglass::ChangeBatch& batch);
    // Asks for a file (non-blocking dialog) and saves one chart, or all when the name is empty.
    void askSave(const QString& chartName);
    void reportSaved(bool ok, const QString& filePath);

    BrokerClient& m_client;
    ChartHistories& m_histories;
    QPointer<CountsHistory> m_history; // ChartHistories drops a deleted entity's
    QString m_path;
    DeadLetterReasonsModel* m_reasons;
    QLabel* m_title;
    QString m_titleText; // m_title shows it elided when it does not fit
    QComboBox* m_timeWindow;
    SessionSummary* m_sessions; // beside the title, for an entity that requires sessions
    QLabel* m_empty;
    QStackedWidget* m_stack;
    QWidget* m_chartsPage;
    QScrollArea* m_chartsScroll; // holds m_chartsPage
    QList<QChartView*> m_views;  // empty until makeViews
    QAction* m_saveAction;
};

} // namespace hourglass::ui
