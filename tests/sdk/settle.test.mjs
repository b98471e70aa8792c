// Settlement over the receive link: abandon (with properties to modify), dead-letter, the
// dead-letter queue, MaxDeliveryCount and expiry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer, receiveExactly, expectNothing, peekAll, sleep } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

test("abandon with propertiesToModify redelivers with a higher delivery count", T, async () => {
  await ctx.sender("q-abandon").sendMessages({
    body: "try-me", messageId: "ab-1", applicationProperties: { original: "kept" },
  });
  const receiver = ctx.receiver("q-abandon");

  const [first] = await receiveExactly(receiver, 1);
  assert.equal(first.deliveryCount, 0);
  assert.deepEqual(first.applicationProperties, { original: "kept" });
  await receiver.abandonMessage(first, { reason: "retry", attempt: 1 });

  const [second] = await receiveExactly(receiver, 1);
  assert.equal(second.messageId, "ab-1");
  assert.equal(second.body, "try-me");
  assert.equal(second.deliveryCount, 1);
  assert.equal(second.sequenceNumber.toString(), first.sequenceNumber.toString());
  assert.notEqual(second.lockToken, first.lockToken, "a redelivery carries a new lock token");
  assert.deepEqual(second.applicationProperties, { original: "kept", reason: "retry", attempt: 1 });

  await receiver.abandonMessage(second);
  const [third] = await receiveExactly(receiver, 1);
  assert.equal(third.deliveryCount, 2);
  assert.deepEqual(third.applicationProperties, { original: "kept", reason: "retry", attempt: 1 });
  await receiver.completeMessage(third);
  await expectNothing(receiver);
});

test("deadLetterMessage moves the message to the dead-letter queue with reason and description", T, async () => {
  await ctx.sender("q-deadletter").sendMessages({
    body: { order: 7 }, messageId: "dl-1", applicationProperties: { origin: "test" },
  });
  const receiver = ctx.receiver("q-deadletter");
  const [message] = await receiveExactly(receiver, 1);
  await receiver.deadLetterMessage(message, {
    deadLetterReason: "BadOrder",
    deadLetterErrorDescription: "order 7 is not valid",
  });
  await expectNothing(receiver);

  const dlq = ctx.receiver("q-deadletter", { subQueueType: "deadLetter" });
  assert.equal(dlq.entityPath, "q-deadletter/$DeadLetterQueue");
  const [dead] = await receiveExactly(dlq, 1);
  assert.equal(dead.messageId, "dl-1");
  assert.deepEqual(dead.body, { order: 7 });
  assert.equal(dead.deadLetterReason, "BadOrder");
  assert.equal(dead.deadLetterErrorDescription, "order 7 is not valid");
  assert.equal(dead.applicationProperties.origin, "test");
  assert.equal(dead.applicationProperties.DeadLetterReason, "BadOrder");
  assert.equal(dead.applicationProperties.DeadLetterErrorDescription, "order 7 is not valid");
  assert.equal(dead.state, "active");
  await dlq.completeMessage(dead);
  await expectNothing(dlq);
});

test("abandoned MaxDeliveryCount (3) times, a message is dead-lettered", T, async () => {
  await ctx.sender("q-dlq").sendMessages({ body: "poison", messageId: "poison-1" });
  const receiver = ctx.receiver("q-dlq");
  for (let attempt = 0; attempt < 3; attempt++) {
    const [message] = await receiveExactly(receiver, 1);
    assert.equal(message.messageId, "poison-1");
    assert.equal(message.deliveryCount, attempt);
    await receiver.abandonMessage(message);
  }
  await expectNothing(receiver, 1500);

  const dlq = ctx.receiver("q-dlq", { subQueueType: "deadLetter" });
  const [dead] = await receiveExactly(dlq, 1);
  assert.equal(dead.messageId, "poison-1");
  assert.equal(dead.body, "poison");
  assert.equal(dead.deadLetterReason, "MaxDeliveryCountExceeded");
  assert.equal(typeof dead.deadLetterErrorDescription, "string");
  await dlq.completeMessage(dead);
  await expectNothing(dlq);
});

test("an expired message goes to the dead-letter queue (DeadLetteringOnMessageExpiration)", T, async () => {
  // q-ttl: DefaultMessageTimeToLive PT2S.
  await ctx.sender("q-ttl").sendMessages({ body: "short-lived", messageId: "ttl-1" });
  const peeker = ctx.receiver("q-ttl");
  const [peeked] = await peekAll(peeker);
  assert.equal(peeked?.messageId, "ttl-1");
  assert.equal(peeked.timeToLive, 2000, "the queue's default time to live applies");

  await sleep(3000);
  const receiver = ctx.receiver("q-ttl");
  await expectNothing(receiver);

  const dlq = ctx.receiver("q-ttl", { subQueueType: "deadLetter", receiveMode: "receiveAndDelete" });
  const [dead] = await receiveExactly(dlq, 1);
  assert.equal(dead.messageId, "ttl-1");
  assert.equal(dead.body, "short-lived");
  assert.equal(dead.deadLetterReason, "TTLExpiredException");
});
