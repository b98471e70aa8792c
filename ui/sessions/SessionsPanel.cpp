#include "sessions/SessionsPanel.h"

#include "common/BrokerClient.h"
#include "common/FixedPitchFont.h"
#include "messages/CountdownDelegate.h"
#include "messages/CountdownTicker.h"
#include "sessions/SessionHeldText.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionStateDialog.h"
#include "sessions/SessionStateText.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

const QString SessionsPanel::kStateEditor = QStringLiteral("explorer (state editor)");

namespace {
// Why a write was refused, in the words an operator needs: who holds the session, what to do.
Error explainStateRefusal(const Error& error, const QString& sessionId, const QString& holder) {
    if (error.code != ErrorCode::SessionCannotBeLocked)
        return error;
    Error explained = error;
    explained.description =
        sessionHeldText(sessionId, holder) +
        QObject::tr(" Only a session's holder can change its state; nothing was changed.");
    return explained;
}
} // namespace

SessionsPanel::SessionsPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_model(new SessionListModel(client, this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(m_stack))
    , m_stateTitle(new QLabel(this))
    , m_stateFormat(new QComboBox(this))
    , m_stateView(new QPlainTextEdit(this))
    , m_editState(new QPushButton(tr("Edit state…"), this))
    , m_showMessages(new QPushButton(tr("Show messages"), this))
    , m_status(new QLabel(this)) {
    m_title->setObjectName(QStringLiteral("sessionsTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_filter->setObjectName(QStringLiteral("sessionFilter"));
    m_filter->setPlaceholderText(tr("Filter sessions by id or holder"));
    m_filter->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("sessionsStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(Qt::UserRole);
    m_sorted->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_sorted->setDynamicSortFilter(true);
    connect(m_filter, &QLineEdit::textChanged, m_sorted,
            [this](const QString& text) { m_sorted->setFilterFixedString(text.trimmed()); });
    // Only the session id and the holder are what an operator filters by; the counts would
    // match "1" everywhere.
    m_sorted->setFilterKeyColumn(SessionListModel::SessionIdColumn);
    m_sorted->setFilterRole(SessionListModel::FilterTextRole);

    m_view->setObjectName(QStringLiteral("sessionList"));
    m_view->setModel(m_sorted);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(SessionListModel::SessionIdColumn, Qt::AscendingOrder);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->setItemDelegateForColumn(SessionListModel::SessionLockColumn,
                                     new CountdownDelegate(CountdownDelegate::Meaning::Lock, this));
    fitColumns();

    m_empty->setObjectName(QStringLiteral("sessionsEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setEnabled(false);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_title, 1);
    filterRow->addWidget(m_filter);
    m_filter->setMinimumWidth(fontMetrics().horizontalAdvance(m_filter->placeholderText()) + 24);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_stack);
    splitter->addWidget(buildStatePane());
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(filterRow);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    auto* ticker = new CountdownTicker(m_view, CountdownTicker::kDefaultIntervalMs, this);
    connect(ticker, &CountdownTicker::visibleRowsDue, this, [this](int first, int last) {
        int low = m_model->rowCount();
        int high = -1;
        for (int row = first; row <= last; ++row) {
            const int source = m_sorted->mapToSource(m_sorted->index(row, 0)).row();
            low = std::min(low, source);
            high = std::max(high, source);
        }
        m_model->refreshCountdowns(low, high);
    });
    ticker->start();

    connect(m_model, &SessionListModel::refreshed, this, &SessionsPanel::onRefreshed);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SessionsPanel::readCurrentState);
    connect(m_view, &QTableView::doubleClicked, this, [this] {
        if (const auto session = currentSession())
            emit showMessagesRequested(*session);
    });
    connect(m_editState, &QPushButton::clicked, this, &SessionsPanel::editState);
    connect(m_showMessages, &QPushButton::clicked, this, [this] {
        if (const auto session = currentSession())
            emit showMessagesRequested(*session);
    });
    connect(m_stateFormat, &QComboBox::currentIndexChanged, this, &SessionsPanel::showState);
    onRefreshed();
}

void SessionsPanel::fitColumns() {
    // The table fits its tab without a horizontal scroll bar at 1280x800 and stays readable at
    // 900x600: the counts and the fixed-size cells (lock countdown, state size) are as wide as
    // their title or content needs, the session id as a typical id, the time the state was set
    // whole, and the holder takes what is left (its tooltip names a long holder in full). A
    // scroll bar appears only when even that does not fit (900x600).
    QHeaderView* header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 12);
    const QFontMetrics titles(header->font());
    const auto fit = [&](int column, const QString& widestContent) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        const int width = std::max(titles.horizontalAdvance(title),
                                   fontMetrics().horizontalAdvance(widestContent)) +
                          18;
        header->setSectionResizeMode(column, QHeaderView::Interactive);
        m_view->setColumnWidth(column, width);
    };
    for (int column : {SessionListModel::ActiveColumn, SessionListModel::DeferredColumn,
                       SessionListModel::ScheduledColumn, SessionListModel::LockedColumn})
        fit(column, QStringLiteral("0000"));
    fit(SessionListModel::SessionIdColumn, QStringLiteral("customer-00"));
    fit(SessionListModel::SessionLockColumn, QStringLiteral("00m 00s"));
    fit(SessionListModel::StateColumn, QStringLiteral("1024 bytes"));
    fit(SessionListModel::StateSetColumn, QStringLiteral("2026-12-31 23:59:59"));
    header->setSectionResizeMode(SessionListModel::HolderColumn, QHeaderView::Stretch);
}

QWidget* SessionsPanel::buildStatePane() {
    auto* pane = new QWidget(this);
    m_stateTitle->setObjectName(QStringLiteral("sessionStateTitle"));
    m_stateFormat->setObjectName(QStringLiteral("sessionStateFormat"));
    m_stateFormat->addItem(tr("Text"), int(StateFormat::Text));
    m_stateFormat->addItem(tr("JSON"), int(StateFormat::Json));
    m_stateFormat->addItem(tr("Hex"), int(StateFormat::Hex));
    m_stateView->setObjectName(QStringLiteral("sessionStateView"));
    m_stateView->setReadOnly(true);
    m_stateView->setFont(fixedPitchFont());
    m_editState->setObjectName(QStringLiteral("sessionEditState"));
    m_editState->setToolTip(tr("Change the session's state (asks for a confirmation)"));
    m_showMessages->setObjectName(QStringLiteral("sessionShowMessages"));
    m_showMessages->setToolTip(tr("The Messages tab, filtered to this session (double-click)"));
    auto* header = new QHBoxLayout;
    header->addWidget(m_stateTitle, 1);
    header->addWidget(m_stateFormat);
    header->addWidget(m_editState);
    header->addWidget(m_showMessages);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_stateView, 1);
    return pane;
}

void SessionsPanel::setEntity(const QString& qualifiedPath, NodeKind kind) {
    const bool mayHaveSessions = kind == NodeKind::Queue || kind == NodeKind::Subscription;
    setEntity(mayHaveSessions ? qualifiedPath : QString());
}

void SessionsPanel::setEntity(const QString& qualifiedPath) {
    m_path = qualifiedPath;
    m_status->clear();
    m_filter->clear();
    m_stateSession.reset();
    m_state.reset();
    ++m_stateGeneration;
    m_model->setPath(qualifiedPath);
}

std::optional<QString> SessionsPanel::currentSession() const {
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid() || !m_view->selectionModel()->isRowSelected(current.row(), {}))
        return std::nullopt;
    return current.data(SessionListModel::SessionIdRole).toString();
}

