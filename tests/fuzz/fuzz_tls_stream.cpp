// What a client sends to the TLS port before and after the handshake: bytes fed to a TlsStream
// (engine/tls) as its server side, with a certificate LocalCertificates made once per process.
// The first input byte picks the size of the pieces (1 to 256 bytes), as a socket may deliver
// them; the rest is the client's ciphertext. Whatever the bytes: a failure is final and explained,
// what the stream holds stays bounded by what it was fed, and the session can always be closed.
//
// OpenSSL itself is Debian's, not instrumented: the fuzzer's coverage guides it through our side
// (the BIO, the error paths, the handshake and record loops) while ASan and UBSan watch every
// byte that crosses it. The committed seeds are real ClientHellos (TLS 1.2 and 1.3), so mutations
// reach OpenSSL's parsing of a hello's fields and extensions.

#include "hourglass/tls/LocalCertificates.h"
#include "hourglass/tls/TlsStream.h"

#include <QTemporaryDir>

#include <cstdint>
#include <cstdlib>

using namespace hourglass::tls;

namespace {
void require(bool holds) {
    if (!holds)
        std::abort();
}

// Made once: a key and certificate take milliseconds, a session microseconds.
std::shared_ptr<const TlsServerContext> serverContext() {
    static const std::shared_ptr<const TlsServerContext> context = [] {
        static QTemporaryDir dir;
        require(dir.isValid());
        const auto files = LocalCertificates::ensure(dir.path(), {});
        require(files.ok());
        auto made = TlsServerContext::fromFiles(files->serverCertificate, files->serverKey);
        require(made.ok());
        return *made;
    }();
    return context;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    const qsizetype piece = 1 + data[0];
    const QByteArrayView stream(data + 1, qsizetype(size - 1));
    TlsStream server(serverContext());
    for (qsizetype at = 0; at < stream.size(); at += piece) {
        const bool ok = server.feed(stream.sliced(at, std::min(piece, stream.size() - at)));
        require(ok == !server.failed());
        require(server.failed() == !server.error().isEmpty());
        // Echo whatever was decrypted, as the endpoint would answer.
        const QByteArray plaintext = server.takePlaintext();
        require(plaintext.size() <= stream.size());
        server.write(plaintext);
        // Nothing fed can make the stream hold more than the handshake's flight and an alert
        // beyond the echo.
        require(server.buffered() <= plaintext.size() + 64 * 1024);
        server.takeCiphertext();
        if (!ok) {
            require(!server.feed("after"));
            break;
        }
    }
    server.close();
    server.takeCiphertext();
    require(server.buffered() == 0);
    return 0;
}
