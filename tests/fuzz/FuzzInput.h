#pragma once
// What the fuzz targets share: the input as the QByteArray the decoders take, and one AMQP value
// decoded from it as the endpoint decodes values (Proton's decoder, then readSingleAmqpValue).

#include "hourglass/amqpcodec/AmqpValue.h"

#include <QByteArray>
#include <QVariant>

#include <cstddef>
#include <cstdint>

namespace hourglass::fuzz {

// A copy, so the decoders see a QByteArray as they always do (null-terminated, owned).
inline QByteArray bytesOf(const uint8_t* data, size_t size) {
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

// Hands `take` the stream an input stands for, in the pieces a socket may deliver it in: the
// input's first byte picks their size (1 to 64 bytes), the rest is the stream. `take` returns
// false to stop.
template <typename Take> void forEachPiece(const uint8_t* data, size_t size, Take take) {
    if (size == 0)
        return;
    const qsizetype piece = 1 + data[0] % 64;
    const QByteArray stream = bytesOf(data + 1, size - 1);
    for (qsizetype at = 0; at < stream.size(); at += piece) {
        if (!take(QByteArrayView(stream).sliced(at).first(qMin(piece, stream.size() - at))))
            return;
    }
}

// The AMQP value `bytes` encode; an invalid QVariant when Proton cannot decode them.
inline QVariant decodeAmqpValue(const QByteArray& bytes) {
    pn_data_t* data = pn_data(16);
    QVariant value;
    if (pn_data_decode(data, bytes.constData(), size_t(bytes.size())) >= 0)
        value = amqp::readSingleAmqpValue(data);
    pn_data_free(data);
    return value;
}

} // namespace hourglass::fuzz
