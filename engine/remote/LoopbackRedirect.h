#pragma once
// The loopback redirect of the browser sign-in (EntraSignIn.h): a small HTTP listener on
// 127.0.0.1 only, on a port the system picks, on a thread of its own. The browser comes back
// to it from the identity provider with `?code=...&state=...` (or `?error=...`); it answers the
// browser with a short page saying the tab can be closed, and hands the code to the waiting
// sign-in, or why there is none (the state is not this sign-in's, the provider refused).
//
// Whatever reaches the port is hostile: a request head is read up to a few KiB, paths other
// than "/" are answered 404 without ending the sign-in (a browser asks for /favicon.ico), and
// no page or error quotes more than a short prefix of what came.

#include "SignInWait.h"

#include "hourglass/Status.h"

#include <QString>

#include <memory>

namespace hourglass::remote {

class LoopbackRedirect {
public:
    // Answers go to `wait`; a redirect counts only with `expectedState`.
    LoopbackRedirect(QString expectedState, std::shared_ptr<SignInWait> wait);
    // Stops listening and ends the thread; browsers still connected are dropped.
    ~LoopbackRedirect();
    LoopbackRedirect(const LoopbackRedirect&) = delete;
    LoopbackRedirect& operator=(const LoopbackRedirect&) = delete;

    // Starts listening; ServiceCommunicationProblem when no loopback port can be had.
    Result<void> listen();
    // "http://localhost:<port>/", as the app registration's redirect `http://localhost` allows
    // with any port.
    QString redirectUri() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace hourglass::remote
