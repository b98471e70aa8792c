#include "FirstStart.h"

#include "SampleNamespace.h"
#include "common/BrokerClient.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

namespace hourglass::app {

void createSampleInFirstDatabase(ui::MainWindow& window) {
    QObject::connect(
        &window, &ui::MainWindow::databaseOpened, &window,
        [&window] {
            window.client()->call(
                &window, [](Broker& broker) { return createSampleNamespace(broker); },
                [&window](const Result<void>& created) {
                    if (!created)
                        window.messageBar()->showError(created.error(),
                                                       QObject::tr("The sample namespace"));
                });
        },
        Qt::SingleShotConnection);
}

} // namespace hourglass::app
