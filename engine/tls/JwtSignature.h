#pragma once
// The OpenSSL side of JwtValidator: the trusted key read from PEM and a token's signature
// checked with it (EVP), each algorithm bound to one kind of key. The key is only read once
// made, so the endpoint's thread and the administration API's workers verify with it at once
// (OpenSSL 3 allows an EVP_PKEY to be shared that way).

#include "OpenSslHandles.h"
#include "hourglass/tls/JwtValidator.h"

#include <QByteArray>
#include <QByteArrayView>

namespace hourglass::tls {

enum class JwtAlgorithm { RS256, ES256 };

struct JwtValidator::Key {
    PrivateKey key; // an EVP_PKEY holding only the public half
    JwtAlgorithm algorithm = JwtAlgorithm::RS256;
};

// "RS256", "ES256": as a token's header names them.
QString jwtAlgorithmName(JwtAlgorithm algorithm);

// A public key or a certificate in PEM (the first one in the text). InvalidArgument when the
// text holds neither, or a key of a kind or size no algorithm here takes.
Result<std::shared_ptr<const JwtValidator::Key>> readTrustedKey(const QByteArray& pem);

// Whether `signature` (the token's third part, decoded) signs `signingInput` (its first two
// parts with the dot) under `key`. ES256's signature is R and S, 32 bytes each (RFC 7518 3.4).
bool verifyJwtSignature(const JwtValidator::Key& key, QByteArrayView signingInput,
                        const QByteArray& signature);

} // namespace hourglass::tls
