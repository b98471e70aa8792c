#pragma once
// The broker's one way in and out of its mutex, and the one place that waits for the disk.
//
// Every write of the broker goes the same way: take the mutex, change memory and log the
// matching store operations, take the store's ticket for them, release the mutex, wait until
// that ticket is durable (group commit, L2), answer. BrokerWrite is that sequence: made at the
// start of a write, it holds the mutex; a refusal simply returns (the mutex is released, nothing
// is waited for); commit() ends a change. Reads hold the mutex through BrokerRead, and wait, if
// they read rows of the store, only until the writes logged before them are readable.
//
// No other code of the broker locks its mutex or waits on the store (the check
// tests/engine/CheckWritePath.cmake fails on any that does, naming the file and line), so that
// "no disk sync under the mutex" and "acknowledged only once durable" hold by construction.

#include "BrokerImpl.h"
#include "Mutex.h"

#include <functional>

namespace hourglass {

// What was logged up to a point, to wait for once the mutex is released.
class Logged {
public:
    Logged(Store& store, quint64 ticket)
        : m_store(&store)
        , m_ticket(ticket) {}
    // Returns once everything up to the point is committed, or with the error of the write that
    // failed (Store::waitDurable).
    Result<void> durable() const;

private:
    Store* m_store;
    quint64 m_ticket;
};

// Holds the broker's mutex for a change (see above).
class SCOPED_CAPABILITY BrokerWrite {
public:
    explicit BrokerWrite(BrokerImpl& broker) ACQUIRE(broker.m_mutex);
    ~BrokerWrite() RELEASE();
    BrokerWrite(const BrokerWrite&) = delete;
    BrokerWrite& operator=(const BrokerWrite&) = delete;

    // The change is made: releases the mutex and returns once everything it logged (and all
    // logged before) is durable, or with the error of the write that failed.
    Result<void> commit() RELEASE();
    // The same, answering `value` once durable.
    template <typename T> Result<T> commit(T value) RELEASE() {
        if (auto durable = commit(); !durable)
            return durable.error();
        return value;
    }
    // A batch: each call succeeded on its own, but none is acknowledged unless all is durable.
    // `released`, when set, runs between releasing the mutex and waiting (a caller that reports
    // the messages taken before their disk sync).
    template <typename T>
    QList<Result<T>> commitEach(QList<Result<T>> results,
                                const std::function<void()>& released = {}) RELEASE() {
        const Logged logged = release();
        if (released)
            released();
        if (auto durable = logged.durable(); !durable) {
            for (auto& result : results) {
                if (result)
                    result = durable.error();
            }
        }
        return results;
    }
    // Releases the mutex without waiting yet: the caller waits on what it returns (after it has
    // told someone the change is made, or after reading back what memory handed out).
    Logged release() RELEASE();
    // A call that turned out to change nothing it must wait for (an explorer's read): what it
    // returns is durable once the writes logged before are readable (BrokerRead::release).
    Logged releaseRead() RELEASE();

private:
    BrokerImpl& m_broker;
    MutexLock m_lock;
};

// Holds the broker's mutex for a read of memory.
class SCOPED_CAPABILITY BrokerRead {
public:
    explicit BrokerRead(const BrokerImpl& broker) ACQUIRE(broker.m_mutex);
    ~BrokerRead() RELEASE();
    BrokerRead(const BrokerRead&) = delete;
    BrokerRead& operator=(const BrokerRead&) = delete;

    // Releases the mutex; what it returns is durable once every write logged before this read
    // is readable from the store (Store::readTicket: a reader forces no commit of its own).
    Logged release() RELEASE();

private:
    const BrokerImpl& m_broker;
    MutexLock m_lock;
};

} // namespace hourglass

namespace hourglass {

template <typename Reader>
auto BrokerImpl::readTarget(const QString& path, Reader read)
    -> Result<std::invoke_result_t<Reader, const Target&>> {
    BrokerRead lock(*this);
    Instant now;
    auto target = fireDueAndResolve(path, now);
    if (!target)
        return target.error();
    return read(*target);
}

} // namespace hourglass
