// The administration client's listing for run-amqp-bench.sh, over HTTPS on Hourglass's TLS port
// (NODE_EXTRA_CA_CERTS names the authority): the SDK's own paging, listQueuesRuntimeProperties()
// over every page, the time to list all the queues with their runtime counts (the median of 5
// runs, after one run to warm up). Concurrent GETs are admin_load's (a client of ours in C: Node's
// own cost per HTTPS request was larger than the server's). Prints one line.
//   node admin-bench.mjs TLS-PORT QUEUE-COUNT
import { ServiceBusAdministrationClient } from "@azure/service-bus";

const [port, expected] = process.argv.slice(2).map(Number);
const key = "SAS_KEY_VALUE";
const keyName = "RootManageSharedAccessKey";
const admin = new ServiceBusAdministrationClient(
  `Endpoint=sb://localhost:${port};SharedAccessKeyName=${keyName};SharedAccessKey=${key};`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function listAll() {
  const started = performance.now();
  let count = 0;
  for await (const page of admin.listQueuesRuntimeProperties().byPage()) count += page.length;
  const ms = performance.now() - started;
  if (count < expected) throw new Error(`listed ${count} queues, expected at least ${expected}`);
  return ms;
}

await listAll(); // warm-up: the pipeline's connection and its handshake
const listRuns = [];
for (let i = 0; i < 5; ++i) listRuns.push(await listAll());
console.log(`admin list ${expected} queues with runtime counts (SDK paging): ` +
  `median ${median(listRuns).toFixed(0)} ms (runs ${listRuns.map((ms) => ms.toFixed(0)).join(", ")})`);
