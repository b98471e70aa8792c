#include "hourglass/amqpcodec/AmqpNesting.h"

#include <cstdint>
#include <vector>

namespace hourglass::amqp {

namespace {
// One value being read whose parts are still to come: a list, map or array (bounded by its
// size), or a described value (its descriptor and its value).
struct Open {
    std::uint64_t remaining = 0; // values still to read in it
    std::size_t end = 0;         // where its bytes end: the enclosing end for a described value
    bool sized = false;          // a list, map or array (its bytes end at `end`)
    bool array = false;          // its values share one constructor, read once
    bool haveElementCode = false;
    bool describedElements = false;
    std::uint8_t elementCode = 0;
};

bool readUnsigned(const std::uint8_t* bytes, std::size_t end, std::size_t& at, int width,
                  std::uint64_t& value) {
    if (end < at || end - at < std::size_t(width))
        return false;
    value = 0;
    for (int i = 0; i < width; ++i)
        value = (value << 8) | bytes[at++];
    return true;
}

// Bytes after the constructor of a fixed-width encoding; -1 for the others.
int fixedWidth(std::uint8_t code) {
    switch (code >> 4) {
    case 0x4:
        return 0;
    case 0x5:
        return 1;
    case 0x6:
        return 2;
    case 0x7:
        return 4;
    case 0x8:
        return 8;
    case 0x9:
        return 16;
    default:
        return -1;
    }
}

bool holdsValues(std::uint8_t code) {
    return code == 0x00 || code >= 0xc0;
}
} // namespace

Nesting checkNesting(const char* data, std::size_t size, int limit,
                     std::vector<std::size_t>* ends) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
    std::vector<Open> open;
    std::size_t at = 0;
    while (true) {
        const std::size_t end = open.empty() ? size : open.back().end;
        if (ends && open.empty() && at > 0 && (ends->empty() || ends->back() != at))
            ends->push_back(at);
        if (!open.empty()) {
            Open& top = open.back();
            if (top.array && !top.haveElementCode) {
                // An array's constructor, possibly described: 0x00, a descriptor, the code.
                if (at >= end)
                    return Nesting::Malformed;
                const std::uint8_t code = bytes[at++];
                if (code == 0x00) {
                    if (top.describedElements)
                        return Nesting::Malformed;
                    top.describedElements = true;
                    open.push_back({1, end, false, false, false, false, 0});
                    if (open.size() > std::size_t(limit))
                        return Nesting::TooDeep;
                    continue;
                }
                top.elementCode = code;
                top.haveElementCode = true;
                if (!holdsValues(code)) // scalars inside: nothing nests, skip them whole
                    top.remaining = 0;
                continue;
            }
            if (top.remaining == 0) {
                if (top.sized) {
                    if (at > top.end)
                        return Nesting::Malformed;
                    at = top.end;
                }
                open.pop_back();
                continue;
            }
        } else if (at == size) {
            return Nesting::Within;
        }

        std::uint8_t code = 0;
        if (!open.empty() && open.back().array) {
            code = open.back().elementCode;
        } else {
            if (at >= end)
                return Nesting::Malformed;
            code = bytes[at++];
        }
        if (!open.empty())
            --open.back().remaining;
        if (code == 0x00) {
            open.push_back({2, end, false, false, false, false, 0});
            if (open.size() > std::size_t(limit))
                return Nesting::TooDeep;
            continue;
        }
        if (const int width = fixedWidth(code); width >= 0) {
            if (end < at || end - at < std::size_t(width))
                return Nesting::Malformed;
            at += std::size_t(width);
            continue;
        }
        const std::uint8_t kind = code >> 4;
        const int width = (kind == 0xa || kind == 0xc || kind == 0xe) ? 1 : 4;
        std::uint64_t length = 0;
        if (kind < 0xa || !readUnsigned(bytes, end, at, width, length) || end - at < length)
            return Nesting::Malformed;
        if (kind == 0xa || kind == 0xb) {
            at += std::size_t(length);
            continue;
        }
        // A list, map or array: its size covers its count and its values.
        Open container;
        container.end = at + std::size_t(length);
        container.sized = true;
        container.array = kind >= 0xe;
        if (!readUnsigned(bytes, container.end, at, width, container.remaining))
            return Nesting::Malformed;
        open.push_back(container);
        if (open.size() > std::size_t(limit))
            return Nesting::TooDeep;
    }
}

} // namespace hourglass::amqp
