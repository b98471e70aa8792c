#pragma once
// A stand-in identity provider for tests: a key pair made at once with OpenSSL (RSA 2048 for
// RS256, EC P-256 for ES256), its public half as PEM for the namespace to trust, and tokens
// signed with it. No key is ever committed: each test makes its own.

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <memory>

namespace hourglass::testing {

class TestJwtIssuer {
public:
    enum class Kind { Rsa, Ec };
    static inline const QString kIssuer =
        QStringLiteral("https://login.example.test/11111111-2222-3333-4444-555555555555/v2.0");

    explicit TestJwtIssuer(Kind kind = Kind::Rsa);
    ~TestJwtIssuer();
    TestJwtIssuer(const TestJwtIssuer&) = delete;
    TestJwtIssuer& operator=(const TestJwtIssuer&) = delete;

    // "-----BEGIN PUBLIC KEY-----...": what `serve --trust-key` reads.
    QByteArray publicKeyPem() const;
    // The same key in a self-signed certificate, as a key set's x5c publishes it.
    QByteArray certificatePem() const;
    // "RS256" or "ES256".
    QString algorithm() const;

    // Claims as Entra ID writes them for the Service Bus scope: iss, aud, iat, nbf = now - 5 s,
    // exp = now + `lifetimeSeconds`, sub, oid.
    QJsonObject claims(qint64 nowSeconds, qint64 lifetimeSeconds = 3600) const;
    // header.payload.signature with {"alg": algorithm(), "typ": "JWT", "kid": ...}.
    QByteArray sign(const QJsonObject& claims) const;
    // The same with a header of the caller's.
    QByteArray sign(const QJsonObject& header, const QJsonObject& claims) const;
    // A token valid now for an hour.
    QByteArray token(qint64 nowSeconds) const { return sign(claims(nowSeconds)); }

    static QByteArray base64Url(const QByteArray& bytes);

private:
    struct Key;
    std::unique_ptr<Key> m_key;
    Kind m_kind;
};

} // namespace hourglass::testing
