#include "demo/EntityChartsPanel.h"

#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "demo/ChartHistories.h"
#include "demo/ChartImage.h"
#include "demo/CountsHistory.h"
#include "demo/EngineTimeCharts.h"
#include "demo/SessionSummary.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/EntityPath.h"

#include <QAction>
#include <QComboBox>
#include <QCursor>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace hourglass::ui {

namespace {

// The value axis of the reasons chart (created once in the constructor).
QValueAxis* valueAxis(QChart* chart, Qt::Orientation orientation) {
    return qobject_cast<QValueAxis*>(chart->axes(orientation).value(0));
}

// Where a picture is saved unless the user goes elsewhere: the Pictures folder, or home.
QString picturesFolder() {
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return !pictures.isEmpty() && QDir(pictures).exists() ? pictures : QDir::homePath();
}

} // namespace

EntityChartsPanel::EntityChartsPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_histories(ChartHistories::of(client))
    , m_reasons(new DeadLetterReasonsModel(client, this))
    , m_title(new QLabel(this))
    , m_timeWindow(new QComboBox(this))
    , m_sessions(new SessionSummary(client, this))
    , m_empty(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_chartsPage(new QWidget(this))
    , m_chartsScroll(new QScrollArea(this))
    , m_saveAction(new QAction(tr("Save Charts as PNG..."), this)) {
    m_title->setObjectName(QStringLiteral("chartsTitle"));
    m_title->setTextFormat(Qt::PlainText);
    // Elided to the room it gets (elideTitle), not widening the panel.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->installEventFilter(this);
    m_timeWindow->setObjectName(QStringLiteral("chartsTimeWindow"));
    m_timeWindow->setToolTip(tr("How much of the history the time axes show (engine time)"));
    m_timeWindow->addItem(tr("All"), qint64(0));
    m_timeWindow->addItem(tr("Last 1 min"), qint64(minutes(1)));
    m_timeWindow->addItem(tr("Last 5 min"), qint64(minutes(5)));
    m_timeWindow->addItem(tr("Last 15 min"), qint64(minutes(15)));
    connect(m_timeWindow, &QComboBox::currentIndexChanged, this, [this] {
        updateCounts();
        updateThroughput();
    });
    m_empty->setObjectName(QStringLiteral("chartsEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setEnabled(false); // greyed, as the other panels' empty states

    // Each chart keeps the size it reads at; a workspace shorter than the three together (a
    // small window, or one with the Connections dock open) scrolls them, rather than making
    // the whole window grow past the size it was given.
    m_chartsScroll->setObjectName(QStringLiteral("chartsScroll"));
    m_chartsScroll->setWidgetResizable(true);
    m_chartsScroll->setFrameShape(QFrame::NoFrame);
    m_chartsScroll->setWidget(m_chartsPage);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_chartsScroll);
    auto* layout = new QVBoxLayout(this);
    m_sessions->setObjectName(QStringLiteral("chartsSessions"));
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_sessions);
    auto* showLabel = new QLabel(tr("&Show:"), this);
    showLabel->setBuddy(m_timeWindow);
    titleRow->addWidget(showLabel);
    titleRow->addWidget(m_timeWindow);
    layout->addLayout(titleRow);
    layout->addWidget(m_stack, 1);

    m_saveAction->setObjectName(QStringLiteral("saveChartsPng"));
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    m_saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_saveAction->setEnabled(false);
    connect(m_saveAction, &QAction::triggered, this, [this] { askSave({}); });
    addAction(m_saveAction);

    connect(m_reasons, &DeadLetterReasonsModel::refreshed, this, &EntityChartsPanel::updateReasons);
    connect(&m_client, &BrokerClient::changed, this, &EntityChartsPanel::onChanged);
    setEntity({}, NamespaceTreeModel::NodeKind::Namespace);
}

void EntityChartsPanel::makeViews() {
    if (!m_views.isEmpty())
        return;
    auto* grid = new QGridLayout(m_chartsPage);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(addChartView(QStringLiteral("countsChart"), tr("Messages")), 0, 0, 1, 2);
    grid->addWidget(addChartView(QStringLiteral("throughputChart"), tr("Messages per second")), 1,
                    0);
    grid->addWidget(addChartView(QStringLiteral("reasonsChart"), tr("Dead-letter reasons")), 1, 1);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
    // The throughput chart has five series to tell apart, the reasons chart a few bars: in a
    // narrow window the reasons give way first.
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    m_views[2]->setMinimumWidth(200);
    charts::addCountsSeries(m_views[0]->chart());
    charts::addLineSeries(m_views[1]->chart(), {tr("Sent"), tr("Received"), tr("Completed"),
                                                tr("Expired"), tr("Dead-lettered")});
    QChart* reasons = m_views[2]->chart();
    auto* bars = new QHorizontalBarSeries(reasons);
    bars->setLabelsVisible(true);
    reasons->addSeries(bars);
    auto* categories = new QBarCategoryAxis(reasons);
    auto* amounts = new QValueAxis(reasons);
    amounts->setLabelFormat(QStringLiteral("%.0f"));
    reasons->addAxis(categories, Qt::AlignLeft);
    reasons->addAxis(amounts, Qt::AlignBottom);
    bars->attachAxis(categories);
    bars->attachAxis(amounts);
    reasons->legend()->hide();
    // A reason the axis elides reads whole on its bar.
    connect(bars, &QHorizontalBarSeries::hovered, this,
            [categories](bool on, int index, QBarSet* set) {
                if (!on || index < 0 || index >= categories->count()) {
                    QToolTip::hideText();
                    return;
                }
                QToolTip::showText(
                    QCursor::pos(),
                    QStringLiteral("%1: %2").arg(categories->at(index)).arg(set->at(index)));
            });
    addHoverTips(m_views[0]->chart());
    addHoverTips(m_views[1]->chart());
    applyChartTheme();

    // Shown at once, with the panel (a layout would show views added to a page on screen an event
    // later). A remote namespace says what it holds, not what went through it: no throughput to
    // chart.
    const bool throughput = m_client.capabilities().hostsDatabase;
    for (int i = 0; i < m_views.size(); ++i)
        m_views[i]->setVisible(i != 1 || throughput);
    // What was gathered before the first show (the history samples from setEntity on, the reasons
    // model reads its own) is drawn now.
    updateCounts();
    updateThroughput();
    updateReasons();
}

void EntityChartsPanel::setVisible(bool visible) {
    // Before the show, so that a panel shown on its own takes the size the charts need.
    if (visible)
        makeViews();
    EntityPanel::setVisible(visible);
}

void EntityChartsPanel::showEvent(QShowEvent* event) {
    makeViews(); // shown with its parent (no setVisible of its own)
    EntityPanel::showEvent(event);
}

QChartView* EntityChartsPanel::addChartView(const QString& objectName, const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart, m_chartsPage);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(280, 200);
    auto* save = new QAction(tr("Save Chart as PNG..."), view);
    connect(save, &QAction::triggered, this, [this, objectName] { askSave(objectName); });
    view->addAction(save);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_views.append(view);
    return view;
}

