// The endpoint below the SDK, with rhea (rhea-raw.mjs) and plain node:net sockets: SASL (none,
// ANONYMOUS, MSSBCBS as the .NET SDK uses it), heartbeats, an attach to an unknown address or
// without a put-token, and batched transfers (message-format 0x80013700, one data section per
// encoded message): whole, split over many frames, or with one corrupt inner message (resources/docs/amqp-endpoint.md,
// "Connection", "Addresses", "Sending"). Then abuse: garbage after the protocol header, a frame
// over the negotiated max-frame-size, clients that stall after the header, and 2,000 connections
// opened and dropped. After each abuse a normal SDK client must still work (q-raw-alive), and at
// the end SIGTERM must still stop the server with exit code 0.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import frames from "rhea/lib/frames.js";
import { useServer, peekAll, receiveExactly, expectNothing, sleep, bounded } from "./helpers.mjs";
import {
  rhea, BATCH_FORMAT, connect, closeConnection, putToken, openSender, transfer, within,
  rawSocket, decodeFrames, AMQP_HEADER, SASL_HEADER, readUntil, decodeStream, dropSocket,
} from "./rhea-raw.mjs";

// Registered before useServer's own hook, so that these connections close while the server
// still runs.
const connections = [];
after(async () => {
  for (const connection of connections) await closeConnection(connection);
});
const ctx = useServer();
const T = { timeout: 20_000 };
const raws = [];
after(() => {
  for (const raw of raws) raw.socket.destroy();
});

async function raw() {
  const socket = await rawSocket(ctx.server.port);
  raws.push(socket);
  return socket;
}

/** The server still serves a normal SDK client: a send and a receive on q-raw-alive. */
async function stillServing(tag) {
  assert.deepEqual(ctx.server.exited(), null, "the server is still running");
  await ctx.sender("q-raw-alive").sendMessages({ body: tag, messageId: tag });
  const receiver = ctx.receiver("q-raw-alive", { receiveMode: "receiveAndDelete" });
  const [message] = await receiveExactly(receiver, 1, { timeoutMs: 5000 });
  assert.equal(message.messageId, tag);
}

async function connected(options) {
  const { connection, opened } = connect(ctx.server.port, options);
  connections.push(connection);
  return opened;
}

const audience = (entity) => `sb://localhost:${ctx.server.port}/${entity}`;

test("a client that skips SASL still gets an open", T, async () => {
  const { connection, open } = await connected();
  assert.equal(connection.sasl_transport, undefined, "rhea really skipped SASL");
  assert.equal(typeof open.container_id, "string");
  assert.ok(open.container_id.length > 0);
  assert.ok(connection.is_open());
  // And it can do claims-based security and attach like any other client.
  const status = await putToken(connection, audience("q-raw"));
  assert.equal(status["status-code"], 200);
});

test("a client with SASL ANONYMOUS gets an open", T, async () => {
  const { connection, open } = await connected({ sasl: "anonymous" });
  assert.notEqual(connection.sasl_transport, undefined);
  assert.equal(typeof open.container_id, "string");
});

test("an attach to an unknown address: attached, then detached with amqp:not-found", T, async () => {
  const { connection } = await connected();
  const status = await putToken(connection, audience("no-such-queue"));
  assert.equal(status["status-code"], 200);
  const events = [];
  const sender = connection.open_sender({ target: { address: "no-such-queue" } });
  const closed = new Promise((resolve) => {
    sender.on("sender_open", () => events.push("attach"));
    sender.on("sender_error", () => events.push("error"));
    sender.on("sender_close", (context) => {
      events.push("detach");
      resolve(context.sender.error);
    });
  });
  // A transfer offered right away is not taken: the link goes before it has credit.
  sender.send({ message_id: "lost", body: "nowhere" });
  const error = await within(closed, 5000, "the detach");
  assert.deepEqual(events.filter((e) => e !== "error"), ["attach", "detach"]);
  assert.equal(error.condition, "amqp:not-found");
  assert.match(error.description, /The messaging entity '.*no-such-queue.*' could not be found/);
});

