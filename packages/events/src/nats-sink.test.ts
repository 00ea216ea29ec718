import { MemoryKeyValueStore } from "@auth/kv";
import { type JetStreamManager, jetstream, jetstreamManager, StorageType } from "@nats-io/jetstream";
import { connect, type NatsConnection, nanos } from "@nats-io/transport-node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyValueOutboxSource } from "./kv-outbox.js";
import { natsConnectOptions } from "./nats-connection.js";
import { ensureEventStream, eventStream, natsEventSink } from "./nats-sink.js";
import { type Relay, startRelay } from "./relay.js";
import { capturingLogger, idOf, someEvents } from "./relay.testing.js";
import type { EventSink, RelayedEvent } from "./sink.js";
import { type RunningNats, startNatsServer } from "./testing.js";

const spawnMs = 120_000;
let nats: RunningNats;
let nc: NatsConnection;
let manager: JetStreamManager;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect(natsConnectOptions(nats.url));
  manager = await jetstreamManager(nc);
}, spawnMs);
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

let store: MemoryKeyValueStore;
let sink: EventSink | undefined;
let relay: Relay | undefined;

beforeEach(async () => {
  store = new MemoryKeyValueStore();
  await manager.streams.delete(eventStream.name).catch(() => {});
});
afterEach(async () => {
  await relay?.stop();
  await sink?.close();
  relay = undefined;
  sink = undefined;
  await store.close();
});

async function record(events: readonly string[]): Promise<void> {
  for (const [index, event] of events.entries())
    await store.set(`key-${index}`, "v", 60_000, { events: [event] });
}
const pending = async () => (await store.outbox.read(10_000)).length;

/** Every message of the stream, oldest first: its subject, message id and payload. */
async function streamMessages() {
  const info = await manager.streams.info(eventStream.name);
  const consumer = await jetstream(nc).consumers.get(eventStream.name);
  const messages: Array<{ subject: string; msgId: string | undefined; json: string }> = [];
  if (info.state.messages === 0) return messages;
  for await (const message of await consumer.fetch({ max_messages: info.state.messages, expires: 10_000 })) {
    messages.push({
      subject: message.subject,
      msgId: message.headers?.get("Nats-Msg-Id"),
      json: message.string(),
    });
    if (messages.length === info.state.messages) break;
  }
  return messages;
}

function relayTo(target: EventSink, batchSize = 100): void {
  sink = target;
  relay = startRelay({
    service: "identity",
    source: keyValueOutboxSource(store),
    sink: target,
    logger: capturingLogger().logger,
    batchSize,
    pollMs: 20,
    maxBackoffMs: 500,
  });
}

describe("the NATS JetStream sink", () => {
  it("creates the stream AUTH_EVENTS: subjects auth.events.>, on file, limits retention, a 2-hour window for copies", async () => {
    await ensureEventStream(manager, 1);
    const { config } = await manager.streams.info(eventStream.name);
    expect(config).toMatchObject({
      subjects: ["auth.events.>"],
      storage: StorageType.File,
      retention: "limits",
      duplicate_window: nanos(2 * 60 * 60 * 1000),
      num_replicas: 1,
    });
  });

  it("keeps what operators tune when it brings an existing stream up to date", async () => {
    await manager.streams.add({
      name: eventStream.name,
      subjects: ["auth.events.identity.>"],
      max_age: nanos(86_400_000),
    });
    await ensureEventStream(manager, 1);
    const { config } = await manager.streams.info(eventStream.name);
    expect(config.subjects).toEqual(["auth.events.>"]);
    expect(config.duplicate_window).toBe(nanos(2 * 60 * 60 * 1000));
    expect(config.max_age).toBe(nanos(86_400_000));
  });

  it("publishes each event as stored, in order, on auth.events.<service>.<type>, its id the message id", async () => {
    const events = someEvents(30);
    await record(events);
    relayTo(natsEventSink(nats.url, capturingLogger().logger), 7);

    await expect.poll(pending, { timeout: 30_000 }).toBe(0);
    expect(await streamMessages()).toEqual(
      events.map((json) => ({
        subject: "auth.events.identity.auth.password.changed",
        msgId: idOf(json),
        json,
      })),
    );
  });

  it("drops a second copy of an event by its id", async () => {
    const target = natsEventSink(nats.url, capturingLogger().logger);
    sink = target;
    const events: RelayedEvent[] = someEvents(3).map((json) => {
      const { id, source, type, time } = JSON.parse(json) as {
        id: string;
        source: string;
        type: string;
        time: string;
      };
      return { id, source, type, time: new Date(time), json };
    });
    await expect
      .poll(
        async () =>
          target.publish(events).then(
            () => true,
            () => false,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    await target.publish(events);
    expect((await manager.streams.info(eventStream.name)).state.messages).toBe(3);
  });

  it(
    "loses nothing when NATS is killed in the middle of a batch and comes back; the copies republished are dropped",
    async () => {
      const events = someEvents(40);
      await record(events);
      const inner = natsEventSink(nats.url, capturingLogger().logger, { publishTimeoutMs: 2_000 });
      let killed = false;
      let restarted: Promise<void> | undefined;
      // Publishes half of the first batch, then kills the server under the other half.
      relayTo(
        {
          async publish(batch) {
            if (!killed) {
              await inner.publish(batch.slice(0, batch.length / 2));
              killed = true;
              await nats.kill();
              restarted = nats.restart();
            }
            await inner.publish(batch);
          },
          close: () => inner.close(),
        },
        10,
      );

      await expect.poll(() => killed, { timeout: 30_000 }).toBe(true);
      await restarted;
      await expect.poll(pending, { timeout: 60_000 }).toBe(0);
      const stored = await streamMessages();
      expect(stored.map((message) => message.json)).toEqual(events);
      expect(new Set(stored.map((message) => message.msgId)).size).toBe(events.length);
    },
    spawnMs,
  );
});
