// The administration API over plain HTTP (`serve --http-port`), driven by the official
// ServiceBusAdministrationClient of @azure/service-bus 7.10.0-beta.2 (installed under the alias
// `service-bus-beta`: it builds http://localhost:PORT/ from an emulator-style connection string,
// as Microsoft's emulator users keep one naming its HTTP port). Messages are sent over AMQP with
// the 7.9.5 client, and the runtime counts seen here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ServiceBusClient } from "@azure/service-bus";
import { ServiceBusAdministrationClient } from "service-bus-beta";
import { startServer } from "./serve.mjs";
import { clientOptions, bounded } from "./helpers.mjs";

const T = { timeout: 30_000 };
let server;
let admin;
let adminConnectionString;
let client;

before(async () => {
  server = await startServer({ extraArgs: ["--http-port", "0"] });
  const line = /^Administration connection string: (\S+)\s*$/m.exec(server.output().stdout);
  assert.ok(line, `no administration connection string in:\n${server.output().stdout}`);
  adminConnectionString = line[1];
  assert.match(adminConnectionString, /^Endpoint=sb:\/\/localhost:\d+;.*UseDevelopmentEmulator=true/);
  admin = new ServiceBusAdministrationClient(adminConnectionString);
  client = new ServiceBusClient(server.connectionString, clientOptions);
});

after(async () => {
  if (client) await bounded(client.close(), 5000);
  await server?.stop();
});

async function all(iterator) {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}

test("getNamespaceProperties names the default namespace", T, async () => {
  const properties = await admin.getNamespaceProperties();
  assert.equal(properties.name, "sbemulatorns");
  assert.equal(properties.messagingSku, "Standard");
  assert.ok(properties.createdAt instanceof Date);
});

test("queues: create, get, update, exists, list by pages, delete", T, async () => {
  const created = await admin.createQueue("adm-q1", {
    maxDeliveryCount: 7,
    lockDuration: "PT45S",
    requiresSession: false,
  });
  assert.equal(created.name, "adm-q1");
  assert.equal(created.maxDeliveryCount, 7);
  assert.equal(created.lockDuration, "PT45S");

  const read = await admin.getQueue("adm-q1");
  assert.equal(read.maxDeliveryCount, 7);
  read.maxDeliveryCount = 9;
  read.deadLetteringOnMessageExpiration = true;
  const updated = await admin.updateQueue(read);
  assert.equal(updated.maxDeliveryCount, 9);
  assert.equal(updated.deadLetteringOnMessageExpiration, true);
  assert.equal((await admin.getQueue("adm-q1")).maxDeliveryCount, 9);

  assert.equal(await admin.queueExists("adm-q1"), true);
  assert.equal(await admin.queueExists("adm-none"), false);

  for (const name of ["adm-q2", "adm-q3", "adm-q4", "adm-q5"]) await admin.createQueue(name);
  const pages = [];
  for await (const page of admin.listQueues().byPage({ maxPageSize: 2 })) pages.push(page);
  assert.ok(pages.length >= 3, `pages: ${pages.length}`);
  assert.ok(pages.every((page) => page.length <= 2));
  const names = pages.flat().map((q) => q.name);
  for (const name of ["adm-q1", "adm-q2", "adm-q3", "adm-q4", "adm-q5"])
    assert.ok(names.includes(name), `${name} in ${names}`);
  assert.equal(new Set(names).size, names.length, "no queue listed twice");
  const everyQueue = await all(admin.listQueues());
  assert.deepEqual(everyQueue.map((q) => q.name).sort(), [...names].sort());

  await admin.deleteQueue("adm-q5");
  assert.equal(await admin.queueExists("adm-q5"), false);
});

