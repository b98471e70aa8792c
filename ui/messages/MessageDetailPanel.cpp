#include "messages/MessageDetailPanel.h"

#include "common/BrokerClient.h"
#include "common/FixedPitchFont.h"
#include "common/LockHolderText.h"
#include "hourglass/EntityPath.h"

#include "hourglass/PropertyTypes.h"
// The endpoint's library (hourglass_ui links it for the Connections view) reads what the body
// was on the wire from the extras it stored.
#include "hourglass/amqpcodec/WireExtras.h"

#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {

enum Page { EmptyPage = 0, ErrorPage = 1, MessagePage = 2 };

const QString kNone = QStringLiteral("\u2014"); // an em dash: "not set"

QString orNone(const QString& text) {
    return text.isEmpty() ? kNone : text;
}

QString durationText(Millis duration) {
    return duration == kInfinite ? QStringLiteral("never") : formatIsoDuration(duration);
}

QString instantText(Instant instant) {
    return instant == kNever ? QStringLiteral("never") : formatInstant(instant);
}

// Every system property, in the order Service Bus Explorer lists them.
QList<QPair<QString, QString>> systemProperties(const MessageView& m) {
    QString state = messageStateName(m.state);
    if (m.subQueue == SubQueue::DeadLetter)
        state += QStringLiteral(" (dead-letter queue)");
    if (m.expired)
        state += QStringLiteral(" (expired)");
    QString expires = instantText(m.expiresAt);
    if (m.expiryDerived) // T9: no TTL of its own, the entity's default applies
        expires += QStringLiteral(" (derived from the entity)");
    QList<QPair<QString, QString>> rows;
    for (const SystemTextProperty& property : kSystemTextProperties)
        rows.append({property.name.toString(), orNone(m.*property.member)});
    rows += {
        {QStringLiteral("SequenceNumber"), QString::number(m.sequenceNumber)},
        {QStringLiteral("State"), state},
        {QStringLiteral("DeliveryCount"), QString::number(m.deliveryCount)},
        {QStringLiteral("EnqueuedTimeUtc"), instantText(m.enqueuedTime)},
        {QStringLiteral("ScheduledEnqueueTimeUtc"),
         m.scheduledEnqueueTime == 0 ? kNone : instantText(m.scheduledEnqueueTime)},
        {QStringLiteral("TimeToLive"), m.timeToLive ? durationText(*m.timeToLive) : kNone},
        {QStringLiteral("EffectiveTimeToLive"), durationText(m.effectiveTimeToLive)},
        {QStringLiteral("ExpiresAtUtc"), expires},
        {QStringLiteral("LockedUntilUtc"), m.locked ? instantText(m.lockedUntil) : kNone},
        {QStringLiteral("LockHolder"), m.locked ? orNone(lockHolderText(m.lockHolder)) : kNone},
        {QStringLiteral("DeadLetterReason"), orNone(m.deadLetterReason)},
        {QStringLiteral("DeadLetterErrorDescription"), orNone(m.deadLetterErrorDescription)},
        {QStringLiteral("DeadLetterSource"), orNone(m.deadLetterSource)},
        {QStringLiteral("Size"), QStringLiteral("%1 bytes").arg(m.sizeInBytes)},
    };
    // R4: a copy made by a rule with an action names that rule; said up front, after the
    // sequence number and state, because it answers "which rule put this here?".
    const auto ruleName = m.applicationProperties.constFind(QStringLiteral("RuleName"));
    if (ruleName != m.applicationProperties.constEnd())
        rows.insert(qsizetype(kSystemTextProperties.size()) + 2,
                    {QStringLiteral("RuleName"), ruleName->toString()});
    return rows;
}

QTableWidget* makeTable(const QString& objectName, const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()));
    table->setObjectName(objectName);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    // Compact rows: a property listing, not a spreadsheet.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    // Names and types fit their text; the value column takes the rest.
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(1, QHeaderView::Stretch);
    // A short panel still shows the titles and two rows before it scrolls (the default minimum
    // of a scrolling table is taller, and two of them would make the page scroll early).
    table->setMinimumHeight(header->sizeHint().height() +
                            2 * table->verticalHeader()->defaultSectionSize() +
                            2 * table->frameWidth());
    return table;
}

// What the body was on the wire, in words; empty for a plain data body (every message the
// window sends, and most applications'). The engine's body is only what the window shows.
QString wireBodyText(const QByteArray& wireExtras) {
    const amqp::WireBodyKind kind = amqp::wireBodyKind(wireExtras);
    switch (kind.section) {
    case amqp::WireBodyKind::Section::Data:
        return {};
    case amqp::WireBodyKind::Section::Sequence:
        return MessageDetailPanel::tr("AMQP sequence body (shown as JSON)");
    case amqp::WireBodyKind::Section::Value:
        break;
    }
    const QString type = QString::fromLatin1(kind.valueType);
    // A string reads as its text and a binary as its bytes; every other value became JSON.
    if (type == QLatin1String("string") || type == QLatin1String("binary"))
        return MessageDetailPanel::tr("AMQP value body: %1").arg(type);
    return MessageDetailPanel::tr("AMQP value body: %1 (shown as JSON)").arg(type);
}

