#pragma once
// Why a TLS session failed, as one short sentence of ours, from OpenSSL's error queue: the reason
// codes are mapped to what a user can act on, and the rest named by OpenSSL's fixed reason texts.
// Never anything the peer sent (not even the detail data OpenSSL may attach to an error).

#include <QByteArray>
#include <QString>

namespace hourglass::tls {

// `sslError` is SSL_get_error's answer; `openSslError` the first error on OpenSSL's queue (0 when
// empty); `duringHandshake` whether the handshake was still under way.
QString describeTlsFailure(int sslError, unsigned long openSslError, bool duringHandshake);

// Whether the peer's first bytes were not TLS at all (OpenSSL then sends no alert of its own).
bool isNotTls(unsigned long openSslError);

// A fatal unexpected_message alert as a plaintext record: what a peer that never sent TLS gets.
QByteArray plaintextFatalAlert();

} // namespace hourglass::tls
