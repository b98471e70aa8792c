// Every namespace of the database reachable on the endpoint, each with its own connection
// string: the key a token is signed with tells the namespace, so a queue named alike in two
// namespaces is two queues, and a send through one string lands only in that namespace. A key
// that belongs to no namespace and a token for a foreign host are refused.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBusClient } from "@azure/service-bus";
import { startServer } from "./serve.mjs";
import { bounded, clientOptions, peekAll, receiveExactly, sleep } from "./helpers.mjs";
import { connect, closeConnection, openSender, putToken, sasToken } from "./rhea-raw.mjs";

const T = { timeout: 60_000 };
const dir = mkdtempSync(join(tmpdir(), "hourglass-ns-"));
const configFile = join(dir, "two-namespaces.json");
// Both namespaces have a queue "orders"; an empty database takes them in this order, so
// "ns-one" is the default namespace (the well-known key) and "ns-two" gets a key of its own.
writeFileSync(configFile, JSON.stringify({
  UserConfig: {
    Namespaces: [
      { Name: "ns-one", Queues: [{ Name: "orders" }] },
      { Name: "ns-two", Queues: [{ Name: "orders" }, { Name: "only-two" }] },
    ],
  },
}));

let server;
const clients = [];
const rawConnections = [];

function client(connectionString) {
  const made = new ServiceBusClient(connectionString, clientOptions);
  clients.push(made);
  return made;
}

/** The connection string serve printed for `name` (it follows the default's line). */
async function connectionStringOf(name) {
  const pattern = new RegExp(`^Connection string of namespace ${name}: (\\S+)\\s*$`, "m");
  for (let i = 0; i < 50; ++i) {
    const found = pattern.exec(server.output().stdout);
    if (found) return found[1];
    await sleep(100);
  }
  assert.fail(`serve printed no connection string for ${name}:\n${server.output().stdout}`);
}

const keyOf = (connectionString) => /SharedAccessKey=([^;]+);/.exec(connectionString)[1];

before(async () => {
  server = await startServer({ config: configFile });
});

after(async () => {
  for (const connection of rawConnections) await closeConnection(connection);
  for (const made of clients) await bounded(made.close(), 2000);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("serve on an empty database creates only the config's namespaces", T, async () => {
  const { stdout } = server.output();
  assert.match(stdout, /^Created namespace ns-one$/m);
  assert.match(stdout, /^Created namespace ns-two$/m);
  assert.doesNotMatch(stdout, /sbemulatorns/);
  assert.match(stdout, /^Default namespace: ns-one$/m);
});

test("each namespace is reached by its own connection string", T, async () => {
  const one = client(server.connectionString);
  const twoString = await connectionStringOf("ns-two");
  assert.notEqual(keyOf(twoString), "SAS_KEY_VALUE");
  assert.notEqual(twoString, server.connectionString);
  const two = client(twoString);

  await two.createSender("orders").sendMessages({ body: "for two", messageId: "m-two" });
  await one.createSender("orders").sendMessages({ body: "for one", messageId: "m-one" });

  // A send through one string lands only in that namespace's "orders".
  const inOne = await peekAll(one.createReceiver("orders"));
  const inTwo = await peekAll(two.createReceiver("orders"));
  assert.deepEqual(inOne.map((m) => m.messageId), ["m-one"]);
  assert.deepEqual(inTwo.map((m) => m.messageId), ["m-two"]);

  // Receiving and settling work in the second namespace too (locks named in it).
  const receiver = two.createReceiver("orders");
  const [got] = await receiveExactly(receiver, 1, { timeoutMs: 5000 });
  assert.equal(got.messageId, "m-two");
  await receiver.completeMessage(got);
  assert.deepEqual((await peekAll(two.createReceiver("orders"))).length, 0);
  assert.deepEqual((await peekAll(one.createReceiver("orders"))).map((m) => m.messageId),
    ["m-one"]);

  // An entity only the second namespace has: found there, not through the first.
  await two.createSender("only-two").sendMessages({ body: "x", messageId: "m-only" });
  await assert.rejects(one.createSender("only-two").sendMessages({ body: "y" }),
    (err) => err.code === "MessagingEntityNotFound");
});

test("a key that belongs to no namespace is refused", T, async () => {
  const stranger = new ServiceBusClient(server.connectionString.replace(
    /SharedAccessKey=[^;]+;/, "SharedAccessKey=belongs-to-nobody;"),
  { retryOptions: { ...clientOptions.retryOptions, maxRetries: 0 } });
  clients.push(stranger);
  await assert.rejects(stranger.createSender("orders").sendMessages({ body: "no" }),
    (err) => err.code === "UnauthorizedAccess");
});

test("a token for a foreign host is refused, a loopback one accepted", T, async () => {
  const { connection } = await (async () => {
    const opened = connect(server.port, { idPrefix: "ns-host" });
    rawConnections.push(opened.connection);
    return opened.opened;
  })();
  const foreign = "sb://evil.example.com/orders";
  const refused = await putToken(connection, foreign, sasToken(foreign));
  assert.equal(refused["status-code"], 401);
  assert.match(refused["status-description"], /evil\.example\.com/);
  assert.match(refused["status-description"], /does not serve/);

  const loopback = `sb://127.0.0.2:${server.port}/orders`;
  const accepted = await putToken(connection, loopback, sasToken(loopback));
  assert.equal(accepted["status-code"], 200);
});

test("an address covered by tokens of two namespaces is refused, not guessed", T, async () => {
  const twoKey = keyOf(await connectionStringOf("ns-two"));
  const audience = `sb://localhost:${server.port}/orders`;
  const open = async () => {
    const opened = connect(server.port, { idPrefix: "ns-ambiguous" });
    rawConnections.push(opened.connection);
    return (await opened.opened).connection;
  };

  // One namespace's token: the link is placed there.
  const single = await open();
  assert.equal((await putToken(single, audience, sasToken(audience, { key: twoKey })))[
    "status-code"], 200);
  await openSender(single, { target: { address: "orders" } });

  // Both namespaces' tokens for the same path: which "orders" is meant cannot be told.
  const both = await open();
  assert.equal((await putToken(both, audience, sasToken(audience)))["status-code"], 200);
  assert.equal((await putToken(both, audience, sasToken(audience, { key: twoKey })))[
    "status-code"], 200);
  await assert.rejects(openSender(both, { target: { address: "orders" } }),
    /unauthorized-access/);
});
