#pragma once
// Runs the durability child (DurabilityChild.cpp) and kills it with SIGKILL (kill -9) once the
// test has read a chosen number of acknowledgement lines, while the child is still writing.
// The kill point is a count of lines read, never a time, so correctness never depends on the
// wall clock; the timeout below only stops a hung child from hanging the test.

#include "ChildProtocol.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace hourglass::durability {

struct CrashedChild {
    // Every complete acknowledgement line the child wrote before it died, including lines that
    // were still in the pipe when it was killed (they were acknowledged all the same).
    QList<AckLine> acks;
    // True when our SIGKILL ended the child; false when it exited on its own first.
    bool killedBySignal = false;
    // Why the run could not be carried out (empty when it was): the child failed to start,
    // exited or hung before printing enough lines, or printed a malformed line.
    QString failure;
    QString childStderr;

    // Starts `program arguments`, reads `killAfterLines` lines, kills the child and waits for it.
    static CrashedChild run(const QString& program, const QStringList& arguments,
                            int killAfterLines);
};

} // namespace hourglass::durability
