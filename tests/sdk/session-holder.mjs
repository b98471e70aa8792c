// The child of sessions.test.mjs's L14 case: accepts a named session, tells its parent, then
// holds it, settling nothing, until it is killed. It exits by itself when its parent goes away,
// so a failed or killed test run never leaves it behind.
import { ServiceBusClient } from "@azure/service-bus";

const [connectionString, queue, sessionId] = process.argv.slice(2);
process.on("disconnect", () => process.exit(0));
const client = new ServiceBusClient(connectionString);
const receiver = await client.acceptSession(queue, sessionId, { maxAutoLockRenewalDurationInMs: 0 });
const held = await receiver.receiveMessages(1, { maxWaitTimeInMs: 2000 });
process.send({
  sessionId: receiver.sessionId,
  held: held.map((m) => m.messageId),
});
setInterval(() => {}, 1000); // hold on
