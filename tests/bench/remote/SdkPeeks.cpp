#include "SdkPeeks.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace hourglass::bench {

namespace {

// Node 20: the one on PATH, else the one `make node-deps` fetches into the build's tools.
QString nodeProgram() {
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (!onPath.isEmpty())
        return onPath;
    return QStringLiteral(HOURGLASS_NODE_TOOLS "/node");
}

// At most this much of what Node printed goes into a problem line.
QString shortened(const QByteArray& text) {
    const QString line = QString::fromUtf8(text).simplified();
    return line.size() > 160 ? line.left(160) + QStringLiteral("...") : line;
}

} // namespace

SdkPeekRun sdkPeek(const QString& connection, const QString& queue, int count,
                   const QString& nodeModules, const QString& script) {
    SdkPeekRun run;
    if (!QDir(nodeModules).exists(QStringLiteral("@azure/service-bus"))) {
        run.problem = QStringLiteral("no @azure/service-bus in %1 (ctest's sdk_npm_ci installs "
                                     "it; or pass --sdk-modules)")
                          .arg(nodeModules);
        return run;
    }
    QTemporaryDir folder;
    const QString copy = folder.filePath(QStringLiteral("sdk-peeks.mjs"));
    if (!QFile::copy(script, copy) ||
        !QFile::link(nodeModules, folder.filePath(QStringLiteral("node_modules")))) {
        run.problem = QStringLiteral("could not prepare %1").arg(folder.path());
        return run;
    }
    QProcess node;
    node.setWorkingDirectory(folder.path());
    node.start(nodeProgram(), {copy, connection, queue, QString::number(count)});
    if (!node.waitForStarted(30000)) {
        run.problem = QStringLiteral("could not start %1").arg(nodeProgram());
        return run;
    }
    if (!node.waitForFinished(600000)) {
        node.kill();
        node.waitForFinished(5000);
        run.problem = QStringLiteral("node did not finish within 600 s");
        return run;
    }
    const QByteArray out = node.readAllStandardOutput().trimmed();
    bool number = false;
    const double ms = out.toDouble(&number);
    if (node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0 || !number) {
        run.problem = QStringLiteral("node failed: %1")
                          .arg(shortened(node.readAllStandardError() + ' ' + out));
        return run;
    }
    run.milliseconds = ms;
    return run;
}

} // namespace hourglass::bench