void SessionsPanel::selectSession(const QString& sessionId) {
    const int row = m_model->rowOf(sessionId);
    if (row < 0)
        return;
    const QModelIndex index = m_sorted->mapFromSource(m_model->index(row, 0));
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
}

void SessionsPanel::onRefreshed() {
    using Availability = SessionListModel::Availability;
    const Availability availability = m_model->availability();
    const bool available = availability == Availability::Sessionful;
    // While a new entity is being read the tab keeps its state, so that going from one session
    // queue to another does not leave the Sessions tab.
    const bool known = availability != Availability::Unknown || m_path.isEmpty();
    if (known && available != m_available) {
        m_available = available;
        emit sessionsAvailable(available);
    }
    const int rows = m_model->rowCount();
    QString empty;
    if (m_path.isEmpty())
        empty = tr("Select a queue or subscription that requires sessions.");
    else if (availability == Availability::Unknown)
        empty = tr("Reading sessions…");
    else if (availability == Availability::NoEntity)
        empty = m_model->lastError();
    else if (availability == Availability::NotSessionful)
        empty = tr("%1 does not require sessions: its messages go to any receiver. Sessions are "
                   "chosen when a queue or subscription is created (RequiresSession).")
                    .arg(m_path);
    else if (rows == 0)
        empty = tr("No sessions yet. A session appears with its first message (send one with a "
                   "SessionId), or when a receiver accepts it.");
    m_empty->setText(empty);
    m_stack->setCurrentWidget(empty.isEmpty() ? static_cast<QWidget*>(m_view) : m_empty);
    m_filter->setEnabled(available);
    if (!available)
        m_title->setText(tr("Sessions"));
    else if (m_model->total() > rows)
        m_title->setText(tr("Sessions of %1: %2 (the first %3 listed)")
                             .arg(m_path)
                             .arg(m_model->total())
                             .arg(rows));
    else
        m_title->setText(tr("Sessions of %1: %2").arg(m_path).arg(rows));
    if (!m_model->lastError().isEmpty() && available)
        showError(makeError(ErrorCode::GeneralError, m_model->lastError()));
    // The shown session's state may have changed (set by its holder, or removed): read it again
    // when its stamp moved; another current session is read anyway.
    const auto current = currentSession();
    const int row = current ? m_model->rowOf(*current) : -1;
    const Instant stamp = row >= 0 ? m_model->sessionAt(row).stateSetAt : 0;
    if (current != m_stateSession || stamp != m_stateStamp)
        readCurrentState();
    else
        updateButtons();
}

