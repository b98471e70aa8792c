// The errors the SDK must report with the right ServiceBusError code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ServiceBusClient } from "@azure/service-bus";
import {
  useServer, receiveExactly, rejectsWithCode, sleep, clientOptions,
} from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

test("sending to an unknown queue: MessagingEntityNotFound", T, async () => {
  const sender = ctx.sender("no-such-queue");
  const error = await rejectsWithCode(sender.sendMessages({ body: "x" }), "MessagingEntityNotFound");
  assert.match(error.message, /no-such-queue/);
});

test("receiving from an unknown queue: MessagingEntityNotFound", T, async () => {
  const receiver = ctx.receiver("no-such-queue");
  await rejectsWithCode(receiver.receiveMessages(1, { maxWaitTimeInMs: 2000 }),
    "MessagingEntityNotFound");
});

test("the sender link advertises the queue's 256 KiB maximum message size", T, async () => {
  const batch = await ctx.sender("q-size").createMessageBatch();
  assert.equal(batch.maxSizeInBytes, 256 * 1024);
});

test("a message over the maximum size: MessageSizeExceeded from the broker", T, async () => {
  const sender = ctx.sender("q-size");
  const big = { body: Buffer.alloc(300 * 1024, 0x61), messageId: "too-big" };
  await rejectsWithCode(sender.sendMessages(big), "MessageSizeExceeded");
  // The link survives a refused transfer.
  await sender.sendMessages({ body: "small", messageId: "small-after-big" });
  const receiver = ctx.receiver("q-size", { receiveMode: "receiveAndDelete" });
  const [message] = await receiveExactly(receiver, 1);
  assert.equal(message.messageId, "small-after-big");
});

test("a message over the maximum size in an array: MessageSizeExceeded", T, async () => {
  const sender = ctx.sender("q-size");
  await rejectsWithCode(
    sender.sendMessages([{ body: Buffer.alloc(300 * 1024, 0x62) }]), "MessageSizeExceeded");
});

test("a wrong SharedAccessKey: UnauthorizedAccess", T, async () => {
  const wrong = ctx.server.connectionString.replace(/SharedAccessKey=[^;]*/, "SharedAccessKey=not-the-key");
  assert.notEqual(wrong, ctx.server.connectionString);
  const client = new ServiceBusClient(wrong, {
    retryOptions: { ...clientOptions.retryOptions, maxRetries: 0 },
  });
  try {
    const sender = client.createSender("q-basic");
    await rejectsWithCode(sender.sendMessages({ body: "x" }), "UnauthorizedAccess");
    const receiver = client.createReceiver("q-basic");
    await rejectsWithCode(receiver.receiveMessages(1, { maxWaitTimeInMs: 2000 }), "UnauthorizedAccess");
  } finally {
    await client.close();
  }
});

test("settling or renewing after the lock expired: MessageLockLost", T, async () => {
  // q-lock: LockDuration PT5S; automatic lock renewal is off in these tests.
  await ctx.sender("q-lock").sendMessages({ body: "slow", messageId: "lock-1" });
  const receiver = ctx.receiver("q-lock");
  const [message] = await receiveExactly(receiver, 1);
  assert.ok(message.lockedUntilUtc.getTime() - Date.now() <= 5500,
    `locked until ${message.lockedUntilUtc.toISOString()} (LockDuration PT5S)`);
  await sleep(Math.max(0, message.lockedUntilUtc.getTime() - Date.now()) + 1000);

  await rejectsWithCode(receiver.renewMessageLock(message), "MessageLockLost");
  await rejectsWithCode(receiver.completeMessage(message), "MessageLockLost");

  const [again] = await receiveExactly(receiver, 1);
  assert.equal(again.messageId, "lock-1");
  assert.equal(again.deliveryCount, 1, "an expired lock counts as a delivery");
  await receiver.completeMessage(again);
  await rejectsWithCode(receiver.renewMessageLock(again), "MessageLockLost");
});
