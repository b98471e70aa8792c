// D1 through the wire: what the endpoint acknowledged survives a kill -9 of the server. Sends are
// pipelined from the SDK; the server is killed while another burst is still in flight; a server
// started again on the same database holds every message whose send had been acknowledged.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Long from "long";
import { ServiceBusClient } from "@azure/service-bus";
import { startServer } from "./serve.mjs";
import { clientOptions, bounded } from "./helpers.mjs";

const dir = mkdtempSync(join(tmpdir(), "hourglass-durability-"));
const db = join(dir, "kept.db");
after(() => rmSync(dir, { recursive: true, force: true }));

test("acknowledged sends survive kill -9 of hourglass serve", { timeout: 60_000 }, async () => {
  const first = await startServer({ extraArgs: ["--db", db] });
  const client = new ServiceBusClient(first.connectionString, clientOptions);
  const sender = client.createSender("q-basic");
  const acknowledged = new Set();
  const sendOne = (i) => sender.sendMessages({ body: `m${i}`, messageId: `d-${i}` })
    .then(() => acknowledged.add(`d-${i}`), () => {});
  // 200 acknowledged for certain, then 300 more in flight when the server dies.
  await Promise.all(Array.from({ length: 200 }, (_, i) => sendOne(i)));
  const inFlight = Array.from({ length: 300 }, (_, i) => sendOne(200 + i));
  await new Promise((resolve) => setTimeout(resolve, 15));
  await first.crash();
  await Promise.allSettled(inFlight);
  await bounded(client.close(), 3000);
  assert.ok(acknowledged.size >= 200, `${acknowledged.size} acknowledged`);
  console.log(`${acknowledged.size} of 500 sends acknowledged before the kill`);

  const second = await startServer({ extraArgs: ["--db", db] });
  const again = new ServiceBusClient(second.connectionString, clientOptions);
  try {
    const receiver = again.createReceiver("q-basic");
    const stored = new Set();
    let from = Long.ONE;
    for (;;) {
      const page = await receiver.peekMessages(250, { fromSequenceNumber: from });
      if (page.length === 0) break;
      for (const m of page) stored.add(m.messageId);
      from = page[page.length - 1].sequenceNumber.add(1);
    }
    const lost = [...acknowledged].filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `acknowledged but lost after kill -9: ${lost.length}`);
    // Nothing appears that was never sent.
    for (const id of stored) assert.match(id, /^d-\d+$/);
    await receiver.close();
  } finally {
    await bounded(again.close(), 3000);
    await second.stop();
  }
});
