// JwtValidator: tokens from a stand-in issuer whose key each test makes (TestJwtIssuer), checked
// as `serve` checks them: the signature with the trusted key only, the header's algorithm bound
// to that key, the claims (issuer, audience, expiry, start), and hostile text refused without
// being quoted.

#include "TestJwtIssuer.h"
#include "hourglass/tls/JwtValidator.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <openssl/evp.h>
#include <openssl/pem.h>

using hourglass::testing::TestJwtIssuer;
using hourglass::tls::JwtCheck;
using hourglass::tls::JwtValidator;

namespace {
constexpr qint64 kNow = 1'800'000'000;

JwtValidator trusting(const TestJwtIssuer& issuer) {
    auto validator = JwtValidator::fromPem(TestJwtIssuer::kIssuer, issuer.publicKeyPem());
    if (!validator)
        qFatal("%s", qPrintable(validator.error().description));
    return *validator;
}

// RSA keys take a moment to make: the tests that need one issuer share it.
const TestJwtIssuer& sharedIssuer() {
    static const TestJwtIssuer issuer;
    return issuer;
}

// QVERIFY2 reads its message even when the check passes.
QString refusalOf(const hourglass::Result<JwtValidator>& result) {
    return result.ok() ? QString() : result.error().description;
}

// A refusal says why in our words; it never quotes the token.
bool quotesToken(const JwtCheck& check, const QByteArray& token) {
    for (const QByteArray& part : token.split('.'))
        if (part.size() >= 4 && check.refusal.contains(QString::fromLatin1(part.left(8))))
            return true;
    return check.refusal.contains(QLatin1String("test-subject"));
}
} // namespace

