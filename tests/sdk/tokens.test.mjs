// Claims-based security with tokens signed here (node:crypto, as the SDK signs them): a valid
// shared access signature works; an expired one, or one signed with another key, gets
// UnauthorizedAccess and stores nothing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import Long from "long";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBusClient } from "@azure/service-bus";
import { startServer } from "./serve.mjs";
import {
  useServer, bounded, sasSignature, clientWithSignature, clientOptions, rejectsWithCode,
} from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };
const opened = [];
after(async () => {
  for (const client of opened) await bounded(client.close(), 2000);
});

function clientWith(sas) {
  const client = clientWithSignature(ctx.server.port, sas);
  opened.push(client);
  return client;
}

async function stored() {
  return ctx.receiver("q-token").peekMessages(10, { fromSequenceNumber: Long.ONE });
}

test("a valid signature signed here is accepted", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(sasSignature(audience, Math.floor(Date.now() / 1000) + 600,
    "SAS_KEY_VALUE"));
  await client.createSender("q-token").sendMessages({ body: "ok", messageId: "t-ok" });
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});

test("an expired signature: UnauthorizedAccess, nothing stored", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(sasSignature(audience, Math.floor(Date.now() / 1000) - 60,
    "SAS_KEY_VALUE"));
  await assert.rejects(
    client.createSender("q-token").sendMessages({ body: "late", messageId: "t-expired" }),
    (err) => err.code === "UnauthorizedAccess");
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});

test("a signature made with another key: UnauthorizedAccess, nothing stored", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(sasSignature(audience, Math.floor(Date.now() / 1000) + 600, "not-it"));
  await assert.rejects(
    client.createSender("q-token").sendMessages({ body: "forged", messageId: "t-forged" }),
    (err) => err.code === "UnauthorizedAccess");
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});

// A key of one's own: `serve --key` keeps it in the database; the well-known key is refused; the
// next serve on that database (without --key) signs with it again.
test("serve --key: clients sign with that key, kept in the database for the next start", T,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "hourglass-key-"));
    const db = join(dir, "keyed.db");
    try {
      const first = await startServer({ extraArgs: ["--db", db, "--key", "my-own-key"] });
      try {
        assert.match(first.connectionString, /SharedAccessKey=my-own-key;/);
        const owner = new ServiceBusClient(first.connectionString, clientOptions);
        opened.push(owner);
        await owner.createSender("q-token").sendMessages({ body: "k", messageId: "own-key-1" });
        const wellKnown = clientWithSignature(first.port, sasSignature(
          `sb://localhost:${first.port}/`, Math.floor(Date.now() / 1000) + 600, "SAS_KEY_VALUE"));
        opened.push(wellKnown);
        await rejectsWithCode(
          wellKnown.createSender("q-token").sendMessages({ body: "no", messageId: "own-key-2" }),
          "UnauthorizedAccess");
        await bounded(owner.close(), 2000);
      } finally {
        await first.stop();
      }
      const second = await startServer({ extraArgs: ["--db", db] });
      try {
        assert.match(second.connectionString, /SharedAccessKey=my-own-key;/);
        const again = new ServiceBusClient(second.connectionString, clientOptions);
        opened.push(again);
        const peeked = await again.createReceiver("q-token").peekMessages(10);
        assert.deepEqual(peeked.map((m) => m.messageId), ["own-key-1"]);
        await bounded(again.close(), 2000);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
