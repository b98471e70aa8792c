// A bearer token as a peer sends it on CBS put-token (type jwt) or in an HTTP Authorization
// header: fed to the JwtValidator `serve --trust-issuer` uses, trusting a key made once per
// process (tests/tls/TestJwtIssuer). The first input byte picks what the rest is:
//  - even: the token's bytes as they came (the size bound, base64url, the header's JSON and
//    `alg`, the signature over whatever was sent);
//  - odd: a header and claims in JSON (split at the first NUL) that the trusted key signs, so
//    that mutations reach what only a genuine signature unlocks: the claims' types and values.
// Whatever the bytes: a refusal never quotes the token, and a token accepted has a valid header
// and a future `exp`.

#include "TestJwtIssuer.h"
#include "hourglass/tls/JwtValidator.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

using namespace hourglass::tls;
using hourglass::testing::TestJwtIssuer;

namespace {
void require(bool holds) {
    if (!holds)
        std::abort();
}

struct Trust {
    TestJwtIssuer issuer{TestJwtIssuer::Kind::Ec};
    JwtValidator validator = [this] {
        auto made = JwtValidator::fromPem(TestJwtIssuer::kIssuer, issuer.publicKeyPem());
        require(made.ok());
        return *made;
    }();
};

Trust& trust() {
    static Trust made;
    return made;
}

QJsonObject objectOf(const QByteArray& json) {
    return QJsonDocument::fromJson(json).object();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    const QByteArray rest(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    QByteArray token = rest;
    if (data[0] % 2 == 1) {
        const qsizetype split = rest.indexOf('\0');
        const QJsonObject header = objectOf(split < 0 ? rest : rest.first(split));
        const QJsonObject claims = objectOf(split < 0 ? QByteArray() : rest.sliced(split + 1));
        token = trust().issuer.sign(header, claims);
    }
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const JwtCheck check = trust().validator.check(
        token, now, [](const QString& host) { return host == QStringLiteral("localhost"); });
    if (!check.valid()) {
        // Short and its own words: never the token (nor a long run of it) echoed back.
        require(check.refusal.size() < 400);
        require(token.size() < 16 || !check.refusal.toUtf8().contains(token.first(16)));
    } else {
        require(check.expiresAt > now - JwtValidator::kClockSkewSeconds);
    }
    return 0;
}
