#pragma once
// The routing preview: "why did this subscription (not) get my message?". For one
// message (a stored one picked in any list, or one being composed in the send dialog) and one
// topic, a tree of every subscription of the topic, what it gets (copies, nothing, a
// FilterException dead letter), and under it each rule with its verdict (matched, not matched,
// unknown, failed), the reason (the member that differs, the values the filter saw, the missing
// property, the evaluation error) and what its action would change. The answer comes from the
// engine (Broker::previewRouting, the same decision a send takes), off the GUI thread; the tree
// follows rule and subscription changes.
//
// A stored message is routed as if it were sent to the topic again, with its own sequence
// number, enqueued time and delivery count. A message of a subscription goes through its own
// topic; any other can be tried against any topic of its namespace (the topic box).
//
// Object names: "routingPreview", "routingTopic" (QComboBox), "routingSummary" (QLabel),
// "routingTree" (QTreeWidget: subscription or rule, verdict, why), "routingEmpty".

#include "hourglass/Broker.h"
#include "hourglass/ChangeFeed.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTreeWidget;

namespace hourglass::ui {

class BrokerClient;

class RoutingPreviewPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { NameColumn, VerdictColumn, WhyColumn };

    explicit RoutingPreviewPanel(BrokerClient& client, QWidget* parent = nullptr);

    // A stored message read from `messagePath` (an entity or its dead-letter queue): routed
    // through its own topic when it is in a subscription, else through the topic chosen in the
    // topic box (the first topic of the namespace at first).
    void showStoredMessage(const QString& messagePath, const MessageView& message);
    // A message being composed for `qualifiedTopic` ("ns:topic"): the topic box is fixed to it.
    void showComposedMessage(const QString& qualifiedTopic, const OutgoingMessage& message);
    // The empty state; a reply still under way is dropped.
    void clear();
    // The composed message cannot be routed yet (a field does not parse): says why.
    void showNotReady(const QString& reason);

    QTreeWidget* tree() const { return m_tree; }
    QComboBox* topicBox() const { return m_topics; }
    QLabel* summary() const { return m_summary; }
    // The qualified topic the tree shows (or is loading); empty when none.
    QString topic() const;

signals:
    // A preview answer arrived and is shown (tests wait on it).
    void previewShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onChanged(const ChangeBatch& batch);
    // Reads the namespace's topics for the topic box, then previews.
    void loadTopics(const QString& select);
    void request();
    void showPreview(const RoutingPreview& preview);
    void showEmpty(const QString& text);

    BrokerClient& m_client;
    quint64 m_generation = 0; // GUI thread only; bumped by every request and by clear()
    // Bumped by every topic list read (and by clear()): only the newest reply fills the box.
    quint64 m_topicsGeneration = 0;
    QString m_namespace;       // the message's namespace
    QString m_topicsNamespace; // the namespace the topic box lists; empty while none or loading
    // A stored copy made by an action rule (its RuleName): the action's changes are in it.
    QString m_copyRule;
    std::optional<OutgoingMessage> m_message;
    std::optional<SqlBrokerFields> m_assigned; // a stored message's own; none when composed
    qint64 m_sequenceNumber = 0;               // the stored message's, for the summary
    bool m_stale = false; // the message or topic changed while hidden: ask when shown

    QComboBox* m_topics;
    QLabel* m_summary;
    QStackedWidget* m_pages;
    QLabel* m_empty;
    QTreeWidget* m_tree;
};

} // namespace hourglass::ui
