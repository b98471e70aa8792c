#include "send/SendForm.h"

#include "common/BodyFormatter.h"
#include "common/DurationText.h"
#include "common/FixedPitchFont.h"
#include "common/PropertyTableEditor.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMimeDatabase>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

// The units of "in N ...", largest last so that a template's offset finds its largest exact unit.
const QList<std::pair<QString, Millis>> kUnits = {
    {QStringLiteral("seconds"), seconds(1)},
    {QStringLiteral("minutes"), minutes(1)},
    {QStringLiteral("hours"), hours(1)},
    {QStringLiteral("days"), days(1)},
};
constexpr int kMinutesUnit = 1;
// A preview of a large file shows its start only: the editor is not meant for 100 MB of hex.
constexpr qsizetype kPreviewBytes = 64 * 1024;

Error invalid(const QString& why) {
    return makeError(ErrorCode::InvalidArgument, why);
}

QDateTime utc(Instant instant) {
    return QDateTime::fromMSecsSinceEpoch(instant, Qt::UTC);
}

} // namespace

SendForm::SendForm(const Clock& clock, QWidget* parent)
    : QWidget(parent)
    , m_clock(clock)
    , m_body(new QPlainTextEdit(this))
    , m_loadFile(new QPushButton(tr("Load from file…"), this))
    , m_bodySource(new QLabel(this))
    , m_clearFile(new QPushButton(tr("Type a body instead"), this))
    , m_contentType(new QComboBox(this))
    , m_timeToLiveText(new QLabel(this))
    , m_scheduled(new QCheckBox(tr("Schedule on the engine clock"), this))
    , m_relative(new QRadioButton(tr("in"), this))
    , m_scheduleIn(new QSpinBox(this))
    , m_scheduleUnit(new QComboBox(this))
    , m_absolute(new QRadioButton(tr("at"), this))
    , m_scheduledAt(new QDateTimeEdit(this))
    , m_properties(new PropertyTableEditor(this))
    , m_repeat(new QSpinBox(this)) {
    m_body->setObjectName(QStringLiteral("sendBody"));
    m_body->setFont(fixedPitchFont());
    m_body->setPlaceholderText(tr("Message body (UTF-8 text), or load a file"));
    m_loadFile->setObjectName(QStringLiteral("sendLoadFile"));
    m_bodySource->setObjectName(QStringLiteral("sendBodySource"));
    m_clearFile->setObjectName(QStringLiteral("sendBodyClearFile"));
    m_bodySource->hide();
    m_clearFile->hide();

    m_contentType->setObjectName(QStringLiteral("sendContentType"));
    m_contentType->setEditable(true);
    m_contentType->addItems({QStringLiteral("application/json"), QStringLiteral("text/plain"),
                             QStringLiteral("application/xml"),
                             QStringLiteral("application/octet-stream")});
    m_contentType->setCurrentIndex(-1);
    m_contentType->lineEdit()->setPlaceholderText(tr("none"));

    m_timeToLiveText->setObjectName(QStringLiteral("sendTimeToLiveText"));
    m_scheduled->setObjectName(QStringLiteral("sendScheduled"));
    m_relative->setObjectName(QStringLiteral("sendScheduleRelative"));
    m_absolute->setObjectName(QStringLiteral("sendScheduleAbsolute"));
    m_relative->setChecked(true);
    auto* scheduleModes = new QButtonGroup(this);
    scheduleModes->addButton(m_relative);
    scheduleModes->addButton(m_absolute);
    m_scheduleIn->setObjectName(QStringLiteral("sendScheduleIn"));
    m_scheduleIn->setRange(0, 1000000);
    m_scheduleIn->setValue(5);
    m_scheduleUnit->setObjectName(QStringLiteral("sendScheduleUnit"));
    for (const auto& unit : kUnits)
        m_scheduleUnit->addItem(unit.first);
    m_scheduleUnit->setCurrentIndex(kMinutesUnit);
    m_scheduledAt->setObjectName(QStringLiteral("sendScheduledAt"));
    m_scheduledAt->setTimeSpec(Qt::UTC);
    m_scheduledAt->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    m_scheduledAt->setCalendarPopup(true);
    m_properties->setObjectName(QStringLiteral("sendProperties"));
    m_repeat->setObjectName(QStringLiteral("sendRepeat"));
    m_repeat->setRange(1, 10000);
    m_repeat->setMinimumWidth(100);
    m_repeat->setToolTip(tr("Send this many copies (in batches); an empty message id gives each "
                            "copy a fresh one"));

    buildLayout();
    updateTimeToLiveText();
    previewRelativeSchedule();
    updateScheduleEnabled();

    connect(m_loadFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Message body from file"));
        if (path.isEmpty())
            return;
        if (auto loaded = loadBodyFromFile(path); !loaded) {
            m_bodySource->setText(loaded.error().description);
            m_bodySource->show();
        }
    });
    connect(m_clearFile, &QPushButton::clicked, this, &SendForm::clearFileBody);
    connect(m_timeToLive, &QLineEdit::textChanged, this, &SendForm::updateTimeToLiveText);
    connect(m_scheduled, &QCheckBox::toggled, this, [this] {
        previewRelativeSchedule();
        updateScheduleEnabled();
    });
    connect(m_scheduleIn, &QSpinBox::valueChanged, this, [this] {
        m_relative->setChecked(true);
        previewRelativeSchedule();
    });
    connect(m_scheduleUnit, &QComboBox::currentIndexChanged, this, [this] {
        m_relative->setChecked(true);
        previewRelativeSchedule();
    });
    // Editing the date means "at this instant"; previews set it with signals blocked.
    connect(m_scheduledAt, &QDateTimeEdit::dateTimeChanged, this,
            [this] { m_absolute->setChecked(true); });

    // edited(): any field of the message changed (the routing preview follows the form).
    for (auto* line : findChildren<QLineEdit*>())
        connect(line, &QLineEdit::textChanged, this, &SendForm::edited);
    for (auto* text : findChildren<QPlainTextEdit*>())
        connect(text, &QPlainTextEdit::textChanged, this, &SendForm::edited);
    for (auto* box : findChildren<QCheckBox*>())
        connect(box, &QCheckBox::toggled, this, &SendForm::edited);
    connect(m_properties, &PropertyTableEditor::edited, this, &SendForm::edited);
}

