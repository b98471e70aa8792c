#include "routing/RoutingPreviewPanel.h"

#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "entities/RuleEditor.h"
#include "hourglass/EntityPath.h"
#include "messages/MessageColumns.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

enum Page { EmptyPage, TreePage };

SqlBrokerFields assignedOf(const MessageView& m) {
    SqlBrokerFields fields;
    fields.sequenceNumber = m.sequenceNumber;
    fields.enqueuedTime = m.enqueuedTime;
    if (m.expiresAt != kNever)
        fields.expiresAt = m.expiresAt;
    fields.deliveryCount = qint32(m.deliveryCount);
    fields.size = m.sizeInBytes;
    return fields;
}

QString fateText(const SubscriptionPreview& s) {
    switch (s.fate) {
    case SubscriptionFate::Copies: {
        QString text = s.copies == 1 ? RoutingPreviewPanel::tr("gets a copy")
                                     : RoutingPreviewPanel::tr("gets %1 copies").arg(s.copies);
        return text;
    }
    case SubscriptionFate::NoMatch:
        return RoutingPreviewPanel::tr("no rule matched");
    case SubscriptionFate::DeadLettered:
        return RoutingPreviewPanel::tr("dead-lettered (FilterException)");
    case SubscriptionFate::Dropped:
        return RoutingPreviewPanel::tr("dropped (filter failed)");
    case SubscriptionFate::Disabled:
        return RoutingPreviewPanel::tr("disabled: takes nothing");
    case SubscriptionFate::ForwardingFailed:
        return s.copies == 1 ? RoutingPreviewPanel::tr("dead-lettered (ForwardingFailed)")
                             : RoutingPreviewPanel::tr("%1 copies dead-lettered (ForwardingFailed)")
                                   .arg(s.copies);
    }
    return {};
}

QString fateWhy(const SubscriptionPreview& s) {
    switch (s.fate) {
    case SubscriptionFate::Copies:
        if (!s.forwardTo.isEmpty())
            return RoutingPreviewPanel::tr("forwarded on to %1").arg(s.forwardTo);
        if (s.copies > 1)
            return RoutingPreviewPanel::tr("one per matching rule with an action");
        return {};
    case SubscriptionFate::DeadLettered:
        if (!s.forwardTo.isEmpty())
            return RoutingPreviewPanel::tr("%1 (dead letters are forwarded to %2)")
                .arg(s.failure, s.forwardTo);
        if (!s.deadLetterForwardFailure.isEmpty())
            return RoutingPreviewPanel::tr("%1 (kept here: %2)")
                .arg(s.failure, s.deadLetterForwardFailure);
        return s.failure;
    case SubscriptionFate::ForwardingFailed:
        return RoutingPreviewPanel::tr("%1 The copies stay in this subscription's dead-letter "
                                       "queue.")
            .arg(s.failure);
    case SubscriptionFate::Dropped:
        return RoutingPreviewPanel::tr("%1 (dead-lettering on filter exceptions is off)")
            .arg(s.failure);
    case SubscriptionFate::NoMatch:
    case SubscriptionFate::Disabled:
        break;
    }
    return {};
}

// Colours that read on the light and the dark palette.
QColor verdictColor(RuleVerdict verdict) {
    const bool dark = paletteIsDark();
    switch (verdict) {
    case RuleVerdict::Matched:
        return dark ? QColor(0x7d, 0xd3, 0x8a) : QColor(0x1b, 0x7a, 0x33);
    case RuleVerdict::Unknown:
        return dark ? QColor(0xf0, 0xc0, 0x5a) : QColor(0x9a, 0x62, 0x00);
    case RuleVerdict::Failed:
        return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb3, 0x26, 0x1e);
    case RuleVerdict::NotMatched:
    case RuleVerdict::NotEvaluated:
        break;
    }
    return {};
}

QColor fateColor(SubscriptionFate fate) {
    switch (fate) {
    case SubscriptionFate::Copies:
        return verdictColor(RuleVerdict::Matched);
    case SubscriptionFate::DeadLettered:
    case SubscriptionFate::Dropped:
    case SubscriptionFate::ForwardingFailed:
        return verdictColor(RuleVerdict::Failed);
    case SubscriptionFate::NoMatch:
    case SubscriptionFate::Disabled:
        break;
    }
    return {};
}

void paint(QTreeWidgetItem* item, int column, const QColor& color) {
    if (color.isValid())
        item->setForeground(column, color);
}

