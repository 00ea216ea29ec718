import type { LoadResult } from "./http-load.js";
import type { NatsGate } from "./nats-gate.js";
import type { Outboxes } from "./outboxes.js";
import { type PublishedEvent, publishedEvents } from "./published-events.js";
import { quantile } from "./ratios.js";
import { measureRelayCostsApart, type RelayUnitCosts } from "./relay-cost.js";
import type { Scenario } from "./report.js";

/** The name the benchmark watches NATS's server by, for its CPU (ProcessSampler's `cpuOnly`). */
export const natsServerName = "nats-server";

type Nats = "published" | "cut";

/** One window of password logins, per login. */
export interface EventsWindow {
  nats: Nats;
  loginsPerSecond: number;
  /** CPU milliseconds of the suite's seven processes. */
  suiteCpuMs: number;
  /** CPU milliseconds of NATS's server (the machine's: other clients' work included). */
  natsServerCpuMs: number;
  redisByCommand: Record<string, number>;
  postgres: number;
}

export interface EventsCost {
  /** Publishing and cut windows, in the order run (published, cut, cut, published: drift falls on both). */
  windows: EventsWindow[];
  /** By source: events per login, and milliseconds from commit to the stream (publishing windows). */
  delays: Record<string, { events: number; perLogin: number; p50Ms: number; p99Ms: number; maxMs: number }>;
  units: RelayUnitCosts;
  /** CPU milliseconds per login, and their share of the suite's. */
  share: {
    /** The suite's seven processes, publishing windows. */
    loginMs: number;
    /** Published − cut windows, suite and nats-server: the whole relay, as far as the noise lets it show. */
    windowsDifferenceMs: number;
    /** Largest minus smallest suite CPU per login among the windows of each kind, over their mean. */
    spread: Record<Nats, number>;
    /** The events' own parts: made, appended, relayed, stored by NATS and by Redis. */
    eventsMs: number;
    /** The polls of the relays with nothing to relay, per second, over the logins per second. */
    idleRelaysMs: number;
    share: number;
  };
}

