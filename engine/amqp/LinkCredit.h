#pragma once
// A link's credit as AMQP counts it. Proton 0.37's pn_link_credit returns an int for the 32-bit
// unsigned link-credit: a receiver that grants 4294967295 (as many as there are) would read as
// -1, and be sent nothing. Every reading of a link's credit goes through here.

#include <QtGlobal>

#include <proton/link.h>

namespace hourglass::amqp {

inline quint32 linkCredit(pn_link_t* link) {
    return quint32(pn_link_credit(link));
}

} // namespace hourglass::amqp
