#pragma once
// The baseline of the list's figure: the official JS SDK (`@azure/service-bus`, tests/sdk's
// packages) peeking the same messages from the same server in the same run (sdk-peeks.mjs, run
// by Node 20 in a process of its own). Node resolves the SDK from the script's own folder, so the
// script is copied into a temporary folder beside a link to the SDK's node_modules.

#include <QString>

#include <optional>

namespace hourglass::bench {

struct SdkPeekRun {
    std::optional<double> milliseconds; // the timed peeks, when the run worked
    QString problem;                    // why not (a short line), else empty
};

// Peeks `count` messages of `queue` from the start through the namespace `connection`.
// `nodeModules`: the folder holding @azure/service-bus; `script`: sdk-peeks.mjs.
SdkPeekRun sdkPeek(const QString& connection, const QString& queue, int count,
                   const QString& nodeModules, const QString& script);

} // namespace hourglass::bench
