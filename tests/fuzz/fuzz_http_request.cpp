// What a client sends to the administration API's HTTP port: bytes read by HttpRequestReader
// (engine/admin) as they arrive. The first input byte picks the size of the pieces (1 to 64
// bytes), as a socket may deliver them; the rest is the stream. Every complete request must keep
// to the reader's limits, and a refusal must end the stream (nothing after it is read).

#include "FuzzInput.h"
#include "HttpRequestReader.h"

#include <cstdlib>

using namespace hourglass::admin;

namespace {
void require(bool holds) {
    if (!holds)
        std::abort();
}

void checkLimits(const HttpRequest& request) {
    require(request.body.size() <= hourglass::admin::kMaxAdminBodyBytes);
    require(request.headers.size() <= kMaxHttpHeaderLines);
    require(!request.method.isEmpty());
    require(!request.target.isEmpty());
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    const qsizetype piece = 1 + data[0] % 64;
    const QByteArray stream = hourglass::fuzz::bytesOf(data + 1, size - 1);
    HttpRequestReader reader;
    for (qsizetype at = 0; at < stream.size(); at += piece) {
        reader.append(stream.mid(at, piece));
        for (;;) {
            const HttpRequestReader::Step step = reader.next();
            if (step.kind == HttpRequestReader::Kind::NeedMore)
                break;
            if (step.kind == HttpRequestReader::Kind::Refuse) {
                require(step.status >= 400 && step.status <= 599);
                return 0;
            }
            if (step.kind == HttpRequestReader::Kind::Request)
                checkLimits(step.request);
        }
        // What waits for the rest of a request stays within the head's and the body's limits
        // (plus one piece and the chunk framing around a body).
        require(reader.buffered() <=
                kMaxHttpHeaderBytes + hourglass::admin::kMaxAdminBodyBytes + 64 * 1024);
    }
    return 0;
}