// `greyed`: the rule of a disabled subscription, whose verdict decides nothing.
QTreeWidgetItem* ruleItem(const RuleExplanation& rule, bool greyed) {
    const QString filter = filterSummary(rule.rule);
    auto* item = new QTreeWidgetItem({QStringLiteral("%1: %2").arg(rule.rule.name, filter),
                                      ruleVerdictName(rule.verdict), rule.reason});
    QString tip = RoutingPreviewPanel::tr("Filter: %1").arg(filter);
    if (rule.rule.hasAction())
        tip += QLatin1Char('\n') + RoutingPreviewPanel::tr("Action: %1").arg(rule.rule.sqlAction);
    item->setToolTip(RoutingPreviewPanel::NameColumn, tip);
    item->setToolTip(RoutingPreviewPanel::WhyColumn, rule.reason);
    if (greyed) {
        const QColor grey = QPalette().color(QPalette::Disabled, QPalette::Text);
        for (int column = 0; column < item->columnCount(); ++column)
            item->setForeground(column, grey);
    } else {
        paint(item, RoutingPreviewPanel::VerdictColumn, verdictColor(rule.verdict));
    }
    for (const QString& change : rule.changes) {
        auto* child = new QTreeWidgetItem({RoutingPreviewPanel::tr("action → %1").arg(change)});
        child->setToolTip(RoutingPreviewPanel::NameColumn, rule.rule.sqlAction);
        item->addChild(child);
    }
    return item;
}

} // namespace

RoutingPreviewPanel::RoutingPreviewPanel(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_topics(new QComboBox)
    , m_summary(new QLabel)
    , m_pages(new QStackedWidget)
    , m_empty(new QLabel)
    , m_tree(new QTreeWidget) {
    setObjectName(QStringLiteral("routingPreview"));
    m_topics->setObjectName(QStringLiteral("routingTopic"));
    m_topics->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_topics->setToolTip(tr("The topic to route the message through"));
    m_summary->setObjectName(QStringLiteral("routingSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setObjectName(QStringLiteral("routingEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setEnabled(false);
    m_tree->setObjectName(QStringLiteral("routingTree"));
    m_tree->setHeaderLabels({tr("Subscription / rule"), tr("Verdict"), tr("Why")});
    m_tree->setUniformRowHeights(true);
    m_tree->setWordWrap(false);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);

    m_pages->addWidget(m_empty);
    m_pages->addWidget(m_tree);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(new QLabel(tr("Through topic")));
    top->addWidget(m_topics);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_pages, 1);

    connect(m_topics, &QComboBox::activated, this, [this] { request(); });
    connect(&m_client, &BrokerClient::changed, this, &RoutingPreviewPanel::onChanged);
    clear();
}

QString RoutingPreviewPanel::topic() const {
    return m_topics->currentData().toString();
}

void RoutingPreviewPanel::clear() {
    ++m_generation;
    ++m_topicsGeneration;
    m_message.reset();
    m_assigned.reset();
    m_stale = false;
    m_copyRule.clear();
    m_namespace.clear();
    m_topicsNamespace.clear();
    m_topics->clear();
    m_topics->setEnabled(false);
    m_summary->clear();
    showEmpty(tr("Select a message to see which subscriptions of a topic would get it, and why"));
}

void RoutingPreviewPanel::showNotReady(const QString& reason) {
    ++m_generation;
    // Nothing to preview until the form is fixed: a rule change must not bring an old one back.
    m_message.reset();
    m_stale = false;
    m_summary->clear();
    showEmpty(tr("No preview until the message can be sent: %1").arg(reason));
}

void RoutingPreviewPanel::showEmpty(const QString& text) {
    m_tree->clear();
    m_empty->setText(text);
    m_pages->setCurrentIndex(EmptyPage);
}

void RoutingPreviewPanel::showStoredMessage(const QString& messagePath,
                                            const MessageView& message) {
    const auto parsed = parseEntityPath(messagePath);
    if (!parsed)
        return clear();
    m_message = message.asSent();
    m_assigned = assignedOf(message);
    m_sequenceNumber = message.sequenceNumber;
    // R4: a subscription's copy made by a rule with an action carries its RuleName, and the
    // action's changes are already in it.
    m_copyRule.clear();
    if (parsed->isSubscription)
        m_copyRule = message.applicationProperties.value(QStringLiteral("RuleName")).toString();
    // A subscription's message came through its own topic; keep the user's pick otherwise.
    QString select = topic();
    if (parsed->isSubscription)
        select = qualifiedPath(parsed->namespaceName, parsed->topicPath);
    if (m_namespace != parsed->namespaceName) {
        // Another namespace's topics are no choice for this message, even while its own load.
        m_topics->clear();
        m_topicsNamespace.clear();
        select = parsed->isSubscription ? select : QString();
        m_summary->clear();
        showEmpty(tr("Reading the topics of %1…").arg(parsed->namespaceName));
    }
    m_namespace = parsed->namespaceName;
    const bool sameNamespace = m_topicsNamespace == m_namespace && m_topics->count() > 0;
    if (sameNamespace && (select.isEmpty() || m_topics->findData(select) >= 0)) {
        if (!select.isEmpty())
            m_topics->setCurrentIndex(m_topics->findData(select));
        m_topics->setEnabled(!parsed->isSubscription);
        request();
        return;
    }
    loadTopics(select);
    m_topics->setEnabled(!parsed->isSubscription);
}

void RoutingPreviewPanel::showComposedMessage(const QString& qualifiedTopic,
                                              const OutgoingMessage& message) {
    const auto parsed = parseEntityPath(qualifiedTopic);
    if (!parsed)
        return clear();
    m_message = message;
    m_assigned.reset();
    m_sequenceNumber = 0;
    m_copyRule.clear();
    m_namespace = parsed->namespaceName;
    ++m_topicsGeneration; // a topic list still under way is not this box's any more
    m_topicsNamespace = m_namespace;
    if (m_topics->count() != 1 || topic() != qualifiedTopic) {
        m_topics->clear();
        m_topics->addItem(parsed->entityPath, qualifiedTopic);
    }
    m_topics->setEnabled(false);
    request();
}

void RoutingPreviewPanel::loadTopics(const QString& select) {
    ++m_generation; // a preview under way is of the old list's topic
    const quint64 generation = ++m_topicsGeneration;
    const QString ns = m_namespace;
    m_client.call(
        this,
        [ns](Broker& broker) {
            QStringList topics;
            for (const EntityInfo& info : broker.entities(ns))
                if (info.kind == EntityKind::Topic)
                    topics << info.path;
            return topics;
        },
        [this, generation, ns, select](const QStringList& topics) {
            // Only the newest read, and only for the message's namespace: a list that arrives
            // after another message (of another namespace) was picked is dropped.
            if (generation != m_topicsGeneration || ns != m_namespace)
                return;
            m_topicsNamespace = ns;
            m_topics->clear();
            for (const QString& path : topics)
                m_topics->addItem(path, qualifiedPath(ns, path));
            const int index = select.isEmpty() ? 0 : m_topics->findData(select);
            m_topics->setCurrentIndex(std::max(index, 0));
            if (topics.isEmpty()) {
                m_summary->clear();
                showEmpty(tr("This namespace has no topics: routing goes through a topic's "
                             "subscriptions and their rules."));
                return;
            }
            request();
        });
}

void RoutingPreviewPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        request();
}

