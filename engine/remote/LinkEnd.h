#pragma once
// What the connection tells one of its links (a request channel, a sender), on the client's
// thread: credit came, a delivery arrived or changed, the peer attached or closed it, or the
// whole connection is gone.

#include "hourglass/Status.h"

#include <proton/types.h>

#include <functional>

namespace hourglass::remote {

// The answer of a call that answers nothing but whether it worked.
using Done = std::function<void(Result<void>)>;

class LinkEnd {
public:
    virtual ~LinkEnd() = default;
    virtual void opened(pn_link_t*) {} // the peer's attach arrived
    virtual void flowed(pn_link_t*) {}
    virtual void delivered(pn_delivery_t*) {}
    // The peer closed the link (after refusing its attach, or later): `why` is its condition.
    // Every call waiting on it fails with `why`.
    virtual void closedByPeer(const Error& why) = 0;
    // The connection ended: every call waiting on the link fails with `why`.
    virtual void connectionLost(const Error& why) = 0;
};

} // namespace hourglass::remote