test("an attach to an entity without a put-token first is refused", T, async (t) => {
  const { connection } = await connected();
  const sender = connection.open_sender({ target: { address: "q-raw" } });
  const error = await within(new Promise((resolve) =>
    sender.on("sender_close", (context) => resolve(context.sender.error))), 5000, "the detach");
  t.diagnostic(`detached with ${JSON.stringify(error)}`);
  assert.equal(error?.condition, "amqp:unauthorized-access");
});

// The .NET SDK's SASL: it only knows MSSBCBS, picks it from the server's sasl-mechanisms and
// fails when it is not listed (resources/docs/amqp-endpoint.md, "Connection and authentication": accept ANONYMOUS and
// MSSBCBS).
test("sasl-mechanisms offers MSSBCBS and ANONYMOUS", T, async (t) => {
  const socket = await raw();
  socket.write(SASL_HEADER);
  const [header, mechanisms] = await readUntil(socket, 2);
  assert.equal(header.header, "SASL");
  assert.equal(mechanisms.name, "sasl_mechanisms");
  const offered = [mechanisms.performative.sasl_server_mechanisms].flat().map(String);
  t.diagnostic(`offered: ${JSON.stringify(offered)}`);
  assert.ok(offered.includes("ANONYMOUS"), JSON.stringify(offered));
  assert.ok(offered.includes("MSSBCBS"), JSON.stringify(offered));
});

test("a sasl-init with MSSBCBS gets outcome ok, then an open", T, async () => {
  const socket = await raw();
  socket.write(SASL_HEADER);
  await readUntil(socket, 2);
  socket.write(frames.write_frame(frames.sasl_frame(frames.sasl_init({ mechanism: "MSSBCBS",
    initial_response: Buffer.alloc(0), hostname: "localhost" }))));
  const [, , outcome] = await readUntil(socket, 3);
  assert.equal(outcome.name, "sasl_outcome");
  assert.equal(outcome.performative.code, 0, "sasl-outcome ok");
  socket.write(AMQP_HEADER);
  socket.write(frames.write_frame(frames.amqp_frame(0, frames.open({ container_id: "mssbcbs" }))));
  const [, , , amqp, open] = await readUntil(socket, 5);
  assert.equal(amqp.header, "AMQP");
  assert.equal(open.name, "open");
  assert.equal(typeof open.performative.container_id, "string");
});

test("heartbeats: a client that asks for idle-time-out 1 s gets empty frames from the server", T,
  async (t) => {
    const socket = await raw();
    socket.write(AMQP_HEADER);
    socket.write(frames.write_frame(frames.amqp_frame(0,
      frames.open({ container_id: "raw-idle", idle_time_out: 1000 }))));
    const [, open] = await readUntil(socket, 2);
    assert.equal(open.name, "open");
    // Silent for 3 s on our side; the server's own idle-time-out (if any) is only reported.
    t.diagnostic(`server idle-time-out: ${open.performative.idle_time_out ?? "none"}`);
    await sleep(3000);
    const after = await decodeStream(socket.received());
    const empties = after.filter((f) => f.name === "empty").length;
    t.diagnostic(`${empties} empty frames in 3 s`);
    // AMQP 1.0 2.4.5: the server must send something at least every 1 s (Proton: every 0.5 s).
    assert.ok(empties >= 2, `${empties} empty frames in 3 s`);
    assert.equal(socket.socket.destroyed, false, "the server kept the connection");
  });

// Inner messages as the SDK encodes them: the body a data section holding JSON (the SDK decodes
// it back to the value on receive and peek).
function inner(id, body) {
  return rhea.message.encode({ message_id: id, application_properties: { n: id },
    body: rhea.message.data_section(Buffer.from(JSON.stringify(body))) });
}

function batchPayload(sections) {
  return rhea.message.encode({ body: rhea.message.data_sections(sections) });
}

