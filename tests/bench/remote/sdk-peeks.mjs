// The JS SDK's side of remote_bench: `peekMessages` from the start of a queue on `hourglass serve`
// (the connection string serve printed: plain AMQP, emulator-style) until COUNT messages were
// read, as an application browsing a queue would: each call asks for what is still missing, the
// receiver going on from the last sequence number it saw (its own cursor). One peek first, on
// another receiver of the same client (the connection, its token and the queue's $management
// link, which the client's receivers share), not timed.
// Copied next to tests/sdk's node_modules to run. Prints the milliseconds of the timed peeks.
//   node sdk-peeks.mjs CONNECTION-STRING QUEUE COUNT
import { ServiceBusClient } from "@azure/service-bus";

const [connection, queue, countText] = process.argv.slice(2);
const count = Number(countText);
const client = new ServiceBusClient(connection);
const warmUp = client.createReceiver(queue);
await warmUp.peekMessages(1);
const receiver = client.createReceiver(queue);
const started = performance.now();
let read = 0;
while (read < count) {
  const page = await receiver.peekMessages(count - read);
  if (page.length === 0) break;
  read += page.length;
}
const ms = performance.now() - started;
if (read < count) throw new Error(`peeked ${read} messages, expected ${count}`);
console.log(ms.toFixed(1));
await receiver.close();
await warmUp.close();
await client.close();
