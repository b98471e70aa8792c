#include "entities/EntityPropertyForm.h"

#include "common/DurationEdit.h"
#include "common/InlineError.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace hourglass::ui {

namespace {

// The bounds of E3 as the hints state them. The engine's validator is what enforces them; these
// texts only tell the user beforehand.
constexpr int kFieldMinimumWidth = 220; // "P10675199DT2H48M5.4775807S" stays readable

const char* const kTimeToLive = "DefaultMessageTimeToLive";
const char* const kLockDuration = "LockDuration";
const char* const kMaxDeliveryCount = "MaxDeliveryCount";
const char* const kDeadLettering = "DeadLetteringOnMessageExpiration";
const char* const kDeadLetteringOnFilter = "DeadLetteringOnFilterEvaluationExceptions";
const char* const kAutoDelete = "AutoDeleteOnIdle";
const char* const kForwardTo = "ForwardTo";
const char* const kForwardDeadLetters = "ForwardDeadLetteredMessagesTo";
const char* const kDuplicateDetection = "RequiresDuplicateDetection";
const char* const kDuplicateWindow = "DuplicateDetectionHistoryTimeWindow";
const char* const kRequiresSession = "RequiresSession";
const char* const kMaxSize = "MaxSizeInMegabytes";
const char* const kMaxMessageSize = "MaxMessageSizeInKilobytes";
const char* const kStatus = "Status";

// "LockDuration" -> "lockDuration": the object name of the property's field.
QString objectNameOf(const char* propertyName) {
    QString name = QLatin1String(propertyName);
    name[0] = name[0].toLower();
    return name;
}

QString onOff(bool value) {
    return value ? QObject::tr("on") : QObject::tr("off");
}

void tint(QWidget* field, bool bad) {
    if (auto* duration = qobject_cast<DurationEdit*>(field)) {
        duration->setRefused(bad);
        return;
    }
    markInvalid(field, bad);
}

} // namespace

EntityPropertyForm::EntityPropertyForm(QWidget* parent)
    : QWidget(parent)
    , m_grid(new QGridLayout)
    , m_error(makeInlineErrorLabel(QStringLiteral("entityFormError"), this)) {
    m_grid->setColumnStretch(1, 1);
    m_grid->setColumnMinimumWidth(1, kFieldMinimumWidth);
    m_grid->setHorizontalSpacing(12);

    m_timeToLive = addDuration(kTimeToLive, tr("Default message time to live"), true, Kinds::All);
    m_lockDuration =
        addDuration(kLockDuration, tr("Lock duration"), false, Kinds::QueuesAndSubscriptions);
    m_maxDeliveryCount =
        addCount(kMaxDeliveryCount, tr("Max delivery count"), Kinds::QueuesAndSubscriptions);
    m_deadLetterOnExpiration = addFlag(kDeadLettering, tr("Dead-letter messages on expiration"),
                                       Kinds::QueuesAndSubscriptions);
    m_deadLetterOnFilterException = addFlag(
        kDeadLetteringOnFilter, tr("Dead-letter on filter exceptions"), Kinds::Subscriptions);
    const QString filterExceptionHelp =
        tr("When one of this subscription's rules fails on a message (its filter or action "
           "compares a string with a number, divides by zero...), the message goes to this "
           "subscription's dead-letter queue with the reason FilterException.\nOff: this "
           "subscription drops the message. Other subscriptions are not affected.");
    m_deadLetterOnFilterException->setToolTip(filterExceptionHelp);
    m_rows.last().label->setToolTip(QLatin1String(kDeadLetteringOnFilter) + QStringLiteral("\n") +
                                    filterExceptionHelp);
    m_autoDeleteOnIdle = addDuration(kAutoDelete, tr("Auto-delete on idle"), true, Kinds::All);
    m_forwardTo = addForward(kForwardTo, tr("Forward to"));
    m_forwardDeadLettersTo = addForward(kForwardDeadLetters, tr("Forward dead letters to"));
    // A subscription has no duplicate detection of its own: its topic detects them (E5).
    m_duplicateDetection =
        addFlag(kDuplicateDetection, tr("Requires duplicate detection"), Kinds::QueuesAndTopics);
    m_duplicateWindow = addDuration(kDuplicateWindow, tr("Duplicate detection window"), false,
                                    Kinds::QueuesAndTopics);
    // Sessions (S1): a queue's or a subscription's, fixed at creation like duplicate detection.
    m_requiresSession =
        addFlag(kRequiresSession, tr("Requires sessions"), Kinds::QueuesAndSubscriptions);
    m_requiresSession->setToolTip(
        tr("Messages must carry a SessionId and go out through session locks: one receiver "
           "holds a session at a time and gets its messages in order."));
    m_maxSize = addCount(kMaxSize, tr("Max size (MB)"), Kinds::All);
    m_maxMessageSize = addCount(kMaxMessageSize, tr("Max message size (KB)"), Kinds::All);
    m_status = new QComboBox(this);
    for (const auto status : {EntityStatus::Active, EntityStatus::Disabled,
                              EntityStatus::SendDisabled, EntityStatus::ReceiveDisabled})
        m_status->addItem(entityStatusName(status), int(status));
    addRow(kStatus, tr("Status"), m_status, Kinds::All);
    connect(m_status, &QComboBox::currentIndexChanged, this, &EntityPropertyForm::revalidate);

    // The window only matters while detection is on; it is still validated, as the engine does.
    connect(m_duplicateDetection, &QCheckBox::toggled, m_duplicateWindow, &QWidget::setEnabled);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_grid);
    layout->addWidget(m_error);

    setProperties(EntityProperties::defaults(m_tier));
    setKind(m_kind, m_tier);
}