void EntityChartsPanel::setEntity(const QString& qualifiedPath, NamespaceTreeModel::NodeKind kind) {
    using Kind = NamespaceTreeModel::NodeKind;
    QString path = qualifiedPath;
    // The dead-letter queue's counts and reasons are its owner's: chart the owner.
    if (kind == Kind::DeadLetterQueue)
        path = EntityPath::of(path).owner().toString();
    if (path.isEmpty() || kind == Kind::Namespace || kind == Kind::Topic)
        path.clear();
    if (path == m_path && !path.isEmpty())
        return;
    m_path = path;
    bindHistory();
    m_reasons->setEntityPath(m_path);
    m_sessions->setPath(m_path);
    if (qualifiedPath.isEmpty())
        return showEmpty(tr("Select a queue or subscription to chart its messages."));
    if (kind == Kind::Namespace)
        return showEmpty(tr("A namespace has no messages of its own: select a queue or "
                            "subscription to chart it."));
    if (kind == Kind::Topic)
        return showEmpty(tr("A topic keeps no messages: its subscriptions do. Select a "
                            "subscription to chart it."));
    setTitle(tr("%1 \u2014 engine time, one sample per %2 s")
                 .arg(m_path)
                 .arg(double(ChartHistories::kInterval) / 1000.0));
    m_stack->setCurrentWidget(m_chartsScroll);
    m_saveAction->setEnabled(true);
}