QLineEdit* SendForm::addLine(const char* objectName, const QString& placeholder) {
    auto* line = new QLineEdit(this);
    line->setObjectName(QLatin1String(objectName));
    line->setPlaceholderText(placeholder);
    return line;
}

namespace {
// The system properties typed as plain text, in form order: label, object name, member.
struct TextField {
    const char* label;
    const char* objectName;
    QString OutgoingMessage::*member;
};
const TextField kTextFields[] = {
    {QT_TR_NOOP("Message id"), "sendMessageId", &OutgoingMessage::messageId},
    {QT_TR_NOOP("Correlation id"), "sendCorrelationId", &OutgoingMessage::correlationId},
    {QT_TR_NOOP("Session id"), "sendSessionId", &OutgoingMessage::sessionId},
    {QT_TR_NOOP("Reply to"), "sendReplyTo", &OutgoingMessage::replyTo},
    {QT_TR_NOOP("Reply-to session id"), "sendReplyToSessionId", &OutgoingMessage::replyToSessionId},
    {QT_TR_NOOP("To"), "sendTo", &OutgoingMessage::to},
    {QT_TR_NOOP("Subject"), "sendSubject", &OutgoingMessage::subject},
};
} // namespace

void SendForm::buildLayout() {
    for (const TextField& field : kTextFields)
        m_textFields.append({addLine(field.objectName, {}), field.member});
    QLineEdit* messageId = m_textFields.front().first;
    messageId->setPlaceholderText(tr("a fresh id per message"));
    messageId->setMaxLength(128); // Service Bus refuses longer message ids
    m_timeToLive = addLine("sendTimeToLive", tr("entity default, e.g. 10m, 1h30m or 1d"));

    auto* bodyBox = new QGroupBox(tr("Body"), this);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_loadFile);
    fileRow->addWidget(m_bodySource, 1);
    fileRow->addWidget(m_clearFile);
    fileRow->addStretch();
    auto* bodyLayout = new QVBoxLayout(bodyBox);
    bodyLayout->addWidget(m_body, 1);
    bodyLayout->addLayout(fileRow);

    auto* propertiesBox = new QGroupBox(tr("Application properties"), this);
    auto* propertiesLayout = new QVBoxLayout(propertiesBox);
    propertiesLayout->addWidget(m_properties);

    auto* ttlRow = new QHBoxLayout;
    ttlRow->addWidget(m_timeToLive, 1);
    ttlRow->addWidget(m_timeToLiveText);
    auto* relativeRow = new QHBoxLayout;
    relativeRow->addWidget(m_relative);
    relativeRow->addWidget(m_scheduleIn);
    relativeRow->addWidget(m_scheduleUnit);
    relativeRow->addStretch();
    auto* absoluteRow = new QHBoxLayout;
    absoluteRow->addWidget(m_absolute);
    absoluteRow->addWidget(m_scheduledAt, 1);
    auto* copiesRow = new QHBoxLayout;
    copiesRow->addWidget(m_repeat);
    copiesRow->addStretch();

    auto* systemBox = new QGroupBox(tr("Message"), this);
    auto* form = new QFormLayout(systemBox);
    form->addRow(tr("Content type"), m_contentType);
    for (int i = 0; i < m_textFields.size(); ++i)
        form->addRow(tr(kTextFields[i].label), m_textFields.at(i).first);
    form->addRow(tr("Time to live"), ttlRow);
    form->addRow(tr("Enqueue"), m_scheduled);
    form->addRow(QString(), relativeRow);
    form->addRow(QString(), absoluteRow);
    form->addRow(tr("Copies"), copiesRow);

    auto* left = new QVBoxLayout;
    left->addWidget(bodyBox, 3);
    left->addWidget(propertiesBox, 2);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 3);
    layout->addWidget(systemBox, 2);
}

