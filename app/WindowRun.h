#pragma once
// The explorer window: opens the database (the user's default one unless --db names another),
// creates a sample namespace on first start so that a new user sees countdowns move at once, and
// runs the event loop. --screenshot saves a picture of the loaded window and quits.

#include "CommandLine.h"

#include <QTextStream>

namespace hourglass::app {

int runWindow(const CommandLineOptions& options, QTextStream& err);

// ~/.local/share/hourglass/hourglass.db (under the platform's data folder).
QString defaultDatabasePath();

} // namespace hourglass::app
