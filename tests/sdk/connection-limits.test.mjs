// Limits on connections (engine/amqp/README.md): 2,000 idle TCP connections that never
// authenticate do not keep an SDK client out. The server runs under an open-file limit of 1,024
// (soft and hard, as on many machines), so without its caps the idle sockets would take every
// descriptor and the client's connection would never be accepted. The sockets are held by
// child processes (idle-sockets-holder.mjs, 500 each), so this process's own open-file limit
// does not matter. The server's idle time-out and deadline to authenticate are left at their
// defaults (120 s, 20 s): the whole test runs well inside them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ServiceBusClient } from "@azure/service-bus";
import { startServer } from "./serve.mjs";
import { clientOptions, receiveExactly, bounded } from "./helpers.mjs";

const holderScript = fileURLToPath(new URL("./idle-sockets-holder.mjs", import.meta.url));
const SOCKETS = 2000;
const PER_HOLDER = 500;
const OPEN_FILE_LIMIT = 1024;

let server = null;
const holders = new Set();
function killHolders() {
  for (const holder of holders) {
    try {
      holder.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
  holders.clear();
}
process.on("exit", killHolders);

before(async () => {
  server = await startServer({ openFileLimit: OPEN_FILE_LIMIT });
});
after(async () => {
  killHolders();
  await server?.stop();
});

/** Starts a holder of `count` idle sockets; resolves { child, connected } once it has them. */
function startHolder(count) {
  const child = fork(holderScript, [String(server.port), String(count)],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  holders.add(child);
  return new Promise((resolve, reject) => {
    child.once("message", ({ connected }) => resolve({ child, connected }));
    child.once("exit", (code) => reject(new Error(`the holder exited early (code ${code})`)));
  });
}

function closedByServer(child) {
  return new Promise((resolve) => {
    child.once("message", ({ closedByServer: closed }) => resolve(closed));
    child.send("report");
  });
}

test("2,000 idle unauthenticated connections held: an SDK client connects, sends and receives",
  { timeout: 90_000 }, async (t) => {
    // Printed just after the connection string, which may have come in a chunk of its own.
    const stated = /Connections: at most (\d+), (\d+) of them without a token/;
    let limits = stated.exec(server.output().stdout);
    for (let i = 0; i < 50 && !limits; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      limits = stated.exec(server.output().stdout);
    }
    assert.ok(limits, `the server states its limits: ${server.output().stdout}`);
    const [overall, unauthenticated] = [Number(limits[1]), Number(limits[2])];
    t.diagnostic(`server limits under ${OPEN_FILE_LIMIT} open files: ${overall} connections, ` +
      `${unauthenticated} without a token`);
    assert.ok(overall < OPEN_FILE_LIMIT, "the overall limit fits under the open-file limit");

    const started = Date.now();
    const held = [];
    for (let i = 0; i < SOCKETS; i += PER_HOLDER) held.push(await startHolder(PER_HOLDER));
    const connected = held.reduce((sum, h) => sum + h.connected, 0);
    t.diagnostic(`${connected} of ${SOCKETS} idle connections made in ${Date.now() - started} ms`);
    assert.equal(connected, SOCKETS, "every idle connection was made");

    // While they are held (the holders keep their sockets; the server closed those it would not
    // keep), a client with a valid key gets in at once.
    const client = new ServiceBusClient(server.connectionString, clientOptions);
    try {
      const took = Date.now();
      const sender = client.createSender("q-raw-alive");
      await sender.sendMessages({ body: "through", messageId: "through-idle-sockets" });
      const receiver = client.createReceiver("q-raw-alive", { receiveMode: "receiveAndDelete" });
      const [message] = await receiveExactly(receiver, 1, { timeoutMs: 5000 });
      assert.equal(message.messageId, "through-idle-sockets");
      const elapsed = Date.now() - took;
      t.diagnostic(`connect, send and receive took ${elapsed} ms`);
      assert.ok(elapsed < 5000, `connect, send and receive took ${elapsed} ms`);
    } finally {
      await bounded(client.close(), 5000);
    }

    // The server kept no more unauthenticated connections than its cap: it closed the rest,
    // the oldest first (their holders saw them go).
    const countClosed = async () => {
      let sum = 0;
      for (const { child } of held) sum += await closedByServer(child);
      return sum;
    };
    let closed = await countClosed();
    for (let i = 0; i < 50 && closed < SOCKETS - unauthenticated; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      closed = await countClosed();
    }
    t.diagnostic(`the server closed ${closed} of the ${SOCKETS} idle connections`);
    assert.ok(closed >= SOCKETS - unauthenticated,
      `only ${closed} closed: more than ${unauthenticated} unauthenticated ones kept`);
    assert.deepEqual(server.exited(), null, "the server still runs");
  });
