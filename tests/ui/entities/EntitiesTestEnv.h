#pragma once
// The entity management tests' world: a broker on a temporary database and a paused virtual
// clock behind a BrokerClient (namespace "test" with queue "q", or nothing), the EntityActions
// under test with a window that hosts their dialogs, and helpers that drive dialogs by name.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "entities/EntityActions.h"
#include "entities/EntityDialog.h"

#include <QAction>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace hourglass::testing {

using ui::BrokerClient;
using ui::EntityActions;
using ui::EntityDialog;

// A broker on a temporary database and a paused virtual clock, handed to a BrokerClient, with
// the actions under test parented to a window that hosts their dialogs.
struct EntitiesEnv {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(kTestStart);
    std::unique_ptr<BrokerClient> client;
    QWidget window;
    std::unique_ptr<EntityActions> actions;

    enum class Start { WithNamespace, Empty };
    explicit EntitiesEnv(Start start = Start::WithNamespace) {
        std::unique_ptr<Broker> broker = openUiTestBroker(
            dir, clock, start == Start::WithNamespace ? QStringLiteral("test") : QString());
        if (start == Start::WithNamespace) {
            if (!broker->createQueue(QStringLiteral("q"),
                                     EntityProperties::defaults(Tier::Standard)))
                qFatal("createQueue failed");
        }
        client = std::make_unique<BrokerClient>(std::move(broker));
        actions = std::make_unique<EntityActions>(*client, &window);
    }
    ~EntitiesEnv() { client->waitForIdle(); }

    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }
    Result<EntityInfo> entity(const QString& path) {
        return call([path](Broker& b) { return b.entity(path); });
    }
    template <typename T> T* find(const QString& name) { return window.findChild<T*>(name); }
    // Triggers an action and returns the entity dialog it opened, once its values are loaded.
    EntityDialog* openEntityDialog(QAction* action) {
        action->trigger();
        auto* dialog = find<EntityDialog>(QStringLiteral("entityDialog"));
        if (dialog && !QTest::qWaitFor([dialog] { return dialog->isLoaded(); }))
            return nullptr;
        return dialog;
    }
};

inline QLineEdit* durationText(QWidget* dialog, const QString& property) {
    return dialog->findChild<QLineEdit*>(property + QStringLiteral("Text"));
}

// Clicks a button once it is enabled: a dialog disables its button while its engine call runs,
// and the change notification that a test waits on may arrive before that call's reply.
inline void click(QWidget* dialog, const QString& button) {
    auto* b = dialog->findChild<QPushButton*>(button);
    QVERIFY2(b, qPrintable(button));
    QTRY_VERIFY(b->isEnabled());
    QTest::mouseClick(b, Qt::LeftButton);
}

} // namespace hourglass::testing
