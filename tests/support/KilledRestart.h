#pragma once
// Restart tests in two variants (service-bus-rules.md D1, D2), each body written once:
//
//   clean   - the "before" half runs in this process, then TestBroker::reopen() closes the engine
//             (its store writes everything pending) and opens the database again;
//   kill -9 - the "before" half runs in a child process (this test program executed again with
//             the arguments below) on the same database and the same paused virtual instant;
//             right after its last acknowledged operation the child raises SIGKILL, so nothing
//             that was still pending is written. The test then opens the database at the
//             child's instant, as a broker restarted after a crash would.
//
// A test registers its before half once, at namespace scope, under a unique name (the child
// finds it by that name):
//
//   const BeforeRestart kLockTwo{"lockTwo", [](TestBroker& tb, Handoff& handoff) {
//       ... operations, QVERIFY/HG_VERIFY_OK as anywhere in a test ...
//       handoff.put("token", got->first().lockToken);
//   }};
//
// and its test function (with a "restart" column: addRestartRows() or kRestartVariants) does
//
//   const Handoff handed = kLockTwo.runThenRestart(tb, restart);
//   if (QTest::currentTestFailed())
//       return;
//   ... the "after" half, on tb, with handed.uuid("token") ...
//
// The before half must capture nothing (it may run in another process): what it needs comes in
// through the Handoff given to runThenRestart, what the after half needs goes out through it. In
// the child, a failed QVERIFY makes the child exit instead of killing itself; the parent then
// fails the test with the child's QtTest output. Note that Broker reads of stored rows
// (listMessages, message, peek, deadLetterReasons, BrokerSnapshot::take) commit whatever waits
// in the store's log: a before half that wants to see what a crash loses reads nothing but
// memory (entity, counts) after the operation under test.
//
// The program's main() must be HG_RESTART_TEST_MAIN(TestClass) instead of QTEST_GUILESS_MAIN.

#include "Handoff.h"
#include "TestBroker.h"

#include <QCoreApplication>
#include <QTest>

#include <source_location>

namespace hourglass::testing {

enum class Restart { Clean, Kill9 };

struct RestartVariant {
    const char* tag;
    Restart restart;
};
inline constexpr RestartVariant kRestartVariants[] = {{"clean", Restart::Clean},
                                                      {"kill -9", Restart::Kill9}};

// For a test whose only data is the restart: a "restart" column and the rows of kRestartVariants.
void addRestartRows();

class BeforeRestart {
public:
    using Body = void (*)(TestBroker& tb, Handoff& handoff);

    // Registers `body` under `name`, which must be unique in the program.
    BeforeRestart(const char* name, Body body);

    // Runs the body on `tb` with `handoff` (the values it needs), then restarts `tb` the chosen
    // way. Returns the handoff as the body left it. When the body failed, or the child did not
    // die by SIGKILL, the test has failed (QTest::currentTestFailed()) at `where`.
    Handoff runThenRestart(TestBroker& tb, Restart restart, Handoff handoff = {},
                           std::source_location where = std::source_location::current()) const;

    // For HG_RESTART_TEST_MAIN: whether this process is a child started by runThenRestart, and
    // what it then does instead of running the tests (it does not return when the body passed).
    static bool isChild(int argc, char** argv);
    static int runChild(int argc, char** argv);

private:
    const char* m_name;
    Body m_body;
};

} // namespace hourglass::testing

#define HG_RESTART_TEST_MAIN(TestObject)                                                           \
    int main(int argc, char* argv[]) {                                                             \
        QCoreApplication app(argc, argv);                                                          \
        if (::hourglass::testing::BeforeRestart::isChild(argc, argv))                              \
            return ::hourglass::testing::BeforeRestart::runChild(argc, argv);                      \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }
