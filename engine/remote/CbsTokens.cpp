#include "CbsTokens.h"

#include "hourglass/amqpcodec/SasToken.h"

#include <QUrlQuery>

#include <algorithm>

namespace hourglass::remote {

CbsTokens::CbsTokens(ConnectionString where, AmqpClientOptions options)
    : m_where(std::move(where))
    , m_options(std::move(options)) {}

QString CbsTokens::audience(const QString& entityPath) const {
    return m_where.namespaceUri() + entityPath;
}

QString CbsTokens::connectAudience() const {
    return audience(m_where.entityPath);
}

Result<AccessToken> CbsTokens::tokenFor(const QString& audience, qint64 nowSeconds) const {
    switch (m_where.credential) {
    case ConnectionString::Credential::SharedKey: {
        const qint64 expiresAt = nowSeconds + std::max(2, m_options.sasTokenLifetimeSeconds);
        return AccessToken{kSasTokenType,
                           amqp::makeSasToken(audience, {m_where.keyName, m_where.key}, expiresAt),
                           expiresAt};
    }
    case ConnectionString::Credential::SignatureOnly: {
        // Used as given until it expires: its se= says when (the service checks the rest).
        QString query = m_where.signature;
        query.remove(0, query.indexOf(QLatin1Char(' ')) + 1);
        const qint64 expiresAt = QUrlQuery(query).queryItemValue(QStringLiteral("se")).toLongLong();
        return AccessToken{kSasTokenType, m_where.signature, expiresAt};
    }
    case ConnectionString::Credential::None:
        break;
    }
    if (m_options.tokenProvider)
        return m_options.tokenProvider(audience);
    return Error::make(ErrorCode::Unauthorized,
                       QStringLiteral("The connection string has neither a key nor a signature."));
}

qint64 CbsTokens::renewAt(qint64 issuedAt, qint64 expiresAt) {
    if (expiresAt <= 0)
        return 0;
    // A tenth of its life before it expires, at least a minute before, but never in the first
    // half of its life (a short-lived token would be renewed over and over).
    const qint64 life = expiresAt - issuedAt;
    if (life <= 0)
        return issuedAt;
    const qint64 margin = std::min<qint64>(std::max<qint64>(60, life / 10), life / 2);
    return expiresAt - margin;
}

} // namespace hourglass::remote
