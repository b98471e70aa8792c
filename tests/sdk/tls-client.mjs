// The JavaScript SDK against Hourglass's TLS port with one connection string, as an application
// written for Azure runs: AMQP over TLS, AMQP over WebSockets (the `ws` package) and the
// administration client over HTTPS. Run by tls.test.mjs in a process of its own, because Node
// reads NODE_EXTRA_CA_CERTS (the local certificate authority) only when it starts.
//
//   HOURGLASS_TLS_STRING=... NODE_EXTRA_CA_CERTS=ca-cert.pem node tls-client.mjs
//
// Prints one line "ok <step>" per step that passed; the first failure ends it with exit code 1.
import {
  ServiceBusAdministrationClient,
  ServiceBusClient,
} from "@azure/service-bus";
import assert from "node:assert/strict";
import WebSocket from "ws";

const connectionString = process.env.HOURGLASS_TLS_STRING;
assert.ok(connectionString, "HOURGLASS_TLS_STRING is not set");
assert.ok(!/UseDevelopmentEmulator/i.test(connectionString), "the string must not say emulator");

const suffix = Math.random().toString(36).slice(2, 8);

async function step(name, body) {
  await body();
  console.log(`ok ${name}`);
}

async function roundTrip(client, queue, body) {
  const sender = client.createSender(queue);
  await sender.sendMessages({ body, applicationProperties: { kind: "tls" } });
  await sender.close();
  const receiver = client.createReceiver(queue);
  const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 5000 });
  assert.ok(message, `no message came back from ${queue}`);
  assert.deepEqual(message.body, body);
  assert.equal(message.applicationProperties.kind, "tls");
  await receiver.completeMessage(message);
  await receiver.close();
}

const admin = new ServiceBusAdministrationClient(connectionString);
const client = new ServiceBusClient(connectionString);
const overWebSockets = new ServiceBusClient(connectionString, {
  webSocketOptions: { webSocket: WebSocket },
});

