// One connection string without the emulator flag, against `hourglass serve --tls-port`: the
// JavaScript SDK over AMQP-TLS, over WebSockets and its administration client over HTTPS
// (tls-client.mjs does them, trusting the local certificate authority through
// NODE_EXTRA_CA_CERTS as the README tells users to). Without that trust the SDK refuses the
// certificate and nothing else happens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));

function runClient(env, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, "tls-client.mjs")], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

test("one TLS connection string: AMQP over TLS and WebSockets, administration over HTTPS", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hourglass-tls-"));
  const server = await startServer({ extraArgs: ["--tls-port", "0", "--tls-dir", dir] });
  try {
    assert.ok(server.tlsConnectionString, "serve printed no TLS connection string");
    assert.ok(server.caFile?.startsWith(dir), `the CA file: ${server.caFile}`);
    const run = await runClient({
      HOURGLASS_TLS_STRING: server.tlsConnectionString,
      NODE_EXTRA_CA_CERTS: server.caFile,
    }, 90_000);
    const passed = run.stdout.split("\n").filter((line) => line.startsWith("ok "));
    for (const line of passed) console.log(line);
    assert.equal(run.code, 0, `the client failed after ${passed.length} steps:\n${run.stderr}`);
    assert.equal(passed.length, 11, run.stdout);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a client that does not trust the authority fails its handshake, and nothing else", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hourglass-tls-"));
  const server = await startServer({ extraArgs: ["--tls-port", "0", "--tls-dir", dir] });
  try {
    const run = await runClient({
      HOURGLASS_TLS_STRING: server.tlsConnectionString,
      NODE_EXTRA_CA_CERTS: "",
    }, 60_000);
    assert.notEqual(run.code, 0, run.stdout);
    assert.match(run.stderr, /certificate|self[- ]signed|UNABLE_TO/i);
    assert.equal(run.stdout.includes("ok "), false, run.stdout);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
