// A TokenCredential, as an application signed in with Microsoft Entra ID passes it to the SDK,
// against `hourglass serve --trust-issuer ... --trust-key ...` on its TLS port: the SDK puts the
// credential's JWT on $cbs (type jwt) and sends it to the administration API as a Bearer token.
// The issuer is a stand-in: this test makes its RSA key, gives serve the public half and signs
// the tokens itself (jwt-client.mjs, in a process of its own because Node reads
// NODE_EXTRA_CA_CERTS only when it starts). A credential whose tokens another key signs gets
// nothing done.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ISSUER = "https://login.example.test/11111111-2222-3333-4444-555555555555/v2.0";

function runClient(env, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, "jwt-client.mjs")], {
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

// An RSA key pair in `dir`: the public half for serve, the private half for the client.
function makeKey(dir, name) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicFile = join(dir, `${name}-public.pem`);
  const privateFile = join(dir, `${name}-private.pem`);
  writeFileSync(publicFile, publicKey.export({ type: "spki", format: "pem" }));
  writeFileSync(privateFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  return { publicFile, privateFile };
}

test("a TokenCredential's JWT sends, receives and administers; another key's does nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hourglass-jwt-"));
  const trusted = makeKey(dir, "issuer");
  const stranger = makeKey(dir, "stranger");
  const server = await startServer({
    extraArgs: ["--tls-port", "0", "--tls-dir", dir, "--trust-issuer", ISSUER,
      "--trust-key", trusted.publicFile],
  });
  try {
    assert.ok(server.tlsPort, "serve printed no TLS port");
    const env = {
      HOURGLASS_TLS_PORT: String(server.tlsPort),
      HOURGLASS_JWT_ISSUER: ISSUER,
      NODE_EXTRA_CA_CERTS: server.caFile,
    };
    const run = await runClient({ ...env, HOURGLASS_JWT_KEY: trusted.privateFile }, 90_000);
    const passed = run.stdout.split("\n").filter((line) => line.startsWith("ok "));
    for (const line of passed) console.log(line);
    assert.equal(run.code, 0, `the client failed after ${passed.length} steps:\n${run.stderr}`);
    assert.equal(passed.length, 4, run.stdout);

    const refused = await runClient(
      { ...env, HOURGLASS_JWT_KEY: stranger.privateFile, HOURGLASS_JWT_EXPECT_REFUSAL: "1" },
      90_000);
    assert.equal(refused.code, 0, `the refused client:\n${refused.stdout}\n${refused.stderr}`);
    assert.match(refused.stdout, /^ok administration refused: 401/m);
    assert.match(refused.stdout, /^ok send refused$/m);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