void EntityPropertyForm::addRow(const char* propertyName, const QString& label, QWidget* field,
                                Kinds kinds) {
    const QString name = objectNameOf(propertyName);
    field->setObjectName(name);
    // Every field as wide as the column, so the hints line up and the form reads as a table.
    field->setSizePolicy(QSizePolicy::Expanding, field->sizePolicy().verticalPolicy());
    auto* caption = new QLabel(label, this);
    caption->setBuddy(field);
    caption->setToolTip(QLatin1String(propertyName));
    auto* hint = new QLabel(this);
    hint->setObjectName(name + QStringLiteral("Hint"));
    hint->setEnabled(false); // greyed: guidance, not content
    const int row = m_grid->rowCount();
    m_grid->addWidget(caption, row, 0);
    m_grid->addWidget(field, row, 1);
    m_grid->addWidget(hint, row, 2);
    m_rows.append(Row{propertyName, caption, field, hint, kinds});
}

DurationEdit* EntityPropertyForm::addDuration(const char* propertyName, const QString& label,
                                              bool infinite, Kinds kinds) {
    auto* edit = new DurationEdit(
        infinite ? DurationEdit::Infinite::Allowed : DurationEdit::Infinite::Refused, this);
    addRow(propertyName, label, edit, kinds);
    connect(edit, &DurationEdit::durationEdited, this, &EntityPropertyForm::revalidate);
    return edit;
}

QSpinBox* EntityPropertyForm::addCount(const char* propertyName, const QString& label,
                                       Kinds kinds) {
    // The whole int range, so an out-of-bound value can be typed and refused with the
    // validator's message rather than silently clamped by the spin box.
    auto* spin = new QSpinBox(this);
    spin->setRange(0, std::numeric_limits<int>::max());
    spin->setKeyboardTracking(true);
    addRow(propertyName, label, spin, kinds);
    connect(spin, &QSpinBox::valueChanged, this, &EntityPropertyForm::revalidate);
    return spin;
}

QCheckBox* EntityPropertyForm::addFlag(const char* propertyName, const QString& label,
                                       Kinds kinds) {
    auto* box = new QCheckBox(this);
    addRow(propertyName, label, box, kinds);
    connect(box, &QCheckBox::toggled, this, &EntityPropertyForm::revalidate);
    return box;
}

QComboBox* EntityPropertyForm::addForward(const char* propertyName, const QString& label) {
    auto* combo = new QComboBox(this);
    combo->setEditable(true);
    combo->setInsertPolicy(QComboBox::NoInsert);
    combo->lineEdit()->setPlaceholderText(tr("none"));
    addRow(propertyName, label, combo, Kinds::QueuesAndSubscriptions);
    connect(combo, &QComboBox::currentTextChanged, this, &EntityPropertyForm::revalidate);
    return combo;
}

