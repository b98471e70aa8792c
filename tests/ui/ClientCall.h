#pragma once
// For UI tests: run one broker call through a BrokerClient and get its result back on this
// (GUI) thread, as the panels do, without an event loop of the test's own.

#include "common/BrokerClient.h"

#include <QCoreApplication>
#include <QEvent>
#include <QObject>

#include <optional>
#include <type_traits>

namespace hourglass::testing {

template <typename Work> auto callAndWait(ui::BrokerClient& client, Work work) {
    using R = std::invoke_result_t<Work, Broker&>;
    std::optional<R> out;
    QObject context;
    client.call(&context, std::move(work), [&out](R result) { out.emplace(std::move(result)); });
    client.waitForIdle();
    QCoreApplication::sendPostedEvents(&context, QEvent::MetaCall);
    if (!out)
        qFatal("broker call returned nothing");
    return std::move(*out);
}

} // namespace hourglass::testing
