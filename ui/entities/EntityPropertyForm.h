#pragma once
// The properties of service-bus-rules.md E3 as a form, for a queue, a topic or a subscription. Each
// row shows the property's field, then its default in the namespace's tier and its bound, so the
// user sees what "normal" is before changing it. A topic shows only the members E3 gives topics;
// a subscription has no duplicate detection of its own (E5), and only a subscription has
// DeadLetteringOnFilterEvaluationExceptions (R5), editable on create and on edit. When an existing
// entity is edited, what E5 fixes at creation (RequiresDuplicateDetection, and RequiresSession of
// a queue or subscription) is shown but cannot be changed. The form checks itself with the engine's
// own validator (EntityProperties::problems) after each edit and shows every problem inline, one
// a line, marking every field they name; the engine checks again when the dialog applies it
// (forwarding targets, names).
//
// Object names: one per property, camelCase of its E3 name ("lockDuration",
// "maxDeliveryCount", "defaultMessageTimeToLive", ...), its hint "<name>Hint", and the inline
// problem "entityFormError".

#include "hourglass/EntityProperties.h"

#include <QList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace hourglass::ui {

class DurationEdit;

class EntityPropertyForm : public QWidget {
    Q_OBJECT
public:
    explicit EntityPropertyForm(QWidget* parent = nullptr);

    // Which rows apply and which defaults and bounds the hints state. Keeps the field values.
    void setKind(EntityKind kind, Tier tier);
    // Creating a new entity (every field editable) or editing an existing one (what E5 fixes at
    // creation is read-only, and says so).
    enum class Purpose { Create, Edit };
    void setPurpose(Purpose purpose);
    EntityKind kind() const { return m_kind; }
    Tier tier() const { return m_tier; }

    // Fills every field.
    void setProperties(const EntityProperties& properties);
    // The fields read back. A duration field whose text does not parse keeps the value last set
    // (validate() reports it).
    EntityProperties properties() const;
    // Unparsable text first, then the engine's bounds for this kind and tier.
    Result<void> validate() const;
    // Every problem of the form, in that order (validate() gives the first).
    QList<Error> problems() const;

    // The queues and topics offered for ForwardTo and ForwardDeadLetteredMessagesTo.
    void setForwardTargets(const QStringList& paths);

signals:
    void edited();

private:
    // The kinds of entity a property belongs to (E3, E5).
    enum class Kinds { All, QueuesAndSubscriptions, QueuesAndTopics, Subscriptions };
    struct Row {
        const char* propertyName; // E3 name, as the validator's messages start with it
        QLabel* label;
        QWidget* field;
        QLabel* hint;
        Kinds kinds;
    };

    DurationEdit* addDuration(const char* propertyName, const QString& label, bool infinite,
                              Kinds kinds);
    QSpinBox* addCount(const char* propertyName, const QString& label, Kinds kinds);
    QCheckBox* addFlag(const char* propertyName, const QString& label, Kinds kinds);
    QComboBox* addForward(const char* propertyName, const QString& label);
    void addRow(const char* propertyName, const QString& label, QWidget* field, Kinds kinds);
    void updateHints();
    void revalidate();

    EntityKind m_kind = EntityKind::Queue;
    Tier m_tier = Tier::Standard;
    Purpose m_purpose = Purpose::Create;
    EntityProperties m_base; // what was last set: the source of hidden members
    QGridLayout* m_grid;
    QList<Row> m_rows;
    DurationEdit* m_timeToLive;
    DurationEdit* m_lockDuration;
    QSpinBox* m_maxDeliveryCount;
    QCheckBox* m_deadLetterOnExpiration;
    QCheckBox* m_deadLetterOnFilterException;
    DurationEdit* m_autoDeleteOnIdle;
    QComboBox* m_forwardTo;
    QComboBox* m_forwardDeadLettersTo;
    QCheckBox* m_duplicateDetection;
    QCheckBox* m_requiresSession;
    DurationEdit* m_duplicateWindow;
    QSpinBox* m_maxSize;
    QSpinBox* m_maxMessageSize;
    QComboBox* m_status;
    QLabel* m_error;
};

} // namespace hourglass::ui
