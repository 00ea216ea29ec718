import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { KeyValueStore } from "@auth/kv";
import type { OutboxSource } from "./relay.js";

/** The key whose value names the replica that relays the store's outbox (under the store's prefix). */
export const relayLeaseKey = "events:relay-lease";

export interface KeyValueOutboxOptions {
  /** How this replica names itself in the lease; unique per process by default. */
  replicaId?: string;
  /** Milliseconds the lease lasts unless renewed: how long the outbox waits when its relay dies. */
  leaseMs?: number;
}

/**
 * The outbox of a key-value store (session, otp, recovery: `KeyValueStore.outbox`). One replica
 * relays it at a time: the one holding the lease key, taken when absent and renewed before each
 * batch and again before the batch is dropped. An empty outbox costs one read, and no lease.
 */
export function keyValueOutboxSource(
  store: KeyValueStore,
  options: KeyValueOutboxOptions = {},
): OutboxSource {
  const replica = options.replicaId ?? `${hostname()}/${randomUUID()}`;
  const leaseMs = options.leaseMs ?? 10_000;
  const holdLease = async () =>
    (await store.compareAndSet(relayLeaseKey, replica, replica, leaseMs)) ||
    (await store.setIfAbsent(relayLeaseKey, replica, leaseMs));

  return {
    async relayBatch(count, publish) {
      if ((await store.outbox.read(1)).length === 0) return 0;
      if (!(await holdLease())) return 0;
      const entries = await store.outbox.read(count);
      if (entries.length === 0) return 0;
      await publish(entries);
      // A batch that outlived the lease is the new holder's to drop: it publishes it again, and
      // the sink drops the copies by event id.
      if (!(await holdLease())) throw new Error("relay lease lost during the batch, left to its new holder");
      await store.outbox.acknowledge(entries.map((entry) => entry.position));
      return entries.length;
    },
    async release() {
      await store.compareAndSet(relayLeaseKey, replica, null, leaseMs);
    },
  };
}
