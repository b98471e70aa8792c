// Session receivers (amqp-endpoint.md, Sessions; service-bus-rules.md S2-S5). The attach of a
// receiver with a session filter is held, unanswered, while the broker finds the session: a named
// one at once, the next available one by a wait on the broker's clock (acceptSessionAsync) that
// ends with a grant or a time-out. The answer then grants (the filter holds the session id, the
// properties the lock's end in .NET ticks) or refuses (attach, then detach with the condition). A
// client that gave up first has closed the link: the answer finds no link and the session goes
// back.
//
// Once granted, the link's credit is served by receiveFromSession (ConnectionDeliveries.cpp's
// pump) and its dispositions settle the session's message locks like any others; the broker
// answers SessionLockLost once the session lock is gone. When the link closes, or the connection
// ends (L14), the session goes back: releaseSessionsOf(the link's receiver), after ending any
// wait, in one worker task so that a grant the wait made just before is released too.
//
// A session lock can also end while its link takes nothing (no credit, nothing to settle): the
// broker's change feed names the entity (sessionsChanged), and checkSessionLocks asks the broker
// whether each session link there still holds its session, detaching those that lost it (S5).

#include "Connection.h"

#include "NamespacedRefs.h"
#include "SessionLinks.h"
#include "hourglass/amqpcodec/PeerLimits.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <proton/condition.h>

namespace hourglass::amqp {

void Connection::attachSessionReceiver(Link& link, std::optional<QString> sessionId,
                                       std::chrono::milliseconds timeout) {
    link.acceptingSession = true;

    SessionAcceptOptions options;
    options.receiver = link.receiverName;
    options.sessionId = sessionId;
    const QString path = link.address.brokerPath;
    const QString namespaceName = link.address.namespaceName;
    const quint64 linkId = link.id;
    if (sessionId) {
        submit([path, options](Broker& broker) { return broker.acceptSession(path, options); },
               [linkId, namespaceName](Connection& connection, Result<AcceptedSession> accepted) {
                   connection.sessionAnswered(linkId, namespaceName, accepted);
               });
        return;
    }
    // The wait's answer comes on the broker's callback thread; the mailbox brings it here.
    std::shared_ptr<Mailbox> mailbox = m_mailbox;
    const QString receiver = link.receiverName;
    submit(
        [path, namespaceName, options, timeout, mailbox, linkId](Broker& broker) {
            return broker.acceptSessionAsync(
                path, options, Millis(timeout.count()),
                [mailbox, linkId, namespaceName](const Result<AcceptedSession>& accepted) {
                    mailbox->post([linkId, namespaceName, accepted](Connection& connection) {
                        connection.sessionAnswered(linkId, namespaceName, accepted);
                    });
                });
        },
        [linkId, receiver](Connection& connection, quint64 waitId) {
            Link* waiting = connection.findLink(linkId);
            if (waiting && waiting->acceptingSession) {
                waiting->acceptWaitId = waitId;
                return;
            }
            if (waiting)
                return; // answered already
            // The client gave up before the wait was known: end it, and give back a session
            // it may have granted meanwhile.
            connection.m_context.workers.submit([waitId, receiver](Broker& broker) {
                broker.cancelAcceptSession(waitId);
                broker.releaseSessionsOf(receiver);
            });
        });
}

void Connection::sessionAnswered(quint64 linkId, const QString& namespaceName,
                                 const Result<AcceptedSession>& accepted) {
    Link* link = findLink(linkId);
    if (!link || !link->acceptingSession) {
        // The client gave up (its link closed): never attach now. linkClosed already asked
        // for the receiver's sessions back; a grant that came after that goes back here.
        if (accepted) {
            const SessionRef session = sessionIn(namespaceName, *accepted);
            m_context.workers.submit(
                [session](Broker& broker) { (void)broker.releaseSession(session); });
        }
        return;
    }
    link->acceptingSession = false;
    link->acceptWaitId = 0;
    pn_link_t* pnLink = link->link;
    if (!accepted) {
        const Error& error = accepted.error();
        // A missing entity reads as any refused attach does (quoting a short prefix of the
        // address); the broker's own words otherwise.
        QString description = error.code == ErrorCode::MessagingEntityNotFound
                                  ? attachRefusalDescription(error, link->address.entityPath)
                                  : wireDescription(error, link->address.entityPath);
        Refusal refusal = Refusal::NoFilter;
        if (error.code == ErrorCode::SessionCannotBeLocked)
            description = QStringLiteral("The requested session '%1' cannot be accepted. It may be "
                                         "locked by another receiver.")
                              .arg(quoted(requestedSession(pnLink)
                                              .value_or(SessionRequest{})
                                              .sessionId.value_or(QString())));
        if (error.code == ErrorCode::ServiceTimeout)
            refusal = Refusal::NullSource;
        describeRefusedSession(pnLink, refusal);
        dropQueuedReplies(*link);
        m_linksById.remove(link->id);
        m_links.erase(pnLink); // link is gone from here on
        refuseLink(pnLink, refusalCondition(error), description);
        return;
    }
    link->session = sessionIn(namespaceName, *accepted);
    describeGrantedSession(pnLink, *accepted);
    pn_link_open(pnLink);
    pump(*link); // credit the client gave while it waited
}

void Connection::releaseSessionOf(const Link& link) {
    if (!link.acceptingSession && !link.session)
        return;
    const quint64 waitId = link.acceptWaitId;
    const QString receiver = link.receiverName;
    m_context.workers.submit([waitId, receiver](Broker& broker) {
        if (waitId != 0)
            broker.cancelAcceptSession(waitId);
        broker.releaseSessionsOf(receiver);
    });
}

void Connection::releaseAllSessions() {
    for (auto& [pnLink, link] : m_links) {
        releaseSessionOf(*link);
        link->acceptingSession = false;
        link->session.reset();
    }
}

void Connection::checkSessionLocks() {
    const QSet<QString> paths = std::exchange(m_sessionChanges, {});
    if (paths.isEmpty())
        return;
    for (auto& [pnLink, link] : m_links) {
        if (!link->session || !paths.contains(link->address.brokerPath.toLower()))
            continue;
        // Every session receive changes its session too: a busy link has one check out at a
        // time, and what changed meanwhile is checked again when it is answered.
        if (std::exchange(link->checkingSession, true)) {
            link->recheckSession = true;
            continue;
        }
        // Asked of the broker on a worker (the proactor thread never waits on it); a link
        // that closed meanwhile, or took another session, is left alone.
        const SessionRef session = *link->session;
        submit([session](Broker& broker) { return broker.holdsSession(session); },
               [linkId = link->id, session](Connection& connection, bool held) {
                   Link* still = connection.findLink(linkId);
                   if (!still)
                       return;
                   still->checkingSession = false;
                   const bool again = std::exchange(still->recheckSession, false);
                   if (!still->session || still->session->sessionId != session.sessionId)
                       return;
                   if (!held) {
                       connection.detach(*still, wireCondition(ErrorCode::SessionLockLost),
                                         QStringLiteral("The session lock of '%1' was lost: it "
                                                        "ran out or the entity was updated.")
                                             .arg(quoted(session.sessionId)));
                       return;
                   }
                   if (again) {
                       connection.m_sessionChanges.insert(still->address.brokerPath.toLower());
                       connection.checkSessionLocks();
                   }
               });
    }
}

} // namespace hourglass::amqp
