// The server context every TlsStream shares: the certificate chain and key from PEM files, TLS 1.2
// and 1.3 only, no renegotiation, any SNI name accepted (TlsStream records it).

#include "PemFiles.h"
#include "TlsServerContextPrivate.h"
#include "TlsStreamPrivate.h"

#include <openssl/err.h>

namespace hourglass::tls {

namespace {

Error contextError(const QString& what) {
    return makeError(ErrorCode::GeneralError, what);
}

// Any name is accepted: one certificate serves every name a client may use (localhost, an
// address, the --host name), and a name it does not cover is for the client to refuse. The name
// is kept for logs.
int acceptAnyServerName(SSL* ssl, int*, void*) {
    if (auto* stream = static_cast<TlsStream::Private*>(SSL_get_app_data(ssl)))
        stream->recordServerName(SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name));
    return SSL_TLSEXT_ERR_OK;
}

} // namespace

TlsServerContext::TlsServerContext(std::unique_ptr<Private> d)
    : d(std::move(d)) {}

TlsServerContext::~TlsServerContext() = default;

Result<std::shared_ptr<const TlsServerContext>>
TlsServerContext::fromFiles(const QString& certFile, const QString& keyFile) {
    Result<std::vector<Certificate>> chain = readCertificateChainFile(certFile);
    if (!chain)
        return chain.error();
    Result<PrivateKey> key = readPrivateKeyFile(keyFile);
    if (!key)
        return key.error();

    auto d = std::make_unique<Private>();
    d->context.reset(SSL_CTX_new(TLS_server_method()));
    SSL_CTX* context = d->context.get();
    if (!context) {
        ERR_clear_error();
        return contextError(QStringLiteral("OpenSSL could not make a TLS server context"));
    }
    const bool configured = SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 &&
                            SSL_CTX_set_max_proto_version(context, TLS1_3_VERSION) == 1 &&
                            SSL_CTX_use_certificate(context, chain->front().get()) == 1;
    bool chainAdded = configured;
    for (std::size_t i = 1; chainAdded && i < chain->size(); ++i)
        chainAdded = SSL_CTX_add1_chain_cert(context, (*chain)[i].get()) == 1;
    if (!configured || !chainAdded) {
        ERR_clear_error();
        return contextError(QStringLiteral("%1: OpenSSL refused its certificates for a TLS server "
                                           "(an unsupported or too weak key?)")
                                .arg(certFile));
    }
    if (SSL_CTX_use_PrivateKey(context, key->get()) != 1 ||
        SSL_CTX_check_private_key(context) != 1) {
        ERR_clear_error();
        return contextError(
            QStringLiteral("%1: not the key of the certificate in %2").arg(keyFile, certFile));
    }

    // Renegotiation (TLS 1.2) lets a client make the server redo handshakes at will: refused
    // (OpenSSL 3 refuses a client's by default; this says so and refuses it both ways).
    // The server's cipher order wins. Resumption works through tickets alone, so no session
    // cache grows with the number of clients.
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
                                     SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    // An idle session frees its record buffers: thousands of quiet connections cost little.
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_tlsext_servername_callback(context, acceptAnyServerName);

    return std::shared_ptr<const TlsServerContext>(new TlsServerContext(std::move(d)));
}

} // namespace hourglass::tls
