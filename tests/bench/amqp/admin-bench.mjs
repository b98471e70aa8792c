// The administration API's figures for run-amqp-bench.sh, over HTTPS on Hourglass's TLS port
// (NODE_EXTRA_CA_CERTS names the authority):
//   1. the SDK's own paging: listQueuesRuntimeProperties() over every page, the time to list all
//      the queues with their runtime counts (the median of 5 runs, after one run to warm up);
//   2. 200 GETs of one queue at once over 200 kept-alive connections: each one's time, p50 and
//      p99 over 5 rounds, the first round (which makes the TLS handshakes) said apart.
// Prints one line per figure.
//   node admin-bench.mjs TLS-PORT QUEUE-COUNT
import { ServiceBusAdministrationClient } from "@azure/service-bus";
import { createHmac } from "node:crypto";
import https from "node:https";

const [port, expected] = process.argv.slice(2).map(Number);
const key = "SAS_KEY_VALUE";
const keyName = "RootManageSharedAccessKey";
const admin = new ServiceBusAdministrationClient(
  `Endpoint=sb://localhost:${port};SharedAccessKeyName=${keyName};SharedAccessKey=${key};`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

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

// A token as the SDK makes one: HMAC-SHA256 over the URL-encoded audience and the expiry.
function token(audience) {
  const expiry = Math.floor(Date.now() / 1000) + 3600;
  const encoded = encodeURIComponent(audience);
  const signature = createHmac("sha256", key).update(`${encoded}\n${expiry}`).digest("base64");
  return `SharedAccessSignature sr=${encoded}&sig=${encodeURIComponent(signature)}` +
    `&se=${expiry}&skn=${keyName}`;
}
const authorization = token(`https://localhost:${port}/`);
const agent = new https.Agent({ keepAlive: true, maxSockets: 200 });

function get(path) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = https.request({
      host: "localhost", port, path, agent, method: "GET",
      headers: { Authorization: authorization },
    }, (response) => {
      response.resume();
      response.on("end", () => {
        if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
    });
    request.on("error", reject);
    request.end();
  });
}

const path = "/bench?api-version=2021-05";
const round = () => Promise.all(Array.from({ length: 200 }, () => get(path)));
const first = await round();
const times = [];
for (let i = 0; i < 5; ++i) times.push(...(await round()));
console.log(`admin 200 concurrent GETs, kept alive: p50 ${percentile(times, 50).toFixed(1)} ms, ` +
  `p99 ${percentile(times, 99).toFixed(1)} ms; the first round with its 200 TLS handshakes: ` +
  `p50 ${percentile(first, 50).toFixed(1)} ms, p99 ${percentile(first, 99).toFixed(1)} ms`);
agent.destroy();