try {
  await step("administration over HTTPS: namespace properties", async () => {
    const properties = await admin.getNamespaceProperties();
    assert.equal(properties.name, "sbemulatorns");
  });

  const queue = `tls-q-${suffix}`;
  await step("administration over HTTPS: create, get, update, exists", async () => {
    const created = await admin.createQueue(queue, { maxDeliveryCount: 7 });
    assert.equal(created.name, queue);
    assert.equal(created.maxDeliveryCount, 7);
    const got = await admin.getQueue(queue);
    got.maxDeliveryCount = 9;
    const updated = await admin.updateQueue(got);
    assert.equal(updated.maxDeliveryCount, 9);
    assert.equal(await admin.queueExists(queue), true);
  });

  await step("administration over HTTPS: list with paging", async () => {
    for (let i = 0; i < 3; ++i) await admin.createQueue(`tls-page-${suffix}-${i}`);
    const names = [];
    for await (const page of admin.listQueues().byPage({ maxPageSize: 2 })) {
      assert.ok(page.length <= 2, `a page of ${page.length}`);
      names.push(...page.map((q) => q.name));
    }
    for (let i = 0; i < 3; ++i) assert.ok(names.includes(`tls-page-${suffix}-${i}`), names.join());
  });

  await step("administration over HTTPS: error codes", async () => {
    await assert.rejects(admin.getQueue(`tls-missing-${suffix}`), (err) => {
      assert.equal(err.statusCode, 404);
      assert.equal(err.code, "MessageEntityNotFoundError");
      return true;
    });
    await assert.rejects(admin.createQueue(queue), (err) => {
      assert.equal(err.statusCode, 409);
      assert.equal(err.code, "MessageEntityAlreadyExistsError");
      return true;
    });
    const wrongKey = connectionString.replace(/SharedAccessKey=[^;]+/, "SharedAccessKey=wrong");
    await assert.rejects(new ServiceBusAdministrationClient(wrongKey).getQueue(queue), (err) => {
      assert.equal(err.statusCode, 401);
      return true;
    });
  });

  await step("administration over HTTPS: topics, subscriptions and rules, every call", async () => {
    const topic = `tls-admin-topic-${suffix}`;
    await admin.createTopic(topic, { maxSizeInMegabytes: 1024 });
    assert.equal(await admin.topicExists(topic), true);
    const gotTopic = await admin.getTopic(topic);
    gotTopic.defaultMessageTimeToLive = "PT1H";
    assert.equal((await admin.updateTopic(gotTopic)).defaultMessageTimeToLive, "PT1H");
    const topicNames = [];
    for await (const t of admin.listTopics()) topicNames.push(t.name);
    assert.ok(topicNames.includes(topic), topicNames.join());
    await admin.createSubscription(topic, "sub", { maxDeliveryCount: 3 });
    assert.equal(await admin.subscriptionExists(topic, "sub"), true);
    const sub = await admin.getSubscription(topic, "sub");
    sub.maxDeliveryCount = 4;
    assert.equal((await admin.updateSubscription(sub)).maxDeliveryCount, 4);
    const subNames = [];
    for await (const s of admin.listSubscriptions(topic)) subNames.push(s.subscriptionName);
    assert.deepEqual(subNames, ["sub"]);
    await admin.createRule(topic, "sub", "by-label", {
      correlationId: "c-1",
      applicationProperties: { region: "eu", level: 3 },
    });
    assert.equal(await admin.ruleExists(topic, "sub", "by-label"), true);
    const rule = await admin.getRule(topic, "sub", "by-label");
    assert.equal(rule.filter.correlationId, "c-1");
    assert.equal(rule.filter.applicationProperties.level, 3);
    rule.filter = { sqlExpression: "level > @min", sqlParameters: { "@min": 2 } };
    await admin.updateRule(topic, "sub", rule);
    const ruleNames = [];
    for await (const r of admin.listRules(topic, "sub")) ruleNames.push(r.name);
    assert.deepEqual(ruleNames.sort(), ["$Default", "by-label"]);
    const topicRuntime = await admin.getTopicRuntimeProperties(topic);
    assert.equal(topicRuntime.subscriptionCount, 1);
    const subRuntime = await admin.getSubscriptionRuntimeProperties(topic, "sub");
    assert.equal(subRuntime.activeMessageCount, 0);
    let runtimes = 0;
    for await (const q of admin.listQueuesRuntimeProperties()) runtimes += q.name === queue ? 1 : 0;
    assert.equal(runtimes, 1);
    await admin.deleteRule(topic, "sub", "by-label");
    await admin.deleteSubscription(topic, "sub");
    await admin.deleteTopic(topic);
    assert.equal(await admin.topicExists(topic), false);
  });

  await step("AMQP over TLS: send, receive, complete", async () => {
    await roundTrip(client, queue, "over TLS");
  });

  await step("AMQP over TLS: runtime counts seen by the administration client", async () => {
    const sender = client.createSender(queue);
    await sender.sendMessages([{ body: 1 }, { body: 2 }]);
    await sender.close();
    const runtime = await admin.getQueueRuntimeProperties(queue);
    assert.equal(runtime.activeMessageCount, 2);
    const receiver = client.createReceiver(queue, { receiveMode: "receiveAndDelete" });
    let left = 2;
    while (left > 0) {
      const got = await receiver.receiveMessages(left, { maxWaitTimeInMs: 5000 });
      assert.ok(got.length > 0, "the counted messages did not come");
      left -= got.length;
    }
    await receiver.close();
  });

  await step("AMQP over TLS: sessions with state", async () => {
    const sessionQueue = `tls-sessions-${suffix}`;
    await admin.createQueue(sessionQueue, { requiresSession: true });
    const sender = client.createSender(sessionQueue);
    await sender.sendMessages([
      { body: "a1", sessionId: "a" },
      { body: "b1", sessionId: "b" },
    ]);
    await sender.close();
    const receiver = await client.acceptSession(sessionQueue, "b");
    const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 5000 });
    assert.equal(message?.body, "b1");
    await receiver.setSessionState("halfway");
    assert.equal(String(await receiver.getSessionState()), "halfway");
    await receiver.completeMessage(message);
    await receiver.close();
  });

  await step("AMQP over TLS: a topic with a SQL rule made over HTTPS", async () => {
    const topic = `tls-topic-${suffix}`;
    await admin.createTopic(topic);
    await admin.createSubscription(topic, "big");
    await admin.deleteRule(topic, "big", "$Default");
    await admin.createRule(topic, "big", "only-big", { sqlExpression: "size > 10" });
    const rule = await admin.getRule(topic, "big", "only-big");
    assert.equal(rule.filter.sqlExpression, "size > 10");
    const sender = client.createSender(topic);
    await sender.sendMessages([
      { body: "small", applicationProperties: { size: 1 } },
      { body: "large", applicationProperties: { size: 20 } },
    ]);
    await sender.close();
    const receiver = client.createReceiver(topic, "big", { receiveMode: "receiveAndDelete" });
    const got = await receiver.receiveMessages(2, { maxWaitTimeInMs: 3000 });
    assert.deepEqual(got.map((m) => m.body), ["large"]);
    await receiver.close();
  });

  await step("AMQP over WebSockets: send, receive, complete", async () => {
    await roundTrip(overWebSockets, queue, "over a WebSocket");
  });

  await step("administration over HTTPS: delete", async () => {
    await admin.deleteQueue(queue);
    assert.equal(await admin.queueExists(queue), false);
  });
} catch (err) {
  console.error(err?.stack ?? String(err));
  process.exitCode = 1;
} finally {
  await client.close();
  await overWebSockets.close();
}