test("a batch transfer of 3 encoded messages is stored as 3", T, async () => {
  const { connection } = await connected();
  assert.equal((await putToken(connection, audience("q-raw")))["status-code"], 200);
  const sender = await openSender(connection, { target: { address: "q-raw" } });
  const { outcome } = await transfer(sender,
    batchPayload([inner("b-1", "one"), inner("b-2", "two"), inner("b-3", "three")]),
    BATCH_FORMAT);
  assert.equal(outcome, "accepted");
  const peeked = await peekAll(ctx.receiver("q-raw"));
  assert.deepEqual(peeked.map((m) => [m.messageId, m.body, m.applicationProperties.n]),
    [["b-1", "one", "b-1"], ["b-2", "two", "b-2"], ["b-3", "three", "b-3"]]);
});

test("a batch split over many transfer frames (4 KiB each) is put together whole", T, async () => {
  const { connection } = await connected();
  assert.equal((await putToken(connection, audience("q-raw-frames")))["status-code"], 200);
  const sender = await openSender(connection, { target: { address: "q-raw-frames" } });
  // rhea splits a transfer by the peer's max-frame-size: pretend it is 4 KiB.
  connection.remote.open.max_frame_size = 4096;
  const bodies = ["x", "y", "z", "w"].map((c) => c.repeat(40_000));
  const sections = bodies.map((body, i) => inner(`f-${i + 1}`, body));
  const writes = [];
  const write = connection.socket.write.bind(connection.socket);
  connection.socket.write = (bytes, ...rest) => {
    writes.push(bytes.length);
    return write(bytes, ...rest);
  };
  const { outcome } = await transfer(sender, batchPayload(sections), BATCH_FORMAT);
  connection.socket.write = write;
  assert.equal(outcome, "accepted");
  assert.ok(writes.length >= 40, `sent in ${writes.length} writes`);
  const peeked = await peekAll(ctx.receiver("q-raw-frames"));
  assert.deepEqual(peeked.map((m) => m.messageId), ["f-1", "f-2", "f-3", "f-4"]);
  assert.deepEqual(peeked.map((m) => m.body), bodies);
});

test("a batch with one corrupt inner message is rejected and stores nothing", T, async (t) => {
  const { connection } = await connected();
  assert.equal((await putToken(connection, audience("q-raw")))["status-code"], 200);
  const sender = await openSender(connection, { target: { address: "q-raw" } });
  const before = (await peekAll(ctx.receiver("q-raw"))).map((m) => m.messageId);
  const corrupt = Buffer.concat([Buffer.from([0x00, 0x53, 0x75, 0xff]), randomBytes(24)]);
  const { outcome, delivery } = await transfer(sender,
    batchPayload([inner("c-1", "one"), corrupt, inner("c-3", "three")]), BATCH_FORMAT);
  assert.equal(outcome, "rejected");
  const error = delivery.remote_state?.error;
  t.diagnostic(`rejected with ${JSON.stringify(error)}`);
  assert.equal(typeof error?.condition, "string", "the rejection carries an error condition");
  assert.ok(error.condition.length > 0);
  // Nothing of the batch, not even c-1 before the corrupt one.
  assert.deepEqual((await peekAll(ctx.receiver("q-raw"))).map((m) => m.messageId), before);
  // The link survives a refused transfer.
  const { outcome: next } = await transfer(sender,
    { message_id: "c-after", body: rhea.message.data_section(Buffer.from('"fine"')) });
  assert.equal(next, "accepted");
  assert.deepEqual((await peekAll(ctx.receiver("q-raw"))).map((m) => m.messageId),
    [...before, "c-after"]);
});

test("garbage after the AMQP header: open + close with amqp:connection:framing-error, then the socket ends", T,
  async () => {
    const socket = await raw();
    socket.write(Buffer.concat([AMQP_HEADER, Buffer.from("garbage-garbage-garbage-garbage!!")]));
    await within(socket.closed, 3000, "the server closing the connection");
    const bytes = socket.received();
    assert.deepEqual(bytes.subarray(0, 8), AMQP_HEADER);
    const received = await decodeFrames(bytes);
    assert.deepEqual(received.map((f) => f.name), ["open", "close"]);
    assert.equal(received[1].performative.error.condition, "amqp:connection:framing-error");
    await stillServing("alive-after-garbage");
  });

