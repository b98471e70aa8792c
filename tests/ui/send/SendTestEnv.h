#pragma once
// The send dialog tests' world: a broker on a temporary database and a paused virtual clock,
// handed to a BrokerClient, with the queues the tests send to, and helpers that find the
// dialog's widgets by object name.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "send/SendDialog.h"
#include "send/SettlementView.h"

#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace hourglass::testing {

using ui::BrokerClient;
using ui::SendDialog;
using ui::SettlementView;

inline const QString kQueue = QStringLiteral("test:q");

// A broker on a temporary database and a paused virtual clock, handed to a BrokerClient, with a
// plain queue, a queue that takes 1 KB messages, a disabled queue and a deduplicating queue.
struct SendEnv {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(kTestStart);
    std::unique_ptr<BrokerClient> client;

    SendEnv() {
        std::unique_ptr<Broker> broker = openUiTestBroker(dir, clock);
        const EntityProperties defaults = EntityProperties::defaults(Tier::Standard);
        EntityProperties small = defaults;
        small.maxMessageSizeInKilobytes = 1;
        EntityProperties disabled = defaults;
        disabled.status = EntityStatus::Disabled;
        EntityProperties dedup = defaults;
        dedup.requiresDuplicateDetection = true;
        if (!broker->createQueue(QStringLiteral("q"), defaults) ||
            !broker->createQueue(QStringLiteral("small"), small) ||
            !broker->createQueue(QStringLiteral("off"), disabled) ||
            !broker->createQueue(QStringLiteral("dedup"), dedup))
            qFatal("createQueue failed");
        client = std::make_unique<BrokerClient>(std::move(broker));
    }

    template <typename Work> auto call(Work work) { return callAndWait(*client, std::move(work)); }

    // A dialog on `target` whose templates live in this test's directory.
    std::unique_ptr<SendDialog> dialog(const QString& target = kQueue) {
        auto d = std::make_unique<SendDialog>(*client, target);
        d->useTemplatesFile(templatesPath());
        return d;
    }
    QString templatesPath() const { return dir.filePath(QStringLiteral("templates.json")); }

    QList<MessageView> messages(const QString& path = kQueue) {
        auto listed = call(
            [path](Broker& b) { return b.listMessages(path, 0, 100000, Broker::Bodies::With); });
        if (!listed)
            qFatal("listMessages failed: %s", qPrintable(listed.error().toString()));
        return *listed;
    }
};

template <typename T> T* child(QWidget* parent, const char* name) {
    T* found = parent->findChild<T*>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

inline void setLine(QWidget* dialog, const char* name, const QString& text) {
    child<QLineEdit>(dialog, name)->setText(text);
}

inline QString resultText(QWidget* dialog) {
    return child<SettlementView>(dialog, "sendResult")->text();
}

inline void clickSend(QWidget* dialog) {
    QTest::mouseClick(child<QPushButton>(dialog, "sendButton"), Qt::LeftButton);
}

} // namespace hourglass::testing
