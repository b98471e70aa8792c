// Messages round-trip exactly: what an application sends through the SDK is what it
// reads back, also where Service Bus has no property of its own for it: an amqp-value or
// amqp-sequence body, the header's priority, the sender's message annotations, content-encoding
// and group-sequence, a message id that is a number, application properties of every type.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer, receiveExactly } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

async function sendAndTakeBack(message, receiverOptions = {}) {
  await ctx.sender("q-exact").sendMessages(message);
  const [back] = await receiveExactly(
    ctx.receiver("q-exact", { receiveMode: "receiveAndDelete", ...receiverOptions }), 1);
  return back;
}

test("an annotated message with a value body: header, annotations and properties as sent", T,
  async () => {
    const sent = {
      bodyType: "value",
      body: { order: 7, lines: ["a", "b"], paid: true },
      header: { priority: 7 },
      messageAnnotations: { "x-opt-partition-key": "customer-7", "x-app-trace": "trace-1" },
      properties: { messageId: "exact-value", contentEncoding: "identity", groupSequence: 3 },
      applicationProperties: { int: 5, double: 2.5, bool: true, string: "s", nothing: null },
    };
    const back = await sendAndTakeBack(sent);
    const raw = back._rawAmqpMessage;
    assert.equal(raw.bodyType, "value");
    assert.deepEqual(back.body, sent.body);
    assert.equal(raw.header.priority, 7);
    assert.equal(raw.messageAnnotations["x-opt-partition-key"], "customer-7");
    assert.equal(raw.messageAnnotations["x-app-trace"], "trace-1");
    assert.equal(back.partitionKey, "customer-7");
    assert.equal(back.messageId, "exact-value");
    assert.equal(raw.properties.contentEncoding, "identity");
    assert.equal(raw.properties.groupSequence, 3);
    assert.deepEqual(back.applicationProperties, sent.applicationProperties);
    // The broker's own annotations are there too, beside the sender's.
    assert.ok(back.sequenceNumber.toNumber() >= 1);
    assert.ok(back.enqueuedTimeUtc instanceof Date);
  });

test("a sequence body comes back a sequence", T, async () => {
  const back = await sendAndTakeBack({ bodyType: "sequence", body: [[1, "two", false]] });
  assert.equal(back._rawAmqpMessage.bodyType, "sequence");
  assert.deepEqual(back.body, [[1, "two", false]]);
});

test("a value body that is a string or a number", T, async () => {
  const text = await sendAndTakeBack({ bodyType: "value", body: "just text" });
  assert.equal(text._rawAmqpMessage.bodyType, "value");
  assert.equal(text.body, "just text");
  const number = await sendAndTakeBack({ bodyType: "value", body: 42.5 });
  assert.equal(number.body, 42.5);
});

test("a data body byte for byte, a numeric message id, typed application properties", T,
  async () => {
    const bytes = Buffer.from([0, 1, 2, 253, 254, 255]);
    const when = new Date(Date.UTC(2026, 0, 31, 12, 0, 0));
    const back = await sendAndTakeBack({
      body: bytes, messageId: 12345, correlationId: "c-1", contentType: "application/octet-stream",
      applicationProperties: { when, big: 5_000_000_000, negative: -7, bytes: Buffer.from("hi") },
    // By default the SDK turns timestamps into numbers, and on the way binaries into plain
    // objects: read them as they are on the wire.
    }, { skipConvertingDate: true });
    assert.equal(back._rawAmqpMessage.bodyType, "data");
    assert.ok(Buffer.isBuffer(back.body));
    assert.deepEqual([...back.body], [...bytes]);
    assert.equal(back.messageId, 12345);
    assert.equal(back.correlationId, "c-1");
    assert.equal(back.contentType, "application/octet-stream");
    assert.ok(back.applicationProperties.when instanceof Date);
    assert.equal(back.applicationProperties.when.getTime(), when.getTime());
    assert.equal(back.applicationProperties.big, 5_000_000_000);
    assert.equal(back.applicationProperties.negative, -7);
    assert.ok(Buffer.isBuffer(back.applicationProperties.bytes));
    assert.deepEqual([...back.applicationProperties.bytes], [...Buffer.from("hi")]);
  });

test("a plain message keeps the header the broker writes (durable, priority 4)", T, async () => {
  const back = await sendAndTakeBack({ body: "plain", messageId: "plain-1" });
  assert.equal(back.body, "plain");
  assert.equal(back._rawAmqpMessage.header.priority ?? 4, 4);
  assert.equal(back._rawAmqpMessage.header.durable, true);
});
