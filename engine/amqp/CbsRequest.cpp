#include "CbsRequest.h"

#include "hourglass/amqpcodec/AmqpNesting.h"

#include <QtEndian>

#include <climits>
#include <vector>

namespace hourglass::amqp {

namespace {
constexpr quint64 kDataSection = 0x75;
constexpr quint64 kValueSection = 0x77;
constexpr char kStr8 = char(0xa1);
constexpr char kStr32 = char(0xb1);

// A section's numeric descriptor and where its value starts; nullopt for anything else.
std::optional<std::pair<quint64, qsizetype>> sectionDescriptor(const QByteArray& section) {
    const auto* bytes = reinterpret_cast<const uchar*>(section.constData());
    if (section.size() >= 3 && bytes[0] == 0x00 && bytes[1] == 0x53)
        return std::make_pair(quint64(bytes[2]), qsizetype(3));
    if (section.size() >= 10 && bytes[0] == 0x00 && bytes[1] == 0x80)
        return std::make_pair(qFromBigEndian<quint64>(bytes + 2), qsizetype(10));
    return std::nullopt;
}

// The string an amqp-value section holds, when it holds exactly one string.
std::optional<QString> stringValue(const QByteArray& section, qsizetype at) {
    const auto* bytes = reinterpret_cast<const uchar*>(section.constData());
    if (section.size() >= at + 2 && section[at] == kStr8 &&
        bytes[at + 1] == section.size() - at - 2)
        return QString::fromUtf8(section.mid(at + 2));
    if (section.size() >= at + 5 && section[at] == kStr32 &&
        qFromBigEndian<quint32>(bytes + at + 1) == quint32(section.size() - at - 5))
        return QString::fromUtf8(section.mid(at + 5));
    return std::nullopt;
}
} // namespace

Result<CbsRequest> decodeCbsRequest(const QByteArray& encoded) {
    // The section boundaries, at any depth: the walk does not recurse. The body is set aside
    // here; every other section is checked against the limit by decodeManagementRequest.
    std::vector<std::size_t> ends;
    if (checkNesting(encoded.constData(), std::size_t(encoded.size()), INT_MAX, &ends) ==
        Nesting::Malformed)
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("The request could not be decoded as AMQP 1.0."));
    QByteArray withoutBody;
    std::optional<QString> token;
    int bodySections = 0;
    qsizetype begin = 0;
    for (const std::size_t end : ends) {
        const QByteArray section = encoded.mid(begin, qsizetype(end) - begin);
        begin = qsizetype(end);
        const auto descriptor = sectionDescriptor(section);
        if (descriptor && descriptor->first >= kDataSection && descriptor->first <= kValueSection) {
            if (++bodySections == 1 && descriptor->first == kValueSection)
                token = stringValue(section, descriptor->second);
            continue;
        }
        withoutBody += section;
    }
    auto request = decodeManagementRequest(withoutBody);
    if (!request)
        return request.error();
    CbsRequest cbs;
    cbs.request = std::move(*request);
    cbs.bodyIsString = token.has_value() && bodySections == 1;
    if (cbs.bodyIsString)
        cbs.request.body = *token;
    return cbs;
}

} // namespace hourglass::amqp
