#include "AdminAuthorization.h"

#include "hourglass/amqpcodec/SasToken.h"

namespace hourglass::remote {

namespace {
// A header value is one line: a pasted signature or a token with a line break in it would end
// the header and start another.
Result<QByteArray> headerValue(const QByteArray& value) {
    for (const char c : value)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return makeError(ErrorCode::Unauthorized,
                             QStringLiteral("The credential has characters a request cannot "
                                            "carry (a line break, a control character)."));
    return value;
}
} // namespace

Result<QByteArray> adminAuthorization(const AdminClientOptions& options, qint64 nowSeconds) {
    if (options.tokenProvider) {
        const auto token = options.tokenProvider();
        if (!token)
            return token.error();
        return headerValue(QByteArray("Bearer ") + token->toUtf8());
    }
    const ConnectionString& connection = options.connection;
    switch (connection.credential) {
    case ConnectionString::Credential::SharedKey:
        return amqp::makeSasToken(options.baseUrl.toLower(),
                                  amqp::SasKey{connection.keyName, connection.key},
                                  nowSeconds + kAdminTokenSeconds)
            .toUtf8();
    case ConnectionString::Credential::SignatureOnly:
        return headerValue(connection.signature.toUtf8());
    case ConnectionString::Credential::None:
        break;
    }
    return makeError(ErrorCode::Unauthorized,
                     QStringLiteral("The connection has no key, signature or sign-in to "
                                    "present to the namespace."));
}

} // namespace hourglass::remote
