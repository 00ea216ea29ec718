import { metrics } from "@auth/telemetry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KeyValueStore } from "./store.js";
import { keyValueKinds } from "./testing.js";

const standalone = keyValueKinds().find((kind) => kind.name === "redis");

/** The commands the store sent while `act` ran, by name, sorted. */
async function commandsOf(act: () => Promise<unknown>): Promise<string[]> {
  const counts = async () =>
    new Map(
      (await metrics.redisCommands.get()).values.map(({ labels, value }) => [String(labels.command), value]),
    );
  const before = await counts();
  await act();
  return [...(await counts())]
    .flatMap(([command, count]) => Array<string>(count - (before.get(command) ?? 0)).fill(command))
    .sort();
}

describe.skipIf(!standalone)("the writes of a RedisKeyValueStore on a standalone Redis", () => {
  let store: KeyValueStore;
  beforeEach(async () => {
    store = (await standalone?.open()) as KeyValueStore;
  });
  afterEach(async () => {
    await store.close();
  });

  const events = { events: ['{"type":"test"}'] };

  it("make their change and append their events in one command", async () => {
    await store.set("held", "1", 10_000);
    expect(
      await commandsOf(() =>
        Promise.all([
          store.set("a", "1", 10_000, events),
          store.setIfAbsent("b", "1", 10_000, events),
          store.take("held", events),
          store.delete("a", events),
          store.compareAndSet("b", "1", "2", 10_000, events),
          store.increment("c", 10_000, events),
          store.incrementBelow("c", 10_000, 5, events),
          store.incrementCounters("k", 10_000, ["a", "b"], { a: 5 }, events),
        ]),
      ),
    ).toEqual(Array(8).fill("evalsha"));
    expect(await store.outbox.read(100)).toHaveLength(8);
  });

  it("without events, send the commands they always did", async () => {
    expect(
      await commandsOf(() =>
        Promise.all([
          store.set("a", "1", 10_000),
          store.setIfAbsent("b", "1", 10_000),
          store.take("a"),
          store.delete("b"),
          store.compareAndSet("a", "1", "2", 10_000),
          store.increment("c", 10_000),
          store.incrementBelow("c", 10_000, 5),
        ]),
      ),
    ).toEqual(["del", "evalsha", "evalsha", "evalsha", "getdel", "set", "set"]);
  });
});
