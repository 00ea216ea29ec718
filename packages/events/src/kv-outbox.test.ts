import type { OutboxEntry } from "@auth/kv";
import { MemoryKeyValueStore } from "@auth/kv";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyValueOutboxSource, relayLeaseKey } from "./kv-outbox.js";
import { someEvents } from "./relay.testing.js";

let now = 1_000_000;
let store: MemoryKeyValueStore;
const leaseMs = 10_000;

beforeEach(async () => {
  store = new MemoryKeyValueStore({ now: () => now });
  for (const [index, event] of someEvents(5).entries()) {
    await store.set(`key-${index}`, "v", 600_000, { events: [event] });
  }
});
afterEach(() => store.close());

const replica = (replicaId: string) => keyValueOutboxSource(store, { replicaId, leaseMs });

/** A publication that keeps what it was handed. */
function keeping() {
  const handed: OutboxEntry[][] = [];
  return { handed, publish: async (entries: readonly OutboxEntry[]) => void handed.push([...entries]) };
}

describe("the key-value outbox, relayed by one replica at a time", () => {
  it("hands out the oldest entries in the order they were written and drops them once published", async () => {
    const all = await store.outbox.read(10);
    const { handed, publish } = keeping();
    expect(await replica("a").relayBatch(3, publish)).toBe(3);
    expect(handed).toEqual([all.slice(0, 3)]);
    expect(await store.outbox.read(10)).toEqual(all.slice(3));
  });

  it("keeps the entries when the publication fails", async () => {
    const all = await store.outbox.read(10);
    await expect(
      replica("a").relayBatch(3, async () => {
        throw new Error("sink unavailable");
      }),
    ).rejects.toThrow("sink unavailable");
    expect(await store.outbox.read(10)).toEqual(all);
  });

  it("takes no lease while the outbox is empty", async () => {
    await store.outbox.acknowledge((await store.outbox.read(10)).map((entry) => entry.position));
    expect(await replica("a").relayBatch(10, keeping().publish)).toBe(0);
    expect(await store.get(relayLeaseKey)).toBeNull();
  });

  it("gives another replica nothing while the lease is held, and renews it with each batch", async () => {
    const a = replica("a");
    const b = replica("b");
    await a.relayBatch(1, keeping().publish);
    now += leaseMs - 1;
    await a.relayBatch(1, keeping().publish);
    now += leaseMs - 1;

    const { handed, publish } = keeping();
    expect(await b.relayBatch(10, publish)).toBe(0);
    expect(handed).toEqual([]);
    expect(await store.get(relayLeaseKey)).toBe("a");
  });

  it("lets another replica take over once the lease has lapsed (its holder stopped without a word)", async () => {
    await replica("a").relayBatch(1, keeping().publish);
    now += leaseMs + 1;
    expect(await replica("b").relayBatch(10, keeping().publish)).toBe(4);
    expect(await store.get(relayLeaseKey)).toBe("b");
  });

  it("lets another replica relay at once when the holder releases the lease", async () => {
    const a = replica("a");
    await a.relayBatch(1, keeping().publish);
    await a.release?.();
    expect(await replica("b").relayBatch(10, keeping().publish)).toBe(4);
  });

  it("leaves a batch that outlived its lease to the new holder, which publishes it again", async () => {
    const all = await store.outbox.read(10);
    const b = replica("b");
    await expect(
      replica("a").relayBatch(2, async () => {
        now += leaseMs + 1;
        await b.relayBatch(1, keeping().publish);
      }),
    ).rejects.toThrow("relay lease lost");
    // b dropped the first entry; a dropped nothing.
    expect(await store.outbox.read(10)).toEqual(all.slice(1));
  });
});
