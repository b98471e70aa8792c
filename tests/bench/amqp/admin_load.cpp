// The administration API's load client for run-amqp-bench.sh: C connections kept alive, all of
// them sending one GET at once, R rounds; prints each request's time from its write to the end
// of its answer, p50 and p99, and the first round (which makes the connections and, with --tls,
// their handshakes) apart. A client this small measures the server, where Node's own cost per
// HTTPS request was larger than the server's.
//   admin_load --port P --path /bench?api-version=2021-05 [--tls CA-FILE] [--connections 200]
//              [--rounds 5] [--key SAS_KEY_VALUE]
// Prints: "gets 200 x 5: p50 X ms p99 Y ms; first round p50 X ms p99 Y ms".

#include "hourglass/amqpcodec/SasToken.h"

#include <QDateTime>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    int port = 0;
    std::string path = "/bench?api-version=2021-05";
    std::string caFile; // non-empty: TLS
    int connections = 200;
    int rounds = 5;
    std::string key = "SAS_KEY_VALUE";
};

struct Peer {
    int fd = -1;
    SSL* ssl = nullptr;
    std::string in;
    Clock::time_point sent;
    bool done = false;
};

bool parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (arg == "--port")
            options.port = std::atoi(value().c_str());
        else if (arg == "--path")
            options.path = value();
        else if (arg == "--tls")
            options.caFile = value();
        else if (arg == "--connections")
            options.connections = std::atoi(value().c_str());
        else if (arg == "--rounds")
            options.rounds = std::atoi(value().c_str());
        else if (arg == "--key")
            options.key = value();
        else
            return false;
    }
    return options.port > 0 && options.connections > 0 && options.rounds > 0;
}

int connectTo(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        close(fd);
        return -1;
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// Reads what is there; true once one whole answer (headers and Content-Length bytes) is in.
bool readAnswer(Peer& peer) {
    char buffer[65536];
    for (;;) {
        const long got = peer.ssl ? SSL_read(peer.ssl, buffer, sizeof buffer)
                                  : long(read(peer.fd, buffer, sizeof buffer));
        if (got <= 0)
            break;
        peer.in.append(buffer, size_t(got));
    }
    const size_t end = peer.in.find("\r\n\r\n");
    if (end == std::string::npos)
        return false;
    const size_t length = peer.in.find("Content-Length: ");
    const size_t body = length == std::string::npos || length > end
                            ? 0
                            : size_t(std::atol(peer.in.c_str() + length + 16));
    if (peer.in.size() < end + 4 + body)
        return false;
    if (peer.in.compare(0, 12, "HTTP/1.1 200") != 0) {
        std::fprintf(stderr, "admin_load: answered %.*s\n", 12, peer.in.c_str());
        std::exit(1);
    }
    peer.in.erase(0, end + 4 + body);
    return true;
}

// One round: every peer writes its GET, then the answers are read as they come.
std::vector<double> round(std::vector<Peer>& peers, const std::string& request) {
    for (Peer& peer : peers) {
        peer.done = false;
        peer.sent = Clock::now();
        const long written = peer.ssl ? SSL_write(peer.ssl, request.data(), int(request.size()))
                                      : long(write(peer.fd, request.data(), request.size()));
        if (written != long(request.size())) {
            std::fprintf(stderr, "admin_load: a request could not be written whole\n");
            std::exit(1);
        }
    }
    std::vector<double> times;
    std::vector<pollfd> polls(peers.size());
    while (times.size() < peers.size()) {
        for (size_t i = 0; i < peers.size(); ++i)
            polls[i] = {peers[i].fd, short(peers[i].done ? 0 : POLLIN), 0};
        if (poll(polls.data(), polls.size(), 10000) <= 0) {
            std::fprintf(stderr, "admin_load: no answer within 10 s\n");
            std::exit(1);
        }
        for (size_t i = 0; i < peers.size(); ++i) {
            if (!(polls[i].revents & POLLIN) || !readAnswer(peers[i]))
                continue;
            peers[i].done = true;
            times.push_back(
                std::chrono::duration<double, std::milli>(Clock::now() - peers[i].sent).count());
        }
    }
    return times;
}

double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const size_t index = size_t(std::max(0.0, std::ceil(p / 100.0 * double(values.size())) - 1));
    return values[std::min(index, values.size() - 1)];
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse(argc, argv, options)) {
        std::fprintf(stderr, "usage: admin_load --port P [--path PATH] [--tls CA-FILE] "
                             "[--connections C] [--rounds R] [--key KEY]\n");
        return 2;
    }
    const QString scheme =
        options.caFile.empty() ? QStringLiteral("http") : QStringLiteral("https");
    const QString token = hourglass::amqp::makeSasToken(
        QStringLiteral("%1://localhost:%2/").arg(scheme).arg(options.port),
        {QStringLiteral("RootManageSharedAccessKey"), QString::fromStdString(options.key)},
        QDateTime::currentSecsSinceEpoch() + 3600);
    const std::string request = "GET " + options.path +
                                " HTTP/1.1\r\nHost: localhost:" + std::to_string(options.port) +
                                "\r\nAuthorization: " + token.toStdString() + "\r\n\r\n";

    SSL_CTX* context = nullptr;
    if (!options.caFile.empty()) {
        context = SSL_CTX_new(TLS_client_method());
        SSL_CTX_load_verify_locations(context, options.caFile.c_str(), nullptr);
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    }
    // The first round: connections made (and TLS handshakes done) one after the other, each
    // request sent as its connection is ready, all answers read together.
    std::vector<Peer> peers(size_t(options.connections));
    const auto firstStart = Clock::now();
    for (Peer& peer : peers) {
        peer.fd = connectTo(options.port);
        if (peer.fd < 0) {
            std::fprintf(stderr, "admin_load: cannot connect to port %d\n", options.port);
            return 1;
        }
        if (context) {
            peer.ssl = SSL_new(context);
            SSL_set_fd(peer.ssl, peer.fd);
            SSL_set_tlsext_host_name(peer.ssl, "localhost");
            SSL_set1_host(peer.ssl, "localhost");
            if (SSL_connect(peer.ssl) != 1) {
                std::fprintf(stderr, "admin_load: the TLS handshake failed\n");
                return 1;
            }
        }
    }
    const double connectMs =
        std::chrono::duration<double, std::milli>(Clock::now() - firstStart).count();
    for (Peer& peer : peers) {
        const int flags = fcntl(peer.fd, F_GETFL);
        fcntl(peer.fd, F_SETFL, flags | O_NONBLOCK);
    }
    const std::vector<double> first = round(peers, request);
    std::vector<double> times;
    for (int r = 0; r < options.rounds; ++r) {
        const std::vector<double> more = round(peers, request);
        times.insert(times.end(), more.begin(), more.end());
    }
    std::printf("gets %d x %d: p50 %.1f ms p99 %.1f ms; the %d connections%s made in %.0f ms, "
                "the first round after them p50 %.1f ms p99 %.1f ms\n",
                options.connections, options.rounds, percentile(times, 50), percentile(times, 99),
                options.connections, context ? " and TLS handshakes" : "", connectMs,
                percentile(first, 50), percentile(first, 99));
    for (Peer& peer : peers) {
        if (peer.ssl)
            SSL_free(peer.ssl);
        close(peer.fd);
    }
    if (context)
        SSL_CTX_free(context);
    return 0;
}
