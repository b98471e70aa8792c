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
        const qint64 expiresAt = nowSeconds + std::max(60, m_options.sasTokenLifetimeSeconds);
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
    const qint64 margin = std::max<qint64>(60, (expiresAt - issuedAt) / 10);
    return std::max(issuedAt, expiresAt - margin);
}

} // namespace hourglass::remote
