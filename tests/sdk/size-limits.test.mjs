// Messages past the link's max-message-size (256 KiB), at any size: the SDK gets
// MessageSizeExceeded on that send within a second, and the same sender goes on. The endpoint
// rejects the delivery once its last frame is in (it used to detach the link past 320 KiB, and
// the SDK then waited for an answer until its time-out).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer, receiveExactly, rejectsWithCode } from "./helpers.mjs";

const ctx = useServer();
const T = { timeout: 30_000 };

for (const [label, bytes] of [["400 KB", 400 * 1024], ["2 MB", 2 * 1024 * 1024]]) {
  test(`a ${label} message: MessageSizeExceeded within a second, then the sender goes on`, T,
    async () => {
      const sender = ctx.sender("q-size");
      // The link is open before the clock starts: the time is the refusal's, not the attach's.
      await sender.sendMessages({ body: "warm-up", messageId: `warm-${bytes}` });
      const started = Date.now();
      await rejectsWithCode(
        sender.sendMessages({ body: Buffer.alloc(bytes, 0x61), messageId: `big-${bytes}` }),
        "MessageSizeExceeded");
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 1000, `refused after ${elapsed} ms`);
      await sender.sendMessages({ body: "after", messageId: `after-${bytes}` });
      const receiver = ctx.receiver("q-size", { receiveMode: "receiveAndDelete" });
      const messages = await receiveExactly(receiver, 2);
      assert.deepEqual(messages.map((m) => m.messageId), [`warm-${bytes}`, `after-${bytes}`]);
    });
}
