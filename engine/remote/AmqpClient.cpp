#include "hourglass/remote/AmqpClient.h"

#include "ClientThread.h"
#include "SenderLink.h"

#include "hourglass/amqpcodec/MessageCodec.h"

#include <QUuid>

namespace hourglass::remote {

namespace {
// What a worker waits beyond the call time-out, so that the connection's own deadline (which
// says what went wrong) answers first.
constexpr int kGraceMs = 2000;
} // namespace

AmqpClient::AmqpClient(ConnectionString where, AmqpClientOptions options)
    : m_where(std::move(where))
    , m_options(std::move(options))
    , m_thread(std::make_unique<ClientThread>(m_where, m_options)) {}

AmqpClient::~AmqpClient() = default;

Result<void> AmqpClient::connect() {
    return m_thread->run<void>(
        [](ClientConnection& connection, Done done) { connection.open(done); },
        m_options.callTimeoutMs + kGraceMs);
}

void AmqpClient::close() {
    (void)m_thread->run<void>(
        [](ClientConnection& connection, Done done) {
            connection.close();
            done({});
        },
        m_options.callTimeoutMs);
}

bool AmqpClient::isConnected() const {
    return m_thread->isOpen();
}

Instant AmqpClient::connectionLostAt() const {
    return m_thread->connection().lostAt();
}

QString AmqpClient::connectionProblem() const {
    return m_thread->connection().lostWhy();
}

Instant AmqpClient::lastConnectionBreakAt() const {
    return m_thread->connection().lastBreakAt();
}

quint64 AmqpClient::connectionEpoch() const {
    return m_thread->connection().epoch();
}

namespace {
// Sends `encoded` on the entity's sender once its audience has a token.
void sendEncoded(ClientConnection& connection, const QString& entityPath, const QByteArray& encoded,
                 Done done) {
    connection.authorize(connection.tokens().audience(entityPath),
                         [&connection, entityPath, encoded, done](const Result<void>& ready) {
                             if (!ready)
                                 done(ready);
                             else
                                 connection.sender(entityPath).send(encoded, done);
                         });
}

OutgoingMessage withMessageId(OutgoingMessage message) {
    if (message.messageId.isEmpty())
        message.messageId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return message;
}
} // namespace

Result<SendResult> AmqpClient::send(const QString& entityPath, const OutgoingMessage& message) {
    const OutgoingMessage named = withMessageId(message);
    const QByteArray encoded = amqp::encodeOutgoingMessage(named);
    const auto sent = m_thread->run<void>(
        [entityPath, encoded](ClientConnection& connection, Done done) {
            sendEncoded(connection, entityPath, encoded, done);
        },
        m_options.callTimeoutMs + kGraceMs);
    if (!sent)
        return sent.error();
    SendResult result;
    result.messageId = named.messageId;
    result.scheduled = named.scheduledEnqueueTime.has_value();
    return result;
}

Result<void> AmqpClient::sendBatch(const QString& entityPath,
                                   const QList<OutgoingMessage>& messages) {
    if (messages.isEmpty())
        return {};
    QList<QByteArray> encoded;
    for (const OutgoingMessage& message : messages)
        encoded.append(amqp::encodeOutgoingMessage(withMessageId(message)));
    return m_thread->run<void>(
        [entityPath, encoded](ClientConnection& connection, Done done) {
            // Every message's outcome, then one answer: the first failure, or success.
            struct Tally {
                qsizetype left = 0;
                std::optional<Error> failure;
            };
            auto tally = std::make_shared<Tally>();
            tally->left = encoded.size();
            for (const QByteArray& message : encoded)
                sendEncoded(connection, entityPath, message,
                            [tally, done](const Result<void>& outcome) {
                                if (!outcome && !tally->failure)
                                    tally->failure = outcome.error();
                                if (--tally->left == 0) {
                                    if (tally->failure)
                                        done(*tally->failure);
                                    else
                                        done({});
                                }
                            });
        },
        m_options.callTimeoutMs + kGraceMs);
}

} // namespace hourglass::remote