test("topics and subscriptions: create, get, update, list, delete", T, async () => {
  const topic = await admin.createTopic("adm-t", { maxSizeInMegabytes: 2048 });
  assert.equal(topic.name, "adm-t");
  const readTopic = await admin.getTopic("adm-t");
  readTopic.defaultMessageTimeToLive = "PT1H";
  assert.equal((await admin.updateTopic(readTopic)).defaultMessageTimeToLive, "PT1H");
  assert.equal(await admin.topicExists("adm-t"), true);
  assert.ok((await all(admin.listTopics())).some((t) => t.name === "adm-t"));

  const subscription = await admin.createSubscription("adm-t", "s1", { maxDeliveryCount: 4 });
  assert.equal(subscription.subscriptionName, "s1");
  assert.equal(subscription.topicName, "adm-t");
  assert.equal(subscription.maxDeliveryCount, 4);
  await admin.createSubscription("adm-t", "s2");
  const readSubscription = await admin.getSubscription("adm-t", "s1");
  readSubscription.maxDeliveryCount = 6;
  assert.equal((await admin.updateSubscription(readSubscription)).maxDeliveryCount, 6);
  assert.equal(await admin.subscriptionExists("adm-t", "s2"), true);
  const subscriptions = await all(admin.listSubscriptions("adm-t"));
  assert.deepEqual(subscriptions.map((s) => s.subscriptionName).sort(), ["s1", "s2"]);

  await admin.deleteSubscription("adm-t", "s2");
  assert.equal(await admin.subscriptionExists("adm-t", "s2"), false);
  const runtime = await admin.getTopicRuntimeProperties("adm-t");
  assert.equal(runtime.subscriptionCount, 1);
  await admin.deleteTopic("adm-t");
  assert.equal(await admin.topicExists("adm-t"), false);
});

test("rules: SQL filter with parameters, correlation filter with typed properties, SQL action",
  T, async () => {
    await admin.createTopic("adm-rules");
    await admin.createSubscription("adm-rules", "s");
    const sql = await admin.createRule("adm-rules", "s", "by-region",
      { sqlExpression: "region = @region AND amount > @min",
        sqlParameters: { "@region": "eu", "@min": 10 } },
      { sqlExpression: "SET routed = 'yes'" });
    assert.equal(sql.name, "by-region");
    assert.equal(sql.action.sqlExpression, "SET routed = 'yes'");
    assert.match(sql.filter.sqlExpression, /region = 'eu' AND amount > 10/);

    const correlation = await admin.createRule("adm-rules", "s", "vip", {
      correlationId: "vip-1",
      subject: "order",
      applicationProperties: { tier: "gold", level: 3, active: true },
    });
    assert.equal(correlation.filter.correlationId, "vip-1");
    assert.deepEqual(correlation.filter.applicationProperties,
      { tier: "gold", level: 3, active: true });

    const read = await admin.getRule("adm-rules", "s", "vip");
    read.filter.subject = "invoice";
    const updated = await admin.updateRule("adm-rules", "s", read);
    assert.equal(updated.filter.subject, "invoice");
    assert.equal(await admin.ruleExists("adm-rules", "s", "vip"), true);

    const rules = await all(admin.listRules("adm-rules", "s"));
    assert.deepEqual(rules.map((r) => r.name).sort(), ["$Default", "by-region", "vip"]);
    await admin.deleteRule("adm-rules", "s", "by-region");
    assert.equal(await admin.ruleExists("adm-rules", "s", "by-region"), false);
    await admin.deleteTopic("adm-rules");
  });

test("runtime properties count what was sent over AMQP", T, async () => {
  await admin.createQueue("adm-count");
  const sender = client.createSender("adm-count");
  try {
    await sender.sendMessages([{ body: "a" }, { body: "b" }, { body: "c" }]);
  } finally {
    await bounded(sender.close(), 2000);
  }
  const runtime = await admin.getQueueRuntimeProperties("adm-count");
  assert.equal(runtime.name, "adm-count");
  assert.equal(runtime.activeMessageCount, 3);
  assert.equal(runtime.totalMessageCount, 3);
  assert.equal(runtime.deadLetterMessageCount, 0);
  const listed = await all(admin.listQueuesRuntimeProperties());
  assert.equal(listed.find((q) => q.name === "adm-count")?.activeMessageCount, 3);
});

test("errors: already exists, missing, wrong key", T, async () => {
  await admin.createQueue("adm-twice");
  await assert.rejects(admin.createQueue("adm-twice"), (err) => {
    assert.equal(err.statusCode, 409);
    assert.equal(err.code, "MessageEntityAlreadyExistsError");
    return true;
  });
  await assert.rejects(admin.getQueue("adm-missing"), (err) => {
    assert.equal(err.statusCode, 404);
    assert.equal(err.code, "MessageEntityNotFoundError");
    return true;
  });
  const wrongKey = new ServiceBusAdministrationClient(
    adminConnectionString.replace(/SharedAccessKey=[^;]*/, "SharedAccessKey=wrong-key"));
  await assert.rejects(wrongKey.getNamespaceProperties(), (err) => {
    assert.equal(err.statusCode, 401);
    assert.equal(err.code, "UnauthorizedRequestError");
    return true;
  });
});