test("garbage after the SASL header: the server ends the connection", T, async () => {
  const socket = await raw();
  socket.write(Buffer.concat([SASL_HEADER, Buffer.from("garbage-garbage-garbage-garbage!!")]));
  await within(socket.closed, 3000, "the server closing the connection");
  assert.deepEqual(socket.received().subarray(0, 8), SASL_HEADER);
  await stillServing("alive-after-sasl-garbage");
});

test("an HTTP request on the AMQP port is the administration API's: 401 without a token", T,
  async () => {
    const socket = await raw();
    socket.write(Buffer.from("GET /q-basic?api-version=2021-05 HTTP/1.1\r\nHost: localhost\r\n" +
      "Connection: close\r\n\r\n"));
    await within(socket.closed, 3000, "the server closing the connection after its answer");
    const answer = socket.received().toString("latin1");
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /<Code>401<\/Code>/);
    await stillServing("alive-after-http");
  });

test("bytes that are neither AMQP nor HTTP: 400 and the end of the connection", T, async () => {
  const socket = await raw();
  socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05,
    0x0d, 0x0a, 0x0d, 0x0a]));
  await within(socket.closed, 3000, "the server closing the connection");
  assert.match(socket.received().toString("latin1"), /^HTTP\/1\.1 400 /);
  await stillServing("alive-after-garbage");
});

test("a frame header over the negotiated max-frame-size: framing error and the end", T, async () => {
  const socket = await raw();
  socket.write(AMQP_HEADER);
  socket.write(frames.write_frame(frames.amqp_frame(0, frames.open({ container_id: "raw-big" }))));
  const open = await within((async () => {
    for (;;) {
      const [first] = await decodeFrames(socket.received());
      if (first) return first;
      await sleep(20);
    }
  })(), 3000, "the server's open");
  assert.equal(open.name, "open");
  const max = open.performative.max_frame_size;
  assert.ok(Number.isInteger(max) && max >= 512 && max < 0xffffffff, `max-frame-size ${max}`);
  // A frame header that announces max + 1024 bytes (doff 2, AMQP, channel 0), and some of them.
  const header = Buffer.alloc(8);
  header.writeUInt32BE(max + 1024, 0);
  header[4] = 2;
  socket.write(Buffer.concat([header, Buffer.alloc(1024, 0x40)]));
  await within(socket.closed, 3000, "the server closing the connection");
  const received = await decodeFrames(socket.received());
  assert.deepEqual(received.map((f) => f.name), ["open", "close"]);
  assert.equal(received[1].performative.error.condition, "amqp:connection:framing-error");
  await stillServing("alive-after-big-frame-header");
});

test("a transfer frame over the max-frame-size from a real sender: the connection ends, nothing stored", T,
  async (t) => {
    const { connection, open } = await connected();
    assert.equal((await putToken(connection, audience("q-raw-alive")))["status-code"], 200);
    const sender = await openSender(connection, { target: { address: "q-raw-alive" } });
    const ended = new Promise((resolve) => {
      connection.once("connection_close", (context) => resolve(context.connection.error));
      connection.once("disconnected", (context) => resolve({ disconnected: context.error?.message }));
    });
    // rhea splits transfers by the peer's max-frame-size; pretend the peer set none, so that this
    // message (max + 64 KiB) goes out in one frame.
    const max = open.max_frame_size;
    connection.remote.open.max_frame_size = 0;
    sender.send({ message_id: "too-big-frame",
      body: rhea.message.data_section(Buffer.alloc(max + 65536, 0x61)) });
    const how = await within(ended, 5000, "the end of the connection");
    t.diagnostic(`ended with ${JSON.stringify(how)}`);
    // A close frame may be lost in the reset (the server closes with unread bytes pending); when
    // one arrives it names the framing error.
    if (how && !how.disconnected) assert.equal(how.condition, "amqp:connection:framing-error");
    assert.deepEqual(await peekAll(ctx.receiver("q-raw-alive")), []);
    await stillServing("alive-after-big-transfer");
  });

