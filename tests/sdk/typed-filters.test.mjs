// Subscription filters see the types of application properties (R2, R3, R5), through the SDK.
// The SDK (rhea) encodes a positive whole JS number as an AMQP uint, a fraction as a double, and a
// string as a string. Entities (config.json): t-orders (priority: correlation "high"; big: SQL
// "amount > 100"), and t-typed with four subscriptions on the property `level`: uint-5
// (correlation, {"Type": "UInt32", "Value": 5}), string-5 (correlation "5"), sql-over-4 (SQL
// "level > 4") and sql-string (SQL "level = '5'").
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer, receiveUpTo, peekAll } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

/** Everything in a subscription (or its DLQ), taken with receive-and-delete, as [id, level]. */
async function drain(topic, subscription, { deadLetter = false, expected } = {}) {
  const receiver = ctx.receiver(topic, subscription, {
    receiveMode: "receiveAndDelete", ...(deadLetter ? { subQueueType: "deadLetter" } : {}),
  });
  const got = await receiveUpTo(receiver, expected, { timeoutMs: 3000, waitMs: 1000 });
  if (got.length === expected) got.push(...await receiver.receiveMessages(1, { maxWaitTimeInMs: 300 }));
  return got;
}

test("R2/R3: correlation and SQL filters compare application properties by type", T, async () => {
  await ctx.sender("t-typed").sendMessages([
    { messageId: "A-uint-5", body: "A", applicationProperties: { level: 5 } },
    { messageId: "B-string-5", body: "B", applicationProperties: { level: "5" } },
    { messageId: "C-double-5.5", body: "C", applicationProperties: { level: 5.5 } },
    { messageId: "D-uint-4", body: "D", applicationProperties: { level: 4 } },
    { messageId: "E-none", body: "E", applicationProperties: { other: 1 } },
  ]);

  // Correlation values compare exactly, type included (R2).
  const uint5 = await drain("t-typed", "uint-5", { expected: 1 });
  assert.deepEqual(uint5.map((m) => [m.messageId, m.applicationProperties.level]),
    [["A-uint-5", 5]]);
  const string5 = await drain("t-typed", "string-5", { expected: 1 });
  assert.deepEqual(string5.map((m) => [m.messageId, m.applicationProperties.level]),
    [["B-string-5", "5"]]);

  // SQL: numbers promote (uint 5 and double 5.5 are both > 4; 4 is not); a missing property makes
  // the comparison unknown, so no match (R3).
  const over4 = await drain("t-typed", "sql-over-4", { expected: 2 });
  assert.deepEqual(over4.map((m) => m.messageId), ["A-uint-5", "C-double-5.5"]);
  const str = await drain("t-typed", "sql-string", { expected: 1 });
  assert.deepEqual(str.map((m) => m.messageId), ["B-string-5"]);
});

test("R5: a string compared with a number is a filter error: FilterException in the DLQ", T,
  async () => {
    // The messages of the test above: their copies went to these dead-letter queues.
    const over4 = await drain("t-typed", "sql-over-4", { deadLetter: true, expected: 1 });
    assert.deepEqual(over4.map((m) => m.messageId), ["B-string-5"]);
    const str = await drain("t-typed", "sql-string", { deadLetter: true, expected: 3 });
    assert.deepEqual(str.map((m) => m.messageId), ["A-uint-5", "C-double-5.5", "D-uint-4"]);
    for (const m of [...over4, ...str]) {
      assert.equal(m.deadLetterReason, "FilterException", `${m.messageId}`);
      assert.equal(typeof m.deadLetterErrorDescription, "string");
      assert.ok(m.deadLetterErrorDescription.length > 0);
    }
    // The correlation subscriptions never fail: nothing dead-lettered there.
    assert.deepEqual(await peekAll(ctx.receiver("t-typed", "uint-5", { subQueueType: "deadLetter" })), []);
    assert.deepEqual(await peekAll(ctx.receiver("t-typed", "string-5", { subQueueType: "deadLetter" })), []);
  });

test("t-orders: types and cases of values: a string amount, a differently cased priority", T,
  async () => {
    await ctx.sender("t-orders").sendMessages([
      { messageId: "o-int", body: "1", applicationProperties: { priority: "high", amount: 150 } },
      { messageId: "o-case", body: "2", applicationProperties: { priority: "HIGH", amount: 101.5 } },
      { messageId: "o-string", body: "3", applicationProperties: { priority: "low", amount: "150" } },
    ]);
    const all = await drain("t-orders", "all", { expected: 3 });
    assert.deepEqual(all.map((m) => m.messageId), ["o-int", "o-case", "o-string"]);
    // The types come back as sent.
    assert.deepEqual(all.map((m) => typeof m.applicationProperties.amount),
      ["number", "number", "string"]);
    // Correlation: values compare exactly, case included (R2).
    const priority = await drain("t-orders", "priority", { expected: 1 });
    assert.deepEqual(priority.map((m) => m.messageId), ["o-int"]);
    // SQL: 150 and 101.5 > 100; "150" is a string: a filter error, dead-lettered (R5).
    const big = await drain("t-orders", "big", { expected: 2 });
    assert.deepEqual(big.map((m) => m.messageId), ["o-int", "o-case"]);
    const bigDead = await drain("t-orders", "big", { deadLetter: true, expected: 1 });
    assert.deepEqual(bigDead.map((m) => [m.messageId, m.deadLetterReason]),
      [["o-string", "FilterException"]]);
  });

test("t-orders: application property names match case-insensitively (R2, R3)", T, async () => {
  await ctx.sender("t-orders").sendMessages([
    { messageId: "n-sql", body: "5", applicationProperties: { AMOUNT: 500 } },
    { messageId: "n-corr", body: "6", applicationProperties: { Priority: "high" } },
  ]);
  assert.deepEqual((await drain("t-orders", "all", { expected: 2 })).map((m) => m.messageId),
    ["n-sql", "n-corr"]);
  // SQL: `amount` finds `AMOUNT` (R3: property names case-insensitive).
  const big = await drain("t-orders", "big", { expected: 1 });
  // Correlation: `priority` finds `Priority` (R2: "application property names match
  // case-insensitively").
  const priority = await drain("t-orders", "priority", { expected: 1 });
  assert.deepEqual({ big: big.map((m) => m.messageId), priority: priority.map((m) => m.messageId) },
    { big: ["n-sql"], priority: ["n-corr"] });
});
