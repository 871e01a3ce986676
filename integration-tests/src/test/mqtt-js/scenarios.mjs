// Scenarios for MqttJsClientTest: the npm mqtt package (MQTT.js), a client implementation independent of the Java
// ones, against a Tributary cluster. Like many real clients it does not wait: publish(), subscribe() and
// unsubscribe() calls made back to back go out on the socket back to back. Each scenario prints one JSON line with
// what it observed; the Java test makes the assertions.
//
//   node scenarios.mjs <scenario> <port of node 0> <port of node 1> <unique prefix>
import mqtt from "mqtt";

const [scenario, port0, port1, prefix] = process.argv.slice(2);
const TIMEOUT_MS = 30_000;

function connect(port, options) {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect({
      host: "127.0.0.1",
      port: Number(port),
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      ...options,
    });
    client.once("connect", (connack) => resolve({ client, connack }));
    client.once("error", reject);
  });
}

function end(client) {
  return new Promise((resolve) => client.end(false, {}, resolve));
}

/** Collects "topic payload" strings until `count` arrived or the time is up. */
function collect(client, count) {
  const received = [];
  return {
    received,
    done: new Promise((resolve) => {
      const timer = setTimeout(() => resolve(received), TIMEOUT_MS);
      client.on("message", (topic, payload) => {
        received.push(`${topic} ${payload.toString()}`);
        if (received.length >= count) {
          clearTimeout(timer);
          // A little longer: a duplicate would come right behind.
          setTimeout(() => resolve(received), 500);
        }
      });
    }),
  };
}

/** Publishes without waiting for acknowledgements; resolves with the acknowledgement errors (null for success). */
function publishAll(client, messages) {
  return Promise.all(
    messages.map(
      ({ topic, payload, qos }) =>
        new Promise((resolve) => client.publish(topic, payload, { qos }, (err) => resolve(err ? err.message : null))),
    ),
  );
}

async function qosAcrossNodes() {
  const result = {};
  for (const version of [4, 5]) {
    for (const qos of [1, 2]) {
      const topic = `${prefix}/v${version}/q${qos}`;
      const { client: sub } = await connect(port0, { protocolVersion: version, clientId: `${prefix}-s${version}${qos}` });
      await sub.subscribeAsync(topic, { qos: 2 });
      const { client: pub } = await connect(port1, { protocolVersion: version, clientId: `${prefix}-p${version}${qos}` });
      const count = 200;
      const sink = collect(sub, count);
      const messages = Array.from({ length: count }, (_, i) => ({ topic, payload: `m${i}`, qos }));
      const acks = await publishAll(pub, messages);
      const received = await sink.done;
      result[`v${version}-qos${qos}`] = { acksFailed: acks.filter((a) => a !== null), received };
      await end(pub);
      await end(sub);
    }
  }
  return result;
}

async function pipelinedSubscribes() {
  const result = {};
  for (const version of [4, 5]) {
    const { client } = await connect(port0, { protocolVersion: version, clientId: `${prefix}-ps${version}` });
    const filters = Array.from({ length: 50 }, (_, i) => `${prefix}/v${version}/f${i}/#`);
    const sink = collect(client, 1);
    // 50 SUBSCRIBEs, then a PUBLISH matching the last of them, all written before any SUBACK is read.
    const granted = Promise.all(
      filters.map(
        (f) =>
          new Promise((resolve) =>
            client.subscribe(f, { qos: 1 }, (err, grants) => resolve(err ? `error: ${err.message}` : grants[0].qos)),
          ),
      ),
    );
    const acks = publishAll(client, [{ topic: `${prefix}/v${version}/f49/x`, payload: "behind-50", qos: 1 }]);
    result[`v${version}`] = { granted: await granted, acksFailed: (await acks).filter((a) => a !== null), received: await sink.done };
    await end(client);
  }
  return result;
}

async function pipelinedUnsubscribe() {
  const result = {};
  for (const version of [4, 5]) {
    const topic = `${prefix}/v${version}/gone`;
    const { client } = await connect(port1, { protocolVersion: version, clientId: `${prefix}-pu${version}` });
    await client.subscribeAsync(topic, { qos: 1 });
    const received = [];
    client.on("message", (t, p) => received.push(`${t} ${p.toString()}`));
    // UNSUBSCRIBE then PUBLISH to the removed subscription, written back to back.
    const unsubscribed = new Promise((resolve) => client.unsubscribe(topic, (err) => resolve(err ? err.message : "ok")));
    const acks = await publishAll(client, [{ topic, payload: "after-unsubscribe", qos: 1 }]);
    const unsuback = await unsubscribed;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    result[`v${version}`] = { unsuback, acksFailed: acks.filter((a) => a !== null), received };
    await end(client);
  }
  return result;
}

async function persistentResume() {
  const result = {};
  for (const version of [4, 5]) {
    const clientId = `${prefix}-res${version}`;
    const topic = `${prefix}/v${version}/resume`;
    const session = version === 5 ? { clean: false, properties: { sessionExpiryInterval: 300 } } : { clean: false };
    const first = await connect(port0, { protocolVersion: version, clientId, ...session });
    await first.client.subscribeAsync(topic, { qos: 1 });
    await end(first.client);
    const { client: pub } = await connect(port1, { protocolVersion: version, clientId: `${prefix}-rp${version}` });
    const acks = await publishAll(
      pub,
      [1, 2, 3].map((i) => ({ topic, payload: `queued-${i}`, qos: 1 })),
    );
    await end(pub);
    // Back on the other node; MQTT.js sets up its message handler before the CONNACK, so nothing queued is missed.
    const again = mqtt.connect({
      host: "127.0.0.1",
      port: Number(port1),
      protocolVersion: version,
      clientId,
      reconnectPeriod: 0,
      ...session,
    });
    const sink = collect(again, 3);
    const sessionPresent = await new Promise((resolve, reject) => {
      again.once("connect", (connack) => resolve(connack.sessionPresent));
      again.once("error", reject);
    });
    result[`v${version}`] = { sessionPresent, acksFailed: acks.filter((a) => a !== null), received: await sink.done };
    // End the session (MQTT 5: expiry 0 at DISCONNECT; 3.1.1: a clean session replaces it).
    if (version === 5) {
      await new Promise((resolve) => again.end(false, { properties: { sessionExpiryInterval: 0 } }, resolve));
    } else {
      await end(again);
      const { client: clean } = await connect(port1, { protocolVersion: 4, clientId, clean: true });
      await end(clean);
    }
  }
  return result;
}

const scenarios = { qosAcrossNodes, pipelinedSubscribes, pipelinedUnsubscribe, persistentResume };
if (!scenarios[scenario]) {
  console.error(`unknown scenario ${scenario}; one of ${Object.keys(scenarios).join(", ")}`);
  process.exit(2);
}
const guard = setTimeout(() => {
  console.error(`${scenario} did not finish in 120 s`);
  process.exit(3);
}, 120_000);
try {
  console.log(JSON.stringify(await scenarios[scenario]()));
  clearTimeout(guard);
  process.exit(0);
} catch (e) {
  console.error(`${scenario} failed: ${e.stack || e}`);
  process.exit(1);
}
