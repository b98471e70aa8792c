#pragma once
// The local certificate authority: a self-signed certificate whose only job is to sign the server
// certificate. A client is told to trust this one file, so the server certificate can be
// re-issued (new names, a new year) without the client changing anything.

#include "OpenSslHandles.h"
#include "hourglass/Status.h"

#include <optional>

namespace hourglass::tls {

struct Authority {
    Certificate certificate;
    PrivateKey key;
};

// About ten years: trusting it is a one-time step for the user, so it should outlive the project.
constexpr long kAuthorityValiditySeconds = 3650L * 86400;

// A new authority: P-256 key, self-signed, basicConstraints critical CA:TRUE, keyUsage critical
// keyCertSign and cRLSign, a subject key identifier.
// `validitySeconds` is for tests of an authority near its end.
Result<Authority> createAuthority(long validitySeconds = kAuthorityValiditySeconds);

// Why a certificate and key read from the folder cannot serve as the authority (not a CA, the key
// is not its own, expired), or nothing when they can.
std::optional<QString> authorityProblem(X509* certificate, EVP_PKEY* key);

} // namespace hourglass::tls
