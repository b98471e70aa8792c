#include "hourglass/amqpcodec/PeerLimits.h"

namespace hourglass::amqp {

namespace {
QString prefix(const QString& peerText, qsizetype limit) {
    if (peerText.size() <= limit)
        return peerText;
    // Never split a surrogate pair: a lone half is not valid UTF-8 on the wire.
    qsizetype cut = limit;
    if (peerText.at(cut - 1).isHighSurrogate())
        --cut;
    return peerText.left(cut) + QChar(0x2026);
}
} // namespace

QString quoted(const QString& peerText) {
    return prefix(peerText, kMaxQuotedChars);
}

QString quotedDescription(const QString& peerText) {
    return prefix(peerText, kMaxQuotedDescriptionChars);
}

QString tooDeepDescription() {
    return QStringLiteral("The value is nested deeper than %1 levels.").arg(kMaxNesting);
}

} // namespace hourglass::amqp
