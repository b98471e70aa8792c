#include "demo/PresentationView.h"

#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "demo/ChartHistories.h"
#include "demo/CountsHistory.h"
#include "demo/EngineTimeCharts.h"
#include "demo/PresentationCountTiles.h"
#include "demo/PresentationHeader.h"
#include "demo/PresentationStops.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/EntityPath.h"
#include "messages/CountdownTicker.h"
#include "messages/MessageListModel.h"
#include "messages/MessageTable.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>

namespace hourglass::ui {

namespace {
using Kind = NamespaceTreeModel::NodeKind;

constexpr int kMargin = 56;
constexpr int kSpacing = 28;
// The chart's own texts do not follow widget fonts; these are relative to the view's font.
constexpr double kChartTitleScale = 1.0;
constexpr double kChartLabelScale = 0.85;
} // namespace

PresentationView::PresentationView(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_client(client) {
    setObjectName(QStringLiteral("presentationView"));
    setWindowTitle(tr("Hourglass presentation"));
    // First, so that every child below inherits the larger font (and scales from it).
    QFont large = QApplication::font();
    large.setPointSizeF(large.pointSizeF() * kFontScale);
    setFont(large);
    setFocusPolicy(Qt::StrongFocus);

    m_header = new PresentationHeader(client, this);
    m_tiles = new PresentationCountTiles(this);
    buildTable();
    buildChart();

    m_content = new QWidget(this);
    auto* body = new QHBoxLayout;
    body->setSpacing(kSpacing);
    body->addWidget(m_tableStack, 11);
    body->addWidget(m_chart, 9);
    auto* content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->setSpacing(kSpacing);
    content->addWidget(m_tiles);
    content->addLayout(body, 1);

    m_missingLabel = new QLabel(this);
    m_missingLabel->setObjectName(QStringLiteral("presentationEmpty"));
    m_missingLabel->setAlignment(Qt::AlignCenter);
    m_missingLabel->setWordWrap(true);
    m_missingLabel->setEnabled(false);
    QFont emptyFont = font();
    emptyFont.setPointSizeF(emptyFont.pointSizeF() * 1.3);
    m_missingLabel->setFont(emptyFont);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_content);
    m_stack->addWidget(m_missingLabel);

    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("presentationHint"));
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setEnabled(false); // faint: for the presenter, not the room
    m_hint->setFont(QApplication::font());
    updateHint();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin, kMargin * 2 / 3, kMargin, kMargin / 3);
    layout->setSpacing(kSpacing);
    layout->addWidget(m_header);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_hint);

    m_exit = addKeyAction(QStringLiteral("presentationExit"), tr("Leave Presentation"),
                          {QKeySequence(Qt::Key_Escape)});
    connect(m_exit, &QAction::triggered, this, &PresentationView::exitRequested);
    m_previous = addKeyAction(QStringLiteral("presentationPrevious"), tr("Previous Entity"),
                              {QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageUp)});
    connect(m_previous, &QAction::triggered, this, [this] { step(-1); });
    m_next = addKeyAction(QStringLiteral("presentationNext"), tr("Next Entity"),
                          {QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_PageDown)});
    connect(m_next, &QAction::triggered, this, [this] { step(1); });
    m_playPause = addKeyAction(QStringLiteral("presentationPlayPause"),
                               tr("Pause / Play the Clock"), {QKeySequence(Qt::Key_Space)});
    m_playPause->setEnabled(client.virtualClock() != nullptr);
    connect(m_playPause, &QAction::triggered, this, &PresentationView::togglePlayPause);

    connect(&m_client, &BrokerClient::changed, this, &PresentationView::onChanged);
    setEntity({}, Kind::Namespace);
}

QAction* PresentationView::addKeyAction(const QString& objectName, const QString& text,
                                        const QList<QKeySequence>& keys) {
    auto* action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcuts(keys);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(action);
    return action;
}

