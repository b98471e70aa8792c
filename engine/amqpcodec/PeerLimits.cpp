#include "hourglass/amqpcodec/PeerLimits.h"

namespace hourglass::amqp {

QString quoted(const QString& peerText) {
    if (peerText.size() <= kMaxQuotedChars)
        return peerText;
    // Never split a surrogate pair: a lone half is not valid UTF-8 on the wire.
    qsizetype cut = kMaxQuotedChars;
    if (peerText.at(cut - 1).isHighSurrogate())
        --cut;
    return peerText.left(cut) + QChar(0x2026);
}

QString tooDeepDescription() {
    return QStringLiteral("The value is nested deeper than %1 levels.").arg(kMaxNesting);
}

} // namespace hourglass::amqp
