// Shared set-up for the SDK tests: one hourglass server and one ServiceBusClient per test file,
// plus small receive helpers with short waits so that a failing server fails fast.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { ServiceBusClient } from "@azure/service-bus";
import Long from "long";
import { createHmac } from "node:crypto";
import { startServer } from "./serve.mjs";

export const WAIT_MS = 2000;

/** Few, quick retries: a broken server should fail a test in seconds, not minutes. */
export const clientOptions = {
  retryOptions: { maxRetries: 1, retryDelayInMs: 200, timeoutInMs: 5_000 },
};

/**
 * Registers before/after hooks for the calling test file and returns an object whose `server`
 * and `client` are set once `before` ran. `after` closes the client and stops the server
 * (asserting that it exits 0).
 */
export function useServer() {
  const ctx = { server: null, client: null, toClose: [] };
  before(async () => {
    ctx.server = await startServer();
    ctx.client = new ServiceBusClient(ctx.server.connectionString, clientOptions);
    // A quick check that the SDK can connect at all (CBS and a sender attach, nothing sent):
    // when it cannot, every test of the file fails at once with this error instead of each
    // one waiting for its own time-outs.
    const probe = ctx.client.createSender("q-basic");
    let timer;
    try {
      await Promise.race([
        probe.createMessageBatch(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(
            "the SDK could not open a sender on q-basic within 15 s")), 15_000);
        }),
      ]);
    } catch (err) {
      const { stderr } = ctx.server.output();
      throw new Error(`cannot connect to hourglass serve (${ctx.server.connectionString}): ` +
        `${err.code ?? ""} ${err.message}\n  server stderr: ${stderr.slice(-2000) || "(empty)"}`,
      { cause: err });
    } finally {
      clearTimeout(timer);
      await bounded(probe.close(), 2000);
    }
  });
  after(async () => {
    // Bounded: closing a client whose connection never opened can wait for its time-outs.
    for (const closable of ctx.toClose.reverse()) await bounded(closable.close(), 2000);
    if (ctx.client) await bounded(ctx.client.close(), 5000);
    await ctx.server?.stop();
  });
  /** Creates a sender or receiver that `after` closes. */
  ctx.track = (closable) => {
    ctx.toClose.push(closable);
    return closable;
  };
  ctx.sender = (entity) => ctx.track(ctx.client.createSender(entity));
  ctx.receiver = (...args) => {
    const last = args[args.length - 1];
    const hasOptions = typeof last === "object" && last !== null;
    const options = { maxAutoLockRenewalDurationInMs: 0, ...(hasOptions ? last : {}) };
    const names = hasOptions ? args.slice(0, -1) : args;
    return ctx.track(ctx.client.createReceiver(...names, options));
  };
  return ctx;
}

/** Receives until exactly `count` messages arrived or `timeoutMs` passed; returns what came. */
export async function receiveUpTo(receiver, count, { timeoutMs = 10_000, waitMs = WAIT_MS } = {}) {
  const got = [];
  const deadline = Date.now() + timeoutMs;
  while (got.length < count && Date.now() < deadline) {
    const batch = await receiver.receiveMessages(Math.min(count - got.length, 100), {
      maxWaitTimeInMs: Math.min(waitMs, Math.max(100, deadline - Date.now())),
    });
    got.push(...batch);
  }
  return got;
}

/** Receives exactly `count` messages (fails with what arrived otherwise). */
export async function receiveExactly(receiver, count, options) {
  const got = await receiveUpTo(receiver, count, options);
  assert.equal(got.length, count,
    `expected ${count} messages, received ${got.length}: ${JSON.stringify(got.map((m) => m.body)).slice(0, 500)}`);
  return got;
}

/** Asserts that nothing is delivered within `waitMs`. */
export async function expectNothing(receiver, waitMs = 1000) {
  const got = await receiver.receiveMessages(1, { maxWaitTimeInMs: waitMs });
  assert.deepEqual(got.map((m) => m.body), [], "expected no message");
}

/** Waits for `promise` at most `ms`, ignoring its outcome (for clean-up). */
export async function bounded(promise, ms) {
  let timer;
  await Promise.race([
    Promise.resolve(promise).catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asserts that `promise` rejects with a ServiceBusError of the given code; returns the error. */
export async function rejectsWithCode(promise, code) {
  let error;
  await assert.rejects(promise, (err) => {
    error = err;
    return true;
  });
  assert.equal(error.code, code,
    `expected code ${code}, got ${error.code} (${error.name}: ${error.message})`);
  return error;
}

/**
 * Peeks from the start of the entity. A plain peekMessages() continues after the last message
 * peeked on that entity by any receiver of the same client (the SDK keeps one cursor per entity
 * and connection), so tests that want "everything now" must give fromSequenceNumber.
 */
export function peekAll(receiver, max = 100) {
  return receiver.peekMessages(max, { fromSequenceNumber: Long.ONE });
}

/** Sequence numbers are Long objects in the SDK; this makes them plain numbers. */
export const seq = (message) => Number(message.sequenceNumber.toString());

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A SharedAccessSignature for `audience`, signed with `key` as Azure does (HMAC-SHA256 over the
 * URL-encoded audience and the expiry in seconds). */
export function sasSignature(audience, expiresAt, key) {
  const sr = encodeURIComponent(audience);
  const sig = createHmac("sha256", key).update(`${sr}\n${expiresAt}`).digest("base64");
  return `SharedAccessSignature sr=${sr}&sig=${encodeURIComponent(sig)}&se=${expiresAt}` +
    "&skn=RootManageSharedAccessKey";
}

/** A client that presents `sas` instead of a key. The SDK's (namespace, credential) constructor
 * always speaks TLS, so the signature goes in an emulator connection string. No retries: a
 * refused token is final, and a retry would wrap it in an AggregateError. */
export function clientWithSignature(port, sas) {
  return new ServiceBusClient(
    `Endpoint=sb://localhost:${port};SharedAccessSignature=${sas};UseDevelopmentEmulator=true;`,
    { retryOptions: { ...clientOptions.retryOptions, maxRetries: 0 } });
}
