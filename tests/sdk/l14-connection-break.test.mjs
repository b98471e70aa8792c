// L14 through the wire: when a connection ends, the locks its receivers held are released at
// once, not when they run out. A child process takes messages under a five-minute lock; the
// parent receives them again within seconds of the child's end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { useServer, receiveExactly } from "./helpers.mjs";

const ctx = useServer();
const holderScript = fileURLToPath(new URL("./l14-holder.mjs", import.meta.url));
const T = { timeout: 40_000 };

function startHolder(count) {
  const child = fork(holderScript, [ctx.server.connectionString, "q-l14", String(count)],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const held = new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message.held));
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}) early`)));
  });
  return { child, held };
}

async function sendThree(prefix) {
  await ctx.sender("q-l14").sendMessages(
    [1, 2, 3].map((i) => ({ body: `${prefix}-${i}`, messageId: `${prefix}-${i}` })));
}

test("a connection killed with its locks: the messages come back at once (L14)", T, async () => {
  await sendThree("killed");
  const { child, held } = startHolder(3);
  const taken = await held;
  assert.deepEqual(taken.map((m) => m.messageId), ["killed-1", "killed-2", "killed-3"]);
  // Locked for about five minutes.
  for (const m of taken) assert.ok(m.lockedUntil - Date.now() > 4 * 60_000);

  const killedAt = Date.now();
  child.kill("SIGKILL");
  const receiver = ctx.receiver("q-l14");
  const again = await receiveExactly(receiver, 3, { timeoutMs: 5000 });
  assert.ok(Date.now() - killedAt < 5000, "back long before the five-minute lock ran out");
  assert.deepEqual(again.map((m) => m.messageId), ["killed-1", "killed-2", "killed-3"]);
  for (const [i, m] of again.entries())
    assert.equal(m.deliveryCount, taken[i].deliveryCount + 1);
  for (const m of again) await receiver.completeMessage(m);
});

test("a client closed without settling: its locks go back with its connection", T, async () => {
  await sendThree("closed");
  const { child, held } = startHolder(3);
  await held;
  const closed = new Promise((resolve) => child.on("message", (m) => m.closed && resolve()));
  child.send("close");
  await closed;
  const receiver = ctx.receiver("q-l14");
  const again = await receiveExactly(receiver, 3, { timeoutMs: 5000 });
  assert.deepEqual(again.map((m) => m.messageId), ["closed-1", "closed-2", "closed-3"]);
  for (const m of again) await receiver.completeMessage(m);
  child.kill("SIGKILL");
});
