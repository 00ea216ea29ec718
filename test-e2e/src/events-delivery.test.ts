import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { natsServerPath, type RunningNats, startNatsServer } from "@auth/events/testing";
import { smsLimitsOutOfTheWay, smsSettings } from "@auth/grpc-kit/client";
import { createTestDatabase } from "@auth/pg/testing";
import type { Event } from "@auth/proto/events";
import { type RunningSuite, type ServiceName, serviceNames, startSuite } from "@auth/suite";
import { testBudgets } from "@auth/testing";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventStream, type StreamedEvent } from "./support/event-stream.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
  type UserOptions,
} from "./support/fixtures.js";
import { lastOtp, linkToken, mailTo } from "./support/outbox.js";
import {
  type PrivatePostgres,
  type PrivateRedis,
  privateStoresMissing,
  startPrivatePostgres,
  startPrivateRedis,
} from "./support/private-stores.js";
import { postAuth } from "./support/timed-requests.js";

/**
 * The guarantee of docs/operations.md, "Security events", under faults: the relay, NATS and each
 * service are killed in the middle of a load of whole flows; afterwards every change the suite
 * acknowledged has exactly one event (after dedupe by id) in the stream AUTH_EVENTS, in order per
 * user from each service, and the stream holds each event id once.
 *
 * The suite runs with NATS_URL on a nats-server, a PostgreSQL cluster and a Redis of this file's
 * own. Unlike faults.test.ts, Redis runs with `--appendonly yes --appendfsync always`, so that a
 * Redis that crashed and started again keeps the outboxes of session, otp and recovery (and the
 * sessions of the load) as docs/operations.md, "Security events", asks of a deployment that wants
 * no event lost.
 *
 * The load: clients run whole flows in a loop (password logins to authorized and logout; a first
 * login that must set a new password; an SMS code login; a recovery by e-mail link to a new
 * password), each flow on a user or session of its own, so that each change it makes names one
 * event: a ledger keeps every change answered 2xx, as `changeOf` names its event. A step that was
 * not acknowledged (503 while something is away) ends the pass and is never asked again, except
 * listing the sessions and logout, asked again until answered (a second logout of a session that
 * ended answers 401). The faults, in turn: NATS killed and restarted on its port and files; each
 * service killed and restarted (its relay dies with it); identity and session killed right after
 * a burst, while their outboxes hold events; Redis crashed and restarted. Then the load stops, the
 * test waits until every outbox is empty (all published), reads the whole stream and checks it.
 */

/** A request of the load with no answer in this long is aborted. */
const hangMs = 30_000;
/** How long the load may take to get through again after a fault, on a loaded machine. */
const backWithinMs = 90_000;
/** How long the outboxes may take to empty once the load stops (a dead relay's lease lasts 10 s). */
const drainWithinMs = 120_000;
const faultTestMs = 3 * testBudgets.testMs;
const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";
const question = { controlQuestion: "Name of your first pet?", controlAnswer: "Rex" };
const redisKeyPrefix = "events:";
/** The services whose outbox is a Redis stream; identity's, disclaimer's and audit's is a table. */
const keyValueServices = ["session", "otp", "recovery"] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the ledger and the stream name one change: its event's type and service, and what it is about. */
const changeKey = (type: string, service: ServiceName, about: string) =>
  `${type} from ${service} of ${about}`;
const ofSession = (sessionId: string) => `session ${sessionId}`;
const ofUser = (userId: string) => `user ${userId}`;

/**
 * The change an event tells of, for the kinds the load makes at most once per session (a login,
 * its code, its logout) or per user (each flow that changes a user has a user of its own);
 * undefined for the others (an operator's, a revocation for a new password).
 */
function changeOf(event: Event): string | undefined {
  const service = event.source.replace(/^auth-suite\//, "") as ServiceName;
  switch (event.type) {
    case "auth.login.succeeded":
    case "auth.otp.sent":
    case "auth.second_factor.passed":
      return changeKey(event.type, service, ofSession(event.sessionid));
    case "auth.session.revoked":
      return event.sessionRevoked?.reason === "logout"
        ? changeKey(event.type, service, ofSession(event.sessionid))
        : undefined;
    case "auth.password.changed":
    case "auth.disclaimer.accepted":
    case "auth.recovery.started":
    case "auth.recovery.finished":
      return changeKey(event.type, service, ofUser(event.userid));
    default:
      return undefined;
  }
}

const timeOf = (event: Event) => event.time?.getTime() ?? 0;

/** The value below which `share` of the sorted values lie. */
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}
const acknowledged = (answer: Answer) =>
  answer.status >= 200 && answer.status < 300 && answer.body.status === "success";