class JwtValidatorTest : public QObject {
    Q_OBJECT

private slots:
    void goodTokensOfEachKind_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("RS256") << int(TestJwtIssuer::Kind::Rsa);
        QTest::newRow("ES256") << int(TestJwtIssuer::Kind::Ec);
    }
    void goodTokensOfEachKind() {
        QFETCH(int, kind);
        const TestJwtIssuer issuer{TestJwtIssuer::Kind(kind)};
        const JwtValidator validator = trusting(issuer);
        QCOMPARE(validator.algorithm(), issuer.algorithm());
        const JwtCheck check = validator.check(issuer.token(kNow), kNow);
        QVERIFY2(check.valid(), qPrintable(check.refusal));
        QCOMPARE(check.expiresAt, kNow + 3600);
    }

    void aCertificateIsTrustedLikeItsKey() {
        const TestJwtIssuer& issuer = sharedIssuer();
        auto validator = JwtValidator::fromPem(TestJwtIssuer::kIssuer, issuer.certificatePem());
        QVERIFY2(validator.ok(), qPrintable(refusalOf(validator)));
        QVERIFY(validator->check(issuer.token(kNow), kNow).valid());
    }

    void anotherKeysSignatureIsRefused() {
        const TestJwtIssuer& trusted = sharedIssuer();
        const TestJwtIssuer stranger;
        const QByteArray token = stranger.token(kNow);
        const JwtCheck check = trusting(trusted).check(token, kNow);
        QVERIFY(!check.valid());
        QVERIFY(check.refusal.contains(QLatin1String("signature")));
        QVERIFY(!quotesToken(check, token));
    }

    void aChangedClaimBreaksTheSignature() {
        const TestJwtIssuer& issuer = sharedIssuer();
        const QList<QByteArray> parts = issuer.token(kNow).split('.');
        QJsonObject claims = issuer.claims(kNow);
        claims.insert("exp", double(kNow + 999999));
        const QByteArray forged = parts[0] + '.' +
                                  TestJwtIssuer::base64Url(QJsonDocument(claims).toJson()) + '.' +
                                  parts[2];
        QVERIFY(trusting(issuer).check(forged, kNow).refusal.contains(QLatin1String("signature")));
    }

    void timeIsCheckedWithAMinuteOfSkew() {
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtValidator validator = trusting(issuer);
        const QByteArray token = issuer.sign(issuer.claims(kNow, 600)); // nbf kNow-5, exp +600
        QVERIFY(validator.check(token, kNow + 600 + 59).valid());
        QCOMPARE(validator.check(token, kNow + 600 + 60).refusal,
                 QStringLiteral("The token has expired."));
        QVERIFY(validator.check(token, kNow - 5 - 60).valid());
        QCOMPARE(validator.check(token, kNow - 5 - 61).refusal,
                 QStringLiteral("The token is not valid yet."));
    }

    void expiryIsRequiredAndADate() {
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtValidator validator = trusting(issuer);
        for (const QJsonValue& exp :
             {QJsonValue(), QJsonValue("1800000000"), QJsonValue(-1.0), QJsonValue(1e300)}) {
            QJsonObject claims = issuer.claims(kNow);
            if (exp.isNull())
                claims.remove("exp");
            else
                claims.insert("exp", exp);
            QVERIFY(validator.check(issuer.sign(claims), kNow)
                        .refusal.contains(QLatin1String("expiry")));
        }
        QJsonObject claims = issuer.claims(kNow);
        claims.insert("nbf", "soon");
        QVERIFY(validator.check(issuer.sign(claims), kNow).refusal.contains(QLatin1String("nbf")));
        claims.remove("nbf"); // nbf is optional
        QVERIFY(validator.check(issuer.sign(claims), kNow).valid());
    }

    void theAudienceIsServiceBusOrThisNamespace() {
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtValidator validator = trusting(issuer);
        const auto served = [](const QString& host) { return host == QLatin1String("localhost"); };
        const auto withAudience = [&](const QJsonValue& audience) {
            QJsonObject claims = issuer.claims(kNow);
            claims.insert("aud", audience);
            return issuer.sign(claims);
        };
        QVERIFY(validator.check(withAudience("https://servicebus.azure.net/"), kNow).valid());
        QVERIFY(validator
                    .check(withAudience(QJsonArray{"api://other", "https://servicebus.azure.net"}),
                           kNow)
                    .valid());
        QVERIFY(validator.check(withAudience("https://localhost:5671/"), kNow, served).valid());
        QVERIFY(validator.check(withAudience("sb://LOCALHOST"), kNow, served).valid());
        for (const QJsonValue& wrong :
             {QJsonValue("https://management.azure.com"),
              QJsonValue("https://servicebus.azure.net.evil"),
              QJsonValue("https://localhost/queue"), QJsonValue("https://other.example/"),
              QJsonValue(QJsonArray{1, 2}), QJsonValue(7), QJsonValue(QJsonObject{})}) {
            const JwtCheck check = validator.check(withAudience(wrong), kNow, served);
            QVERIFY(check.refusal.contains(QLatin1String("audience")));
        }
        // Without a host check, the namespace's own URL is not taken.
        QVERIFY(!validator.check(withAudience("https://localhost/"), kNow).valid());
        QJsonArray many;
        for (int i = 0; i < 17; ++i)
            many.append("https://servicebus.azure.net");
        QVERIFY(!validator.check(withAudience(many), kNow).valid());
    }

    void theIssuerMustBeTheTrustedOne() {
        const TestJwtIssuer& issuer = sharedIssuer();
        QJsonObject claims = issuer.claims(kNow);
        claims.insert("iss", TestJwtIssuer::kIssuer + u'x');
        QCOMPARE(trusting(issuer).check(issuer.sign(claims), kNow).refusal,
                 QStringLiteral("The token's issuer is not the trusted one."));
        claims.remove("iss");
        QVERIFY(!trusting(issuer).check(issuer.sign(claims), kNow).valid());
    }

    void onlyTheTrustedKeysAlgorithmIsTaken() {
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtValidator validator = trusting(issuer);
        const QByteArray claims = TestJwtIssuer::base64Url(
            QJsonDocument(issuer.claims(kNow)).toJson(QJsonDocument::Compact));
        const auto header = [](const QJsonObject& object) {
            return TestJwtIssuer::base64Url(QJsonDocument(object).toJson(QJsonDocument::Compact));
        };
        // alg none, with and without a signature; HMAC keyed with the public key's PEM (the
        // classic confusion); ES256 against an RSA key; a header that names none.
        const QByteArray noneEmpty = header({{"alg", "none"}}) + '.' + claims + '.';
        const QByteArray noneSigned = header({{"alg", "none"}}) + '.' + claims + ".AAAA";
        QVERIFY(validator.check(noneEmpty, kNow).refusal.contains(QLatin1String("not a signed")) ||
                validator.check(noneEmpty, kNow).refusal.contains(QLatin1String("not signed")));
        QVERIFY(validator.check(noneSigned, kNow).refusal.contains(QLatin1String("not signed")));
        const QByteArray hs = header({{"alg", "HS256"}, {"typ", "JWT"}}) + '.' + claims + ".AAAA";
        QVERIFY(validator.check(hs, kNow).refusal.contains(QLatin1String("HMAC")));
        const QByteArray es = header({{"alg", "ES256"}}) + '.' + claims + ".AAAA";
        QVERIFY(validator.check(es, kNow).refusal.contains(QLatin1String("RS256")));
        const QByteArray noAlg = header({{"typ", "JWT"}}) + '.' + claims + ".AAAA";
        QVERIFY(validator.check(noAlg, kNow).refusal.contains(QLatin1String("no algorithm")));
        // A correctly signed token whose header asks for an extension we do not know.
        QVERIFY(validator
                    .check(issuer.sign({{"alg", "RS256"}, {"crit", QJsonArray{"exp"}}},
                                       issuer.claims(kNow)),
                           kNow)
                    .refusal.contains(QLatin1String("crit")));
    }

    void malformedTokensAreRefusedWithoutQuotingThem_data() {
        QTest::addColumn<QByteArray>("token");
        const TestJwtIssuer& issuer = sharedIssuer();
        const QByteArray good = issuer.token(kNow);
        const QList<QByteArray> parts = good.split('.');
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("one part") << parts[0];
        QTest::newRow("two parts") << parts[0] + '.' + parts[1];
        QTest::newRow("four parts") << good + ".AAAA";
        QTest::newRow("encrypted (five parts)") << good + ".AAAA.AAAA";
        QTest::newRow("empty signature") << parts[0] + '.' + parts[1] + '.';
        QTest::newRow("empty header") << '.' + parts[1] + '.' + parts[2];
        QTest::newRow("padded") << parts[0] + "==." + parts[1] + '.' + parts[2];
        QTest::newRow("plain base64") << parts[0] + '.' + parts[1] + '.' + parts[2] + "+/";
        QTest::newRow("space") << parts[0] + '.' + parts[1] + " ." + parts[2];
        QTest::newRow("header not JSON")
            << TestJwtIssuer::base64Url("{\"alg\":") + '.' + parts[1] + '.' + parts[2];
        QTest::newRow("header an array")
            << TestJwtIssuer::base64Url("[\"RS256\"]") + '.' + parts[1] + '.' + parts[2];
        QTest::newRow("impossible length") << parts[0] + '.' + parts[1] + '.' + parts[2] + "A";
        QTest::newRow("truncated signature") << good.chopped(10);
        QTest::newRow("binary") << QByteArray("\x00\xff.\x01.\x02", 7);
        QTest::newRow("oversize") << good + QByteArray(JwtValidator::kMaxTokenBytes, 'A');
    }
    void malformedTokensAreRefusedWithoutQuotingThem() {
        QFETCH(QByteArray, token);
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtCheck check = trusting(issuer).check(token, kNow);
        QVERIFY(!check.valid());
        QVERIFY2(!quotesToken(check, token), qPrintable(check.refusal));
        QVERIFY(check.refusal.size() < 200);
    }

    void claimsThatAreNotJsonAreRefusedAfterTheSignature() {
        // Signed by the trusted key, yet the payload is not an object: refused, not crashed on.
        const TestJwtIssuer& issuer = sharedIssuer();
        const JwtValidator validator = trusting(issuer);
        const QByteArray withObject = issuer.sign(QJsonObject{});
        QVERIFY(validator.check(withObject, kNow).refusal.contains(QLatin1String("issuer")));
    }

    void oversizeIsRefusedBeforeReading() {
        const TestJwtIssuer& issuer = sharedIssuer();
        QJsonObject claims = issuer.claims(kNow);
        claims.insert("padding", QString(JwtValidator::kMaxTokenBytes, u'x'));
        const QByteArray token = issuer.sign(claims); // correctly signed, but too long
        QCOMPARE(
            trusting(issuer).check(token, kNow).refusal,
            QStringLiteral("The token is longer than %1 bytes.").arg(JwtValidator::kMaxTokenBytes));
    }

    void unusableKeysAreRefusedWithReasons() {
        QVERIFY(!JwtValidator::fromPem(TestJwtIssuer::kIssuer, "not a key").ok());
        QVERIFY(!JwtValidator::fromPem(TestJwtIssuer::kIssuer, QByteArray()).ok());
        const TestJwtIssuer& issuer = sharedIssuer();
        QVERIFY(!JwtValidator::fromPem(QString(), issuer.publicKeyPem()).ok());
        // A key too short for RS256, and a curve that is not ES256's.
        EVP_PKEY* small = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(1024));
        EVP_PKEY* p384 = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
        for (EVP_PKEY* key : {small, p384}) {
            BIO* bio = BIO_new(BIO_s_mem());
            PEM_write_bio_PUBKEY(bio, key);
            char* data = nullptr;
            const long size = BIO_get_mem_data(bio, &data);
            const auto refused =
                JwtValidator::fromPem(TestJwtIssuer::kIssuer, QByteArray(data, size));
            QVERIFY(!refused.ok());
            QVERIFY(refused.error().description.contains(key == small ? QLatin1String("2048")
                                                                      : QLatin1String("P-256")));
            BIO_free(bio);
            EVP_PKEY_free(key);
        }
    }

    void keyFilesAreReadBoundedAndNamedInErrors() {
        QTemporaryDir dir;
        const TestJwtIssuer& issuer = sharedIssuer();
        const QString good = dir.filePath("issuer.pem");
        QFile file(good);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(issuer.publicKeyPem());
        file.close();
        auto validator = JwtValidator::fromFile(TestJwtIssuer::kIssuer, good);
        QVERIFY2(validator.ok(), qPrintable(refusalOf(validator)));
        QVERIFY(validator->check(issuer.token(kNow), kNow).valid());

        const QString missing = dir.filePath("missing.pem");
        QVERIFY(JwtValidator::fromFile(TestJwtIssuer::kIssuer, missing)
                    .error()
                    .description.contains(missing));
        const QString huge = dir.filePath("huge.pem");
        QFile big(huge);
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(JwtValidator::kMaxKeyFileBytes + 1, 'A'));
        big.close();
        QVERIFY(JwtValidator::fromFile(TestJwtIssuer::kIssuer, huge)
                    .error()
                    .description.contains(QLatin1String("larger")));
        const QString secret = dir.filePath("secret.pem");
        QFile text(secret);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("hunter2-not-a-key");
        text.close();
        const auto refused = JwtValidator::fromFile(TestJwtIssuer::kIssuer, secret);
        QVERIFY(!refused.ok());
        QVERIFY(!refused.error().description.contains(QLatin1String("hunter2")));
    }
};

QTEST_GUILESS_MAIN(JwtValidatorTest)
#include "tst_tls_jwt.moc"
