// Claims-based security with tokens signed here (node:crypto, as the SDK signs them): a valid
// shared access signature works; an expired one, or one signed with another key, gets
// UnauthorizedAccess and stores nothing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import Long from "long";
import { ServiceBusClient } from "@azure/service-bus";
import { useServer, clientOptions, bounded } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };
const opened = [];
after(async () => {
  for (const client of opened) await bounded(client.close(), 2000);
});

function signature(audience, expiresAt, key) {
  const sr = encodeURIComponent(audience);
  const sig = createHmac("sha256", key).update(`${sr}\n${expiresAt}`).digest("base64");
  return `SharedAccessSignature sr=${sr}&sig=${encodeURIComponent(sig)}&se=${expiresAt}` +
    "&skn=RootManageSharedAccessKey";
}

function clientWith(sas) {
  // No retries: a refused token is final, and a retry would wrap it in an AggregateError.
  const client = new ServiceBusClient(
    `Endpoint=sb://localhost:${ctx.server.port};SharedAccessSignature=${sas};` +
    "UseDevelopmentEmulator=true;",
    { retryOptions: { ...clientOptions.retryOptions, maxRetries: 0 } });
  opened.push(client);
  return client;
}

async function stored() {
  return ctx.receiver("q-token").peekMessages(10, { fromSequenceNumber: Long.ONE });
}

test("a valid signature signed here is accepted", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(signature(audience, Math.floor(Date.now() / 1000) + 600,
    "SAS_KEY_VALUE"));
  await client.createSender("q-token").sendMessages({ body: "ok", messageId: "t-ok" });
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});

test("an expired signature: UnauthorizedAccess, nothing stored", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(signature(audience, Math.floor(Date.now() / 1000) - 60,
    "SAS_KEY_VALUE"));
  await assert.rejects(
    client.createSender("q-token").sendMessages({ body: "late", messageId: "t-expired" }),
    (err) => err.code === "UnauthorizedAccess");
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});

test("a signature made with another key: UnauthorizedAccess, nothing stored", T, async () => {
  const audience = `sb://localhost:${ctx.server.port}/`;
  const client = clientWith(signature(audience, Math.floor(Date.now() / 1000) + 600, "not-it"));
  await assert.rejects(
    client.createSender("q-token").sendMessages({ body: "forged", messageId: "t-forged" }),
    (err) => err.code === "UnauthorizedAccess");
  assert.deepEqual((await stored()).map((m) => m.messageId), ["t-ok"]);
});
