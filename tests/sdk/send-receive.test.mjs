// Sending and receiving through the official SDK: peek-lock and receive-and-delete, batches,
// pipelined sends, every message property, topics with filtered subscriptions, subscribe().
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  useServer, receiveExactly, expectNothing, peekAll, seq, sleep, UUID_RE,
} from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

test("single send, peek-lock receive, complete", T, async () => {
  const sender = ctx.sender("q-basic");
  const receiver = ctx.receiver("q-basic");
  const before = Date.now();
  await sender.sendMessages({ body: "hello", messageId: "m-1" });

  const [message] = await receiveExactly(receiver, 1);
  assert.equal(message.body, "hello");
  assert.equal(message.messageId, "m-1");
  assert.equal(message.deliveryCount, 0);
  assert.match(message.lockToken, UUID_RE);
  assert.ok(seq(message) >= 1, `sequence number ${message.sequenceNumber}`);
  assert.ok(message.enqueuedTimeUtc instanceof Date);
  assert.ok(Math.abs(message.enqueuedTimeUtc.getTime() - before) < 10_000,
    `enqueued at ${message.enqueuedTimeUtc.toISOString()}`);
  assert.ok(message.lockedUntilUtc instanceof Date);
  assert.ok(message.lockedUntilUtc.getTime() > Date.now() + 30_000,
    `locked until ${message.lockedUntilUtc.toISOString()} (lock duration PT1M)`);
  assert.equal(message.state, "active");

  await receiver.completeMessage(message);
  await expectNothing(receiver);
  assert.deepEqual(await peekAll(receiver), []);
});

test("receiveAndDelete takes the messages in order", T, async () => {
  const sender = ctx.sender("q-rd");
  for (const body of ["rd-1", "rd-2", "rd-3"]) await sender.sendMessages({ body });
  const receiver = ctx.receiver("q-rd", { receiveMode: "receiveAndDelete" });
  const messages = await receiveExactly(receiver, 3);
  assert.deepEqual(messages.map((m) => m.body), ["rd-1", "rd-2", "rd-3"]);
  for (const m of messages) assert.equal(m.lockToken, undefined);
  const seqs = messages.map(seq);
  assert.ok(seqs[0] < seqs[1] && seqs[1] < seqs[2], `sequence numbers ${seqs}`);
  await expectNothing(receiver);
  assert.deepEqual(await peekAll(ctx.receiver("q-rd")), []);
});

test("a batch of 300 from createMessageBatch arrives whole and in order", T, async () => {
  const sender = ctx.sender("q-batch");
  const batch = await sender.createMessageBatch();
  for (let i = 0; i < 300; i++) {
    assert.equal(batch.tryAddMessage({ body: `batch-${i}`, messageId: `b-${i}` }), true,
      `message ${i} fits (batch max ${batch.maxSizeInBytes} bytes)`);
  }
  assert.equal(batch.count, 300);
  await sender.sendMessages(batch);

  const receiver = ctx.receiver("q-batch", { receiveMode: "receiveAndDelete" });
  const messages = await receiveExactly(receiver, 300, { timeoutMs: 20_000 });
  assert.deepEqual(messages.map((m) => m.body), Array.from({ length: 300 }, (_, i) => `batch-${i}`));
  assert.deepEqual(messages.map((m) => m.messageId), Array.from({ length: 300 }, (_, i) => `b-${i}`));
  await expectNothing(receiver);
});

test("sendMessages with an array sends every element", T, async () => {
  const sender = ctx.sender("q-batch");
  await sender.sendMessages([{ body: "arr-0" }, { body: "arr-1" }, { body: "arr-2" }]);
  const receiver = ctx.receiver("q-batch", { receiveMode: "receiveAndDelete" });
  const messages = await receiveExactly(receiver, 3);
  assert.deepEqual(messages.map((m) => m.body), ["arr-0", "arr-1", "arr-2"]);
  for (const m of messages) assert.equal(typeof m.messageId, "string", "broker assigns a message id");
});

test("200 pipelined sends all arrive, in the order they were sent", T, async () => {
  const sender = ctx.sender("q-pipeline");
  await Promise.all(Array.from({ length: 200 }, (_, i) => sender.sendMessages({ body: i })));
  const receiver = ctx.receiver("q-pipeline", { receiveMode: "receiveAndDelete" });
  const messages = await receiveExactly(receiver, 200, { timeoutMs: 20_000 });
  // One link's transfers are stored in the order they arrived, however many are in flight.
  assert.deepEqual(messages.map((m) => m.body), Array.from({ length: 200 }, (_, i) => i));
  const seqs = messages.map(seq);
  assert.equal(new Set(seqs).size, 200, "sequence numbers are unique");
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
  await expectNothing(receiver);
});