void RoutingPreviewPanel::request() {
    const QString target = topic();
    if (!m_message || target.isEmpty())
        return;
    // Hidden (another tab in front): ask when shown, not on every selection. A reply still
    // under way is of the old message or topic: dropped.
    if (!isVisible()) {
        ++m_generation;
        m_stale = true;
        return;
    }
    m_stale = false;
    const quint64 generation = ++m_generation;
    m_client.call(
        this,
        [target, message = *m_message, assigned = m_assigned](Broker& broker) {
            return broker.previewRouting(target, message, assigned);
        },
        [this, generation](const Result<RoutingPreview>& previews) {
            if (generation != m_generation)
                return;
            if (!previews) {
                m_summary->clear();
                showEmpty(previews.error().toString());
                return;
            }
            showPreview(*previews);
        });
}

void RoutingPreviewPanel::showPreview(const RoutingPreview& preview) {
    const QList<SubscriptionPreview>& previews = preview.subscriptions;
    int reached = 0;
    int copies = 0;
    int failed = 0;
    int forwardingFailed = 0;
    m_tree->clear();
    for (const SubscriptionPreview& s : previews) {
        if (s.fate == SubscriptionFate::Copies)
            ++reached;
        if (s.fate == SubscriptionFate::DeadLettered || s.fate == SubscriptionFate::Dropped)
            ++failed;
        if (s.fate == SubscriptionFate::ForwardingFailed)
            ++forwardingFailed;
        if (s.fate == SubscriptionFate::Copies)
            copies += s.copies;
        auto* item = new QTreeWidgetItem({s.name, fateText(s), fateWhy(s)});
        QFont bold = item->font(NameColumn);
        bold.setBold(true);
        item->setFont(NameColumn, bold);
        item->setToolTip(WhyColumn, fateWhy(s));
        paint(item, VerdictColumn, fateColor(s.fate));
        for (const RuleExplanation& rule : s.rules)
            item->addChild(ruleItem(rule, s.fate == SubscriptionFate::Disabled));
        m_tree->addTopLevelItem(item);
    }
    m_tree->expandAll();
    // An action's change reads as one line across the columns, under its rule.
    for (int s = 0; s < m_tree->topLevelItemCount(); ++s)
        for (int r = 0; r < m_tree->topLevelItem(s)->childCount(); ++r)
            for (int c = 0; c < m_tree->topLevelItem(s)->child(r)->childCount(); ++c)
                m_tree->topLevelItem(s)->child(r)->child(c)->setFirstColumnSpanned(true);
    m_tree->resizeColumnToContents(VerdictColumn);
    // The names fit, up to half the width: the reasons get the rest.
    m_tree->resizeColumnToContents(NameColumn);
    m_tree->setColumnWidth(NameColumn, std::min(m_tree->columnWidth(NameColumn) + 16,
                                                std::max(160, m_tree->width() / 2)));
    const QString who = m_assigned ? tr("Message %1").arg(m_sequenceNumber) : tr("This message");
    QStringList text;
    // What happens before the fan-out comes first: it decides whether the tree happens at all.
    if (!preview.sendRefused.isEmpty())
        text << tr("A send would be refused: %1 If it were taken:").arg(preview.sendRefused);
    else if (preview.duplicate)
        text << tr("Duplicate detection: MessageId '%1' was sent to this topic within its "
                   "window, so a send now would be acknowledged and dropped. Otherwise:")
                    .arg(preview.messageId);
    if (previews.isEmpty())
        text << tr("%1 would reach no one: the topic has no subscriptions.").arg(who);
    else
        text << tr("%1 would reach %2 of %3 subscriptions (%4 %5).")
                    .arg(who)
                    .arg(reached)
                    .arg(previews.size())
                    .arg(copies)
                    .arg(copies == 1 ? tr("copy") : tr("copies"));
    if (failed > 0)
        text << tr("A filter fails in %1.").arg(failed);
    if (forwardingFailed > 0)
        text << tr("Forwarding fails in %1: its copies are dead-lettered there.")
                    .arg(forwardingFailed);
    if (preview.scheduledFor)
        text << tr("It is scheduled: the copies are made at %1, not now.")
                    .arg(columns::localTime(*preview.scheduledFor));
    if (!m_copyRule.isEmpty())
        text << tr("This copy was made by rule '%1'; its action's changes are included.")
                    .arg(m_copyRule);
    m_summary->setText(text.join(QLatin1Char(' ')));
    if (previews.isEmpty())
        showEmpty(tr("Add a subscription to this topic to route messages."));
    else
        m_pages->setCurrentIndex(TreePage);
    emit previewShown();
}

