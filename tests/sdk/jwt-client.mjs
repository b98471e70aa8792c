// The JavaScript SDK with a TokenCredential against Hourglass's TLS port, run by jwt.test.mjs in
// a process of its own (NODE_EXTRA_CA_CERTS is read at start). The credential is a stand-in for
// Microsoft Entra ID: it signs RS256 tokens with HOURGLASS_JWT_KEY for the scope the SDK asks.
//
//   HOURGLASS_TLS_PORT=... HOURGLASS_JWT_ISSUER=... HOURGLASS_JWT_KEY=private.pem \
//   NODE_EXTRA_CA_CERTS=ca-cert.pem node jwt-client.mjs
//
// Prints "ok <step>" per step that passed; the first failure ends it with exit code 1. With
// HOURGLASS_JWT_EXPECT_REFUSAL=1 the steps are that the administration API and a send refuse.
import { ServiceBusAdministrationClient, ServiceBusClient } from "@azure/service-bus";
import assert from "node:assert/strict";
import { createPrivateKey, createSign } from "node:crypto";
import { readFileSync } from "node:fs";

const port = process.env.HOURGLASS_TLS_PORT;
const issuer = process.env.HOURGLASS_JWT_ISSUER;
const key = createPrivateKey(readFileSync(process.env.HOURGLASS_JWT_KEY));
const expectRefusal = process.env.HOURGLASS_JWT_EXPECT_REFUSAL === "1";
const namespace = `localhost:${port}`;

const base64Url = (data) => Buffer.from(data).toString("base64url");

// What Entra ID returns for the Service Bus scope: aud https://servicebus.azure.net, an hour.
const scopesAsked = new Set();
const credential = {
  async getToken(scopes) {
    for (const scope of [scopes].flat()) scopesAsked.add(scope);
    const now = Math.floor(Date.now() / 1000);
    const header = base64Url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "test" }));
    const claims = base64Url(JSON.stringify({
      aud: "https://servicebus.azure.net", iss: issuer, iat: now, nbf: now, exp: now + 3600,
      sub: "jwt-client", oid: "00000000-0000-0000-0000-000000000002",
    }));
    const signer = createSign("RSA-SHA256");
    signer.update(`${header}.${claims}`);
    const signature = signer.sign(key).toString("base64url");
    return { token: `${header}.${claims}.${signature}`, expiresOnTimestamp: (now + 3600) * 1000 };
  },
};

async function step(name, body) {
  await body();
  console.log(`ok ${name}`);
}

const retryOptions = expectRefusal ? { maxRetries: 0, timeoutInMs: 10_000 } : undefined;
const admin = new ServiceBusAdministrationClient(namespace, credential, { retryOptions });
const client = new ServiceBusClient(namespace, credential, { retryOptions });
const queue = `jwt-q-${Math.random().toString(36).slice(2, 8)}`;

try {
  if (expectRefusal) {
    await step("administration refused: 401", async () => {
      await assert.rejects(admin.getNamespaceProperties(), (error) => error.statusCode === 401);
    });
    await step("send refused", async () => {
      const sender = client.createSender("q-basic");
      await assert.rejects(sender.sendMessages({ body: "never" }));
      await sender.close();
    });
  } else {
    await step("administration with a Bearer token", async () => {
      const properties = await admin.getNamespaceProperties();
      assert.equal(properties.name, "sbemulatorns");
      await admin.createQueue(queue);
    });
    await step("send and receive with a jwt on $cbs", async () => {
      const sender = client.createSender(queue);
      await sender.sendMessages({ body: "signed in", applicationProperties: { kind: "jwt" } });
      await sender.close();
      const receiver = client.createReceiver(queue);
      const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 5000 });
      assert.ok(message, "no message came back");
      assert.equal(message.body, "signed in");
      await receiver.completeMessage(message);
      await receiver.close();
    });
    await step("the Service Bus scope was asked", async () => {
      // SDK 7.9.5's AMQP client asks "https://servicebus.azure.net//.default" (its audience
      // ends with a slash); Entra ID reads both as the same resource.
      assert.ok(scopesAsked.size > 0, "the credential was never asked");
      for (const scope of scopesAsked)
        assert.match(scope, /^https:\/\/servicebus\.azure\.net\/\/?\.default$/);
    });
    await step("administration: delete", async () => {
      await admin.deleteQueue(queue);
    });
  }
} catch (error) {
  console.error(error?.stack ?? String(error));
  process.exitCode = 1;
} finally {
  await client.close();
}