void PresentationView::buildTable() {
    m_messages = new MessageListModel(m_client, this);
    m_tableStack = new QStackedWidget(this);
    m_table = new QTableView(m_tableStack);
    m_table->setObjectName(QStringLiteral("presentationMessages"));
    m_table->setModel(m_messages);
    prepareMessageTable(m_table);
    // Keys belong to the presenter (arrows step entities, Space pauses): the table only shows.
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setShowGrid(false);
    m_table->setFrameShape(QFrame::NoFrame); // a card on the window, as the chart is
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    QHeaderView* rows = m_table->verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(m_table->fontMetrics().height() * 7 / 4);
    // A room needs who, what state, how often delivered and how long it has left; the lock
    // column shows only while the entity has locked messages (readCounts). A session entity's
    // sessions are summed up in the header (SessionSummary): the table keeps its room.
    for (int column : {MessageListModel::SequenceNumberColumn, MessageListModel::SubjectColumn,
                       MessageListModel::ExpiresAtColumn, MessageListModel::EnqueuedColumn,
                       MessageListModel::LockHolderColumn, MessageListModel::LockColumn,
                       MessageListModel::SessionIdColumn})
        m_table->setColumnHidden(column, true);
    QHeaderView* columns = m_table->horizontalHeader();
    columns->setStretchLastSection(false);
    columns->setHighlightSections(false);
    columns->setSectionsClickable(false);
    columns->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    const QFontMetrics metrics = m_table->fontMetrics();
    const auto fit = [&](int column, const QString& widest) {
        columns->setSectionResizeMode(column, QHeaderView::Fixed);
        columns->resizeSection(column, metrics.horizontalAdvance(widest) + 20);
    };
    fit(MessageListModel::StateColumn, QStringLiteral("Scheduled"));
    fit(MessageListModel::TimeToLiveColumn, QStringLiteral("Time to live  "));
    fit(MessageListModel::DeliveryCountColumn, QStringLiteral("Delivery count"));
    fit(MessageListModel::LockColumn, QStringLiteral("Time to live  "));
    columns->setSectionResizeMode(MessageListModel::MessageIdColumn, QHeaderView::Stretch);

    m_ticker = new CountdownTicker(m_table, CountdownTicker::kDefaultIntervalMs, this);
    connect(m_ticker, &CountdownTicker::visibleRowsDue, m_messages,
            &MessageListModel::refreshCountdowns);
    m_ticker->start();
    m_tableEmpty = new QLabel(m_tableStack);
    m_tableEmpty->setObjectName(QStringLiteral("presentationMessagesEmpty"));
    m_tableEmpty->setWordWrap(true);
    stackWithEmptyState(m_tableStack, m_table, m_tableEmpty);
    connect(m_messages, &MessageListModel::indexRefreshed, this,
            &PresentationView::updateMessagesEmpty);
}