void EntityPropertyForm::setKind(EntityKind kind, Tier tier) {
    m_kind = kind;
    m_tier = tier;
    for (const Row& row : m_rows) {
        const bool shown =
            row.kinds == Kinds::All ||
            (row.kinds == Kinds::QueuesAndSubscriptions && kind != EntityKind::Topic) ||
            (row.kinds == Kinds::QueuesAndTopics && kind != EntityKind::Subscription) ||
            (row.kinds == Kinds::Subscriptions && kind == EntityKind::Subscription);
        row.label->setVisible(shown);
        row.field->setVisible(shown);
        row.hint->setVisible(shown);
    }
    updateHints();
    revalidate();
}

void EntityPropertyForm::setPurpose(Purpose purpose) {
    m_purpose = purpose;
    // E5: duplicate detection is chosen when the entity is created; the engine refuses a change.
    const bool fixed = purpose == Purpose::Edit;
    m_duplicateDetection->setEnabled(!fixed);
    m_requiresSession->setEnabled(!fixed);
    m_duplicateDetection->setToolTip(
        fixed ? tr("Fixed when the entity was created: create a new entity to change it.")
              : QString());
    updateHints();
}

void EntityPropertyForm::updateHints() {
    const EntityProperties d = EntityProperties::defaults(m_tier);
    const auto set = [this](const char* propertyName, const QString& text) {
        for (const Row& row : m_rows)
            if (qstrcmp(row.propertyName, propertyName) == 0)
                row.hint->setText(text);
    };
    const QString def = tr("default %1");
    set(kTimeToLive,
        def.arg(durationText(d.defaultMessageTimeToLive)) + QStringLiteral(" · ") +
            (m_tier == Tier::Basic ? tr("> 0, at most P14D (Basic tier)") : tr("> 0")));
    set(kLockDuration, def.arg(durationText(d.lockDuration)) + tr(" · PT5S .. PT5M"));
    set(kMaxDeliveryCount, def.arg(d.maxDeliveryCount) + tr(" · at least 1"));
    set(kDeadLettering, def.arg(onOff(d.deadLetteringOnMessageExpiration)));
    set(kDeadLetteringOnFilter, def.arg(onOff(d.deadLetteringOnFilterEvaluationExceptions)));
    set(kAutoDelete, def.arg(durationText(d.autoDeleteOnIdle)) + tr(" · at least PT5M"));
    const QString forward = tr("default none · an existing queue or topic, not itself");
    set(kForwardTo, forward);
    set(kForwardDeadLetters, forward);
    set(kDuplicateDetection, m_purpose == Purpose::Edit
                                 ? tr("fixed at creation")
                                 : def.arg(onOff(d.requiresDuplicateDetection)));
    set(kRequiresSession,
        m_purpose == Purpose::Edit ? tr("fixed at creation") : def.arg(onOff(d.requiresSession)));
    set(kDuplicateWindow,
        def.arg(durationText(d.duplicateDetectionHistoryTimeWindow)) + tr(" · PT20S .. P7D"));
    set(kMaxSize, def.arg(d.maxSizeInMegabytes) + tr(" · 1 .. 81920"));
    set(kMaxMessageSize, def.arg(d.maxMessageSizeInKilobytes) + tr(" · 1 .. 102400"));
    set(kStatus, def.arg(entityStatusName(d.status)));
}

void EntityPropertyForm::setProperties(const EntityProperties& p) {
    m_base = p;
    m_timeToLive->setDuration(p.defaultMessageTimeToLive);
    m_lockDuration->setDuration(p.lockDuration);
    m_maxDeliveryCount->setValue(p.maxDeliveryCount);
    m_deadLetterOnExpiration->setChecked(p.deadLetteringOnMessageExpiration);
    m_deadLetterOnFilterException->setChecked(p.deadLetteringOnFilterEvaluationExceptions);
    m_autoDeleteOnIdle->setDuration(p.autoDeleteOnIdle);
    m_forwardTo->setCurrentText(p.forwardTo);
    m_forwardDeadLettersTo->setCurrentText(p.forwardDeadLetteredMessagesTo);
    m_duplicateDetection->setChecked(p.requiresDuplicateDetection);
    m_requiresSession->setChecked(p.requiresSession);
    m_duplicateWindow->setDuration(p.duplicateDetectionHistoryTimeWindow);
    m_duplicateWindow->setEnabled(p.requiresDuplicateDetection);
    m_maxSize->setValue(p.maxSizeInMegabytes);
    m_maxMessageSize->setValue(p.maxMessageSizeInKilobytes);
    m_status->setCurrentIndex(m_status->findData(int(p.status)));
    revalidate();
}