void SessionsPanel::readCurrentState() {
    const auto session = currentSession();
    const quint64 generation = ++m_stateGeneration;
    if (!session) {
        m_stateSession.reset();
        m_state.reset();
        showState();
        return;
    }
    const QString path = m_path;
    const QString sessionId = *session;
    m_client.call(
        this, [path, sessionId](Broker& b) { return b.session(path, sessionId); },
        [this, generation, sessionId](Result<SessionInfo> read) {
            if (generation != m_stateGeneration)
                return;
            if (!read)
                return showError(read.error());
            const bool firstRead = m_stateSession != sessionId;
            m_stateSession = sessionId;
            m_stateStamp = read->stateSetAt;
            m_state = read->hasState ? std::optional<QByteArray>(read->state) : std::nullopt;
            if (firstRead && m_state) {
                const QSignalBlocker blocker(m_stateFormat);
                m_stateFormat->setCurrentIndex(
                    m_stateFormat->findData(int(bestStateFormat(*m_state))));
            }
            showState();
        });
}

void SessionsPanel::showState() {
    updateButtons();
    if (!m_stateSession) {
        m_stateTitle->setText(m_available ? tr("Select a session to see its state") : QString());
        m_stateView->clear();
        return;
    }
    if (!m_state) {
        m_stateTitle->setText(tr("Session %1 has no state").arg(*m_stateSession));
        m_stateView->clear();
        m_stateView->setPlaceholderText(tr("No state: Edit state… sets one"));
        return;
    }
    m_stateTitle->setText(
        tr("State of session %1 (%2 bytes)").arg(*m_stateSession).arg(m_state->size()));
    const StateText text = stateToText(*m_state, StateFormat(m_stateFormat->currentData().toInt()));
    m_stateView->setPlainText(text.text);
}

void SessionsPanel::updateButtons() {
    const bool session = currentSession().has_value() && m_stateSession == currentSession();
    m_editState->setEnabled(session);
    m_showMessages->setEnabled(currentSession().has_value());
    m_stateFormat->setEnabled(m_state.has_value());
}

void SessionsPanel::editState() {
    const auto session = currentSession();
    if (!session || m_stateSession != session)
        return;
    const QString note =
        tr("Only a session's holder may write its state: the explorer takes the session's "
           "lock as \"%1\" for the write and releases it at once. A session another receiver "
           "holds cannot be changed.")
            .arg(kStateEditor);
    auto* dialog = new SessionStateDialog(m_path, *session, m_state, note, this);
    connect(dialog, &SessionStateDialog::confirmed, this,
            [this, dialog, sessionId = *session](const std::optional<QByteArray>& state) {
                writeState(dialog, sessionId, state);
            });
    dialog->open();
}

void SessionsPanel::writeState(SessionStateDialog* dialog, const QString& sessionId,
                               const std::optional<QByteArray>& state) {
    const QString path = m_path;
    const int row = m_model->rowOf(sessionId);
    const QString holder = row >= 0 ? m_model->sessionAt(row).lockedBy : QString();
    QPointer<SessionStateDialog> guard(dialog);
    m_client.call(
        this,
        [path, sessionId, state](Broker& b) -> Result<void> {
            auto accepted = b.acceptSession(path, {kStateEditor, sessionId});
            if (!accepted)
                return accepted.error();
            const SessionRef ref = SessionRef::of(*accepted);
            const auto written = b.setSessionState(ref, state);
            // The lock goes back whether the write took or not.
            (void)b.releaseSession(ref);
            return written;
        },
        [this, guard, sessionId, holder](Result<void> written) {
            if (!written) {
                const Error error = explainStateRefusal(written.error(), sessionId, holder);
                if (guard)
                    guard->showWriteError(error);
                return showError(error);
            }
            if (guard)
                guard->finish();
            showResult(tr("The state of session %1 was set.").arg(sessionId));
            readCurrentState();
        });
}

void SessionsPanel::showResult(const QString& text) {
    m_status->setStyleSheet(QString());
    m_status->setText(text);
    emit statusMessage(text);
}

void SessionsPanel::showError(const Error& error) {
    m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_status->setText(error.toString());
    emit errorOccurred(error);
}

} // namespace hourglass::ui
