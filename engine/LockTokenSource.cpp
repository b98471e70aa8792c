#include "LockTokenSource.h"

#include <QRandomGenerator>

#include <sys/random.h>

#include <algorithm>

namespace hourglass {

namespace {
void fillRandom(char* data, std::size_t size) {
    std::size_t filled = 0;
    while (filled < size) {
        const ssize_t got = getrandom(data + filled, size - filled, 0);
        if (got <= 0)
            break;
        filled += std::size_t(got);
    }
    if (filled < size) // no getrandom (an old kernel, a seccomp filter): Qt's own source
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(data + filled),
                                              qsizetype((size - filled) / sizeof(quint32)));
}
} // namespace

LockTokenSource::LockTokenSource() {
    fillRandom(m_mark.data(), m_mark.size());
}

bool LockTokenSource::issuedHere(const QUuid& token) const {
    return token.toRfc4122().startsWith(QByteArrayView(m_mark.data(), qsizetype(kMarkBytes)));
}

QUuid LockTokenSource::next() {
    if (m_used + kTokenBytes > m_buffer.size()) {
        fillRandom(m_buffer.data(), m_buffer.size());
        m_used = 0;
    }
    char* bytes = m_buffer.data() + m_used;
    m_used += kTokenBytes;
    std::copy(m_mark.cbegin(), m_mark.cend(), bytes);
    bytes[6] = char((bytes[6] & 0x0f) | 0x40); // version 4: random
    bytes[8] = char((bytes[8] & 0x3f) | 0x80); // the RFC 4122 variant
    return QUuid::fromRfc4122(QByteArrayView(bytes, qsizetype(kTokenBytes)));
}

} // namespace hourglass