void EntityChartsPanel::showEmpty(const QString& text) {
    setTitle(tr("Charts"));
    m_empty->setText(text);
    m_stack->setCurrentWidget(m_empty);
    m_saveAction->setEnabled(false);
}

void EntityChartsPanel::setTitle(const QString& text) {
    m_titleText = text;
    elideTitle();
}

void EntityChartsPanel::elideTitle() {
    const QString shown =
        m_title->fontMetrics().elidedText(m_titleText, Qt::ElideMiddle, m_title->width());
    m_title->setText(shown);
    m_title->setToolTip(shown == m_titleText ? QString() : m_titleText);
}

bool EntityChartsPanel::eventFilter(QObject* watched, QEvent* event) {
    // The title's room changes with the panel, the session counts and the window box beside it.
    if (watched == m_title && event->type() == QEvent::Resize)
        elideTitle();
    return QWidget::eventFilter(watched, event);
}

void EntityChartsPanel::addHoverTips(QChart* chart) {
    // The legend elides a name that does not fit beside a narrow chart: hovering shows it.
    for (QLegendMarker* marker : chart->legend()->markers()) {
        connect(marker, &QLegendMarker::hovered, this, [marker](bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), marker->series()->name());
            else
                QToolTip::hideText();
        });
    }
}

Millis EntityChartsPanel::timeWindow() const {
    return m_timeWindow->currentData().toLongLong();
}

void EntityChartsPanel::applyChartTheme() {
    if (m_views.isEmpty())
        return; // makeViews applies it
    const QChart::ChartTheme theme =
        paletteIsDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    for (QChartView* view : std::as_const(m_views))
        view->chart()->setTheme(theme);
    charts::styleSeries(m_views[0]->chart());
    charts::styleSeries(m_views[1]->chart());
    // A theme brings its own legend font: the line charts' legends may fit differently now.
    charts::fitToWidth(m_views[0]->chart());
    charts::fitToWidth(m_views[1]->chart());
}

void EntityChartsPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyChartTheme();
    QWidget::changeEvent(event);
}

CountsHistory* EntityChartsPanel::history() const {
    return m_history;
}

void EntityChartsPanel::bindHistory() {
    if (m_history)
        disconnect(m_history, nullptr, this, nullptr);
    m_history = m_histories.show(this, m_path);
    if (m_history) {
        connect(m_history, &CountsHistory::sampled, this, [this] {
            updateCounts();
            updateThroughput();
        });
        connect(m_history, &CountsHistory::failed, this, &EntityChartsPanel::errorOccurred);
    }
    // What was gathered before (another visit, presentation mode) shows at once.
    updateCounts();
    updateThroughput();
}

void EntityChartsPanel::updateCounts() {
    if (m_views.isEmpty())
        return; // makeViews draws the history
    charts::plotCounts(m_views[0]->chart(), m_history, m_client.clock().now(), timeWindow());
}

void EntityChartsPanel::updateThroughput() {
    if (m_views.isEmpty())
        return;
    charts::plotThroughput(m_views[1]->chart(), m_history, m_client.clock().now(), timeWindow());
}

