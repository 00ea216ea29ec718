import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  type DetailField,
  type EventDetail,
  type EventFacts,
  type EventSource,
  type EventType,
  eventCatalogue,
  eventFromJson,
  eventJson,
  keyValueOutboxSource,
  newEvent,
  type OutboxSource,
  startRelay,
  systemOrigin,
} from "@auth/events";
import { natsEventSink } from "@auth/events/nats";
import { eventOutboxMigration, pgOutboxSource } from "@auth/events/pg";
import { startNatsServer } from "@auth/events/testing";
import { connectRedis, type RedisClient, RedisKeyValueStore } from "@auth/kv";
import { createTestDatabase } from "@auth/pg/testing";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { pino } from "pino";
import { listeningProcess, threadsCpuNs } from "./processes.js";

/** What one event costs, each part measured alone (docs/performance.md, "Security events (2026-11-26)"). */
export interface RelayUnitCosts {
  /** CPU µs: a service making the event and its JSON. */
  makeUs: number;
  /** CPU µs: a write's script given the event, beyond the same write without one (the client's side). */
  appendUs: number;
  /**
   * A relay of a Redis outbox, publishing to a NATS server of its own while events are written at
   * `eventsPerSecond` (so in the batches the load makes): CPU µs per event of the relay (its polls
   * included) and of nats-server.
   */
  relay: { eventsPerSecond: number; events: number; relayUs: number; natsServerUs: number };
  /** CPU ms per second of a relay polling an empty outbox: of the process; of PostgreSQL's backend. */
  idlePollMs: { redis: number; postgres: number; postgresServer: number };
  /** Redis's own µs per call over these measurements (INFO commandstats; every client's calls). */
  redisUs: Record<string, number>;
}

export interface RelayCostOptions {
  /** A published event of the scenario: the events measured are made like it. */
  sample: string;
  /** The rate of such events under the scenario's load. */
  eventsPerSecond: number;
  redisUrl: string;
  /** Under the benchmark's own prefix, which it deletes at the end. */
  redisPrefix: string;
  databaseUrl: string;
}

