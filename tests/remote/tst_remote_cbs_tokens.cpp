// The client's CBS tokens (engine/remote CbsTokens): the audience of each entity, a token signed
// from the key that the endpoint's own check accepts, the string's signature as given with its
// expiry read from it, the token provider when there is no credential, and when each is renewed.

#include "CbsTokens.h"

#include "hourglass/amqpcodec/SasToken.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::remote;

namespace {
ConnectionString parsed(const QString& text) {
    auto where = parseConnectionString(text);
    if (!where)
        qFatal("does not parse");
    return *where;
}
} // namespace

class TestRemoteCbsTokens : public QObject {
    Q_OBJECT

private slots:
    void signsFromTheKeyForEachAudience() {
        AmqpClientOptions options;
        options.sasTokenLifetimeSeconds = 600;
        const CbsTokens tokens(parsed("Endpoint=sb://ns.example/;SharedAccessKeyName=root;"
                                      "SharedAccessKey=secret"),
                               options);
        QCOMPARE(tokens.audience("orders"), QStringLiteral("sb://ns.example/orders"));
        QCOMPARE(tokens.connectAudience(), QStringLiteral("sb://ns.example/"));
        const auto token = tokens.tokenFor(tokens.audience("orders"), 1000);
        QVERIFY(token.ok());
        QCOMPARE(token->type, kSasTokenType);
        QCOMPARE(token->expiresAt, 1600);
        const auto check = amqp::checkSasToken(
            token->token, {QStringLiteral("root"), QStringLiteral("secret")}, 1100);
        QVERIFY2(check.valid(), qPrintable(check.description));
        QCOMPARE(check.audience, QStringLiteral("sb://ns.example/orders"));
    }

    void anEntityPathIsTheConnectAudience() {
        const CbsTokens tokens(parsed("Endpoint=sb://ns.example/;SharedAccessKeyName=k;"
                                      "SharedAccessKey=v;EntityPath=orders"),
                               {});
        QCOMPARE(tokens.connectAudience(), QStringLiteral("sb://ns.example/orders"));
    }

    void usesTheSignatureAsGiven() {
        const QString signature = amqp::makeSasToken(
            "sb://ns.example/", {QStringLiteral("k"), QStringLiteral("v")}, 123456);
        const CbsTokens tokens(
            parsed("Endpoint=sb://ns.example/;SharedAccessSignature=" + signature), {});
        const auto token = tokens.tokenFor("sb://ns.example/orders", 1000);
        QVERIFY(token.ok());
        QCOMPARE(token->token, signature);
        QCOMPARE(token->expiresAt, 123456);
    }

    void asksTheProviderWithoutACredential() {
        AmqpClientOptions options;
        const CbsTokens none(parsed("Endpoint=sb://ns.example/"), options);
        QCOMPARE(none.tokenFor("sb://ns.example/", 0).error().code, ErrorCode::Unauthorized);
        options.tokenProvider = [](const QString& audience) -> Result<AccessToken> {
            return AccessToken{kJwtTokenType, "jwt-for-" + audience, 99};
        };
        const CbsTokens provided(parsed("Endpoint=sb://ns.example/"), options);
        const auto token = provided.tokenFor("sb://ns.example/", 0);
        QCOMPARE(token->type, kJwtTokenType);
        QCOMPARE(token->token, QStringLiteral("jwt-for-sb://ns.example/"));
    }

    void renewsBeforeExpiry() {
        QCOMPARE(CbsTokens::renewAt(0, 3600), 3240); // a tenth before
        QCOMPARE(CbsTokens::renewAt(0, 300), 240);   // at least a minute before
        QCOMPARE(CbsTokens::renewAt(0, 4), 2);       // not in the first half
        QCOMPARE(CbsTokens::renewAt(100, 50), 100);  // expired: at once
        QCOMPARE(CbsTokens::renewAt(100, 0), 0);     // no expiry: never
    }
};

QTEST_GUILESS_MAIN(TestRemoteCbsTokens)
#include "tst_remote_cbs_tokens.moc"