const tokenOf = (answer: Answer) => String(answer.body.session_token);

const missing = privateStoresMissing() ?? (existsSync(natsServerPath) ? undefined : `no ${natsServerPath}`);

if (missing !== undefined) {
  describe("security events under faults", () => {
    it.skip(`needs a private PostgreSQL 15, redis-server and nats-server: ${missing}`, () => {});
  });
}

describe.runIf(missing === undefined)(
  "security events under faults: every acknowledged change has exactly one event in AUTH_EVENTS, in order per user",
  () => {
    let pgServer: PrivatePostgres | undefined;
    let redis: PrivateRedis | undefined;
    let nats: RunningNats | undefined;
    let suite: RunningSuite;
    let dataDir: string | undefined;
    let databaseUrls: { identity: string; disclaimer: string; audit: string };
    let outboxReader: Redis | undefined;
    let company: TestCompany;
    /** Users of the password-login clients; users of the burst. */
    let loginUsers: TestUser[] = [];
    let burstUsers: TestUser[] = [];

    /** Every change the suite acknowledged, as changeOf names its event. */
    const ledger = new Set<string>();
    /** `<operation> <status> <success or error code>`: how many of each answer the load got. */
    const answers: Record<string, number> = {};
    /** What a flow threw (none is expected: a flow ends its pass on an answer it did not want). */
    const flowErrors: string[] = [];
    /** Per fault: the events its outboxes held, and how long it took until the load got through again. */
    const faults: Array<{ fault: string; pending: Record<string, number>; backMs: number }> = [];
    let loadRunning = false;
    let load: Promise<void> | undefined;
    /** When each client of the load last had a whole pass go through. */
    const lastPass: number[] = [];
    const passes: Record<string, number> = {};

    async function ask(operation: string, body: Record<string, unknown>, token?: string): Promise<Answer> {
      let answer: Answer;
      try {
        const response = await postAuth({
          gateway: suite.gatewayUrl,
          company,
          operation,
          body,
          token,
          hangMs,
        });
        const text = await response.text();
        answer = { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : {} };
      } catch (error) {
        answer = {
          status: 0,
          body: { error_code: (error as Error).name === "TimeoutError" ? "hang" : "none" },
        };
      }
      const outcome = answer.body.status === "success" ? "success" : String(answer.body.error_code);
      const key = `${operation} ${answer.status} ${outcome}`;
      answers[key] = (answers[key] ?? 0) + 1;
      return answer;
    }

    /** Asks again while the answer says nothing of the request (503, or none), for as long as a fault may last. */
    async function askUntilAnswered(operation: string, body: Record<string, unknown>, token: string) {
      const deadline = Date.now() + backWithinMs;
      for (;;) {
        const answer = await ask(operation, body, token);
        if ((answer.status !== 503 && answer.status !== 0) || Date.now() > deadline) return answer;
        await sleep(200);
      }
    }

    /** A user of the company; asked again while identity is away. */
    async function newUser(options: UserOptions = {}): Promise<TestUser> {
      const deadline = Date.now() + backWithinMs;
      for (;;) {
        try {
          return await createUser(company, { ...question, ...options });
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await sleep(200);
        }
      }
    }

    /** login and checkpassword: the answer of checkpassword, when both were acknowledged. */
    async function passwordChecked(user: TestUser, extra: Record<string, unknown> = {}) {
      const started = await ask("login", { login_id: user.loginName });
      if (!acknowledged(started)) return undefined;
      const checked = await ask("checkpassword", { password: user.password, ...extra }, tokenOf(started));
      return acknowledged(checked) ? checked : undefined;
    }

    /**
     * An authorized session: its id from the sessions endpoint, its changes in the ledger (its
     * login, and whatever else the caller names), then its logout in the ledger once acknowledged.
     */
    async function loggedOut(token: string, sessionChanges: Array<[string, ServiceName]> = []) {
      const listed = await askUntilAnswered("sessions", {}, token);
      const sessions = (listed.body.sessions ?? []) as Array<{ session_id: string; current: boolean }>;
      const sessionId = sessions.find((session) => session.current)?.session_id;
      if (!acknowledged(listed) || !sessionId) return false;
      for (const [type, service] of [["auth.login.succeeded", "session"] as const, ...sessionChanges])
        ledger.add(changeKey(type, service, ofSession(sessionId)));
      const out = await askUntilAnswered("logout", {}, token);
      if (!acknowledged(out)) return false;
      ledger.add(changeKey("auth.session.revoked", "session", ofSession(sessionId)));
      return true;
    }

    /** A password login to authorized, and logout. */
    async function passwordLogin(user: TestUser): Promise<boolean> {
      const checked = await passwordChecked(user);
      return checked?.body.session_state === "authorized" && (await loggedOut(tokenOf(checked)));
    }

    /** A new user's first login: the terms accepted, a new password set as the company asks, authorized, logout. */
    async function firstLoginWithNewPassword(): Promise<boolean> {
      const user = await newUser({ passwordChangeRequired: true });
      const checked = await passwordChecked(user, { accept_disclaimers: ["terms"] });
      if (checked?.body.session_state !== "setpassword") return false;
      ledger.add(changeKey("auth.disclaimer.accepted", "disclaimer", ofUser(user.id)));
      const set = await ask("setpassword", { new_password: "changed-password-2" }, tokenOf(checked));
      if (!acknowledged(set)) return false;
      ledger.add(changeKey("auth.password.changed", "identity", ofUser(user.id)));
      return set.body.session_state === "authorized" && (await loggedOut(tokenOf(set)));
    }

    /** A new user without a password: a login by SMS code (the terms accepted), and logout. */
    async function smsCodeLogin(): Promise<boolean> {
      const user = await newUser({ password: null });
      const started = await ask("login", { login_id: user.loginName });
      if (!acknowledged(started) || started.body.session_state !== "checkotp") return false;
      const otp = lastOtp(company.id, user.phone, suite.smsOutboxFile);
      const checked = await ask("checkotp", { otp, accept_disclaimers: ["terms"] }, tokenOf(started));
      if (!acknowledged(checked) || checked.body.session_state !== "authorized") return false;
      ledger.add(changeKey("auth.disclaimer.accepted", "disclaimer", ofUser(user.id)));
      return loggedOut(tokenOf(checked), [
        ["auth.otp.sent", "otp"],
        ["auth.second_factor.passed", "otp"],
      ]);
    }

    /** A new user's recovery by e-mail link to a new password. */
    async function recoveryByLink(): Promise<boolean> {
      const user = await newUser();
      const mailed = await ask("recovery/recover", {
        login_id: user.loginName,
        captcha_response: captcha,
        method: "MAIL",
      });
      if (!acknowledged(mailed) || mailed.body.verification !== "MAIL") return false;
      ledger.add(changeKey("auth.recovery.started", "recovery", ofUser(user.id)));
      const mail = mailTo(company.id, user.email, suite.mailOutboxFile).at(-1);
      const linked = await ask("recovery/checklink", { token: linkToken(mail?.text ?? "") });
      if (!acknowledged(linked) || linked.body.session_state !== "recovery-setpassword") return false;
      ledger.add(changeKey("auth.recovery.finished", "recovery", ofUser(user.id)));
      const set = await ask("setpassword", { new_password: "recovered-password-2" }, tokenOf(linked));
      if (!acknowledged(set)) return false;
      ledger.add(changeKey("auth.password.changed", "identity", ofUser(user.id)));
      return true;
    }

    /** A client of the load: its flow over and over until the load stops. */
    async function client(index: number, name: string, flow: () => Promise<boolean>): Promise<void> {
      while (loadRunning) {
        try {
          if (await flow()) {
            lastPass[index] = Date.now();
            passes[name] = (passes[name] ?? 0) + 1;
          }
        } catch (error) {
          flowErrors.push(`${name}: ${(error as Error).message}`);
        }
        // A steady load, not a saturating one: the machine has two cores, and the faults need them too.
        await sleep(100);
      }
    }

    /** Waits until every client of the load has had a whole pass go through after `since`. */
    async function loadGetsThrough(since = Date.now()): Promise<void> {
      const deadline = Date.now() + backWithinMs;
      while (lastPass.some((at) => at < since) && Date.now() < deadline) await sleep(100);
      expect(
        lastPass.every((at) => at >= since),
        "a client of the load never got through again",
      ).toBe(true);
    }

    /** The events each service's outbox holds: not yet published, or published and not yet dropped. */
    async function pendingEvents(): Promise<Record<string, number>> {
      const pending: Record<string, number> = {};
      for (const service of keyValueServices) {
        pending[service] = await (outboxReader as Redis).xlen(`${redisKeyPrefix}auth:${service}:outbox`);
      }
      for (const [service, url] of Object.entries(databaseUrls)) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          pending[service] = Number((await client.query("SELECT count(*) AS n FROM event_outbox")).rows[0].n);
        } finally {
          await client.end();
        }
      }
      return pending;
    }
    const total = (pending: Record<string, number>) => Object.values(pending).reduce((sum, n) => sum + n, 0);

    /** One fault under load: once the load runs, `make` does it; then until the load gets through again. */
    async function underLoad(fault: string, make: () => Promise<Record<string, number>>) {
      await loadGetsThrough();
      const pending = await make();
      const back = Date.now();
      await loadGetsThrough(back);
      faults.push({ fault, pending, backMs: Date.now() - back });
      return pending;
    }

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-events-"));
      [pgServer, redis, nats] = await Promise.all([
        startPrivatePostgres(),
        startPrivateRedis(["--appendonly", "yes", "--appendfsync", "always"]),
        startNatsServer(),
      ]);
      const [identityDb, disclaimerDb, auditDb] = await Promise.all([
        createTestDatabase(pgServer.adminUrl, "events_identity"),
        createTestDatabase(pgServer.adminUrl, "events_disclaimer"),
        createTestDatabase(pgServer.adminUrl, "events_audit"),
      ]);
      databaseUrls = { identity: identityDb.url, disclaimer: disclaimerDb.url, audit: auditDb.url };
      outboxReader = new Redis(redis.url);
      // Redis crashes on purpose in a test below: the reader connects again once it is back.
      outboxReader.on("error", () => {});
      suite = await startSuite({
        dataDir,
        databaseUrls,
        redisUrl: redis.url,
        redisKeyPrefix,
        logLevel: "error",
        commonEnv: { NATS_URL: nats.url },
        // A whole flow on a loaded machine may take longer than a call.
        env: { gateway: { GRPC_DEADLINE_MS: "5000", REQUEST_DEADLINE_MS: "20000" } },
        startTimeoutMs: testBudgets.suiteStartMs,
      });
      company = await createCompany(
        {
          recovery: { order: [], disabled: [], disabledByRole: {}, linkBase },
          // Many codes an hour, some never entered (a flow cut by a fault): no limit against SMS pumping.
          sms: smsSettings({ limits: smsLimitsOutOfTheWay }),
        },
        operatorOf(suite),
      );
      await createDisclaimer(company, "terms");
      loginUsers = await Promise.all([newUser(), newUser(), newUser()]);
      burstUsers = await Promise.all(Array.from({ length: 8 }, () => newUser()));
      // Each password-login user accepts the terms once, on a first login of its own.
      for (const user of [...loginUsers, ...burstUsers]) {
        const checked = await passwordChecked(user, { accept_disclaimers: ["terms"] });
        expect(checked?.body.session_state).toBe("authorized");
        ledger.add(changeKey("auth.disclaimer.accepted", "disclaimer", ofUser(user.id)));
        expect(await loggedOut(tokenOf(checked as Answer))).toBe(true);
      }

      const clients: Array<[string, () => Promise<boolean>]> = [
        ...loginUsers.map(
          (user) => ["password login", () => passwordLogin(user)] as [string, () => Promise<boolean>],
        ),
        ["first login with a new password", firstLoginWithNewPassword],
        ["SMS code login", smsCodeLogin],
        ["recovery by e-mail link", recoveryByLink],
      ];
      lastPass.push(...clients.map(() => 0));
      loadRunning = true;
      const started = Date.now();
      load = Promise.all(clients.map(([name, flow], index) => client(index, name, flow))).then(() => {});
      await loadGetsThrough(started);
    }, testBudgets.hookMs);

    afterAll(async () => {
      loadRunning = false;
      await load;
      outboxReader?.disconnect();
      await suite?.stop();
      await nats?.stop();
      await redis?.close();
      await pgServer?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      "NATS killed (SIGKILL): the flows go on and their events wait in the outboxes; restarted on its port and files, the relays publish them",
      async () => {
        const pending = await underLoad("NATS", async () => {
          const running = nats as RunningNats;
          await running.kill();
          await loadGetsThrough();
          const waiting = await pendingEvents();
          await running.restart();
          return waiting;
        });
        expect(total(pending)).toBeGreaterThan(0);
      },
      faultTestMs,
    );

    it.each(serviceNames)(
      "%s killed (SIGKILL) and restarted: its relay dies with it, and the new one publishes what was left",
      async (name) => {
        await underLoad(name, async () => {
          await suite.children[name].kill();
          const pending = await pendingEvents();
          await suite.restart(name);
          return pending;
        });
      },
      faultTestMs,
    );

    it(
      "identity and session killed right after a burst, their outboxes holding its events: the restarted relays publish them",
      async () => {
        // The relays poll every 200 ms: a burst whose last events they took before the kill is made again.
        let pending: Record<string, number> = {};
        for (let burst = 1; (pending.identity ?? 0) + (pending.session ?? 0) === 0; burst += 1) {
          expect(burst, "no burst left events in the outboxes of identity and session").toBeLessThanOrEqual(
            5,
          );
          pending = await underLoad(`burst ${burst}, then identity and session`, async () => {
            await Promise.all([
              ...burstUsers.map((user) => passwordLogin(user)),
              ...Array.from({ length: 4 }, () => firstLoginWithNewPassword()),
            ]);
            await Promise.all([suite.children.identity.kill(), suite.children.session.kill()]);
            const left = await pendingEvents();
            // identity calls session: session first.
            await suite.restart("session");
            await suite.restart("identity");
            return left;
          });
        }
      },
      faultTestMs,
    );

    it(
      "Redis crashed (SIGKILL) and started again on its append-only file: the outboxes of session, otp and recovery are kept",
      async () => {
        await underLoad("Redis", async () => {
          const pending = await pendingEvents();
          await (redis as PrivateRedis).crash();
          await (redis as PrivateRedis).start();
          return pending;
        });
      },
      faultTestMs,
    );

    describe("afterwards, once every outbox is empty, the stream", () => {
      let streamed: StreamedEvent[] = [];
      /** The stream's events, each id once (its first copy), in stream order. */
      const events: StreamedEvent[] = [];
      let drainMs = 0;
      /** The audit store's events (id, user, source), in the order it lists them: by time, then id. */
      let audited: Array<{ id: string; userId: string | null; companyId: string; source: string }> = [];
      let auditMs = 0;
      const auditedEvents = async () => {
        const client = new pg.Client({ connectionString: databaseUrls.audit });
        await client.connect();
        try {
          const { rows } = await client.query(
            'SELECT id, user_id AS "userId", company_id AS "companyId", source FROM audit_events ORDER BY time, id',
          );
          return rows as typeof audited;
        } finally {
          await client.end();
        }
      };
      /** Consecutive events of one user from one service with the same time, and whether their ids are in stream order. */
      const sameMillisecond: Array<{ pair: string; byId: boolean }> = [];

      beforeAll(
        async () => {
          loadRunning = false;
          await load;
          const stopped = Date.now();
          while (total(await pendingEvents()) > 0) {
            if (Date.now() - stopped > drainWithinMs) {
              throw new Error(
                `outboxes not empty after ${drainWithinMs} ms: ${JSON.stringify(await pendingEvents())}`,
              );
            }
            await sleep(250);
          }
          drainMs = Date.now() - stopped;
          streamed = await readEventStream((nats as RunningNats).url);
          const seen = new Set<string>();
          for (const message of streamed) {
            if (seen.has(message.event.id)) continue;
            seen.add(message.event.id);
            events.push(message);
          }
          const caughtUp = Date.now();
          for (;;) {
            audited = await auditedEvents();
            if (audited.length >= events.length) break;
            if (Date.now() - caughtUp > drainWithinMs) break;
            await sleep(250);
          }
          auditMs = Date.now() - caughtUp;
        },
        2 * drainWithinMs + testBudgets.testMs,
      );

      afterAll(() => {
        const delays = events
          .map(({ storedAt, event }) => storedAt - (event.time?.getTime() ?? 0))
          .sort((a, b) => a - b);
        const byType: Record<string, number> = {};
        for (const { event } of events) byType[event.type] = (byType[event.type] ?? 0) + 1;
        const report = [
          `events: ${streamed.length} messages in AUTH_EVENTS, ${events.length} distinct event ids; ${ledger.size} acknowledged changes in the ledger`,
          `events: by type ${JSON.stringify(byType)}`,
          `events: commit to publish (stream timestamp - event time): p50 ${percentile(delays, 0.5)} ms, p99 ${percentile(delays, 0.99)} ms, max ${delays.at(-1) ?? 0} ms`,
          `events: outboxes empty ${drainMs} ms after the load stopped; the audit store held ${audited.length} events ${auditMs} ms later`,
          `events: ${sameMillisecond.length} consecutive events of one user from one service in the same millisecond, ${sameMillisecond.filter(({ byId }) => !byId).length} of them with ids against the stream's order`,
          ...sameMillisecond.filter(({ byId }) => !byId).map(({ pair }) => `  ${pair}`),
          "events: faults (events in the outboxes at the fault; ms until the load got through again)",
          ...faults.map(
            ({ fault, pending, backMs }) => `  ${fault}: ${JSON.stringify(pending)}; ${backMs} ms`,
          ),
          `events: whole passes ${JSON.stringify(passes)}`,
          `events: answers ${JSON.stringify(answers)}`,
          ...(flowErrors.length > 0
            ? [`events: flows that threw ${JSON.stringify(flowErrors.slice(0, 20))}`]
            : []),
        ];
        console.log(report.join("\n"));
      });

      it("holds every acknowledged change: no loss", () => {
        const held = new Set(events.map(({ event }) => changeOf(event)));
        expect(ledger.size).toBeGreaterThan(100);
        expect([...ledger].filter((change) => !held.has(change))).toEqual([]);
      });

      it("holds each change under one event id: never two events for one change", () => {
        const ids = new Map<string, string[]>();
        for (const { event } of events) {
          const change = changeOf(event);
          if (change !== undefined) ids.set(change, [...(ids.get(change) ?? []), event.id]);
        }
        expect([...ids].filter(([, each]) => each.length > 1)).toEqual([]);
      });

      it("holds each user's events from each service in the order of their time, then of their ids", () => {
        const last = new Map<string, Event>();
        const outOfOrder: string[] = [];
        for (const { event } of events) {
          const key = `${event.userid || `company ${event.companyid}`} from ${event.source}`;
          const before = last.get(key);
          if (before && timeOf(before) >= timeOf(event)) {
            const pair = `${key}: ${before.type} ${before.id} (${before.time?.toISOString()}) before ${event.type} ${event.id} (${event.time?.toISOString()})`;
            if (timeOf(before) > timeOf(event)) outOfOrder.push(pair);
            else sameMillisecond.push({ pair, byId: before.id < event.id });
          }
          last.set(key, event);
        }
        expect(outOfOrder).toEqual([]);
        // Within one millisecond the ids tell the order (a process's UUIDv7s sort as they were made).
        expect(sameMillisecond.filter(({ byId }) => !byId).map(({ pair }) => pair)).toEqual([]);
      });

      it("holds each event id once, under its id as Nats-Msg-Id: the duplicate window dropped the copies the relays published again", () => {
        expect(streamed.filter(({ msgId, event }) => msgId !== event.id)).toEqual([]);
        expect(streamed.length).toBe(events.length);
      });

      it("is in the audit store whole: every event of the stream, each once, and nothing else", () => {
        const streamedIds = events.map(({ event }) => event.id).sort();
        expect(audited.map(({ id }) => id).sort()).toEqual(streamedIds);
      });

      it("is listed by the audit store in each user's order from each service, as the stream holds it", () => {
        const sequences = (entries: Array<{ id: string; key: string }>) => {
          const byKey = new Map<string, string[]>();
          for (const { id, key } of entries) byKey.set(key, [...(byKey.get(key) ?? []), id]);
          return byKey;
        };
        const fromStream = sequences(
          events.map(({ event }) => ({
            id: event.id,
            key: `${event.userid || `company ${event.companyid}`} from ${event.source}`,
          })),
        );
        const fromAudit = sequences(
          audited.map(({ id, userId, companyId, source }) => ({
            id,
            key: `${userId ?? `company ${companyId}`} from ${source}`,
          })),
        );
        const differing = [...fromStream]
          .filter(([key, ids]) => JSON.stringify(fromAudit.get(key)) !== JSON.stringify(ids))
          .map(([key]) => key);
        expect(differing).toEqual([]);
      });
    });
  },
);