// A splitter whose first pane keeps the size the user last dragged it to, through resizes of
// the panel and from one panel to the next (the panel is made again with each database, and the
// next start), kept in QSettings under "messageDetail/<objectName>"; the other pane takes the
// rest. Until the user drags it, the stretch factors share the room.
class RememberedSplitter : public QSplitter {
public:
    RememberedSplitter(Qt::Orientation orientation, const QString& name)
        : QSplitter(orientation) {
        setObjectName(name);
        setHandleWidth(std::max(handleWidth(), 6)); // easy to find with the mouse
        m_first = QSettings().value(key()).toInt();
        connect(this, &QSplitter::splitterMoved, this, [this] {
            m_first = sizes().value(0);
            QSettings().setValue(key(), m_first);
        });
    }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QSplitter::resizeEvent(event);
        // Applied at every size, so a size given before the layout settled, when the room was
        // too small for it, is applied again once there is room.
        const int room = (orientation() == Qt::Horizontal ? width() : height()) - handleWidth();
        if (m_first > 0 && count() == 2 && room > 0)
            setSizes({std::min(m_first, room), std::max(0, room - m_first)});
    }

private:
    QString key() const { return QStringLiteral("messageDetail/") + objectName(); }
    int m_first = 0; // the first pane's size in pixels; 0: never dragged
};

void setRow(QTableWidget* table, int row, const QStringList& cells) {
    for (int column = 0; column < cells.size(); ++column)
        table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
}

} // namespace

