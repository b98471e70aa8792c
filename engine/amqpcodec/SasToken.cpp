#include "hourglass/amqpcodec/SasToken.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QMessageAuthenticationCode>
#include <QUrl>

namespace hourglass::amqp {

namespace {
const QString kPrefix = QStringLiteral("SharedAccessSignature ");

QByteArray signature(const QByteArray& encodedAudience, qint64 expiresAt, const SasKey& key) {
    const QByteArray text = encodedAudience + '\n' + QByteArray::number(expiresAt);
    return QMessageAuthenticationCode::hash(text, key.value.toUtf8(), QCryptographicHash::Sha256)
        .toBase64();
}

TokenCheck refused(TokenCheck check, TokenCheck::Outcome outcome, const QString& description) {
    check.outcome = outcome;
    check.description = description;
    return check;
}
} // namespace

SasKey wellKnownEmulatorKey() {
    return {QStringLiteral("RootManageSharedAccessKey"), QStringLiteral("SAS_KEY_VALUE")};
}

TokenCheck checkSasToken(const QString& token, const SasKey& key, qint64 nowSeconds) {
    TokenCheck check;
    if (!token.startsWith(kPrefix))
        return refused(check, TokenCheck::Outcome::Malformed,
                       QStringLiteral("The token is not a SharedAccessSignature."));
    QByteArray encodedAudience;
    QByteArray encodedSignature;
    QString keyName;
    bool haveExpiry = false;
    for (const QString& pair : token.mid(kPrefix.size()).split(QLatin1Char('&'))) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            continue;
        const QString name = pair.left(equals);
        const QString value = pair.mid(equals + 1);
        if (name == QLatin1String("sr"))
            encodedAudience = value.toUtf8();
        else if (name == QLatin1String("sig"))
            encodedSignature = value.toUtf8();
        else if (name == QLatin1String("skn"))
            keyName = QUrl::fromPercentEncoding(value.toUtf8());
        else if (name == QLatin1String("se"))
            check.expiresAt = value.toLongLong(&haveExpiry);
    }
    if (encodedAudience.isEmpty() || encodedSignature.isEmpty() || !haveExpiry)
        return refused(check, TokenCheck::Outcome::Malformed,
                       QStringLiteral("The token lacks sr, sig or se."));
    check.audience = QUrl::fromPercentEncoding(encodedAudience);
    if (keyName.compare(key.name, Qt::CaseInsensitive) != 0)
        return refused(check, TokenCheck::Outcome::UnknownKeyName,
                       QStringLiteral("The key name '%1' is not known.").arg(quoted(keyName)));
    const QByteArray given = QUrl::fromPercentEncoding(encodedSignature).toUtf8();
    if (given != signature(encodedAudience, check.expiresAt, key))
        return refused(
            check, TokenCheck::Outcome::WrongSignature,
            QStringLiteral("The token's signature does not match the key '%1'.").arg(key.name));
    if (check.expiresAt <= nowSeconds)
        return refused(
            check, TokenCheck::Outcome::Expired,
            QStringLiteral("The token expired at %1 (seconds since 1970).").arg(check.expiresAt));
    check.outcome = TokenCheck::Outcome::Valid;
    return check;
}

QString makeSasToken(const QString& audience, const SasKey& key, qint64 expiresAt) {
    const QByteArray encodedAudience = QUrl::toPercentEncoding(audience);
    const QByteArray sig = signature(encodedAudience, expiresAt, key);
    return kPrefix + QStringLiteral("sr=%1&sig=%2&se=%3&skn=%4")
                         .arg(QString::fromUtf8(encodedAudience),
                              QString::fromUtf8(QUrl::toPercentEncoding(QString::fromLatin1(sig))),
                              QString::number(expiresAt), key.name);
}

} // namespace hourglass::amqp