test("bodies and properties round-trip", T, async () => {
  const sender = ctx.sender("q-props");
  const when = new Date(Date.UTC(2024, 4, 17, 12, 34, 56, 789));
  const applicationProperties = {
    text: "a string",
    integer: 42,
    negative: -7,
    double: 3.25,
    yes: true,
    no: false,
    when,
    nothing: null,
  };
  const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x80]);
  const object = { a: 1, b: [true, null, "x"], c: { d: 2.5 } };
  await sender.sendMessages([
    {
      body: "plain text",
      messageId: "props-1",
      correlationId: "corr-1",
      subject: "the-subject",
      contentType: "text/plain",
      to: "someone",
      replyTo: "q-reply",
      timeToLive: 60_000,
      applicationProperties,
    },
    { body: object, messageId: "props-2", contentType: "application/json" },
    { body: binary, messageId: "props-3", contentType: "application/octet-stream" },
  ]);

  // skipConvertingDate: by default the SDK turns Date application properties into numbers on
  // receipt (its convertDatesToNumbers), whatever the broker sent; this asks for the timestamp.
  const receiver = ctx.receiver("q-props", { skipConvertingDate: true });
  const [text, json, bytes] = await receiveExactly(receiver, 3);

  assert.equal(text.body, "plain text");
  assert.equal(text.messageId, "props-1");
  assert.equal(text.correlationId, "corr-1");
  assert.equal(text.subject, "the-subject");
  assert.equal(text.contentType, "text/plain");
  assert.equal(text.to, "someone");
  assert.equal(text.replyTo, "q-reply");
  assert.equal(text.timeToLive, 60_000);
  assert.equal(text.expiresAtUtc.getTime(), text.enqueuedTimeUtc.getTime() + 60_000);
  assert.deepEqual(text.applicationProperties, applicationProperties);
  assert.ok(text.applicationProperties.when instanceof Date);
  assert.equal(text.applicationProperties.when.getTime(), when.getTime());

  assert.equal(json.messageId, "props-2");
  assert.equal(json.contentType, "application/json");
  assert.deepEqual(json.body, object);

  assert.equal(bytes.messageId, "props-3");
  assert.ok(Buffer.isBuffer(bytes.body), `Buffer body came back as ${typeof bytes.body}`);
  assert.ok(bytes.body.equals(binary), `body ${bytes.body.toString("hex")}`);

  for (const m of [text, json, bytes]) await receiver.completeMessage(m);
  await expectNothing(receiver);
});

test("topic send reaches the subscriptions whose filters match", T, async () => {
  const sender = ctx.sender("t-orders");
  await sender.sendMessages([
    { body: "o1", applicationProperties: { priority: "high", amount: 50 } },
    { body: "o2", applicationProperties: { priority: "low", amount: 500 } },
    { body: "o3", applicationProperties: { priority: "high", amount: 150 } },
  ]);

  const all = ctx.receiver("t-orders", "all");
  const allMessages = await receiveExactly(all, 3);
  assert.deepEqual(allMessages.map((m) => m.body), ["o1", "o2", "o3"]);
  assert.equal(allMessages[1].applicationProperties.priority, "low");
  assert.equal(allMessages[1].applicationProperties.amount, 500);
  for (const m of allMessages) await all.completeMessage(m);
  await expectNothing(all);

  const priority = ctx.receiver("t-orders", "priority", { receiveMode: "receiveAndDelete" });
  assert.deepEqual((await receiveExactly(priority, 2)).map((m) => m.body), ["o1", "o3"]);
  await expectNothing(priority);

  const big = ctx.receiver("t-orders", "big", { receiveMode: "receiveAndDelete" });
  assert.deepEqual((await receiveExactly(big, 2)).map((m) => m.body), ["o2", "o3"]);
  await expectNothing(big);
});

test("a peek-lock receiver with credit for 600 gets them in sequence order, each lock its own", T, async () => {
  // Credit of 600 makes the endpoint run several receive calls at once for the link; they take
  // messages in their order, so the deliveries keep sequence order.
  const sender = ctx.sender("q-pipeline");
  for (let start = 0; start < 600; start += 200)
    await sender.sendMessages(Array.from({ length: 200 }, (_, i) => ({ body: start + i })));
  const receiver = ctx.receiver("q-pipeline");
  const messages = await receiveExactly(receiver, 600, { timeoutMs: 20_000 });
  assert.deepEqual(messages.map((m) => m.body), Array.from({ length: 600 }, (_, i) => i));
  const seqs = messages.map(seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
  assert.equal(new Set(messages.map((m) => m.lockToken)).size, 600, "one lock per message");
  for (const m of messages) await receiver.completeMessage(m);
  await expectNothing(receiver);
});

test("subscribe() streams messages to the handler and completes them", T, async () => {
  const sender = ctx.sender("q-stream");
  await sender.sendMessages(Array.from({ length: 5 }, (_, i) => ({ body: `s-${i}` })));

  const receiver = ctx.receiver("q-stream");
  const bodies = [];
  const errors = [];
  let subscription;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(
      `subscribe() delivered ${bodies.length} of 5 messages in 10 s: ${bodies}; errors: ${errors}`)), 10_000);
    subscription = receiver.subscribe({
      async processMessage(message) {
        bodies.push(message.body);
        if (bodies.length === 5) {
          clearTimeout(timer);
          resolve();
        }
      },
      async processError(args) {
        errors.push(`${args.errorSource}: ${args.error.code ?? ""} ${args.error.message}`);
      },
    });
  });
  assert.deepEqual(bodies, ["s-0", "s-1", "s-2", "s-3", "s-4"]);

  // autoCompleteMessages (on by default) completes each message after its handler returned.
  let left = null;
  for (let i = 0; i < 20; i++) {
    await sleep(150);
    left = await peekAll(receiver);
    if (left.length === 0) break;
  }
  await subscription.close();
  assert.deepEqual(left.map((m) => m.body), [], "every streamed message was completed");
  assert.deepEqual(errors, []);
});