export interface EventsCostOptions {
  /** The benchmark's measure (main.ts): the suite's CPU, operations and latency over a load. */
  measure(name: string, run: () => Promise<LoadResult>): Promise<Scenario | undefined>;
  /** Password logins (login, then checkpassword) for the scenario's time. */
  passwordLogins(): Promise<LoadResult>;
  /** The suite's process names (what is not one of them in a scenario's CPU is not the suite's). */
  suiteProcesses: string[];
  gate: NatsGate;
  outboxes: Outboxes;
  /** NATS itself, not through the gate: where the published events are read. */
  natsUrl: string;
  companyId: string;
  redisUrl: string;
  redisPrefix: string;
  databaseUrl: string;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/**
 * What the security events cost a password login (docs/performance.md, "Security events (2026-11-26)").
 * Password logins in windows where the relays publish to NATS and windows where the gate cuts NATS
 * off (the services still write every event to their outboxes; the relays fail and back off), in
 * the order published, cut, cut, published, after one unmeasured: the suite's and nats-server's
 * CPU per login and the operations per login in each, and the delays from commit to the stream
 * of the publishing windows' events. Then each part of an event's cost on its own
 * (relay-cost.ts), which the windows' difference is too noisy to show, summed per login.
 */
export async function measureEventsCost(options: EventsCostOptions): Promise<EventsCost | undefined> {
  const { gate, outboxes } = options;
  const order: Nats[] = ["published", "cut", "cut", "published"];
  const windows: EventsWindow[] = [];
  const published: PublishedEvent[] = [];
  let publishedLogins = 0;
  let publishedSeconds = 0;
  // Unmeasured: the first load on fresh processes is slower (compilation), which would fall on one kind.
  await options.passwordLogins();
  for (const nats of order) {
    let from = 0;
    let to = 0;
    const scenario = await options.measure(`security events: password login, NATS ${nats}`, async () => {
      if (nats === "cut") gate.cut();
      from = Date.now();
      const result = await options.passwordLogins();
      to = Date.now();
      return result;
    });
    // Opened only now, once the scenario's counts are read: the backlog's publication is no window's.
    gate.open();
    if (!scenario) return undefined;
    const logins = Math.max(1, (scenario.requests - scenario.errors - scenario.failures) / 2);
    const cpuMs = (names: string[]) =>
      (names.reduce((sum, name) => sum + (scenario.cpuSeconds[name] ?? 0), 0) * 1000) / logins;
    windows.push({
      nats,
      loginsPerSecond: logins / scenario.durationSeconds,
      suiteCpuMs: cpuMs(options.suiteProcesses),
      natsServerCpuMs: cpuMs([natsServerName]),
      // Per request, two requests a login.
      redisByCommand: Object.fromEntries(
        Object.entries(scenario.operations.redisByCommand).map(([command, count]) => [command, count * 2]),
      ),
      postgres: scenario.operations.postgres * 2,
    });
    if (nats === "published") {
      await outboxes.untilEmpty();
      published.push(...(await publishedEvents(options.natsUrl, { companyId: options.companyId, from, to })));
      publishedLogins += logins;
      publishedSeconds += scenario.durationSeconds;
    }
  }

  const bySource = new Map<string, PublishedEvent[]>();
  for (const event of published) {
    const group = bySource.get(event.source) ?? [];
    group.push(event);
    bySource.set(event.source, group);
  }
  const delays: EventsCost["delays"] = {};
  for (const [source, events] of bySource) {
    const sorted = events.map((event) => event.delayMs).sort((a, b) => a - b);
    delays[source] = {
      events: events.length,
      perLogin: events.length / Math.max(1, publishedLogins),
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
    };
  }
  // The unit costs, measured with the busiest source's events at its rate under load.
  const [busiest] = [...bySource].sort(([, a], [, b]) => b.length - a.length);
  if (!busiest) throw new Error("no security event of the password logins reached the stream");
  const units = await measureRelayCostsApart({
    sample: busiest[1][0]?.json ?? "",
    eventsPerSecond: busiest[1].length / publishedSeconds,
    redisUrl: options.redisUrl,
    redisPrefix: options.redisPrefix,
    databaseUrl: options.databaseUrl,
  });

  const of = (nats: Nats) => windows.filter((window) => window.nats === nats);
  const spreadOf = (nats: Nats) => {
    const cpu = of(nats).map((window) => window.suiteCpuMs);
    return (Math.max(...cpu) - Math.min(...cpu)) / mean(cpu);
  };
  const withNats = (nats: Nats) => mean(of(nats).map((window) => window.suiteCpuMs + window.natsServerCpuMs));
  const perLogin = (nats: Nats, command: string) => mean(of(nats).map((w) => w.redisByCommand[command] ?? 0));
  // Redis's side of the relays: the commands the publishing windows sent beyond the cut ones.
  const relayRedisUs = ["xrange", "evalsha", "xdel"].reduce(
    (sum, command) =>
      sum +
      Math.max(0, perLogin("published", command) - perLogin("cut", command)) * (units.redisUs[command] ?? 0),
    0,
  );
  const eventsPerLogin = Object.values(delays).reduce((sum, { perLogin }) => sum + perLogin, 0);
  const eventUs =
    units.makeUs +
    units.appendUs +
    (units.redisUs.xadd ?? 0) +
    units.relay.relayUs +
    units.relay.natsServerUs;
  const eventsMs = (eventsPerLogin * eventUs + relayRedisUs) / 1000;
  // Every service with no event in the scenario polls its empty outbox all along.
  const withEvents = new Set([...bySource.keys()].map((source) => source.replace(/^auth-suite\//, "")));
  const idleRelaysMsPerSecond = Object.entries(outboxes.kinds)
    .filter(([service]) => !withEvents.has(service))
    .reduce(
      (sum, [, kind]) =>
        sum +
        (kind === "redis"
          ? units.idlePollMs.redis
          : units.idlePollMs.postgres + units.idlePollMs.postgresServer),
      0,
    );
  const idleRelaysMs = idleRelaysMsPerSecond / mean(of("published").map((window) => window.loginsPerSecond));
  const loginMs = mean(of("published").map((window) => window.suiteCpuMs));
  const cost: EventsCost = {
    windows,
    delays,
    units,
    share: {
      loginMs,
      windowsDifferenceMs: withNats("published") - withNats("cut"),
      spread: { published: spreadOf("published"), cut: spreadOf("cut") },
      eventsMs,
      idleRelaysMs,
      share: (eventsMs + idleRelaysMs) / loginMs,
    },
  };
  process.stdout.write(describeEventsCost(cost));
  return cost;
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const listed = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([name, value]) => `${name} ${fixed(value)}`)
    .join(", ");

export function describeEventsCost(cost: EventsCost): string {
  const { share, units } = cost;
  const lines = [
    "security events, per password login:",
    ...cost.windows.map(
      (window) =>
        `  NATS ${window.nats}: ${fixed(window.loginsPerSecond, 0)} logins/s, CPU ms: suite ${fixed(window.suiteCpuMs)}, nats-server ${fixed(window.natsServerCpuMs)}; Redis ${listed(window.redisByCommand)}; PostgreSQL ${fixed(window.postgres)}`,
    ),
    ...Object.entries(cost.delays).map(
      ([source, delay]) =>
        `  ${source}: ${delay.events} events (${fixed(delay.perLogin)} a login), commit to stream p50 ${fixed(delay.p50Ms, 0)} ms, p99 ${fixed(delay.p99Ms, 0)} ms, max ${fixed(delay.maxMs, 0)} ms`,
    ),
    `  per event, CPU µs: made ${fixed(units.makeUs, 1)}, appended by the write's script ${fixed(units.appendUs, 1)} (Redis's XADD ${fixed(units.redisUs.xadd ?? 0, 1)}), relayed at ${fixed(units.relay.eventsPerSecond, 0)}/s ${fixed(units.relay.relayUs, 1)} (nats-server ${fixed(units.relay.natsServerUs, 1)}; ${units.relay.events} events); Redis µs per call: ${listed(units.redisUs)}`,
    `  a relay polling an empty outbox, CPU ms per second: on Redis ${fixed(units.idlePollMs.redis)}, on PostgreSQL ${fixed(units.idlePollMs.postgres)} (and PostgreSQL's backend ${fixed(units.idlePollMs.postgresServer)})`,
    `  suite CPU per login: published − cut ${fixed(share.windowsDifferenceMs)} ms (with nats-server) of ${fixed(share.loginMs)} ms; spread between windows of a kind: published ${fixed(share.spread.published * 100, 1)}%, cut ${fixed(share.spread.cut * 100, 1)}%`,
    `  outbox: events ${fixed(share.eventsMs, 3)} ms + idle relays ${fixed(share.idleRelaysMs, 3)} ms = ${fixed(share.share * 100, 2)}% of the suite's CPU per login (target under 5%: ${share.share < 0.05 ? "yes" : "NO"})`,
  ];
  return `${lines.join("\n")}\n`;
}
