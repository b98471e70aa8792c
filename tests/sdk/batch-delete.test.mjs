// The batch delete (`com.microsoft:batch-delete-messages` on the entity's $management link),
// driven by the receivers' deleteMessages and purgeMessages of @azure/service-bus
// 7.10.0-beta.2 (the npm alias `service-bus-beta`; 7.9.5 has neither): up to a count, oldest
// first, only messages enqueued before the cutoff; the dead-letter queue on its own; the
// service's bound on the count.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ServiceBusClient } from "service-bus-beta";
import { startServer } from "./serve.mjs";
import { bounded, clientOptions, peekAll, receiveExactly, sleep } from "./helpers.mjs";

const T = { timeout: 30_000 };
let server;
let client;
const toClose = [];

before(async () => {
  server = await startServer();
  client = new ServiceBusClient(server.connectionString, clientOptions);
});

after(async () => {
  for (const closable of toClose.reverse()) await bounded(closable.close(), 2000);
  if (client) await bounded(client.close(), 5000);
  await server?.stop();
});

const track = (closable) => {
  toClose.push(closable);
  return closable;
};

// The count deleteMessages answers: a number in 7.10.0-beta.2, { deletedCount } later on.
const countOf = (result) => (typeof result === "number" ? result : result?.deletedCount);

test("deleteMessages deletes up to its count, oldest first, enqueued before the cutoff", T,
  async () => {
    const sender = track(client.createSender("q-batch"));
    await sender.sendMessages(
      Array.from({ length: 5 }, (_, i) => ({ body: `d-${i}`, messageId: `del-${i}` })));
    const cutoff = new Date(Date.now() + 1);
    await sleep(20);
    await sender.sendMessages({ body: "late", messageId: "del-late" });
    const receiver = track(client.createReceiver("q-batch"));

    const first = await receiver.deleteMessages({ maxMessageCount: 3, beforeEnqueueTime: cutoff });
    assert.equal(countOf(first), 3);
    assert.deepEqual((await peekAll(receiver)).map((m) => m.messageId),
      ["del-3", "del-4", "del-late"]);

    // purgeMessages asks again until fewer than its batch come back: the two left before the
    // cutoff go, the late one stays.
    const purged = await receiver.purgeMessages({ beforeEnqueueTime: cutoff });
    assert.equal(countOf(purged), 2);
    assert.deepEqual((await peekAll(receiver)).map((m) => m.messageId), ["del-late"]);

    // Without a cutoff the SDK sends now: everything goes.
    assert.equal(countOf(await receiver.purgeMessages()), 1);
    assert.deepEqual(await peekAll(receiver), []);
  });

test("the dead-letter queue is purged on its own", T, async () => {
  const sender = track(client.createSender("q-dlq"));
  await sender.sendMessages([
    { body: "bad-1", messageId: "dlq-1" },
    { body: "bad-2", messageId: "dlq-2" },
    { body: "fine", messageId: "dlq-3" },
  ]);
  const receiver = track(client.createReceiver("q-dlq"));
  const received = await receiveExactly(receiver, 2);
  for (const message of received)
    await receiver.deadLetterMessage(message, { deadLetterReason: "Bad" });

  const deadLetters = track(client.createReceiver("q-dlq", { subQueueType: "deadLetter" }));
  assert.equal(countOf(await deadLetters.purgeMessages()), 2);
  assert.deepEqual(await peekAll(deadLetters), []);
  assert.deepEqual((await peekAll(receiver)).map((m) => m.messageId), ["dlq-3"]);
});

test("a count past the service's 4000 is refused and deletes nothing", T, async () => {
  const sender = track(client.createSender("q-basic"));
  await sender.sendMessages({ body: "kept", messageId: "kept-1" });
  const receiver = track(client.createReceiver("q-basic"));
  await assert.rejects(receiver.deleteMessages({ maxMessageCount: 4001 }), /1 to 4000/);
  assert.deepEqual((await peekAll(receiver)).map((m) => m.messageId), ["kept-1"]);
});
