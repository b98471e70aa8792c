#pragma once
// Shared access signatures as the SDKs put them on the CBS link (put-token):
//   SharedAccessSignature sr=<url-encoded audience>&sig=<url-encoded base64>&se=<unix s>&skn=<key
//   name>
// The signature is HMAC-SHA256, keyed with the key's text, over "<sr as sent>\n<se>". The check
// needs no clock of the broker's: tokens are issued on the client's wall clock, so they are
// checked against the wall clock (the virtual clock may be paused or hours ahead).

#include <QString>

namespace hourglass::amqp {

struct SasKey {
    QString name;  // e.g. "RootManageSharedAccessKey"
    QString value; // e.g. "SAS_KEY_VALUE", the emulator's well-known key
};

// The well-known key of Microsoft's emulator, so emulator connection strings work unchanged.
SasKey wellKnownEmulatorKey();

struct TokenCheck {
    enum class Outcome { Valid, Malformed, UnknownKeyName, WrongSignature, Expired };
    Outcome outcome = Outcome::Malformed;
    QString audience;     // decoded sr, when the token could be read
    qint64 expiresAt = 0; // se, seconds since the epoch
    QString description;  // why it was refused, as the client will read it

    bool valid() const { return outcome == Outcome::Valid; }
};

// Checks `token` against `key` at `nowSeconds` (seconds since the epoch).
TokenCheck checkSasToken(const QString& token, const SasKey& key, qint64 nowSeconds);

// A token for `audience` signed with `key`, valid until `expiresAt` (tests, and the window's
// "copy a token" helper).
QString makeSasToken(const QString& audience, const SasKey& key, qint64 expiresAt);

} // namespace hourglass::amqp
