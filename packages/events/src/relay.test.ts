import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryKeyValueStore } from "@auth/kv";
import { metrics, registry } from "@auth/telemetry";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fileEventSink } from "./file-sink.js";
import { keyValueOutboxSource } from "./kv-outbox.js";
import { type Relay, type RelayOptions, startRelay } from "./relay.js";
import { capturingLogger, idOf, recordingSink, someEvents } from "./relay.testing.js";

let store: MemoryKeyValueStore;
let relay: Relay | undefined;
let dir: string;

beforeEach(() => {
  store = new MemoryKeyValueStore();
  dir = mkdtempSync(join(tmpdir(), "relay-"));
});
afterEach(async () => {
  await relay?.stop();
  relay = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the events to the store's outbox, one write each, as session, otp and recovery do. */
async function record(events: readonly string[]): Promise<void> {
  for (const [index, event] of events.entries())
    await store.set(`key-${index}`, "v", 60_000, { events: [event] });
}

const pending = async () => (await store.outbox.read(10_000)).map((entry) => entry.payload);

function relayTo(sink: RelayOptions["sink"], options: Partial<RelayOptions> = {}): Relay {
  relay = startRelay({
    service: "session",
    source: keyValueOutboxSource(store),
    sink,
    logger: capturingLogger().logger,
    pollMs: 20,
    maxBackoffMs: 50,
    ...options,
  });
  return relay;
}

const counterValue = async (name: string, labels: Record<string, string>) => {
  const metric = (await registry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  const value = metric?.values.find((sample) =>
    Object.entries(labels).every(([key, label]) => sample.labels[key] === label),
  );
  return value?.value ?? 0;
};

describe("the relay", () => {
  it("publishes the outbox oldest first, batch after batch, and leaves it empty", async () => {
    const events = someEvents(250);
    await record(events);
    const file = join(dir, "events.jsonl");
    relayTo(fileEventSink(file), { batchSize: 100 });

    await expect.poll(pending, { timeout: 30_000 }).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(events.map((event) => `${event}\n`).join(""));
  });

  it("publishes what is written later too, without a restart", async () => {
    const sink = recordingSink();
    relayTo(sink);
    const events = someEvents(3);
    await record(events);
    await expect.poll(() => sink.published.map((event) => event.json), { timeout: 30_000 }).toEqual(events);
  });

  it("drops an entry only once the sink has acknowledged it", async () => {
    const events = someEvents(5);
    await record(events);
    const sink = recordingSink();
    let acknowledge = () => {};
    sink.gate = new Promise((resolve) => {
      acknowledge = resolve;
    });
    relayTo(sink);

    await expect.poll(() => sink.calls, { timeout: 30_000 }).toBe(1);
    expect(await pending()).toEqual(events);
    acknowledge();
    await expect.poll(pending, { timeout: 30_000 }).toEqual([]);
    expect(sink.published.map((event) => event.json)).toEqual(events);
  });

  it("keeps a batch the sink refused, and publishes it again in order once the sink takes it, warning without the events", async () => {
    const events = someEvents(4);
    await record(events);
    const sink = recordingSink();
    sink.failures = 3;
    const failuresBefore = await counterValue("auth_events_relay_failures_total", { source: "session" });
    const { logger, lines } = capturingLogger();
    relayTo(sink, { logger });

    await expect.poll(pending, { timeout: 30_000 }).toEqual([]);
    expect(sink.published.map((event) => event.json)).toEqual(events);
    expect(await counterValue("auth_events_relay_failures_total", { source: "session" })).toBe(
      failuresBefore + 3,
    );
    const warnings = lines.filter((line) => line.includes("security events not relayed, retrying"));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain("sink unavailable");
    for (const line of lines) {
      for (const event of events) {
        expect(line).not.toContain(idOf(event));
        expect(line).not.toContain((JSON.parse(event) as { userid: string }).userid);
      }
    }
    expect(lines.some((line) => line.includes("security events relayed again"))).toBe(true);
  });

  it("counts what it published and how long after its commit", async () => {
    const before = await counterValue("auth_events_relayed_total", {
      source: "session",
      outcome: "published",
    });
    const delays = async () =>
      (await metrics.eventsRelayDelay.get()).values.find(
        (sample) =>
          sample.metricName === "auth_events_relay_delay_seconds_count" && sample.labels.source === "session",
      )?.value ?? 0;
    const delaysBefore = await delays();
    await record(someEvents(2));
    relayTo(recordingSink());

    await expect.poll(pending, { timeout: 30_000 }).toEqual([]);
    expect(await counterValue("auth_events_relayed_total", { source: "session", outcome: "published" })).toBe(
      before + 2,
    );
    expect(await delays()).toBe(delaysBefore + 2);
  });

  it("drops an entry that is no event, with an error naming how many, and relays the others", async () => {
    const [first, second] = someEvents(2);
    await record([first ?? "", "not an event", second ?? ""]);
    const sink = recordingSink();
    const { logger, lines } = capturingLogger();
    relayTo(sink, { logger });

    await expect.poll(pending, { timeout: 30_000 }).toEqual([]);
    expect(sink.published.map((event) => event.json)).toEqual([first, second]);
    expect(lines.filter((line) => line.includes('"malformed":1'))).toHaveLength(1);
  });

  it("stops after the batch under way: its entries are dropped, the rest wait", async () => {
    const events = someEvents(5);
    await record(events);
    const sink = recordingSink();
    let acknowledge = () => {};
    sink.gate = new Promise((resolve) => {
      acknowledge = resolve;
    });
    const running = relayTo(sink, { batchSize: 2 });
    await expect.poll(() => sink.calls, { timeout: 30_000 }).toBe(1);

    const stopped = running.stop();
    acknowledge();
    await stopped;
    expect(sink.published.map((event) => event.json)).toEqual(events.slice(0, 2));
    expect(await pending()).toEqual(events.slice(2));
    expect(sink.calls).toBe(1);
  });

  it("reads nothing before its store is ready", async () => {
    let isReady = false;
    const readsBeforeReady: boolean[] = [];
    const source = keyValueOutboxSource(store);
    let ready = () => {};
    relayTo(recordingSink(), {
      source: {
        relayBatch: (count, publish) => {
          readsBeforeReady.push(!isReady);
          return source.relayBatch(count, publish);
        },
      },
      ready: new Promise((resolve) => {
        ready = resolve;
      }),
    });
    await new Promise((resolve) => setImmediate(resolve));
    isReady = true;
    ready();
    await expect.poll(() => readsBeforeReady.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(readsBeforeReady).not.toContain(true);
  });
});

describe('the relay\'s pace (docs/operations.md, "Security events")', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The store's outbox source, with the times it was read. */
  function countedSource() {
    const source = keyValueOutboxSource(store);
    const readAt: number[] = [];
    return {
      readAt,
      relayBatch: (count: number, publish: Parameters<typeof source.relayBatch>[1]) => {
        readAt.push(Date.now());
        return source.relayBatch(count, publish);
      },
    };
  }

  it("reads an outbox that stays empty less and less often, down to once every idlePollMs", async () => {
    vi.useFakeTimers({ now: 0 });
    const source = countedSource();
    relayTo(recordingSink(), { source, pollMs: 100, idlePollMs: 800 });
    await vi.advanceTimersByTimeAsync(10_000);
    // 100, 200, 400 ms apart, then 800: 15 reads in 10 s where a read every 100 ms makes 101.
    expect(source.readAt.slice(0, 5)).toEqual([0, 100, 300, 700, 1_500]);
    expect(source.readAt).toHaveLength(15);
  });

  it("reads within pollMs of a wake however long the outbox stayed empty, and every pollMs again while it finds entries", async () => {
    vi.useFakeTimers({ now: 0 });
    const source = countedSource();
    const sink = recordingSink();
    relayTo(sink, { source, pollMs: 100, idlePollMs: 800 });
    await vi.advanceTimersByTimeAsync(10_000);
    // The last read was at 9,500 ms: unwoken, the next would be at 10,300.
    expect(source.readAt.at(-1)).toBe(9_500);
    const events = someEvents(1);
    await record(events);
    relay?.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(sink.published.map((event) => event.json)).toEqual(events);
    await vi.advanceTimersByTimeAsync(100);
    expect(source.readAt.filter((at) => at > 9_500)).toEqual([10_100, 10_200]);
  });
});
