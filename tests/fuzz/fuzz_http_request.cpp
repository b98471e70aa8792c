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
    HttpRequestReader reader;
    hourglass::fuzz::forEachPiece(data, size, [&](QByteArrayView bytes) {
        reader.append(bytes.toByteArray());
        for (;;) {
            const HttpRequestReader::Step step = reader.next();
            if (step.kind == HttpRequestReader::Kind::NeedMore)
                break;
            if (step.kind == HttpRequestReader::Kind::Refuse) {
                require(step.status >= 400 && step.status <= 599);
                return false;
            }
            if (step.kind == HttpRequestReader::Kind::Request)
                checkLimits(step.request);
        }
        // What waits for the rest of a request stays within the head's and the body's limits
        // (plus one piece and the chunk framing around a body).
        require(reader.buffered() <=
                kMaxHttpHeaderBytes + hourglass::admin::kMaxAdminBodyBytes + 64 * 1024);
        return true;
    });
    return 0;
}