void PresentationView::buildChart() {
    auto* chart = new QChart;
    chart->setTitle(tr("Messages over engine time"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(8, 8, 8, 8));
    chart->layout()->setContentsMargins(0, 0, 0, 0); // the card's top lines up with the table's
    charts::addCountsSeries(chart);
    m_chart = new QChartView(chart, this);
    m_chart->setObjectName(QStringLiteral("presentationChart"));
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setFocusPolicy(Qt::NoFocus);
    applyChartLook();
}

CountsHistory* PresentationView::history() const {
    return m_history;
}

void PresentationView::bindHistory(const QString& entity) {
    if (m_history)
        disconnect(m_history, nullptr, this, nullptr);
    // The Charts tab's history of the same entity, samples of the same interval: the room sees
    // what the explorer gathered before presentation mode opened.
    m_history = ChartHistories::of(m_client).show(this, entity);
    if (m_history) {
        connect(m_history, &CountsHistory::sampled, this, &PresentationView::plotHistory);
        connect(m_history, &CountsHistory::failed, this, [this](const Error& error) {
            // A missing entity has its own empty state; anything else is worth a word.
            if (error.code != ErrorCode::MessagingEntityNotFound)
                emit errorOccurred(error);
        });
    }
    plotHistory();
}

void PresentationView::plotHistory() {
    charts::plotCounts(m_chart->chart(), m_history, m_client.clock().now());
}

void PresentationView::applyChartLook() {
    // The theme resets fonts and colours: set ours after it.
    QChart* chart = m_chart->chart();
    chart->setTheme(paletteIsDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette().color(QPalette::Base));
    chart->setBackgroundRoundness(12);
    QFont title = font();
    title.setPointSizeF(title.pointSizeF() * kChartTitleScale);
    title.setBold(true);
    chart->setTitleFont(title);
    QFont labels = font();
    labels.setPointSizeF(labels.pointSizeF() * kChartLabelScale);
    chart->legend()->setFont(labels);
    for (QAbstractAxis* axis : chart->axes())
        axis->setLabelsFont(labels);
    const QList<QAbstractSeries*> series = chart->series();
    for (int i = 0; i < series.size(); ++i) {
        auto* line = static_cast<QLineSeries*>(series[i]);
        QPen pen(PresentationCountTiles::accent(charts::CountsSeries(i)), 3);
        line->setPen(pen);
        line->setMarkerSize(7);
    }
    charts::styleSeries(chart); // lines on top of each other stay visible
    charts::fitToWidth(chart);  // the larger legend font may no longer fit in one row
    charts::fitMarkers(chart);  // larger markers need more room
}

void PresentationView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The keys are the view's shortcuts: they need the focus inside it (nothing else takes it).
    setFocus(Qt::OtherFocusReason);
}

void PresentationView::changeEvent(QEvent* event) {
    if (m_chart && (event->type() == QEvent::PaletteChange ||
                    event->type() == QEvent::ApplicationPaletteChange))
        applyChartLook();
    QWidget::changeEvent(event);
}

void PresentationView::setCaption(const QString& text) {
    m_header->setCaption(text);
}

void PresentationView::setClockBadge(const QString& badge) {
    m_header->setClockBadge(badge);
    m_scenarioDriven = !badge.isEmpty();
    updateHint();
}

void PresentationView::updateHint() {
    QString keys = tr("Esc  leave     ←  →  previous / next entity");
    if (m_scenarioDriven)
        keys += tr("     Space  play / pause the scenario     F7  next step");
    else if (m_client.virtualClock())
        keys += tr("     Space  pause / play the clock");
    m_hint->setText(keys);
}

void PresentationView::setEntity(const QString& qualifiedPath, Kind kind) {
    if (qualifiedPath == m_path && kind == m_kind && !m_missing && !m_path.isEmpty())
        return;
    ++m_generation;
    m_path = qualifiedPath;
    m_kind = kind;
    m_missing = false;
    m_countsRead.reset();
    m_tiles->clear();
    const bool holds = !m_path.isEmpty() && holdsMessages(kind);
    m_entity = !holds                          ? QString()
               : kind == Kind::DeadLetterQueue ? EntityPath::of(m_path).owner().toString()
                                               : m_path;
    const auto [space, path] = presentation::splitQualified(m_path);
    const QString name =
        path.isEmpty() ? space : presentation::displayName(EntityPath::of(path).owner().toString());
    QString kindLine = presentation::kindText(kind);
    if (kind != Kind::Namespace && !space.isEmpty())
        kindLine += tr("  ·  namespace %1").arg(space);
    m_header->setTitle(m_path.isEmpty() ? tr("Presentation") : name,
                       m_path.isEmpty() ? QString() : kindLine);
    m_messages->setPath(holds ? m_path : QString());
    // A dead-letter queue has no sessions of its own.
    m_header->setSessionsPath(kind == Kind::DeadLetterQueue ? QString() : m_entity);
    bindHistory(m_entity);
    m_tableEmpty->setText(kind == Kind::DeadLetterQueue
                              ? tr("No dead-lettered messages in %1").arg(name)
                              : tr("No messages in %1").arg(name));
    m_tableStack->setCurrentWidget(m_table);
    if (m_path.isEmpty())
        return showMissing(tr("Nothing to present: choose a queue or subscription."));
    if (kind == Kind::Namespace)
        return showMissing(tr("A namespace has no messages of its own.\nPress → to present its "
                              "first queue."));
    if (kind == Kind::Topic)
        return showMissing(tr("A topic keeps no messages: its subscriptions do.\nPress → to "
                              "present them."));
    m_stack->setCurrentWidget(m_content);
    readCounts();
}

