// The child of l14-connection-break.test.mjs: takes messages under peek-lock from a queue, tells
// its parent which ones and until when, and then holds them, settling nothing, until it is
// killed (or told to close its client). It exits by itself when its parent goes away, so a
// failed or killed test run never leaves it behind.
import { ServiceBusClient } from "@azure/service-bus";

const [connectionString, queue, count] = process.argv.slice(2);
process.on("disconnect", () => process.exit(0));
const client = new ServiceBusClient(connectionString);
const receiver = client.createReceiver(queue, { maxAutoLockRenewalDurationInMs: 0 });
const held = [];
const deadline = Date.now() + 10_000;
while (held.length < Number(count) && Date.now() < deadline)
  held.push(...await receiver.receiveMessages(Number(count) - held.length, { maxWaitTimeInMs: 1000 }));
process.send({
  held: held.map((m) => ({ messageId: m.messageId, deliveryCount: m.deliveryCount,
    lockedUntil: m.lockedUntilUtc.getTime() })),
});
process.on("message", async (what) => {
  if (what === "close") {
    await client.close();
    process.send({ closed: true });
  }
});
setInterval(() => {}, 1000); // hold on
