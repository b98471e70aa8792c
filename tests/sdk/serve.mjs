// Starts `hourglass serve` for one test file and stops it again.
//
//   const server = await startServer();   // { connectionString, port, stop() }
//   startServer({ extraArgs: ["--tls-port", "0", "--tls-dir", dir] })
//                                         // also { tlsConnectionString, tlsPort, caFile }
//   startServer({ config: path })         // another emulator config.json than config.json
//   ...
//   await server.stop();                  // SIGTERM, waits, asserts exit code 0
//
// The binary comes from the environment variable HOURGLASS_BIN (required: a guessed path would
// silently test a stale build). Each server gets a fresh database in its own temporary folder and
// the entities of config.json next to this file. Whatever happens, the child is killed when this
// process exits.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
export const configPath = join(here, "config.json");

const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

const running = new Set();
process.on("exit", () => {
  for (const child of running) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
});

function tail(text, max = 4000) {
  return text.length > max ? "..." + text.slice(-max) : text;
}

// `openFileLimit`: the server runs under that limit on open files, soft and hard (set by the
// shell before it starts), as on a machine whose hard limit is that low.
export async function startServer({ extraArgs = [], config = configPath, openFileLimit } = {}) {
  const bin = process.env.HOURGLASS_BIN;
  if (!bin)
    throw new Error("HOURGLASS_BIN is not set: point it at the hourglass executable " +
      "(for example build/app/hourglass)");
  if (!existsSync(bin)) throw new Error(`HOURGLASS_BIN=${bin}: no such file`);

  const dir = mkdtempSync(join(tmpdir(), "hourglass-sdk-"));
  const args = ["serve", "--port", "0", "--db", join(dir, "hg.db"), "--config", config,
    ...extraArgs];
  const [command, commandArgs] = openFileLimit
    ? ["/bin/sh", ["-c", `ulimit -n ${Number(openFileLimit)} && exec "$0" "$@"`, bin, ...args]]
    : [bin, args];
  const child = spawn(command, commandArgs, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, QT_QPA_PLATFORM: "offscreen" },
  });
  running.add(child);

  let stdout = "";
  let stderr = "";
  let exited = null; // { code, signal } once the child is gone
  const exitPromise = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      running.delete(child);
      resolve(exited);
    });
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    if (process.env.HOURGLASS_SDK_VERBOSE) process.stderr.write(`[hourglass] ${chunk}`);
  });
  child.stdout.setEncoding("utf8");

  const describeChild = () =>
    `\n  command: ${bin} ${args.join(" ")}\n  stdout: ${tail(stdout) || "(empty)"}` +
    `\n  stderr: ${tail(stderr) || "(empty)"}`;

  const startedPromise = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hourglass serve printed no "Connection string:" line within ` +
        `${START_TIMEOUT_MS / 1000} s${describeChild()}`));
    }, START_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start hourglass: ${err.message}${describeChild()}`));
    });
    exitPromise.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`hourglass serve exited (code ${code}, signal ${signal}) before ` +
        `printing its connection string${describeChild()}`));
    });
    let port = null;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (process.env.HOURGLASS_SDK_VERBOSE) process.stderr.write(`[hourglass] ${chunk}`);
      const listening = /listening on [^\s:]+:(\d+)/.exec(stdout);
      if (listening) port = Number(listening[1]);
      const line = /^Connection string: (\S+)\s*$/m.exec(stdout);
      if (line) {
        clearTimeout(timer);
        const connectionString = line[1];
        const endpointPort = /Endpoint=sb:\/\/[^:;/]+:(\d+)/.exec(connectionString);
        // The TLS lines come before the default namespace's strings.
        const tlsString = /^TLS connection string: (\S+)\s*$/m.exec(stdout);
        const tlsPort = /TLS endpoint listening on [^\s:]+:(\d+)/.exec(stdout);
        const caFile = /^Certificate authority: (.+?)\s*$/m.exec(stdout);
        resolve({
          connectionString,
          port: port ?? Number(endpointPort?.[1]),
          tlsConnectionString: tlsString?.[1],
          tlsPort: tlsPort ? Number(tlsPort[1]) : undefined,
          caFile: caFile?.[1],
        });
      }
    });
  });

  let started;
  try {
    started = await startedPromise;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    try {
      if (!exited) child.kill("SIGTERM");
      let timer;
      const result = await Promise.race([
        exitPromise,
        new Promise((resolve) => {
          timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!result) {
        child.kill("SIGKILL");
        assert.fail(`hourglass serve did not exit within ${STOP_TIMEOUT_MS / 1000} s of ` +
          `SIGTERM${describeChild()}`);
      }
      assert.equal(result.code, 0,
        `hourglass serve should exit 0 on SIGTERM (code ${result.code}, signal ` +
        `${result.signal})${describeChild()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Kills the server with SIGKILL (a crash: no clean close) and waits until it is gone. The
   *  database folder is kept, for a restart on it with extraArgs ["--db", path]. */
  async function crash() {
    stopped = true;
    if (!exited) child.kill("SIGKILL");
    await exitPromise;
  }

  return {
    ...started, // connectionString, port, and the TLS port's tlsConnectionString, tlsPort, caFile
    /** The server's process id (for /proc/<pid>/fd in raw-protocol.test.mjs). */
    pid: child.pid,
    /** null while the server runs, then { code, signal }. */
    exited: () => exited,
    stop,
    crash,
    /** What the server printed so far, for error messages. */
    output: () => ({ stdout, stderr }),
  };
}