EntityProperties EntityPropertyForm::properties() const {
    EntityProperties p = m_base;
    p.defaultMessageTimeToLive = m_timeToLive->duration().value_or(p.defaultMessageTimeToLive);
    p.autoDeleteOnIdle = m_autoDeleteOnIdle->duration().value_or(p.autoDeleteOnIdle);
    p.requiresDuplicateDetection = m_duplicateDetection->isChecked();
    p.duplicateDetectionHistoryTimeWindow =
        m_duplicateWindow->duration().value_or(p.duplicateDetectionHistoryTimeWindow);
    p.maxSizeInMegabytes = m_maxSize->value();
    p.maxMessageSizeInKilobytes = m_maxMessageSize->value();
    p.status = EntityStatus(m_status->currentData().toInt());
    if (m_kind == EntityKind::Topic)
        return p; // the queue-only members stay as they were: a topic does not use them
    p.lockDuration = m_lockDuration->duration().value_or(p.lockDuration);
    p.maxDeliveryCount = m_maxDeliveryCount->value();
    p.deadLetteringOnMessageExpiration = m_deadLetterOnExpiration->isChecked();
    p.forwardTo = m_forwardTo->currentText().trimmed();
    p.forwardDeadLetteredMessagesTo = m_forwardDeadLettersTo->currentText().trimmed();
    p.requiresSession = m_requiresSession->isChecked();
    if (m_kind == EntityKind::Subscription) // a queue keeps what it has (the engine's default)
        p.deadLetteringOnFilterEvaluationExceptions = m_deadLetterOnFilterException->isChecked();
    return p;
}

Result<void> EntityPropertyForm::validate() const {
    const QList<Error> found = problems();
    if (!found.isEmpty())
        return found.first();
    return {};
}

QList<Error> EntityPropertyForm::problems() const {
    QList<Error> found;
    for (const Row& row : m_rows) {
        const auto* duration = qobject_cast<const DurationEdit*>(row.field);
        if (!duration || duration->isValid() || row.field->isHidden())
            continue;
        // Worded as the engine words a bad duration in a config file.
        found << Error::make(ErrorCode::InvalidArgument,
                             QStringLiteral("%1: '%2' is not a duration (%3)")
                                 .arg(QLatin1String(row.propertyName), duration->lineEdit()->text(),
                                      duration->problem()));
    }
    // A field whose text does not parse reads back as its last value, which the engine's
    // check passes: its problem is the one above, and the others are every bound broken.
    found << properties().problems(m_kind, m_tier);
    return found;
}

void EntityPropertyForm::setForwardTargets(const QStringList& paths) {
    for (QComboBox* combo : {m_forwardTo, m_forwardDeadLettersTo}) {
        const QString current = combo->currentText();
        const QSignalBlocker blocker(combo);
        combo->clear();
        combo->addItem(QString()); // none
        combo->addItems(paths);
        combo->setCurrentText(current);
    }
}

void EntityPropertyForm::revalidate() {
    const QList<Error> found = problems();
    // Each message starts with the property it refuses: mark every field named, and list every
    // problem, so that all the fields to fix are seen at once.
    QStringList texts;
    for (const Error& problem : found)
        texts << problem.description;
    for (const Row& row : m_rows) {
        const QString name = QLatin1String(row.propertyName);
        const bool named = std::any_of(texts.cbegin(), texts.cend(), [&name](const QString& t) {
            return t.startsWith(name + QLatin1Char(' ')) || t.startsWith(name + QLatin1Char(':'));
        });
        tint(row.field, named);
    }
    m_error->setText(texts.join(QLatin1Char('\n')));
    m_error->setVisible(!found.isEmpty());
    emit edited();
}

} // namespace hourglass::ui
