#pragma once
// Time to live and expiry (service-bus-rules.md T1-T9), on the virtual clock: when messages expire
// (T1-T5) in tst_engine_ttl.cpp, what locks, dead-lettering and deferral do to expiry and what
// peek shows (T6-T9) in tst_engine_ttl_expiry.cpp.

#include "hourglass/Broker.h"

#include <QObject>

#include <optional>

namespace hourglass::testing {
inline const QString kQueue = QStringLiteral("q");
inline const QString kDeadLetters = QStringLiteral("q/$deadletterqueue");
inline const QString kTtlExpired = QStringLiteral("TTLExpiredException");

inline EntityProperties ttlProperties(Millis defaultTtl, bool deadLetterOnExpiry,
                                      Millis lockDuration = minutes(1)) {
    EntityProperties p;
    p.defaultMessageTimeToLive = defaultTtl;
    p.deadLetteringOnMessageExpiration = deadLetterOnExpiry;
    p.lockDuration = lockDuration;
    return p;
}

// -1 in a data table means "no TTL of its own".
inline std::optional<Millis> optionalTtl(qint64 value) {
    return value < 0 ? std::nullopt : std::optional<Millis>(value);
}
} // namespace hourglass::testing

class TestEngineTtl : public QObject {
    Q_OBJECT

private slots:
    void ttl_T1_expiresAtIsEnqueuedPlusTtl_data();
    void ttl_T1_expiresAtIsEnqueuedPlusTtl();
    void ttl_T2_scheduledExpiresAtScheduledPlusTtl_data();
    void ttl_T2_scheduledExpiresAtScheduledPlusTtl();
    void ttl_T3_entityDefaultAppliesAndCapsMessageTtl_data();
    void ttl_T3_entityDefaultAppliesAndCapsMessageTtl();
    void ttl_T3_forwardingNeverLengthensLife_data();
    void ttl_T3_forwardingNeverLengthensLife();
    void ttl_T4_subscriptionTtlIsSmallestOfThree_data();
    void ttl_T4_subscriptionTtlIsSmallestOfThree();
    void ttl_T5_receiveNeverReturnsExpired_data();
    void ttl_T5_receiveNeverReturnsExpired();
    void ttl_T5_lockedExpiredMessageIsMarkedExpired();
    void ttl_T6_lockedMessageDoesNotExpireUntilSettled_data();
    void ttl_T6_lockedMessageDoesNotExpireUntilSettled();
    void ttl_T6_abandonAfterExpiryDropsWithoutDeadLettering();
    void ttl_T7_expiryDeadLettersAtomically_data();
    void ttl_T7_expiryDeadLettersAtomically();
    void ttl_T7_expiryWithoutDeadLetteringDrops();
    void ttl_T8_noTtlInDeadLetterQueue();
    void ttl_T8_deferredExpiresOnlyWhenAskedFor_data();
    void ttl_T8_deferredExpiresOnlyWhenAskedFor();
    void ttl_T8_deferredNotYetExpiredIsReceivable();
    void ttl_T9_peekShowsOwnOrDerivedExpiry();
    void ttl_T9_subscriptionShowsDerivedExpiry();
};
