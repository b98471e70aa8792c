#include "FirstStart.h"

#include "SampleNamespace.h"
#include "common/BrokerClient.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <memory>

namespace hourglass::app {

void createSampleWhenOpened(ui::MainWindow& window, const QString& path) {
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(
        &window, &ui::MainWindow::databaseOpened, &window,
        [&window, path, connection](const QString& opened) {
            if (opened != path)
                return; // another database: never the user's own, never a second time
            QObject::disconnect(*connection);
            window.client()->call(
                &window, [](Broker& broker) { return createSampleNamespace(broker); },
                [&window](const Result<void>& created) {
                    if (!created)
                        window.messageBar()->showError(created.error(),
                                                       QObject::tr("The sample namespace"));
                });
        });
}

} // namespace hourglass::app
