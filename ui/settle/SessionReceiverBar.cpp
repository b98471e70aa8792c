#include "settle/SessionReceiverBar.h"

#include "common/BrokerClient.h"
#include "messages/CountdownDelegate.h"
#include "sessions/SessionHeldText.h"
#include "sessions/SessionStateDialog.h"
#include "settle/HeldSessions.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {
constexpr int kVisibleSessionRows = 3;
} // namespace

SessionReceiverBar::SessionReceiverBar(BrokerClient& client, HeldSessions& sessions,
                                       std::function<QString()> receiverName, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_sessions(sessions)
    , m_receiverName(std::move(receiverName))
    , m_sessionId(new QLineEdit(this))
    , m_view(new QTableView(this)) {
    m_sessionId->setObjectName(QStringLiteral("sessionToAccept"));
    m_sessionId->setPlaceholderText(tr("next available"));
    m_sessionId->setToolTip(tr("The session to accept; empty: the next available one, "
                               "the unlocked session with the oldest message"));
    m_sessionId->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("next available "
                                                                                "session")) +
                                 16);
    m_accept = addBarAction(QStringLiteral("sessionAccept"), tr("Accept session"),
                            tr("Take the session's lock as the receiver named above"));
    QAction* renewAction = addBarAction(QStringLiteral("sessionRenew"), tr("Renew session"),
                                        tr("Extend the receiver's session lock by LockDuration"));
    QAction* stateAction = addBarAction(QStringLiteral("sessionStateEdit"), tr("State…"),
                                        tr("Read and set the session's state"));
    QAction* releaseAction = addBarAction(QStringLiteral("sessionRelease"), tr("Release"),
                                          tr("End the session lock; its message locks are lost"));
    connect(m_accept, &QAction::triggered, this, &SessionReceiverBar::accept);
    connect(renewAction, &QAction::triggered, this, &SessionReceiverBar::renew);
    connect(stateAction, &QAction::triggered, this, &SessionReceiverBar::editState);
    connect(releaseAction, &QAction::triggered, this, &SessionReceiverBar::release);
    connect(m_sessionId, &QLineEdit::returnPressed, this, &SessionReceiverBar::accept);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Session:"), this));
    row->addWidget(m_sessionId);
    for (QAction* action : std::as_const(m_actions)) {
        auto* button = new QToolButton(this);
        button->setObjectName(action->objectName());
        button->setDefaultAction(action);
        row->addWidget(button);
    }
    row->addStretch(1);

    m_view->setObjectName(QStringLiteral("heldSessions"));
    m_view->setModel(&m_sessions);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setFocusPolicy(Qt::NoFocus);
    m_view->verticalHeader()->hide();
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegateForColumn(HeldSessions::SessionLockColumn,
                                     new CountdownDelegate(CountdownDelegate::Meaning::Lock, this));
    m_view->setColumnWidth(HeldSessions::ReceiverColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("receiver-name")) + 24);
    m_view->setColumnWidth(HeldSessions::SessionColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("customer-0000")) + 24);
    m_view->setColumnWidth(HeldSessions::SessionLockColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("Session lost")) + 60);
    // As tall as the sessions held (up to a few), and hidden without any: the message locks
    // keep their room in a small window.
    const auto fitHeight = [this] {
        const int rows = std::min(m_sessions.rowCount(), kVisibleSessionRows);
        m_view->setVisible(rows > 0);
        m_view->setFixedHeight(m_view->horizontalHeader()->sizeHint().height() +
                               m_view->verticalHeader()->defaultSectionSize() * rows +
                               2 * m_view->frameWidth());
    };
    connect(&m_sessions, &QAbstractItemModel::rowsInserted, this, fitHeight);
    connect(&m_sessions, &QAbstractItemModel::rowsRemoved, this, fitHeight);
    connect(&m_sessions, &QAbstractItemModel::modelReset, this, fitHeight);
    fitHeight();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_view);
}

QAction* SessionReceiverBar::addBarAction(const QString& name, const QString& text,
                                          const QString& toolTip) {
    auto* action = new QAction(text, this);
    action->setObjectName(name);
    action->setToolTip(toolTip);
    addAction(action);
    m_actions.append(action);
    return action;
}

void SessionReceiverBar::setEntity(const QString& qualifiedPath) {
    ++m_generation;
    m_path = qualifiedPath;
    m_sessions.clear();
    m_sessionId->clear();
}

void SessionReceiverBar::focusAccept() {
    m_sessionId->setFocus();
}

std::optional<SessionRef> SessionReceiverBar::currentSession() {
    const QString receiver = m_receiverName();
    if (auto held = m_sessions.heldBy(receiver))
        return held;
    if (m_sessions.isLost(receiver))
        emit result(tr("%1 lost its session %2: accept a session again.")
                        .arg(receiver, m_sessions.sessionOf(receiver).value_or(QString())));
    else
        emit result(tr("%1 holds no session here: accept one first.").arg(receiver));
    return std::nullopt;
}

