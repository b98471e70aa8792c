// Raw AMQP 1.0 with rhea for raw-protocol.test.mjs: connect (with or without SASL), claims-based
// security by hand (put-token on $cbs), and small promise wrappers around rhea's events. Every
// wait is bounded, so a server that stays silent fails a test in seconds.
import { createHmac, randomUUID } from "node:crypto";
import rhea from "rhea";

export { rhea };
export const BATCH_FORMAT = 0x80013700;

/** Rejects after `ms` with `what` in the message, unless `promise` settles first. */
export function within(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The shared access signature the SDK would make (core-amqp's createSasTokenProvider). */
export function sasToken(audience, { key = "SAS_KEY_VALUE", expiresAt,
  keyName = "RootManageSharedAccessKey" } = {}) {
  const se = expiresAt ?? Math.floor(Date.now() / 1000) + 600;
  const sr = encodeURIComponent(audience);
  const sig = createHmac("sha256", key).update(`${sr}\n${se}`).digest("base64");
  return `SharedAccessSignature sr=${sr}&sig=${encodeURIComponent(sig)}&se=${se}&skn=${keyName}`;
}

/**
 * Opens a connection. Without `sasl` no SASL layer at all (rhea skips it when it is given
 * neither a username nor mechanisms); with `sasl: "anonymous"` SASL ANONYMOUS.
 * Resolves { connection, open } once the peer's open arrived.
 */
export function connect(port, { sasl, idPrefix = "raw" } = {}) {
  const container = rhea.create_container({ id: `${idPrefix}-${randomUUID()}` });
  const options = { host: "localhost", port, reconnect: false,
    hostname: "localhost" };
  if (sasl === "anonymous") options.username = "anonymous";
  const connection = container.connect(options);
  const opened = new Promise((resolve, reject) => {
    connection.once("connection_open", (context) =>
      resolve({ connection, open: context.connection.remote.open }));
    connection.once("connection_error", (context) =>
      reject(new Error(`connection error: ${JSON.stringify(context.connection.error)}`)));
    connection.once("disconnected", (context) =>
      reject(new Error(`disconnected before open: ${context.error?.message ?? "no error"}`)));
  });
  // An 'error' without a listener would throw out of the event loop.
  connection.on("error", () => {});
  return { connection, opened: within(opened, 5000, "the peer's open") };
}

/**
 * Drops a connection's socket as a crashing client would. rhea learns of a socket's end only
 * through its 'end' or 'error' events, which destroy() does not emit: without eof() it would
 * keep the heartbeat timer it runs for the server's advertised idle time-out, and with it this
 * process, alive.
 */
export function dropSocket(connection) {
  if (!connection?.socket) return;
  const open = !connection.socket.destroyed;
  connection.socket.destroy();
  if (open) connection.eof();
}

/** Closes a connection and waits (bounded) for the peer's close or the socket's end. */
export async function closeConnection(connection) {
  if (!connection) return;
  if (!connection.is_open()) {
    dropSocket(connection);
    return;
  }
  const done = new Promise((resolve) => {
    connection.once("connection_close", resolve);
    connection.once("disconnected", resolve);
  });
  try {
    connection.close();
    await within(done, 2000, "close").catch(() => {});
  } finally {
    dropSocket(connection);
  }
}

/** Resolves with the sender once it is attached and has credit. */
export function openSender(connection, options) {
  const sender = connection.open_sender(options);
  const ready = new Promise((resolve, reject) => {
    sender.once("sendable", () => resolve(sender));
    sender.once("sender_close", (context) =>
      reject(new Error(`sender closed: ${JSON.stringify(context.sender.error)}`)));
  });
  return within(ready, 5000, `credit on a sender to ${JSON.stringify(options)}`);
}

/**
 * put-token on $cbs (resources/docs/amqp-endpoint.md, claims-based security): resolves with the response's application
 * properties (status-code, status-description).
 */
export async function putToken(connection, audience, token = sasToken(audience)) {
  const replyName = `cbs-reply-${randomUUID()}`;
  const receiver = connection.open_receiver({ name: replyName, source: { address: "$cbs" },
    target: { address: replyName } });
  await within(new Promise((resolve) => receiver.once("receiver_open", resolve)), 5000,
    "the $cbs receiver's attach");
  const sender = await openSender(connection, { target: { address: "$cbs" } });
  const messageId = randomUUID();
  const response = new Promise((resolve) => {
    receiver.on("message", (context) => {
      if (context.message.correlation_id === messageId) resolve(context.message);
    });
  });
  sender.send({
    message_id: messageId,
    reply_to: replyName,
    application_properties: { operation: "put-token", type: "servicebus.windows.net:sastoken",
      name: audience },
    body: token,
  });
  const message = await within(response, 5000, "the put-token response");
  sender.close();
  receiver.close();
  return message.application_properties;
}

/** Sends one transfer and resolves with { outcome: "accepted" | "rejected" | ..., delivery }. */
export function transfer(sender, payload, format) {
  return within(new Promise((resolve) => {
    const delivery = format === undefined ? sender.send(payload) : sender.send(payload, undefined, format);
    const settle = (outcome) => (context) => {
      if (context.delivery === delivery) resolve({ outcome, delivery });
    };
    for (const outcome of ["accepted", "rejected", "released", "modified"])
      sender.on(outcome, settle(outcome));
  }), 5000, "the transfer's outcome");
}

export const AMQP_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0x00, 0x01, 0x00, 0x00]);
export const SASL_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0x03, 0x01, 0x00, 0x00]);

