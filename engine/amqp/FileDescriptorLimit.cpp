#include "FileDescriptorLimit.h"

#include <algorithm>

#include <sys/resource.h>

namespace hourglass::amqp {

std::size_t raiseFileDescriptorLimit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 0;
    if (limit.rlim_cur != limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        // Refused (macOS will not take an unlimited hard limit, for one): keep what we have.
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    if (limit.rlim_cur == RLIM_INFINITY)
        return std::size_t(-1);
    return std::size_t(limit.rlim_cur);
}

std::size_t connectionsThatFit(std::size_t wanted, std::size_t descriptorLimit) {
    if (descriptorLimit == 0)
        return wanted;
    const std::size_t room = descriptorLimit > 2 * kDescriptorsKeptBack
                                 ? descriptorLimit - kDescriptorsKeptBack
                                 : descriptorLimit / 2;
    return std::max<std::size_t>(1, std::min(wanted, room));
}

} // namespace hourglass::amqp
