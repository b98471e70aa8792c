#pragma once
// The first start of the explorer: the user's database does not exist yet, so the window fills
// it with the sample namespace (SampleNamespace.h) as soon as it is open, and a new user sees
// countdowns move at once.
//
// Only the first database the window opens gets the sample: the window opens databases again
// later (closing a scenario returns to the user's database, File > Open, a recent database), and
// creating the sample there again would only be refused (MessagingEntityAlreadyExists).

#include <QString>

namespace hourglass::ui {
class MainWindow;
}

namespace hourglass::app {

// Creates the sample namespace, off the GUI thread, when `window` opens the database at `path`
// (the user's new default database), once; a failure goes to the message bar.
void createSampleWhenOpened(ui::MainWindow& window, const QString& path);

} // namespace hourglass::app