test("clients that stall after the protocol header do not hold up others", T, async (t) => {
  const stalled = [];
  for (let i = 0; i < 30; i++) {
    const socket = await raw();
    if (i % 3 === 0) socket.write(SASL_HEADER);
    else if (i % 3 === 1) socket.write(AMQP_HEADER);
    // i % 3 === 2: a TCP connection that never says anything
    stalled.push(socket);
  }
  await sleep(500);
  const started = Date.now();
  for (let i = 0; i < 5; i++) await stillServing(`alive-while-stalled-${i}`);
  const took = Date.now() - started;
  assert.ok(took < 5000, `5 send + receive round trips took ${took} ms`);
  await sleep(2000);
  await stillServing("alive-while-stalled-later");
  // The server may drop stalled connections after a while or keep them: reported only.
  const open = stalled.filter((s) => !s.socket.destroyed).length;
  t.diagnostic(`after ${Date.now() - started + 500} ms, ${open} of ${stalled.length} stalled ` +
    "connections still open");
  // The SASL ones got the SASL header back (and the mechanisms), the AMQP ones the AMQP header.
  for (const [i, s] of stalled.entries()) {
    const bytes = s.received();
    if (i % 3 === 0) assert.deepEqual(bytes.subarray(0, 8), SASL_HEADER, `socket ${i}`);
    if (i % 3 === 1) assert.deepEqual(bytes.subarray(0, 8), AMQP_HEADER, `socket ${i}`);
    s.socket.destroy();
  }
});

function openFds(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null; // not Linux
  }
}

/** One short-lived connection, in one of four ways of going away. */
async function churnOne(i) {
  const mode = i % 4;
  if (mode === 3) {
    // A full AMQP open (no SASL), then the socket dropped without close.
    const { connection, opened } = connect(ctx.server.port, { idPrefix: "churn" });
    try {
      await opened;
    } finally {
      dropSocket(connection);
    }
    return;
  }
  const socket = await rawSocket(ctx.server.port);
  try {
    if (mode === 1) {
      socket.write(AMQP_HEADER);
      await within((async () => {
        while (socket.received().length < 8) await sleep(5);
      })(), 3000, "the AMQP header back");
    } else if (mode === 2) {
      socket.write(Buffer.concat([SASL_HEADER, Buffer.from([0x00, 0x00, 0x00, 0x40, 0x02, 0x01])]));
    }
    // mode 0: connect, then gone at once
  } finally {
    socket.socket.destroy();
  }
}

test("2,000 connections opened and dropped, 100 at a time: the server survives", { timeout: 50_000 },
  async (t) => {
    const before = openFds(ctx.server.pid);
    const started = Date.now();
    const failures = [];
    for (let batch = 0; batch < 20; batch++) {
      const results = await Promise.allSettled(
        Array.from({ length: 100 }, (_, j) => churnOne(batch * 100 + j)));
      for (const r of results) if (r.status === "rejected") failures.push(r.reason.message);
    }
    t.diagnostic(`2,000 connections in ${Date.now() - started} ms`);
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of 2,000 failed`);
    await stillServing("alive-after-churn");
    // The server closed its side of every one of them (no descriptors left behind).
    if (before !== null) {
      let now = openFds(ctx.server.pid);
      for (let i = 0; i < 50 && now > before + 20; i++) {
        await sleep(100);
        now = openFds(ctx.server.pid);
      }
      t.diagnostic(`server file descriptors: ${before} before, ${now} after`);
      assert.ok(now <= before + 20, `server file descriptors: ${before} before, ${now} after`);
    }
    await expectNothing(ctx.receiver("q-raw-alive"), 300);
  });

test("after all of it, SIGTERM stops the server with exit code 0", T, async () => {
  for (const closable of ctx.toClose.splice(0).reverse()) await bounded(closable.close(), 2000);
  await bounded(ctx.client.close(), 5000);
  ctx.client = null;
  for (const connection of connections.splice(0)) await closeConnection(connection);
  for (const socket of raws.splice(0)) socket.socket.destroy();
  await ctx.server.stop(); // asserts exit code 0 within 10 s
  assert.deepEqual(ctx.server.exited(), { code: 0, signal: null });
});
