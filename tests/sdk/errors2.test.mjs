// More broker rules and errors through the SDK: duplicate detection (L13), disabled entities
// (L1, E3), an expired shared access signature, a wrong key next to a right one, the size quota
// (MaxSizeInMegabytes), peek from the middle (L12), and TTL expiry without dead-lettering (T1, T5,
// T7). Entities (config.json): q-dedup (RequiresDuplicateDetection, window PT1M), q-disabled,
// q-send-disabled and q-receive-disabled (Status Disabled, SendDisabled, ReceiveDisabled), q-sas,
// q-ttl-drop (no dead-lettering on expiration), q-quota (MaxSizeInMegabytes 1, the smallest E3
// allows), q-keys, q-peek-mid.
import { test, after } from "node:test";
import Long from "long";
import assert from "node:assert/strict";
import { ServiceBusClient } from "@azure/service-bus";
import {
  useServer, receiveExactly, rejectsWithCode, sleep, clientOptions, peekAll, bounded,
  expectNothing, seq, sasSignature, clientWithSignature,
} from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };
const opened = [];
after(async () => {
  for (const client of opened) await bounded(client.close(), 2000);
});

test("L13: the same messageId sent twice within the window is stored once", T, async () => {
  const sender = ctx.sender("q-dedup");
  await sender.sendMessages({ body: "first", messageId: "dup-1" });
  // Acknowledged (no error), then dropped.
  await sender.sendMessages({ body: "second", messageId: "dup-1" });
  await sender.sendMessages({ body: "other", messageId: "dup-2" });
  const peeked = await peekAll(ctx.receiver("q-dedup"));
  assert.deepEqual(peeked.map((m) => [m.messageId, m.body]), [["dup-1", "first"], ["dup-2", "other"]]);
});

test("L13: a duplicate inside one batch is stored once too", T, async () => {
  const sender = ctx.sender("q-dedup");
  const batch = await sender.createMessageBatch();
  for (const [id, body] of [["dup-3", "a"], ["dup-3", "b"], ["dup-4", "c"]])
    assert.ok(batch.tryAddMessage({ body, messageId: id }));
  await sender.sendMessages(batch);
  const peeked = await peekAll(ctx.receiver("q-dedup"));
  assert.deepEqual(peeked.map((m) => [m.messageId, m.body]),
    [["dup-1", "first"], ["dup-2", "other"], ["dup-3", "a"], ["dup-4", "c"]]);
});

test("L1: sending to a Disabled queue: MessagingEntityDisabled, nothing stored", T, async (t) => {
  const error = await rejectsWithCode(
    ctx.sender("q-disabled").sendMessages({ body: "x", messageId: "dis-1" }),
    "MessagingEntityDisabled");
  assert.equal(error.retryable, false);
  // Peek is a management read, not a receive; a Disabled entity may refuse it as well, and that
  // is not what this test is about, so it only looks when it can.
  const peeked = await peekAll(ctx.receiver("q-disabled")).catch((err) => err);
  if (Array.isArray(peeked)) assert.deepEqual(peeked, []);
  else t.diagnostic(`peek on the Disabled queue: ${peeked.code} ${peeked.message}`);
});

test("L1: sending to a SendDisabled queue: MessagingEntityDisabled", T, async () => {
  await rejectsWithCode(
    ctx.sender("q-send-disabled").sendMessages({ body: "x", messageId: "sd-1" }),
    "MessagingEntityDisabled");
  assert.deepEqual(await peekAll(ctx.receiver("q-send-disabled")), []);
});

test("E3: a ReceiveDisabled queue takes sends and refuses receives: MessagingEntityDisabled", T,
  async () => {
    await ctx.sender("q-receive-disabled").sendMessages({ body: "in", messageId: "rd-1" });
    await rejectsWithCode(
      ctx.receiver("q-receive-disabled").receiveMessages(1, { maxWaitTimeInMs: 2000 }),
      "MessagingEntityDisabled");
    await rejectsWithCode(
      ctx.receiver("q-receive-disabled", { receiveMode: "receiveAndDelete" })
        .receiveMessages(1, { maxWaitTimeInMs: 2000 }),
      "MessagingEntityDisabled");
    // Still there: the refused receives took nothing.
    assert.deepEqual((await peekAll(ctx.receiver("q-receive-disabled"))).map((m) => m.messageId),
      ["rd-1"]);
  });

test("E3: a Disabled queue refuses receives too: MessagingEntityDisabled", T, async () => {
  await rejectsWithCode(
    ctx.receiver("q-disabled").receiveMessages(1, { maxWaitTimeInMs: 2000 }),
    "MessagingEntityDisabled");
});

function signedClient(sas) {
  const client = clientWithSignature(ctx.server.port, sas);
  opened.push(client);
  return client;
}

