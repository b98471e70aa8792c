#pragma once
// Bearer tokens (JSON Web Tokens, RFC 7519) from one identity provider the namespace is told to
// trust, as Microsoft Entra ID issues them for the scope `https://servicebus.azure.net/.default`:
// signed with RS256 (or ES256) by a key given to `serve`, the trusted issuer in `iss`, the
// Service Bus audience (or this namespace's own URL) in `aud`, `exp` and `nbf` checked against
// the wall clock with a minute of skew.
//
// Every token is hostile: its size is bounded before a byte is decoded, the header's `alg` must
// be the trusted key's own (`none` and the HMAC algorithms are refused: a public key is no
// shared secret), the signature is checked before any claim is read, and no refusal quotes a
// byte of the token. OpenSSL stays private to this library (JwtSignature.cpp).

#include "hourglass/Status.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>

namespace hourglass::tls {

// What a token proved, or why not.
struct JwtCheck {
    QString refusal;      // empty: the token is valid
    qint64 expiresAt = 0; // its `exp`, seconds since the epoch
    bool valid() const { return refusal.isEmpty(); }
};

// Whether an audience URL's host (lower case, without port) is one this namespace answers to.
using ServedHost = std::function<bool(const QString& host)>;

class JwtValidator {
public:
    // Longer tokens are refused unread; Entra ID's are 1.5 to 3 KiB.
    static constexpr qsizetype kMaxTokenBytes = 8192;
    // A trusted key's PEM file is read only up to this size.
    static constexpr qsizetype kMaxKeyFileBytes = 64 * 1024;
    // How far the issuer's clock and ours may disagree.
    static constexpr qint64 kClockSkewSeconds = 60;
    // The audience Entra ID writes for the scope `https://servicebus.azure.net/.default`.
    static inline const QString kServiceBusAudience =
        QStringLiteral("https://servicebus.azure.net");

    // The issuer's public key as PEM: a public key (`BEGIN PUBLIC KEY`) or a certificate (as an
    // identity provider's key set publishes it). RSA of 2048 bits or more means RS256; EC on
    // P-256 means ES256; any other key is refused. InvalidArgument says why, never what the
    // text holds.
    static Result<JwtValidator> fromPem(const QString& issuer, const QByteArray& pem);
    // The same from a file, whose name the errors give.
    static Result<JwtValidator> fromFile(const QString& issuer, const QString& path);

    // Checks `token` at `nowSeconds`. Audiences accepted: kServiceBusAudience (a trailing '/'
    // allowed), and `https://host/` or `sb://host/` when `servedHost` accepts the host.
    JwtCheck check(const QByteArray& token, qint64 nowSeconds,
                   const ServedHost& servedHost = {}) const;

    const QString& issuer() const { return m_issuer; }
    // "RS256" or "ES256": the one algorithm a token may name.
    QString algorithm() const;

    struct Key; // JwtSignature.cpp: the OpenSSL key

private:
    JwtValidator(QString issuer, std::shared_ptr<const Key> key);

    QString m_issuer;
    std::shared_ptr<const Key> m_key;
};

} // namespace hourglass::tls
