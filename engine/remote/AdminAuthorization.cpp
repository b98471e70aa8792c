#include "AdminAuthorization.h"

#include "hourglass/amqp/SasToken.h"

namespace hourglass::remote {

Result<QByteArray> adminAuthorization(const AdminClientOptions& options, qint64 nowSeconds) {
    if (options.tokenProvider) {
        const auto token = options.tokenProvider();
        if (!token)
            return token.error();
        return QByteArray("Bearer ") + token->toUtf8();
    }
    const ConnectionString& connection = options.connection;
    switch (connection.credential) {
    case ConnectionString::Credential::SharedKey:
        return amqp::makeSasToken(options.baseUrl.toLower(),
                                  amqp::SasKey{connection.keyName, connection.key},
                                  nowSeconds + kAdminTokenSeconds)
            .toUtf8();
    case ConnectionString::Credential::SignatureOnly:
        return connection.signature.toUtf8();
    case ConnectionString::Credential::None:
        break;
    }
    return makeError(ErrorCode::Unauthorized,
                     QStringLiteral("The connection has no key, signature or sign-in to "
                                    "present to the namespace."));
}

} // namespace hourglass::remote