void EntityChartsPanel::updateReasons() {
    if (m_views.isEmpty())
        return;
    QChart* chart = m_views[2]->chart();
    auto* bars = qobject_cast<QHorizontalBarSeries*>(chart->series().value(0));
    auto* categories = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
    bars->clear();
    categories->clear();
    // The model lists the most frequent first under an "All reasons" row; a horizontal bar chart
    // lists its categories from the bottom up, so walk the model backwards to put it on top.
    auto* set = new QBarSet(tr("Messages"));
    qint64 highest = 0;
    const int rows = m_path.isEmpty() ? 0 : m_reasons->rowCount();
    for (int row = rows - 1; row >= 1; --row) {
        const QString reason = m_reasons->reasonAt(row).value_or(QString());
        const qint64 count = m_reasons->index(row, DeadLetterReasonsModel::CountColumn)
                                 .data(Qt::UserRole)
                                 .toLongLong();
        categories->append(reason.isEmpty() ? tr("(no reason)") : reason);
        set->append(double(count));
        highest = std::max(highest, count);
    }
    bars->append(set);
    // The axis elides long reasons: the chart's tooltip names each in full.
    QStringList full;
    for (int i = categories->count() - 1; i >= 0; --i)
        full << QStringLiteral("%1: %2").arg(categories->at(i)).arg(set->at(i));
    m_views[2]->setToolTip(full.join(u'\n'));
    QValueAxis* amounts = valueAxis(chart, Qt::Horizontal);
    amounts->setRange(0, std::max<double>(1.0, double(highest)));
    amounts->applyNiceNumbers();
    // Counts are whole numbers: no more ticks than there are integers on the axis, or the
    // labels read "0 0 0 1 1 1".
    const int span = std::max(1, int(std::lround(amounts->max() - amounts->min())));
    int intervals = std::min(span, 5);
    while (span % intervals != 0)
        --intervals;
    amounts->setTickCount(intervals + 1);
    chart->setTitle(set->count() == 0 ? tr("Dead-letter reasons: none")
                                      : tr("Dead-letter reasons"));
}

void EntityChartsPanel::onChanged(const ChangeBatch& batch) {
    // The reasons model follows the dead-letter queue itself; ChartHistories samples (and drops
    // a deleted entity's history). Only a deletion needs the panel: there is nothing left to
    // chart.
    if (!m_path.isEmpty() && batch.deleted.contains(m_path)) {
        m_path.clear();
        bindHistory();
        m_reasons->setEntityPath({});
        showEmpty(tr("The entity was deleted."));
    }
}

bool EntityChartsPanel::saveChart(const QString& objectName, const QString& filePath) {
    makeViews(); // a panel never shown saves what it would show
    auto* view = m_chartsPage->findChild<QChartView*>(objectName);
    return view && charts::titledImage(view, imageTitle(objectName)).save(filePath, "PNG");
}

bool EntityChartsPanel::saveAllCharts(const QString& filePath) {
    makeViews();
    return charts::titledImage(m_chartsPage, imageTitle({})).save(filePath, "PNG");
}

QString EntityChartsPanel::imageTitle(const QString& chartName) const {
    const auto [first, last] = charts::shownRange(m_history, m_client.clock().now(), timeWindow());
    QString what;
    if (auto* view = m_chartsPage->findChild<QChartView*>(chartName); view && !chartName.isEmpty())
        what = QStringLiteral(" \u2014 ") + view->chart()->title();
    return tr("%1%2 \u2014 %3 (engine time)").arg(m_path, what, charts::rangeText(first, last));
}

QString EntityChartsPanel::suggestedFileName(const QString& chartName) const {
    const auto [first, last] = charts::shownRange(m_history, m_client.clock().now(), timeWindow());
    QString chart = chartName;
    chart.remove(QStringLiteral("Chart")); // "countsChart" -> "counts"
    return charts::imageFileBase(m_path, chart, first, last) + QStringLiteral(".png");
}

void EntityChartsPanel::askSave(const QString& chartName) {
    if (m_path.isEmpty())
        return;
    auto* dialog = new QFileDialog(this, tr("Save as PNG"));
    dialog->setObjectName(QStringLiteral("saveChartsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilter(tr("PNG images (*.png)"));
    dialog->setDefaultSuffix(QStringLiteral("png"));
    const QDir folder(picturesFolder());
    dialog->setDirectory(folder);
    dialog->selectFile(folder.filePath(suggestedFileName(chartName)));
    connect(dialog, &QFileDialog::fileSelected, this, [this, chartName](const QString& file) {
        const bool ok = chartName.isEmpty() ? saveAllCharts(file) : saveChart(chartName, file);
        reportSaved(ok, file);
    });
    dialog->open();
}

void EntityChartsPanel::reportSaved(bool ok, const QString& filePath) {
    if (ok) {
        emit statusMessage(tr("Saved %1").arg(filePath));
        return;
    }
    emit errorOccurred(
        Error::make(ErrorCode::GeneralError, tr("Could not write the image %1").arg(filePath)));
}

} // namespace hourglass::ui
