// The JS SDK's figure for run-amqp-bench.sh: 10,000 sends of 1 KiB with 100 in flight against
// `hourglass serve` on the port given, each one awaited until the broker accepted it. Copied
// next to tests/sdk's node_modules to run. Prints messages per second.
//   node sdk-sends.mjs PORT            plain AMQP (the emulator-style string)
//   node sdk-sends.mjs PORT tls        AMQP over TLS (NODE_EXTRA_CA_CERTS names the authority)
//   node sdk-sends.mjs PORT websocket  AMQP over WebSockets on the TLS port (the ws package)
import { ServiceBusClient } from "@azure/service-bus";
import WebSocket from "ws";

const [port, transport = "plain"] = process.argv.slice(2);
const key = "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;";
const client = transport === "plain"
  ? new ServiceBusClient(`Endpoint=sb://localhost:${port};${key}UseDevelopmentEmulator=true;`)
  : new ServiceBusClient(`Endpoint=sb://localhost:${port};${key}`,
    transport === "websocket" ? { webSocketOptions: { webSocket: WebSocket } } : {});
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