void PresentationView::showMissing(const QString& text) {
    m_missingLabel->setText(text);
    m_stack->setCurrentWidget(m_missingLabel);
}

void PresentationView::showGone(const QString& text) {
    // Nothing to read until it is created again (onChanged watches for that).
    m_missing = true;
    m_tiles->clear();
    m_messages->setPath({});
    bindHistory({});
    showMissing(text);
}

void PresentationView::readCounts() {
    if (m_entity.isEmpty())
        return;
    if (!m_countsRead.start())
        return; // one more read once this one is back: coalesced
    const quint64 generation = m_generation;
    m_client.call(
        this, [path = m_entity](Broker& b) { return b.counts(path); },
        [this, generation](Result<EntityCounts> counts) {
            if (generation != m_generation)
                return;
            m_countsRead.finish();
            if (!counts) {
                if (counts.error().code != ErrorCode::MessagingEntityNotFound)
                    return emit errorOccurred(counts.error());
                return showGone(tr("“%1” does not exist (yet).\nIt appears here as soon as it "
                                   "is created.")
                                    .arg(m_path));
            }
            m_tiles->setCounts(*counts);
            m_table->setColumnHidden(MessageListModel::LockColumn, counts->locked == 0);
            if (m_countsRead.takeQueued())
                readCounts();
        });
}

void PresentationView::updateMessagesEmpty() {
    const bool empty = m_messages->isIndexLoaded() && m_messages->total() == 0 &&
                       m_messages->lastError().isEmpty();
    m_tableStack->setCurrentWidget(empty ? static_cast<QWidget*>(m_tableEmpty) : m_table);
}

void PresentationView::onChanged(const ChangeBatch& batch) {
    if (m_entity.isEmpty())
        return;
    if (batch.deleted.contains(m_entity))
        return showGone(tr("“%1” was deleted.").arg(m_path));
    if (m_missing) {
        // A scenario may create the entity after the view opened: show it as soon as it exists.
        if (batch.created.contains(m_entity))
            setEntity(QString(m_path), m_kind);
        return;
    }
    const QString deadLetters = EntityPath::of(m_entity).deadLetterQueue().toString();
    for (const QSet<QString>* paths :
         {&batch.countsChanged, &batch.messagesAdded, &batch.messagesRemoved}) {
        if (paths->contains(m_entity) || paths->contains(deadLetters))
            return readCounts();
    }
}

void PresentationView::step(int delta) {
    const QString space = presentation::splitQualified(m_path).first;
    const quint64 generation = m_generation;
    m_client.call(
        this, [space](Broker& b) { return b.entities(space); },
        [this, delta, generation](const QList<EntityInfo>& entities) {
            if (generation != m_generation)
                return; // the entity changed meanwhile: this step is stale
            const std::optional<presentation::Stop> next =
                presentation::stepFrom(entities, m_entity.isEmpty() ? m_path : m_entity, delta);
            if (next)
                setEntity(next->path, next->kind);
        });
}

void PresentationView::togglePlayPause() {
    // As the time toolbar's play/pause: on the clock itself (its own mutex, not the broker's).
    if (VirtualClock* clock = m_client.virtualClock())
        clock->isPaused() ? clock->play() : clock->pause();
    m_header->refreshClock(); // the badge says PAUSED at once, not a tick later
}

} // namespace hourglass::ui
