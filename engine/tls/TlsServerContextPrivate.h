#pragma once
// What a TlsServerContext holds: OpenSSL's server context, configured once (TlsServerContext.cpp)
// and only read afterwards, which OpenSSL allows from any number of threads.

#include "hourglass/tls/TlsStream.h"

#include <openssl/ssl.h>

#include <memory>

namespace hourglass::tls {

inline void freeSslContext(SSL_CTX* context) {
    SSL_CTX_free(context);
}
using SslContext = std::unique_ptr<SSL_CTX, void (*)(SSL_CTX*)>;

struct TlsServerContext::Private {
    SslContext context{nullptr, freeSslContext};
};

} // namespace hourglass::tls
