// The rule manager through the official SDK (createRuleManager): add, list and remove rules on a
// subscription with SQL and correlation filters and SQL actions, and what the rules then route.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer, receiveExactly, expectNothing } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

test("listRules shows the $Default rule of a subscription created without rules", T, async () => {
  const rules = ctx.client.createRuleManager("t-orders", "all");
  const listed = [];
  for await (const rule of rules.listRules()) listed.push(rule);
  assert.deepEqual(listed.map((r) => r.name), ["$Default"]);
  assert.equal(listed[0].filter.sqlExpression, "1=1");
});

test("rules added over the wire route messages; their actions apply; removal stops them", T,
  async () => {
    const rules = ctx.client.createRuleManager("t-orders", "all");
    await rules.deleteRule("$Default");
    await rules.createRule("eu-orders", { sqlExpression: "region = 'eu' AND amount >= 10" },
      { sqlExpression: "SET routed = 'sql'" });
    await rules.createRule("vip", {
      correlationId: "vip-1",
      subject: "order",
      applicationProperties: { tier: "gold", level: 3 },
    });

    const listed = [];
    for await (const rule of rules.listRules()) listed.push(rule);
    assert.deepEqual(listed.map((r) => r.name), ["eu-orders", "vip"]);
    assert.equal(listed[0].filter.sqlExpression, "region = 'eu' AND amount >= 10");
    assert.equal(listed[0].action.sqlExpression, "SET routed = 'sql'");
    assert.equal(listed[1].filter.correlationId, "vip-1");
    assert.equal(listed[1].filter.subject, "order");
    assert.deepEqual(listed[1].filter.applicationProperties, { tier: "gold", level: 3 });
    assert.equal(listed[1].action.sqlExpression, undefined);

    const sender = ctx.sender("t-orders");
    await sender.sendMessages([
      { body: "eu-big", messageId: "r-1", applicationProperties: { region: "eu", amount: 25 } },
      { body: "eu-small", messageId: "r-2", applicationProperties: { region: "eu", amount: 5 } },
      { body: "vip", messageId: "r-3", correlationId: "vip-1", subject: "order",
        applicationProperties: { tier: "gold", level: 3 } },
      { body: "vip-wrong-level", messageId: "r-4", correlationId: "vip-1", subject: "order",
        applicationProperties: { tier: "gold", level: 4 } },
    ]);
    const receiver = ctx.receiver("t-orders", "all", { receiveMode: "receiveAndDelete" });
    const got = await receiveExactly(receiver, 2);
    assert.deepEqual(got.map((m) => m.messageId), ["r-1", "r-3"]);
    assert.equal(got[0].applicationProperties.routed, "sql");
    assert.equal(got[1].applicationProperties.routed, undefined);
    await expectNothing(receiver, 500);

    await rules.deleteRule("eu-orders");
    await sender.sendMessages({ body: "eu-again", messageId: "r-5",
      applicationProperties: { region: "eu", amount: 50 } });
    await expectNothing(receiver, 800);
  });

test("rule errors: a duplicate name, an unknown rule, a bad SQL filter", T, async () => {
  const rules = ctx.client.createRuleManager("t-orders", "big");
  await assert.rejects(rules.createRule("amount-over-100", { sqlExpression: "1=1" }),
    (err) => err.code === "MessagingEntityAlreadyExists");
  await assert.rejects(rules.deleteRule("no-such-rule"),
    (err) => err.code === "MessagingEntityNotFound");
  await assert.rejects(rules.createRule("broken", { sqlExpression: "amount >" }),
    // The SDK has no code of its own for a bad argument: GeneralError, with the parser's words.
    (err) => err.code === "GeneralError" &&
      err.message.includes("error parsing the SQL expression") && err.message.includes("column=9"));
  const listed = [];
  for await (const rule of rules.listRules()) listed.push(rule.name);
  assert.deepEqual(listed, ["amount-over-100"]);
});