void RoutingPreviewPanel::onChanged(const ChangeBatch& batch) {
    if (!m_message)
        return;
    // A stored message that may go through any topic of its namespace: a topic created or
    // deleted there changes the topic box, the empty "no topics" one included. Read the list
    // again (it previews when it arrives).
    const QString nsPrefix = m_namespace + QLatin1Char(':');
    const auto inNamespace = [&](const QSet<QString>& paths) {
        for (const QString& path : paths)
            if (path.startsWith(nsPrefix, Qt::CaseInsensitive))
                return true;
        return false;
    };
    const bool choosable = m_assigned && (m_topics->isEnabled() || m_topics->count() == 0);
    if (choosable && (inNamespace(batch.created) || inNamespace(batch.deleted))) {
        loadTopics(topic());
        return;
    }
    const QString target = topic();
    if (target.isEmpty())
        return;
    // Rules and subscriptions live under the topic's path.
    const QString prefix = target + QLatin1Char('/');
    const auto touches = [&](const QSet<QString>& paths) {
        for (const QString& path : paths)
            if (path.startsWith(prefix, Qt::CaseInsensitive) ||
                path.compare(target, Qt::CaseInsensitive) == 0)
                return true;
        return false;
    };
    if (touches(batch.created) || touches(batch.updated) || touches(batch.deleted))
        request();
}

} // namespace hourglass::ui