test("an expired SharedAccessSignature: UnauthorizedAccess, nothing stored", T, async () => {
  const now = Math.floor(Date.now() / 1000);
  // The same signer with a future expiry works: the refusal is about the expiry alone.
  const good = signedClient(sasSignature(`sb://localhost:${ctx.server.port}/q-sas`,
    now + 600, "SAS_KEY_VALUE"));
  await good.createSender("q-sas").sendMessages({ body: "ok", messageId: "sas-ok" });

  for (const audience of [`sb://localhost:${ctx.server.port}/`,
    `sb://localhost:${ctx.server.port}/q-sas`]) {
    const client = signedClient(sasSignature(audience, now - 60, "SAS_KEY_VALUE"));
    await rejectsWithCode(
      client.createSender("q-sas").sendMessages({ body: "late", messageId: "sas-expired" }),
      "UnauthorizedAccess");
    await rejectsWithCode(
      client.createReceiver("q-sas").receiveMessages(1, { maxWaitTimeInMs: 2000 }),
      "UnauthorizedAccess");
  }
  assert.deepEqual((await peekAll(ctx.receiver("q-sas"))).map((m) => m.messageId), ["sas-ok"]);
});

test("a signature that expires while the client is connected refuses new links", T, async () => {
  const now = Math.floor(Date.now() / 1000);
  const client = signedClient(sasSignature(`sb://localhost:${ctx.server.port}/`,
    now + 3, "SAS_KEY_VALUE"));
  // Valid now (expires in 2-3 s).
  await client.createSender("q-sas").sendMessages({ body: "early", messageId: "sas-early" });
  await sleep(Math.max(0, (now + 3) * 1000 - Date.now()) + 1500);
  // A new link needs a new put-token with the same, now expired, token.
  await rejectsWithCode(
    client.createReceiver("q-sas").receiveMessages(1, { maxWaitTimeInMs: 2000 }),
    "UnauthorizedAccess");
  assert.deepEqual((await peekAll(ctx.receiver("q-sas"))).map((m) => m.messageId),
    ["sas-ok", "sas-early"]);
});

test("T5/T7: a message past its TTL on a queue without dead-lettering is dropped", T, async (t) => {
  const sender = ctx.sender("q-ttl-drop");
  await sender.sendMessages([
    { body: "short", messageId: "ttl-short", timeToLive: 2000 },
    { body: "long", messageId: "ttl-long" },
  ]);
  const before = await peekAll(ctx.receiver("q-ttl-drop"));
  assert.deepEqual(before.map((m) => m.messageId), ["ttl-short", "ttl-long"]);
  assert.equal(before[0].timeToLive, 2000);
  // T1: ExpiresAtUtc = EnqueuedTimeUtc + TimeToLive.
  assert.equal(before[0].expiresAtUtc.getTime(), before[0].enqueuedTimeUtc.getTime() + 2000);
  assert.ok(Math.abs(before[0].enqueuedTimeUtc.getTime() - Date.now()) < 5000,
    `enqueued at ${before[0].enqueuedTimeUtc.toISOString()}`);
  await sleep(3000);

  // T5: a receive never returns an expired message.
  const receiver = ctx.receiver("q-ttl-drop");
  const [only] = await receiveExactly(receiver, 1);
  assert.equal(only.messageId, "ttl-long");
  await receiver.completeMessage(only);
  await expectNothing(receiver, 1000);
  // T7: DeadLetteringOnMessageExpiration is off: dropped, not moved.
  assert.deepEqual(await peekAll(ctx.receiver("q-ttl-drop", { subQueueType: "deadLetter" })), []);
  // T5 lets peek show an expired message until it is swept, so this is reported, not asserted.
  const left = (await peekAll(ctx.receiver("q-ttl-drop"))).map((m) => m.messageId);
  t.diagnostic(`peek after the receive: ${JSON.stringify(left)}`);
  assert.ok(left.every((id) => id === "ttl-short"), `unexpected: ${JSON.stringify(left)}`);
});

test("L1: a queue over its MaxSizeInMegabytes (1): QuotaExceeded, then room again", T, async () => {
  const sender = ctx.sender("q-quota");
  const body = Buffer.alloc(200 * 1024, 0x71); // 5 fit in 1 MiB, the 6th does not
  for (let i = 1; i <= 5; i++) await sender.sendMessages({ body, messageId: `quota-${i}` });
  const error = await rejectsWithCode(sender.sendMessages({ body, messageId: "quota-6" }),
    "QuotaExceeded");
  assert.match(error.message, /MaxSizeInMegabytes/);
  // Room again after one is taken: the same message now goes in, once.
  const receiver = ctx.receiver("q-quota", { receiveMode: "receiveAndDelete" });
  const [first] = await receiveExactly(receiver, 1);
  assert.equal(first.messageId, "quota-1");
  await sender.sendMessages({ body, messageId: "quota-6" });
  const rest = await receiveExactly(receiver, 5);
  assert.deepEqual(rest.map((m) => m.messageId), ["quota-2", "quota-3", "quota-4", "quota-5", "quota-6"]);
  assert.ok(rest.every((m) => Buffer.compare(m.body, body) === 0));
  await expectNothing(receiver, 500);
});