Result<std::optional<Millis>> SendForm::timeToLive() const {
    const QString text = m_timeToLive->text().trimmed();
    if (text.isEmpty())
        return std::optional<Millis>(); // the entity's default (T3)
    QString why;
    const auto parsed = parseHumanDuration(text, &why);
    if (!parsed)
        return invalid(tr("the time to live '%1' is not a duration such as 10m, 1h30m or PT10M "
                          "(%2).")
                           .arg(text, why));
    if (*parsed <= 0)
        return invalid(tr("the time to live must be longer than zero."));
    return std::optional<Millis>(*parsed);
}

void SendForm::updateTimeToLiveText() {
    const auto ttl = timeToLive();
    QPalette colours = m_timeToLiveText->palette();
    colours.setColor(QPalette::WindowText, ttl ? palette().color(QPalette::WindowText) : Qt::red);
    m_timeToLiveText->setPalette(colours);
    if (!ttl)
        m_timeToLiveText->setText(tr("not a duration"));
    else if (!ttl.value())
        m_timeToLiveText->setText(tr("entity default"));
    else {
        // ISO typed: its readable form; anything else: the ISO-8601 form it was understood as.
        const Millis value = *ttl.value();
        const QString iso = formatIsoDuration(value);
        const bool typedIso = m_timeToLive->text().trimmed().compare(iso, Qt::CaseInsensitive) == 0;
        m_timeToLiveText->setText(QStringLiteral("= %1").arg(
            value == kInfinite || typedIso ? shortDuration(value) : iso));
    }
}

Millis SendForm::relativeOffset() const {
    return m_scheduleIn->value() * kUnits.at(m_scheduleUnit->currentIndex()).second;
}

void SendForm::previewRelativeSchedule() {
    if (!m_relative->isChecked())
        return;
    const QSignalBlocker quiet(m_scheduledAt);
    m_scheduledAt->setDateTime(utc(m_clock.now() + relativeOffset()));
}

void SendForm::updateScheduleEnabled() {
    for (QWidget* w : std::initializer_list<QWidget*>{m_relative, m_scheduleIn, m_scheduleUnit,
                                                      m_absolute, m_scheduledAt})
        w->setEnabled(m_scheduled->isChecked());
}

QByteArray SendForm::body() const {
    return m_fileBody ? *m_fileBody : m_body->toPlainText().toUtf8();
}

