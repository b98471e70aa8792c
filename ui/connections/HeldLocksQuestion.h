#pragma once
// Before the window lets its applications go (it quits, or another database opens), it asks
// when connected applications hold message locks, saying how many: their locks go back to the
// queues and another receiver may get those messages. No question when none do.

#include <QString>

#include <functional>

class QWidget;

namespace hourglass::ui {

class AmqpService;

enum class LettingGo { Quit, OpenAnotherDatabase };

// "2 applications hold 37 message locks. Quit anyway? Their locks go back to the queues."
QString heldLocksQuestionText(int applications, int locks, LettingGo why);

// Opens the question (window-modal, objectName "heldLocksQuestion") and returns true when
// applications hold locks: `proceed` runs if the user goes on, nothing if they cancel. Returns
// false, asking nothing, when none hold a lock: the caller goes on at once.
bool askBeforeLettingGo(AmqpService& service, QWidget* parent, LettingGo why,
                        std::function<void()> proceed);

} // namespace hourglass::ui