test("a client with a wrong key is refused while a client with the right key works", T, async () => {
  const wrong = new ServiceBusClient(
    ctx.server.connectionString.replace(/SharedAccessKey=[^;]*/, "SharedAccessKey=wrong-key"),
    { retryOptions: { ...clientOptions.retryOptions, maxRetries: 0 } });
  opened.push(wrong);
  const goodSender = ctx.sender("q-keys");
  const wrongSender = wrong.createSender("q-keys");
  // At the same time, on two connections.
  const [refused, ok] = await Promise.allSettled([
    wrongSender.sendMessages({ body: "bad", messageId: "keys-bad" }),
    goodSender.sendMessages({ body: "good", messageId: "keys-good-1" }),
  ]);
  assert.equal(refused.status, "rejected");
  assert.equal(refused.reason.code, "UnauthorizedAccess", refused.reason.message);
  assert.equal(ok.status, "fulfilled", ok.reason?.message);
  // The refused client does not disturb the good one, and stays refused.
  await goodSender.sendMessages({ body: "good", messageId: "keys-good-2" });
  await rejectsWithCode(wrong.createReceiver("q-keys").receiveMessages(1, { maxWaitTimeInMs: 2000 }),
    "UnauthorizedAccess");
  const receiver = ctx.receiver("q-keys");
  const got = await receiveExactly(receiver, 2);
  assert.deepEqual(got.map((m) => m.messageId), ["keys-good-1", "keys-good-2"]);
  for (const m of got) await receiver.completeMessage(m);
});

test("L12: peek from a sequence number in the middle, with completed, deferred and locked messages", T,
  async () => {
    await ctx.sender("q-peek-mid").sendMessages(
      Array.from({ length: 6 }, (_, i) => ({ body: `pm-${i}`, messageId: `pm-${i}` })));
    const all = await peekAll(ctx.receiver("q-peek-mid"));
    assert.deepEqual(all.map((m) => m.messageId), ["pm-0", "pm-1", "pm-2", "pm-3", "pm-4", "pm-5"]);
    const s = all.map(seq);
    for (let i = 1; i < s.length; i++) assert.ok(s[i] > s[i - 1], `sequence numbers ${s}`);

    // pm-0 completed (gone), pm-1 deferred, pm-2 locked (held).
    const receiver = ctx.receiver("q-peek-mid");
    const [m0, m1, m2] = await receiveExactly(receiver, 3);
    assert.deepEqual([m0, m1, m2].map((m) => m.messageId), ["pm-0", "pm-1", "pm-2"]);
    await receiver.completeMessage(m0);
    await receiver.deferMessage(m1);

    const peeker = ctx.receiver("q-peek-mid");
    const peek = (from, max) =>
      peeker.peekMessages(max, { fromSequenceNumber: Long.fromNumber(from) });
    // From the middle: exactly that one and the next ones, at most `max`.
    const fromMid = await peek(s[3], 2);
    assert.deepEqual(fromMid.map((m) => [m.messageId, seq(m), m.state]),
      [["pm-3", s[3], "active"], ["pm-4", s[4], "active"]]);
    // From a sequence number that is gone (pm-0 completed): starts at the next one that exists;
    // the deferred and the locked message are there, with their state.
    const fromGone = await peek(s[0], 3);
    assert.deepEqual(fromGone.map((m) => [m.messageId, seq(m), m.state]),
      [["pm-1", s[1], "deferred"], ["pm-2", s[2], "active"], ["pm-3", s[3], "active"]]);
    // Peek took no lock and changed no count (L12): peeking again shows the same counts, and
    // pm-3, never received, still has none.
    assert.ok(fromGone.every((m) => m.lockToken === undefined));
    const again = await peek(s[1], 3);
    assert.deepEqual(again.map((m) => m.deliveryCount), fromGone.map((m) => m.deliveryCount));
    assert.equal(fromGone[2].deliveryCount, 0);
    // Past the last one: nothing.
    assert.deepEqual(await peek(s[5] + 1, 10), []);
    assert.deepEqual((await peek(s[5], 10)).map((m) => m.messageId), ["pm-5"]);

    await receiver.completeMessage(m2);
    const rest = await receiveExactly(receiver, 3);
    assert.deepEqual(rest.map((m) => [m.messageId, m.deliveryCount]),
      [["pm-3", 0], ["pm-4", 0], ["pm-5", 0]]);
  });