Result<PreparedSend> SendForm::prepare(Instant now) const {
    const auto ttl = timeToLive();
    if (!ttl)
        return ttl.error();
    auto properties = m_properties->properties();
    if (!properties)
        return properties.error();
    PreparedSend prepared;
    OutgoingMessage& m = prepared.message;
    m.body = body();
    m.contentType = m_contentType->currentText().trimmed();
    for (const auto& [line, member] : m_textFields)
        m.*member = line->text();
    m.timeToLive = ttl.value();
    m.applicationProperties = std::move(properties).value();
    if (m_scheduled->isChecked()) {
        prepared.scheduledAt = m_relative->isChecked()
                                   ? now + relativeOffset()
                                   : m_scheduledAt->dateTime().toMSecsSinceEpoch();
        m.scheduledEnqueueTime = prepared.scheduledAt;
    }
    prepared.repeat = m_repeat->value();
    return prepared;
}

Result<void> SendForm::loadBodyFromFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return invalid(tr("%1 cannot be read: %2").arg(path, file.errorString()));
    if (file.size() > kMaxFileBytes)
        return invalid(tr("%1 is %2 bytes, larger than any Service Bus message.")
                           .arg(path, QString::number(file.size())));
    m_fileBody = file.readAll();
    m_fileName = QFileInfo(path).fileName();
    // A content type helps receivers; guess one only when none was chosen.
    if (m_contentType->currentText().trimmed().isEmpty())
        m_contentType->setEditText(
            QMimeDatabase().mimeTypeForFileNameAndData(path, *m_fileBody).name());
    showBodyPreview();
    return {};
}

void SendForm::showBodyPreview() {
    const QByteArray head = m_fileBody->left(kPreviewBytes);
    QString preview = isValidUtf8(*m_fileBody) ? formatText(head).text : formatHex(head).text;
    if (m_fileBody->size() > head.size())
        preview += tr("\n… (preview of the first %1 bytes)").arg(QString::number(head.size()));
    m_body->setPlainText(preview);
    m_body->setReadOnly(true);
    m_bodySource->setText(
        tr("From %1, %2 bytes").arg(m_fileName, QString::number(m_fileBody->size())));
    m_bodySource->show();
    m_clearFile->show();
}

void SendForm::clearFileBody() {
    m_fileBody.reset();
    m_fileName.clear();
    m_body->clear();
    m_body->setReadOnly(false);
    m_bodySource->hide();
    m_clearFile->hide();
}

Result<MessageTemplate> SendForm::toTemplate(const QString& name, Instant now) const {
    auto prepared = prepare(now);
    if (!prepared)
        return prepared.error();
    MessageTemplate t;
    t.name = name;
    t.message = std::move(prepared->message);
    t.message.scheduledEnqueueTime.reset(); // an instant is stale tomorrow; keep the offset
    if (prepared->scheduledAt)
        t.scheduleOffset = std::max<Millis>(0, *prepared->scheduledAt - now);
    t.repeat = prepared->repeat;
    return t;
}

void SendForm::applyTemplate(const MessageTemplate& t) {
    const OutgoingMessage& m = t.message;
    clearFileBody();
    if (isValidUtf8(m.body)) {
        m_body->setPlainText(QString::fromUtf8(m.body));
    } else {
        m_fileBody = m.body;
        m_fileName = tr("the template");
        showBodyPreview();
    }
    m_contentType->setEditText(m.contentType);
    for (const auto& [line, member] : m_textFields)
        line->setText(m.*member);
    m_timeToLive->setText(m.timeToLive ? formatIsoDuration(*m.timeToLive) : QString());
    m_scheduled->setChecked(t.scheduleOffset.has_value());
    if (t.scheduleOffset) {
        // The largest unit that divides the offset exactly: "2 minutes" rather than 120 seconds.
        int unit = 0;
        for (int i = 0; i < kUnits.size(); ++i)
            if (*t.scheduleOffset % kUnits.at(i).second == 0)
                unit = i;
        m_scheduleUnit->setCurrentIndex(unit);
        m_scheduleIn->setValue(int(*t.scheduleOffset / kUnits.at(unit).second));
        m_relative->setChecked(true);
        previewRelativeSchedule();
    }
    m_repeat->setValue(t.repeat);
    m_properties->setProperties(m.applicationProperties);
}

} // namespace hourglass::ui
