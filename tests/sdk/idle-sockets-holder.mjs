// The child of connection-limits.test.mjs: opens COUNT plain TCP connections to the endpoint and
// says nothing on them (no AMQP header, no SASL), then holds them. It tells its parent how many
// connected, and on request how many the server has closed since. One process holds at most a
// few hundred, so the parent's own open-file limit never matters. It exits by itself when its
// parent goes away.
import { connect } from "node:net";

const [port, count] = process.argv.slice(2).map(Number);
process.on("disconnect", () => process.exit(0));
let closedByServer = 0;

function open() {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 10_000);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.once("close", () => closedByServer++);
      resolve(true);
    });
    socket.on("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

const results = [];
for (let i = 0; i < count; i += 50)
  results.push(...await Promise.all(Array.from({ length: Math.min(50, count - i) }, open)));
process.send({ connected: results.filter(Boolean).length });
process.on("message", (what) => {
  if (what === "report") process.send({ closedByServer });
});
setInterval(() => {}, 1000); // hold on
