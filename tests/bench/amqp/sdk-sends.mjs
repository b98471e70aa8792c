// The JS SDK's figure for run-amqp-bench.sh: 10,000 sends of 1 KiB with 100 in flight against
// `hourglass serve` on the port given, each one awaited until the broker accepted it. Copied
// next to tests/sdk's node_modules to run. Prints messages per second.
import { ServiceBusClient } from "@azure/service-bus";

const port = process.argv[2];
const client = new ServiceBusClient(`Endpoint=sb://localhost:${port};SharedAccessKeyName=` +
  "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;");
const sender = client.createSender("bench");
const body = "x".repeat(1024);
await sender.sendMessages({ body }); // links and token first
const total = 10000;
let next = 0;
const started = performance.now();
async function worker() {
  while (next < total) {
    next++;
    await sender.sendMessages({ body });
  }
}
await Promise.all(Array.from({ length: 100 }, worker));
console.log(Math.round(total / ((performance.now() - started) / 1000)));
await client.close();