const silent = pino({ level: "silent" });
/** Each measurement is taken in this many rounds, in turns with its baseline; the median is kept. */
const rounds = 3;
const phaseMs = 5_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The facts of a published event, for making more like it. */
function factsOf(json: string): { source: EventSource; facts: EventFacts } {
  const event = eventFromJson(json);
  const type = event.type as EventType;
  const field = (eventCatalogue[type] as { detail?: DetailField }).detail;
  return {
    source: event.source.replace(/^auth-suite\//, "") as EventSource,
    facts: {
      type,
      companyId: event.companyid,
      userId: event.userid,
      sessionId: event.sessionid,
      subject: event.subject,
      outcome: event.outcome,
      origin: {
        actor: event.actor ?? systemOrigin.actor,
        traceId: event.traceid,
        clientAddress: event.clientaddress,
      },
      detail: field ? ({ [field]: event[field] } as EventDetail) : undefined,
    },
  };
}

/** CPU µs of this process, and of a server's threads, while `work` runs. */
async function cpuOf<T>(work: () => Promise<T>, serverPid?: number) {
  const server = serverPid === undefined ? 0 : threadsCpuNs(serverPid);
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return {
    result,
    processUs: used.user + used.system,
    serverUs: serverPid === undefined ? 0 : (threadsCpuNs(serverPid) - server) / 1000,
  };
}

/** Calls `write` about `perSecond` times a second for a phase; resolves with how many it made. */
async function steadily(perSecond: number, write: () => Promise<void>): Promise<number> {
  const started = performance.now();
  let made = 0;
  while (performance.now() - started < phaseMs) {
    await write();
    made += 1;
    const due = started + (made * 1000) / perSecond - performance.now();
    if (due > 0) await sleep(due);
  }
  return made;
}

async function commandStats(redis: RedisClient): Promise<Record<string, { calls: number; usec: number }>> {
  const stats: Record<string, { calls: number; usec: number }> = {};
  for (const line of (await redis.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (match) stats[match[1] as string] = { calls: Number(match[2]), usec: Number(match[3]) };
  }
  return stats;
}

/**
 * Each part of an event's cost, with the services' own code (newEvent, the key-value store's
 * writes, startRelay with a Redis or PostgreSQL outbox and the NATS sink), in this process while
 * the suite is idle: parts too small for the suite's CPU figures to show are measured where
 * nothing else moves. The relay publishes to a nats-server of its own, whose CPU is then the
 * relay's alone; a PostgreSQL outbox is a database of its own.
 */
export async function measureRelayCosts(options: RelayCostOptions): Promise<RelayUnitCosts> {
  const { source, facts } = factsOf(options.sample);
  const event = () => eventJson(newEvent(source, facts));
  const clients: RedisClient[] = [];
  const connect = async (prefix: string) => {
    const client = await connectRedis({ kind: "standalone", url: options.redisUrl }, { keyPrefix: prefix });
    clients.push(client);
    return client;
  };
  const storeFor = async (name: string) =>
    new RedisKeyValueStore(await connect(`${options.redisPrefix}relay-cost:${name}:`));
  const nats = await startNatsServer();
  const natsPid = listeningProcess(Number(new URL(nats.url).port));
  const sink = natsEventSink(nats.url, silent);
  const database = await createTestDatabase(options.databaseUrl, "bench_outbox");
  // One connection, kept: its backend is the one whose CPU is read.
  const pool = new pg.Pool({ connectionString: database.url, max: 1, idleTimeoutMillis: 0 });
  const relayWhile = async <T>(outbox: OutboxSource, work: () => Promise<T>) => {
    const relay = startRelay({ service: source, source: outbox, sink, logger: silent });
    try {
      return await work();
    } finally {
      await relay.stop();
    }
  };
  try {
    const stats = await connect("");
    const empty = await storeFor("empty");
    const written = await storeFor("written");
    const relayed = await storeFor("relayed");
    await pool.query(eventOutboxMigration);
    const backend = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
    // The sink connects in the background; publishing nothing succeeds once it has.
    while (
      !(await sink.publish([]).then(
        () => true,
        () => false,
      ))
    )
      await sleep(100);
    const statsBefore = await commandStats(stats);

    const makeRounds = 20_000;
    for (let i = 0; i < 1_000; i++) event();
    const made = await cpuOf(async () => {
      for (let i = 0; i < makeRounds; i++) event();
    });

    // The same write, without and with an event, in turns.
    await written.set("key", "value", 60_000);
    const writes = 500;
    const write = (events?: string[]) => async () => {
      for (let i = 0; i < writes; i++) {
        await written.compareAndSet(
          "key",
          "value",
          "value",
          60_000,
          events && { events: [events[i] as string] },
        );
      }
    };
    const appendUs: number[] = [];
    await write(Array.from({ length: writes }, event))();
    await write()();
    for (let round = 0; round < rounds * 2; round++) {
      const prepared = Array.from({ length: writes }, event);
      const without = await cpuOf(write());
      const withEvent = await cpuOf(write(prepared));
      appendUs.push((withEvent.processUs - without.processUs) / writes);
    }

    const idle = () => cpuOf(() => sleep(phaseMs));
    const redisPollMs: number[] = [];
    const postgresPollMs: number[] = [];
    const postgresServerMs: number[] = [];
    const relayUs: number[] = [];
    const natsServerUs: number[] = [];
    let events = 0;
    for (let round = 0; round < rounds; round++) {
      const baseline = await idle();
      const redisPolls = await relayWhile(keyValueOutboxSource(empty), idle);
      const postgresPolls = await relayWhile(pgOutboxSource(drizzle(pool)), () =>
        cpuOf(() => sleep(phaseMs), backend),
      );
      redisPollMs.push((redisPolls.processUs - baseline.processUs) / phaseMs);
      postgresPollMs.push((postgresPolls.processUs - baseline.processUs) / phaseMs);
      postgresServerMs.push(postgresPolls.serverUs / phaseMs);

      // The same writes without a relay, then with one relaying them as they come.
      const writesAlone = await cpuOf(
        () =>
          steadily(options.eventsPerSecond, () => written.set("key", "value", 60_000, { events: [event()] })),
        natsPid,
      );
      const withRelay = await relayWhile(keyValueOutboxSource(relayed), () =>
        cpuOf(async () => {
          const count = await steadily(options.eventsPerSecond, () =>
            relayed.set("key", "value", 60_000, { events: [event()] }),
          );
          while ((await relayed.outbox.read(1)).length > 0) await sleep(50);
          return count;
        }, natsPid),
      );
      events += withRelay.result;
      relayUs.push((withRelay.processUs - writesAlone.processUs) / withRelay.result);
      natsServerUs.push((withRelay.serverUs - writesAlone.serverUs) / withRelay.result);
    }
    const statsAfter = await commandStats(stats);

    return {
      makeUs: made.processUs / makeRounds,
      appendUs: median(appendUs),
      relay: {
        eventsPerSecond: options.eventsPerSecond,
        events,
        relayUs: median(relayUs),
        natsServerUs: median(natsServerUs),
      },
      idlePollMs: {
        redis: median(redisPollMs),
        postgres: median(postgresPollMs),
        postgresServer: median(postgresServerMs),
      },
      redisUs: Object.fromEntries(
        ["xadd", "xrange", "xdel", "evalsha"].map((command) => {
          const calls = (statsAfter[command]?.calls ?? 0) - (statsBefore[command]?.calls ?? 0);
          const usec = (statsAfter[command]?.usec ?? 0) - (statsBefore[command]?.usec ?? 0);
          return [command, calls > 0 ? usec / calls : 0];
        }),
      ),
    };
  } finally {
    await sink.close();
    await nats.stop();
    await pool.end();
    await database.drop();
    await Promise.all(clients.map((client) => client.quit()));
  }
}

/**
 * measureRelayCosts in a node process of its own (relay-cost-process.ts), so that neither the
 * benchmark's heap nor its load generator's timers fall on the figures.
 */
export async function measureRelayCostsApart(options: RelayCostOptions): Promise<RelayUnitCosts> {
  const entry = fileURLToPath(new URL("./relay-cost-process.js", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [entry, JSON.stringify(options)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as RelayUnitCosts;
}
