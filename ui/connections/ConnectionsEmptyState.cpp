#include "ConnectionsEmptyState.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

ConnectionsEmptyState::ConnectionsEmptyState(QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel)
    , m_detail(new QLabel)
    , m_connectionString(new QLineEdit)
    , m_settings(new QPushButton(tr("AMQP endpoint settings…"))) {
    m_headline->setObjectName(QStringLiteral("connectionsEmpty"));
    m_detail->setObjectName(QStringLiteral("connectionsEmptyDetail"));
    m_connectionString->setObjectName(QStringLiteral("connectionsEmptyString"));
    m_settings->setObjectName(QStringLiteral("openAmqpSettings"));
    QFont headlineFont = m_headline->font();
    headlineFont.setBold(true);
    m_headline->setFont(headlineFont);
    for (QLabel* label : {m_headline, m_detail}) {
        label->setAlignment(Qt::AlignCenter);
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    // Read-only but selectable: the string is there to be copied.
    m_connectionString->setReadOnly(true);
    connect(m_settings, &QPushButton::clicked, this, &ConnectionsEmptyState::settingsRequested);

    auto* settingsRow = new QHBoxLayout;
    settingsRow->addStretch(1);
    settingsRow->addWidget(m_settings);
    settingsRow->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 8, 16, 8);
    layout->addStretch(1);
    layout->addWidget(m_headline);
    layout->addWidget(m_detail);
    layout->addWidget(m_connectionString);
    layout->addLayout(settingsRow);
    layout->addStretch(1);
}

void ConnectionsEmptyState::show(AmqpService::State state, const QString& connectionString,
                                 const QString& problem) {
    using State = AmqpService::State;
    QString headline;
    QString detail;
    switch (state) {
    case State::Serving:
        headline = tr("No application is connected.");
        detail = tr("Point an Azure Service Bus SDK at this connection string, and its "
                    "connections, links and locks appear here:");
        break;
    case State::Off:
        headline = tr("The AMQP endpoint is off.");
        detail = tr("Applications cannot reach this database until it is turned on.");
        break;
    case State::NoDatabase:
        headline = tr("No database is open.");
        detail = tr("Open or create one (File menu): applications connect to the open "
                    "database.");
        break;
    case State::Starting:
        headline = tr("The AMQP endpoint is starting.");
        detail = tr("Its TLS certificate is being prepared; applications can connect in a "
                    "moment.");
        break;
    case State::NotServing:
        headline = tr("The AMQP endpoint is not serving.");
        // A busy port or a public address without a key of its own: the settings mend both.
        detail = tr("%1\nChange the port, address or key in the settings.").arg(problem);
        break;
    }
    m_headline->setText(headline);
    m_detail->setText(detail);
    const bool serving = state == State::Serving;
    const QString shown = serving ? connectionString : QString();
    // Twice a second the same string comes again: leave a selection being made alone.
    if (m_connectionString->text() != shown) {
        m_connectionString->setText(shown);
        m_connectionString->setCursorPosition(0);
        // As wide as the string and no wider, centred; a narrow dock shows its start.
        const int padding = 4 * m_connectionString->fontMetrics().averageCharWidth();
        m_connectionString->setMaximumWidth(
            m_connectionString->fontMetrics().horizontalAdvance(shown) + padding);
    }
    m_connectionString->setVisible(serving);
    m_settings->setVisible(state == State::Off || state == State::NotServing);
}

} // namespace hourglass::ui
