#include "StreamBio.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace hourglass::tls {

namespace {

int readInput(BIO* bio, char* to, int size) {
    BIO_clear_retry_flags(bio);
    auto* bytes = static_cast<StreamBytes*>(BIO_get_data(bio));
    if (bytes->inputLeft == 0) {
        // Not the end of the stream: the next feed() brings more.
        BIO_set_retry_read(bio);
        return -1;
    }
    const std::size_t n = std::min(bytes->inputLeft, static_cast<std::size_t>(std::max(size, 0)));
    std::memcpy(to, bytes->input, n);
    bytes->input += n;
    bytes->inputLeft -= n;
    return static_cast<int>(n);
}

int appendOutput(BIO* bio, const char* from, int size) {
    BIO_clear_retry_flags(bio);
    if (size <= 0)
        return 0;
    static_cast<StreamBytes*>(BIO_get_data(bio))->output.append(from, size);
    return size;
}

long control(BIO* bio, int command, long, void*) {
    switch (command) {
    case BIO_CTRL_FLUSH: // OpenSSL flushes after each flight; the bytes are already out
        return 1;
    case BIO_CTRL_PENDING: // what a read could return now
        return static_cast<long>(std::min<std::size_t>(
            static_cast<StreamBytes*>(BIO_get_data(bio))->inputLeft, LONG_MAX));
    case BIO_CTRL_WPENDING: // nothing waits to be written: output is handed over as it is
        return 0;
    default: // no other control applies to a BIO without a file or socket
        return 0;
    }
}

int create(BIO* bio) {
    BIO_set_init(bio, 1);
    return 1;
}

// Made once, shared by every stream, never changed: OpenSSL only reads it.
const BIO_METHOD* streamMethod() {
    static BIO_METHOD* const method = [] {
        BIO_METHOD* made =
            BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "hourglass TLS stream");
        if (made) {
            BIO_meth_set_read(made, readInput);
            BIO_meth_set_write(made, appendOutput);
            BIO_meth_set_ctrl(made, control);
            BIO_meth_set_create(made, create);
        }
        return made;
    }();
    return method;
}

} // namespace

BIO* newStreamBio(StreamBytes* bytes) {
    const BIO_METHOD* method = streamMethod();
    BIO* bio = method ? BIO_new(method) : nullptr;
    if (bio)
        BIO_set_data(bio, bytes);
    return bio;
}

} // namespace hourglass::tls
