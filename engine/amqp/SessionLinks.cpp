#include "SessionLinks.h"

#include "hourglass/amqpcodec/AmqpValue.h"

#include <proton/codec.h>
#include <proton/terminus.h>

namespace hourglass::amqp {

namespace {
// The client's wait when it names none; the JavaScript SDK always names its operation time-out.
constexpr std::chrono::milliseconds kDefaultAcceptTimeout{60000};

QVariantMap mapOf(pn_data_t* data) {
    // Proton gives no data at all for an attach without properties (a client other than the
    // SDKs): that is an empty map, not a crash of the endpoint.
    if (!data)
        return {};
    return readSingleAmqpValue(data).toMap();
}
} // namespace

std::optional<SessionRequest> requestedSession(pn_link_t* link) {
    const QVariantMap filter = mapOf(pn_terminus_filter(pn_link_remote_source(link)));
    const auto it = filter.constFind(QString::fromLatin1(kSessionFilter));
    if (it == filter.cend())
        return std::nullopt;
    SessionRequest request;
    // A string names the session; null (or anything else) asks for the next available one.
    if (it->typeId() == QMetaType::QString)
        request.sessionId = it->toString();
    request.timeout = kDefaultAcceptTimeout;
    const QVariant timeout =
        mapOf(pn_link_remote_properties(link)).value(QString::fromLatin1(kTimeoutProperty));
    bool isNumber = false;
    const qint64 ms = timeout.toLongLong(&isNumber);
    if (isNumber && timeout.typeId() != QMetaType::QString && ms >= 0)
        request.timeout = std::chrono::milliseconds(ms);
    return request;
}

void describeGrantedSession(pn_link_t* link, const AcceptedSession& session) {
    pn_data_t* filter = pn_terminus_filter(pn_link_source(link));
    pn_data_clear(filter);
    pn_data_put_map(filter);
    pn_data_enter(filter);
    pn_data_put_symbol(filter, pn_bytes(sizeof kSessionFilter - 1, kSessionFilter));
    const QByteArray id = session.sessionId.toUtf8();
    pn_data_put_string(filter, pn_bytes(size_t(id.size()), id.constData()));
    pn_data_exit(filter);

    pn_data_t* properties = pn_link_properties(link);
    pn_data_clear(properties);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    pn_data_put_symbol(properties, pn_bytes(sizeof kLockedUntilUtc - 1, kLockedUntilUtc));
    pn_data_put_long(properties, dotNetTicks(session.lockedUntil));
    pn_data_exit(properties);
}

void describeRefusedSession(pn_link_t* link, Refusal refusal) {
    pn_terminus_t* source = pn_link_source(link);
    pn_data_clear(pn_terminus_filter(source));
    if (refusal == Refusal::NullSource)
        pn_terminus_set_type(source, PN_UNSPECIFIED);
}

} // namespace hourglass::amqp