/**
 * A plain TCP socket (node:net) to the endpoint that records what the peer sends.
 * Resolves once connected with { socket, received(), closed, write(bytes) }: `received()` is
 * everything read so far (one Buffer); `closed` resolves when the peer ended or reset the
 * connection. Writes after the peer closed are ignored.
 */
export async function rawSocket(port) {
  const { connect: netConnect } = await import("node:net");
  const socket = netConnect({ port, host: "localhost" });
  const chunks = [];
  let closedResolve;
  const closed = new Promise((resolve) => {
    closedResolve = resolve;
  });
  socket.on("data", (chunk) => chunks.push(chunk));
  socket.on("error", () => {}); // ECONNRESET, EPIPE: `closed` tells
  socket.on("close", () => closedResolve(Date.now()));
  await within(new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  }), 5000, "a TCP connection");
  return {
    socket,
    received: () => Buffer.concat(chunks),
    closed,
    write: (bytes) => {
      if (!socket.destroyed && socket.writable) socket.write(bytes);
    },
  };
}

/** The frames in `bytes` (protocol headers left out), decoded as decodeStream does. */
export async function decodeFrames(bytes) {
  return (await decodeStream(bytes)).filter((entry) => !entry.header);
}

/**
 * Splits a byte stream into protocol headers and frames: [{ header: "AMQP" | "SASL" | "?" } |
 * { type, channel, name, performative }]. Stops at an incomplete frame.
 */
export async function decodeStream(bytes) {
  const { default: frames } = await import("rhea/lib/frames.js");
  const out = [];
  let rest = bytes;
  while (rest.length >= 8) {
    if (rest.subarray(0, 4).toString("latin1") === "AMQP") {
      out.push({ header: rest[4] === 3 ? "SASL" : rest[4] === 0 ? "AMQP" : "?" });
      rest = rest.subarray(8);
      continue;
    }
    const size = rest.readUInt32BE(0);
    if (size < 8 || rest.length < size) break;
    const frame = frames.read_frame(rest.subarray(0, size));
    out.push({ type: frame.type, channel: frame.channel,
      name: frame.performative ? String(frame.performative.constructor).split("#")[0] : "empty",
      performative: frame.performative });
    rest = rest.subarray(size);
  }
  return out;
}

/** Waits (bounded) until the decoded stream read on `socket` has `count` entries; returns them. */
export async function readUntil(socket, count, ms = 3000) {
  return within((async () => {
    for (;;) {
      const got = await decodeStream(socket.received());
      if (got.length >= count) return got;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })(), ms, `${count} headers and frames from the server`);
}
