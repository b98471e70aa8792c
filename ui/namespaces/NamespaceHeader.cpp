#include "namespaces/NamespaceHeader.h"

#include "common/InlineError.h"
#include "namespaces/SavedNamespace.h"

#include <QActionGroup>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

namespace hourglass::ui {

namespace {

// A small rounded mark beside the name ("remote", "read-only"), in the palette's colours so that
// it reads on both themes.
QLabel* makeMark(const QString& text, const QString& objectName, const QString& tip,
                 QWidget* parent) {
    auto* mark = new QLabel(text, parent);
    mark->setObjectName(objectName);
    mark->setToolTip(tip);
    mark->setStyleSheet(QStringLiteral("QLabel { border: 1px solid palette(mid); border-radius: "
                                       "3px; padding: 0px 4px; color: palette(text); }"));
    QFont font = mark->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    mark->setFont(font);
    return mark;
}

QString secondsText(std::chrono::milliseconds interval) {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(interval).count();
    return seconds % 60 == 0 && seconds >= 60 ? QObject::tr("%n min", nullptr, int(seconds / 60))
                                              : QObject::tr("%n s", nullptr, int(seconds));
}

} // namespace

QList<int> NamespaceHeader::pollChoices() {
    return {2, 5, 15, 30, 60};
}

NamespaceHeader::NamespaceHeader(const SavedNamespace& saved, QWidget* parent)
    : QFrame(parent)
    , m_name(new QLabel(saved.name, this))
    , m_status(new QLabel(this))
    , m_connect(new QToolButton(this))
    , m_menuButton(new QToolButton(this))
    , m_menu(new QMenu(this))
    , m_where(saved.connection.displayName()) {
    setObjectName(QStringLiteral("namespaceHeader"));
    setFrameShape(QFrame::StyledPanel);
    m_name->setObjectName(QStringLiteral("namespaceName"));
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    m_name->setToolTip(m_where);
    m_status->setObjectName(QStringLiteral("namespaceStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connect->setObjectName(QStringLiteral("namespaceConnect"));
    m_connect->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(m_connect, &QToolButton::clicked, this, [this] {
        if (m_state == State::Connected || m_state == State::Connecting)
            emit disconnectRequested();
        else
            emit connectRequested();
    });

    m_menuButton->setObjectName(QStringLiteral("namespaceMenu"));
    m_menuButton->setText(QStringLiteral("⋯"));
    m_menuButton->setToolTip(tr("Poll interval, refresh, entities to browse, forget"));
    m_menuButton->setPopupMode(QToolButton::InstantPopup);
    m_menuButton->setMenu(m_menu);
    QMenu* every = m_menu->addMenu(tr("Read counts &every"));
    auto* group = new QActionGroup(every);
    for (int seconds : pollChoices()) {
        const std::chrono::milliseconds interval = std::chrono::seconds(seconds);
        QAction* choice = every->addAction(secondsText(interval));
        choice->setObjectName(QStringLiteral("pollInterval-%1").arg(seconds));
        choice->setCheckable(true);
        choice->setData(seconds);
        group->addAction(choice);
        connect(choice, &QAction::triggered, this,
                [this, interval] { emit pollIntervalChosen(interval); });
        m_intervals.append(choice);
    }
    m_refresh =
        m_menu->addAction(tr("&Refresh counts now"), this, &NamespaceHeader::refreshRequested);
    m_refresh->setObjectName(QStringLiteral("refreshCounts"));
    QAction* name = m_menu->addAction(tr("Entities to &browse…"), this,
                                      &NamespaceHeader::namedEntitiesRequested);
    name->setObjectName(QStringLiteral("nameEntities"));
    name->setToolTip(tr("For a key that cannot list the namespace (Listen or Send only): the "
                        "queues, topics and subscriptions to show"));
    m_menu->addSeparator();
    QAction* forget =
        m_menu->addAction(tr("&Forget this namespace…"), this, &NamespaceHeader::forgetRequested);
    forget->setObjectName(QStringLiteral("forgetNamespace"));

    auto* marks = new QHBoxLayout;
    marks->setSpacing(4);
    marks->addWidget(m_name);
    marks->addWidget(makeMark(tr("remote"), QStringLiteral("remoteMark"),
                              tr("A namespace this window does not host: %1").arg(m_where), this));
    if (saved.readOnly)
        marks->addWidget(makeMark(tr("read-only"), QStringLiteral("readOnlyMark"),
                                  tr("Peek and browse only: nothing is changed"), this));
    marks->addStretch(1);
    marks->addWidget(m_connect);
    marks->addWidget(m_menuButton);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 4, 4);
    layout->setVerticalSpacing(2);
    layout->addLayout(marks, 0, 0);
    layout->addWidget(m_status, 1, 0);
    setState(State::Disconnected);
    setPollInterval(m_interval);
}

void NamespaceHeader::setState(State state, const QString& problem) {
    m_state = state;
    m_problem = problem;
    m_connect->setText(state == State::Connected    ? tr("Disconnect")
                       : state == State::Connecting ? tr("Cancel")
                                                    : tr("Connect"));
    m_refresh->setEnabled(state == State::Connected);
    if (state != State::Connected) {
        m_lastPollAt = 0;
        m_lostAt = 0;
    }
    updateStatus();
}

void NamespaceHeader::setPollInterval(std::chrono::milliseconds interval) {
    m_interval = interval;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(interval).count();
    for (QAction* choice : m_intervals)
        choice->setChecked(choice->data().toInt() == seconds);
    updateStatus();
}

void NamespaceHeader::setLastPoll(qint64 lastPollAtMs, const QString& listProblem) {
    if (m_lastPollAt == lastPollAtMs && m_listProblem == listProblem)
        return;
    m_lastPollAt = lastPollAtMs;
    m_listProblem = listProblem;
    updateStatus();
}

void NamespaceHeader::setNamedOnly(bool namedOnly) {
    if (m_namedOnly == namedOnly)
        return;
    m_namedOnly = namedOnly;
    updateStatus();
}

void NamespaceHeader::setConnectionLost(qint64 lostAtMs, const QString& problem) {
    if (m_lostAt == lostAtMs && m_lostProblem == problem)
        return;
    m_lostAt = lostAtMs;
    m_lostProblem = problem;
    updateStatus();
}

void NamespaceHeader::updateStatus() {
    QString text;
    QString tip;
    bool problem = false;
    switch (m_state) {
    case State::Disconnected:
        text = tr("%1 · not connected").arg(m_where);
        break;
    case State::Connecting:
        text = tr("Connecting to %1…").arg(m_where);
        break;
    case State::Failed:
        text = m_problem;
        problem = true;
        break;
    case State::Connected:
        if (m_lostAt > 0) {
            // Before the counts: while it is broken, the poll fails for the same reason.
            text = tr("Connection lost at %1 — reconnecting…")
                       .arg(QDateTime::fromMSecsSinceEpoch(m_lostAt).toString(
                           QStringLiteral("HH:mm:ss")));
            tip = m_lostProblem;
            problem = true;
        } else if (!m_listProblem.isEmpty()) {
            text = tr("Counts not read: %1").arg(m_listProblem);
            problem = true;
        } else {
            const QString last = m_lastPollAt > 0 ? QDateTime::fromMSecsSinceEpoch(m_lastPollAt)
                                                        .toString(QStringLiteral("HH:mm:ss"))
                                                  : tr("not yet");
            text = tr("%1 · counts every %2, last %3").arg(m_where, secondsText(m_interval), last);
            if (m_namedOnly)
                text += tr(" · the entities named (this key cannot list the namespace)");
        }
        break;
    }
    m_status->setText(text);
    m_status->setToolTip(tip);
    // A problem in the error colour; the rest muted, under the name it is about.
    QPalette palette = this->palette();
    palette.setColor(QPalette::WindowText,
                     problem ? errorTextColor() : palette.color(QPalette::PlaceholderText));
    m_status->setPalette(palette);
}

} // namespace hourglass::ui