void SessionReceiverBar::failedFor(const QString& receiver, const Error& error) {
    if (error.code == ErrorCode::SessionLockLost)
        m_sessions.markLost(receiver, error.description);
    emit failed(error);
}

void SessionReceiverBar::accept() {
    if (m_path.isEmpty())
        return;
    const QString receiver = m_receiverName();
    if (receiver.isEmpty())
        return emit result(tr("Name a receiver first."));
    if (const auto held = m_sessions.heldBy(receiver))
        return emit result(tr("%1 already holds session %2: release it first, or accept as "
                              "another receiver.")
                               .arg(receiver, held->sessionId));
    SessionAcceptOptions options;
    options.receiver = receiver;
    const QString named = m_sessionId->text().trimmed();
    if (!named.isEmpty())
        options.sessionId = named;
    const QString path = m_path;
    m_client.call(
        this,
        [path, options](Broker& b) -> Result<AcceptedSession> {
            auto accepted = b.acceptSession(path, options);
            // A named session someone else holds: say who, and where an application shows.
            if (!accepted && accepted.error().code == ErrorCode::SessionCannotBeLocked &&
                options.sessionId) {
                const auto info = b.session(path, *options.sessionId);
                Error explained = accepted.error();
                explained.description =
                    sessionHeldText(*options.sessionId, info ? info->lockedBy : QString());
                return explained;
            }
            return accepted;
        },
        [this, path, options, generation = m_generation](Result<AcceptedSession> accepted) {
            if (generation != m_generation)
                return;
            if (!accepted) {
                // No session free is an answer, not a failure.
                if (accepted.error().code == ErrorCode::ServiceTimeout && !options.sessionId)
                    return emit result(tr("No session is available now: every session with "
                                          "messages is locked, or there are none."));
                return emit failed(accepted.error());
            }
            AcceptedSession session = *accepted;
            session.entityPath = path; // the qualified path, so another namespace resolves
            m_sessions.add(session);
            emit result(tr("%1 accepted session %2; Receive takes its messages in order.")
                            .arg(session.receiver, session.sessionId));
        });
}

void SessionReceiverBar::renew() {
    const auto session = currentSession();
    if (!session)
        return;
    m_client.call(
        this, [ref = *session](Broker& b) { return b.renewSessionLock(ref); },
        [this, ref = *session, generation = m_generation](Result<Instant> renewed) {
            if (generation != m_generation)
                return;
            if (!renewed)
                return failedFor(ref.receiver, renewed.error());
            m_sessions.setLockedUntil(ref.receiver, *renewed);
            emit result(tr("%1 renewed session %2 until %3.")
                            .arg(ref.receiver, ref.sessionId, formatInstant(*renewed)));
        });
}

void SessionReceiverBar::release() {
    const QString receiver = m_receiverName();
    const auto session = m_sessions.heldBy(receiver);
    if (!session) {
        // A lost session leaves nothing to release: the row goes.
        if (m_sessions.isLost(receiver)) {
            m_sessions.remove(receiver);
            return emit result(tr("Cleared %1's lost session.").arg(receiver));
        }
        return emit result(tr("%1 holds no session here.").arg(receiver));
    }
    m_client.call(
        this, [ref = *session](Broker& b) { return b.releaseSession(ref); },
        [this, ref = *session, generation = m_generation](Result<void> released) {
            if (generation != m_generation)
                return;
            m_sessions.remove(ref.receiver);
            emit this->released(ref.receiver);
            if (!released && released.error().code != ErrorCode::SessionLockLost)
                return emit failed(released.error());
            emit result(tr("%1 released session %2.").arg(ref.receiver, ref.sessionId));
        });
}

void SessionReceiverBar::editState() {
    const auto session = currentSession();
    if (!session)
        return;
    m_client.call(
        this, [ref = *session](Broker& b) { return b.sessionState(ref); },
        [this, ref = *session, generation = m_generation](Result<std::optional<QByteArray>> state) {
            if (generation != m_generation)
                return;
            if (!state)
                return failedFor(ref.receiver, state.error());
            auto* dialog = new SessionStateDialog(
                ref.entityPath, ref.sessionId, *state,
                tr("Written as %1, the session's holder.").arg(ref.receiver), this);
            QPointer<SessionStateDialog> guard(dialog);
            connect(dialog, &SessionStateDialog::confirmed, this,
                    [this, ref, guard](const std::optional<QByteArray>& newState) {
                        m_client.call(
                            this,
                            [ref, newState](Broker& b) { return b.setSessionState(ref, newState); },
                            [this, ref, guard](Result<void> written) {
                                if (!written) {
                                    if (guard)
                                        guard->showWriteError(written.error());
                                    return failedFor(ref.receiver, written.error());
                                }
                                if (guard)
                                    guard->finish();
                                emit result(tr("%1 set the state of session %2.")
                                                .arg(ref.receiver, ref.sessionId));
                            });
                    });
            dialog->open();
        });
}

} // namespace hourglass::ui
