#include "LoopbackRedirect.h"

#include "EntraProtocol.h"

#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <optional>
#include <utility>

namespace hourglass::remote {

namespace {
// A redirect's request line carries a code of 1 to 2 KiB; a head is never near this.
constexpr qsizetype kMaxHeadBytes = 16 * 1024;
// Browsers open a few connections at once; more than this is not a browser.
constexpr int kMaxConnections = 16;

QByteArray page(const QByteArray& status, const QString& title, const QString& text) {
    const QByteArray body =
        QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title>"
                       "</head><body style=\"font-family: sans-serif; margin: 3em\"><h2>%1</h2>"
                       "<p>%2</p></body></html>")
            .arg(title.toHtmlEscaped(), text.toHtmlEscaped())
            .toUtf8();
    return "HTTP/1.1 " + status +
           "\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
           "Connection: close\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

QString value(const QUrlQuery& query, const QString& name) {
    return query.queryItemValue(name, QUrl::FullyDecoded);
}
} // namespace

struct LoopbackRedirect::State {
    QString expectedState;
    std::shared_ptr<SignInWait> wait;
    QThread thread;
    QObject* context = nullptr; // lives on `thread`; parent of the server and its sockets
    QTcpServer* server = nullptr;
    quint16 port = 0;
    std::optional<Result<QString>> outcome; // set by respond(), on `thread`

    // On `thread`.
    void accept() {
        while (QTcpSocket* socket = server->nextPendingConnection()) {
            if (context->findChildren<QTcpSocket*>(Qt::FindDirectChildrenOnly).size() >=
                kMaxConnections) {
                socket->abort();
                socket->deleteLater();
                continue;
            }
            socket->setParent(context);
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                QByteArray head = socket->property("head").toByteArray();
                head += socket->read(kMaxHeadBytes + 1 - head.size());
                if (head.size() > kMaxHeadBytes) {
                    answer(socket, page("431 Request Header Fields Too Large",
                                        QStringLiteral("Not a sign-in"),
                                        QStringLiteral("This request is too large.")));
                    return;
                }
                socket->setProperty("head", head);
                const qsizetype lineEnd = head.indexOf("\r\n");
                if (lineEnd >= 0 && head.contains("\r\n\r\n")) {
                    answer(socket, respond(head.left(lineEnd)));
                    // The sign-in hears of it once the page is on its way: it may end at once
                    // and take this listener down with it.
                    if (outcome)
                        wait->deliver(std::move(*std::exchange(outcome, std::nullopt)));
                }
            });
        }
    }

    static void answer(QTcpSocket* socket, const QByteArray& response) {
        socket->disconnect(); // one answer per connection
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->write(response);
        socket->flush(); // into the system's buffer now, not on a later turn of the loop
        socket->disconnectFromHost();
    }

    // The page for a request line; the sign-in's answer in `outcome` when it is the redirect.
    QByteArray respond(const QByteArray& requestLine) {
        const QList<QByteArray> parts = requestLine.split(' ');
        if (parts.size() != 3 || parts[0] != "GET")
            return page("405 Method Not Allowed", QStringLiteral("Not a sign-in"),
                        QStringLiteral("This address only takes the sign-in's redirect."));
        const QUrl target(QStringLiteral("http://localhost") + QString::fromLatin1(parts[1]),
                          QUrl::StrictMode);
        if (!target.isValid() || target.path() != QLatin1String("/"))
            return page("404 Not Found", QStringLiteral("Not found"), QString());
        const QUrlQuery query(target);
        const QString state = value(query, QStringLiteral("state"));
        const QString code = value(query, QStringLiteral("code"));
        const QString error = value(query, QStringLiteral("error"));
        if (state.isEmpty() && code.isEmpty() && error.isEmpty())
            return page("400 Bad Request", QStringLiteral("Not a sign-in"),
                        QStringLiteral("This address only takes the sign-in's redirect."));
        const QString closeTab = QStringLiteral("You can close this tab and return to Hourglass.");
        if (state != expectedState) {
            outcome.emplace(makeError(ErrorCode::Unauthorized,
                                      QStringLiteral("The browser came back with an answer that is "
                                                     "not this sign-in's (its state differs). "
                                                     "Sign in again.")));
            return page("400 Bad Request", QStringLiteral("Sign-in failed"), closeTab);
        }
        if (!error.isEmpty()) {
            const QJsonObject reply{{QStringLiteral("error"), error},
                                    {QStringLiteral("error_description"),
                                     value(query, QStringLiteral("error_description"))}};
            outcome.emplace(entra::refusalOf(reply));
            return page("200 OK", QStringLiteral("Sign-in failed"), closeTab);
        }
        if (code.isEmpty() || code.size() > entra::kMaxTokenChars) {
            outcome.emplace(entra::problem(
                QStringLiteral("The browser came back from the sign-in without a code.")));
            return page("400 Bad Request", QStringLiteral("Sign-in failed"), closeTab);
        }
        outcome.emplace(code);
        return page("200 OK", QStringLiteral("Signed in"), closeTab);
    }
};

LoopbackRedirect::LoopbackRedirect(QString expectedState, std::shared_ptr<SignInWait> wait)
    : m_state(std::make_unique<State>()) {
    m_state->expectedState = std::move(expectedState);
    m_state->wait = std::move(wait);
    m_state->context = new QObject;
    m_state->context->moveToThread(&m_state->thread);
    m_state->thread.setObjectName(QStringLiteral("hourglass-sign-in-redirect"));
    m_state->thread.start();
}

LoopbackRedirect::~LoopbackRedirect() {
    State* state = m_state.get();
    QMetaObject::invokeMethod(
        state->context,
        [state] {
            delete state->context; // the server and its sockets with it
            state->context = nullptr;
        },
        Qt::BlockingQueuedConnection);
    state->thread.quit();
    state->thread.wait();
}

Result<void> LoopbackRedirect::listen() {
    State* state = m_state.get();
    bool listening = false;
    QMetaObject::invokeMethod(
        state->context,
        [state, &listening] {
            state->server = new QTcpServer(state->context);
            listening = state->server->listen(QHostAddress::LocalHost, 0);
            state->port = state->server->serverPort();
            QObject::connect(state->server, &QTcpServer::newConnection, state->context,
                             [state] { state->accept(); });
        },
        Qt::BlockingQueuedConnection);
    if (!listening)
        return entra::problem(
            QStringLiteral("No port on 127.0.0.1 could be opened for the sign-in's redirect."));
    return {};
}

QString LoopbackRedirect::redirectUri() const {
    return QStringLiteral("http://localhost:%1/").arg(m_state->port);
}

} // namespace hourglass::remote
