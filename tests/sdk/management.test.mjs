// Operations over the entity's $management link: defer and receive-by-sequence-number,
// renew-lock, peek, schedule and cancel.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  useServer, receiveExactly, expectNothing, rejectsWithCode, peekAll, seq, sleep,
} from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

test("defer, receiveDeferredMessages, complete", T, async () => {
  await ctx.sender("q-defer").sendMessages({ body: "later", messageId: "def-1" });
  const receiver = ctx.receiver("q-defer");
  const [message] = await receiveExactly(receiver, 1);
  const sequenceNumber = message.sequenceNumber;
  await receiver.deferMessage(message);
  await expectNothing(receiver);

  const [peeked] = await peekAll(receiver);
  assert.equal(peeked?.messageId, "def-1");
  assert.equal(peeked.state, "deferred");

  const deferred = await receiver.receiveDeferredMessages([sequenceNumber]);
  assert.equal(deferred.length, 1);
  assert.equal(deferred[0].messageId, "def-1");
  assert.equal(deferred[0].body, "later");
  assert.equal(deferred[0].state, "deferred");
  assert.equal(deferred[0].sequenceNumber.toString(), sequenceNumber.toString());
  assert.match(deferred[0].lockToken, /^[0-9a-f-]{36}$/i);
  await receiver.completeMessage(deferred[0]);

  await rejectsWithCode(receiver.receiveDeferredMessages([sequenceNumber]), "MessageNotFound");
  assert.deepEqual(await peekAll(receiver), []);
});

test("renewMessageLock returns a later date", T, async () => {
  await ctx.sender("q-renew").sendMessages({ body: "hold", messageId: "renew-1" });
  const receiver = ctx.receiver("q-renew");
  const [message] = await receiveExactly(receiver, 1);
  const before = message.lockedUntilUtc;
  assert.ok(before instanceof Date);
  await sleep(1100);
  const renewed = await receiver.renewMessageLock(message);
  assert.ok(renewed instanceof Date, `renewMessageLock returned ${renewed}`);
  assert.ok(renewed.getTime() >= before.getTime() + 1000,
    `renewed ${renewed.toISOString()} vs before ${before.toISOString()}`);
  assert.equal(message.lockedUntilUtc.getTime(), renewed.getTime());
  await receiver.completeMessage(message);
  await expectNothing(receiver);
});

test("peekMessages sees everything without locking; fromSequenceNumber starts there", T, async () => {
  await ctx.sender("q-peek").sendMessages(
    Array.from({ length: 5 }, (_, i) => ({ body: `p-${i}`, messageId: `peek-${i}` })));
  const receiver = ctx.receiver("q-peek");
  const peeked = await receiver.peekMessages(10);
  assert.deepEqual(peeked.map((m) => m.body), ["p-0", "p-1", "p-2", "p-3", "p-4"]);
  const seqs = peeked.map(seq);
  for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i] > seqs[i - 1], `sequence numbers ${seqs}`);
  for (const m of peeked) {
    assert.equal(m.lockToken, undefined);
    assert.equal(m.state, "active");
  }
  // The receiver's cursor moved past the last peeked message.
  assert.deepEqual(await receiver.peekMessages(10), []);

  const fromThird = await receiver.peekMessages(2, { fromSequenceNumber: peeked[2].sequenceNumber });
  assert.deepEqual(fromThird.map((m) => m.body), ["p-2", "p-3"]);
  assert.deepEqual(fromThird.map(seq), seqs.slice(2, 4));

  const received = await receiveExactly(receiver, 5);
  assert.deepEqual(received.map((m) => m.body), ["p-0", "p-1", "p-2", "p-3", "p-4"]);
  for (const m of received) assert.equal(m.deliveryCount, 0, "peeking does not count as a delivery");
  for (const m of received) await receiver.completeMessage(m);
});

test("scheduleMessages, cancelScheduledMessages, and a scheduled message arriving", T, async () => {
  const sender = ctx.sender("q-schedule");
  const receiver = ctx.receiver("q-schedule");
  const farAway = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000);
  const seqs = await sender.scheduleMessages(
    [{ body: "later-1", messageId: "sch-1" }, { body: "later-2", messageId: "sch-2" }], farAway);
  assert.equal(seqs.length, 2);
  assert.notEqual(seqs[0].toString(), seqs[1].toString());

  const peeked = await peekAll(receiver);
  assert.deepEqual(peeked.map((m) => m.body), ["later-1", "later-2"]);
  for (const m of peeked) {
    assert.equal(m.state, "scheduled");
    assert.equal(m.scheduledEnqueueTimeUtc?.getTime(), farAway.getTime());
  }
  assert.deepEqual(peeked.map((m) => m.sequenceNumber.toString()), seqs.map(String));
  await expectNothing(receiver);

  await sender.cancelScheduledMessages(seqs[0]);
  const afterCancel = await peekAll(receiver);
  assert.deepEqual(afterCancel.map((m) => m.body), ["later-2"]);
  await sender.cancelScheduledMessages([seqs[1]]);
  assert.deepEqual(await peekAll(receiver), []);

  const soon = new Date(Date.now() + 2000);
  const [soonSeq] = await sender.scheduleMessages({ body: "soon", messageId: "sch-3" }, soon);
  await expectNothing(receiver, 500);
  const [arrived] = await receiveExactly(receiver, 1, { waitMs: 5000 });
  assert.equal(arrived.body, "soon");
  // L11: the scheduling number cancels; the message gets a new one when it becomes active.
  assert.ok(arrived.sequenceNumber.greaterThan(soonSeq),
            `${arrived.sequenceNumber} should follow the scheduling number ${soonSeq}`);
  assert.ok(Date.now() >= soon.getTime() - 50, "not delivered before its time");
  assert.equal(arrived.scheduledEnqueueTimeUtc?.getTime(), soon.getTime());
  await receiver.completeMessage(arrived);
});