MessageDetailPanel::MessageDetailPanel(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_pages(new QStackedWidget(this))
    , m_empty(new QLabel(tr("Select a message")))
    , m_error(new QLabel)
    , m_system(makeTable(QStringLiteral("systemProperties"), {tr("Property"), tr("Value")}))
    , m_application(
          makeTable(QStringLiteral("applicationProperties"), {tr("Name"), tr("Value"), tr("Type")}))
    , m_bodyView(new QComboBox)
    , m_body(new QPlainTextEdit)
    , m_copyBody(new QPushButton(tr("Copy body")))
    , m_copyProperties(new QPushButton(tr("Copy properties")))
    , m_bodyKind(new QLabel) {
    setObjectName(QStringLiteral("messageDetail"));
    m_empty->setObjectName(QStringLiteral("detailEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("detailError"));
    m_error->setAlignment(Qt::AlignCenter);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Combo indexes are BodyView values.
    m_bodyView->setObjectName(QStringLiteral("bodyView"));
    m_bodyView->addItems({tr("Text"), tr("JSON"), tr("XML"), tr("Hex")});
    m_body->setObjectName(QStringLiteral("messageBody"));
    m_body->setReadOnly(true);
    m_body->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_body->setFont(fixedPitchFont());
    m_copyBody->setObjectName(QStringLiteral("copyBody"));
    m_copyProperties->setObjectName(QStringLiteral("copyProperties"));

    auto* bodyBox = new QWidget;
    auto* bodyBar = new QHBoxLayout;
    bodyBar->addWidget(new QLabel(tr("Body as")));
    bodyBar->addWidget(m_bodyView);
    m_bodyKind->setObjectName(QStringLiteral("bodyKind"));
    m_bodyKind->setToolTip(tr("The message came over AMQP with this body section; an "
                              "application reading it gets that section back as sent"));
    bodyBar->addWidget(m_bodyKind);
    bodyBar->addStretch();
    bodyBar->addWidget(m_copyBody);
    bodyBar->addWidget(m_copyProperties);
    auto* bodyLayout = new QVBoxLayout(bodyBox);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addLayout(bodyBar);
    bodyLayout->addWidget(m_body);

    // Properties on the left (system above application), the body beside them: under a list
    // the panel is wide and short, so side by side shows more of both than stacked.
    auto* properties =
        new RememberedSplitter(Qt::Vertical, QStringLiteral("detailPropertiesSplitter"));
    properties->addWidget(m_system);
    properties->addWidget(m_application);
    properties->setStretchFactor(0, 3);
    properties->setStretchFactor(1, 1);
    properties->setChildrenCollapsible(false);
    auto* splitter = new RememberedSplitter(Qt::Horizontal, QStringLiteral("detailSplitter"));
    splitter->addWidget(properties);
    splitter->addWidget(bodyBox);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    m_pages->insertWidget(EmptyPage, m_empty);
    m_pages->insertWidget(ErrorPage, m_error);
    // Under a list the panel gets what the list leaves, which in a 900x600 window with the
    // Connections dock open is less than the tables and the body need: the message scrolls
    // then, rather than make the window grow past its size. Only the message page scrolls: the
    // empty and error pages are one centred line.
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("detailScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(splitter);
    m_pages->insertWidget(MessagePage, scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);

    connect(&m_client, &BrokerClient::changed, this, &MessageDetailPanel::onChanged);
    connect(m_bodyView, &QComboBox::currentIndexChanged, this, [this] { renderBody(); });
    connect(m_copyBody, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_body->toPlainText()); });
    connect(m_copyProperties, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(propertiesText()); });
    clear();
}

void MessageDetailPanel::showMessage(const QString& qualifiedPath, qint64 sequenceNumber) {
    m_path = qualifiedPath;
    m_sequenceNumber = sequenceNumber;
    request(ViewChoice::Best);
}

void MessageDetailPanel::follow(const std::optional<MessageRef>& message) {
    if (message == shown())
        return;
    if (message)
        showMessage(message->path, message->sequenceNumber);
    else
        clear();
}

std::optional<MessageRef> MessageDetailPanel::shown() const {
    if (m_path.isEmpty())
        return std::nullopt;
    return MessageRef{m_path, m_sequenceNumber};
}

void MessageDetailPanel::request(ViewChoice choice) {
    const quint64 generation = ++m_generation;
    m_client.call(
        this,
        [path = m_path, sequenceNumber = m_sequenceNumber](Broker& broker) {
            return broker.message(path, sequenceNumber, Broker::Bodies::With);
        },
        [this, generation, choice](Result<MessageView> result) {
            if (generation != m_generation)
                return; // a newer request (or clear) replaced this one
            if (result)
                showLoaded(result.value(), choice);
            else
                showError(result.error());
        });
}

void MessageDetailPanel::onChanged(const ChangeBatch& batch) {
    if (m_path.isEmpty())
        return;
    // A dead-letter queue goes away with its entity, which is named without the suffix.
    const QString entity = EntityPath::of(m_path).owner().toString();
    if (batch.messagesRemoved.contains(m_path) || batch.deleted.contains(entity))
        request(ViewChoice::Keep);
}

void MessageDetailPanel::clear() {
    ++m_generation;
    m_path.clear();
    m_sequenceNumber = 0;
    m_message.reset();
    m_system->setRowCount(0);
    m_application->setRowCount(0);
    m_body->clear();
    m_bodyKind->clear();
    m_bodyKind->hide();
    m_error->clear();
    m_empty->setText(tr("Select a message"));
    m_empty->setToolTip(QString());
    m_pages->setCurrentIndex(EmptyPage);
    emit emptied();
}

QString MessageDetailPanel::propertiesText() const {
    if (!m_message)
        return {};
    QStringList lines;
    for (const auto& [name, value] : systemProperties(*m_message))
        lines << name + QStringLiteral(": ") + value;
    for (auto it = m_message->applicationProperties.cbegin();
         it != m_message->applicationProperties.cend(); ++it)
        lines << it.key() + QStringLiteral(": ") + propertyText(it.value());
    return lines.join(QLatin1Char('\n'));
}

void MessageDetailPanel::showLoaded(const MessageView& message, ViewChoice choice) {
    m_message = message;
    emit loaded(message);

    const auto system = systemProperties(message);
    m_system->setRowCount(int(system.size()));
    for (int row = 0; row < system.size(); ++row)
        setRow(m_system, row, {system.at(row).first, system.at(row).second});

    const QVariantMap& properties = message.applicationProperties;
    m_application->setRowCount(int(properties.size()));
    int row = 0;
    for (auto it = properties.cbegin(); it != properties.cend(); ++it, ++row)
        setRow(m_application, row,
               {it.key(), propertyText(it.value()), propertyTypeNameOf(it.value())});

    const QString kind = wireBodyText(message.wireExtras);
    m_bodyKind->setText(kind);
    m_bodyKind->setVisible(!kind.isEmpty());

    const int view = choice == ViewChoice::Best ? int(bestView(message.body, message.contentType))
                                                : m_bodyView->currentIndex();
    if (m_bodyView->currentIndex() == view)
        renderBody(); // the signal will not fire for an unchanged index
    else
        m_bodyView->setCurrentIndex(view);
    m_pages->setCurrentIndex(MessagePage);
}

void MessageDetailPanel::showError(const Error& error) {
    m_message.reset();
    emit emptied();
    // A message that was shown and then settled, expired or moved is the everyday case during a
    // demo, not a fault: the empty state says so in words, the code only in its tooltip.
    if (error.code == ErrorCode::MessageNotFound) {
        m_empty->setText(tr("Message %1 is no longer in %2: it was completed, received, expired "
                            "or moved.")
                             .arg(m_sequenceNumber)
                             .arg(m_path));
        m_empty->setToolTip(error.toString());
        m_pages->setCurrentIndex(EmptyPage);
        return;
    }
    m_error->setText(error.toString());
    m_pages->setCurrentIndex(ErrorPage);
}

void MessageDetailPanel::renderBody() {
    if (!m_message) {
        m_body->clear();
        return;
    }
    const FormattedBody formatted =
        formatBody(m_message->body, static_cast<BodyView>(m_bodyView->currentIndex()));
    // The explanation of a failed view replaces the body; Text and Hex always succeed.
    m_body->setPlainText(formatted.text);
}

} // namespace hourglass::ui
