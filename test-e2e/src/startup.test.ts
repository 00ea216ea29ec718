import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkHealth, companyLimits, createServiceClient, type GrpcServiceName } from "@auth/grpc-kit";
import { createTestDatabase } from "@auth/pg/testing";
import { AuditServiceService } from "@auth/proto/audit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService } from "@auth/proto/identity";
import { OtpPurpose, OtpServiceService } from "@auth/proto/otp";
import { RecoveryServiceService } from "@auth/proto/recovery";
import { SecretKind, SessionServiceService, SessionState } from "@auth/proto/session";
import { boundPort, freePort } from "@auth/runtime";
import { type BoundPorts, Child, type ProcessName, type RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import {
  type PrivatePostgres,
  type PrivateRedis,
  privateStoresMissing,
  startPrivatePostgres,
  startPrivateRedis,
} from "./support/private-stores.js";
import { rawGrpcClient } from "./support/raw-grpc.js";

const missing = privateStoresMissing();

const processes = ["identity", "disclaimer", "audit", "session", "otp", "recovery", "gateway"] as const;
const storeOf = {
  identity: "postgres",
  disclaimer: "postgres",
  audit: "postgres",
  session: "redis",
  otp: "redis",
  recovery: "redis",
  gateway: "redis",
} as const satisfies Record<ProcessName, "postgres" | "redis">;

/** A method of each service to call while its store is away (any caller gets UNAVAILABLE then). */
const somePath: Record<Exclude<ProcessName, "gateway">, string> = {
  identity: IdentityServiceService.getCompany.path,
  disclaimer: DisclaimerServiceService.listDisclaimers.path,
  audit: AuditServiceService.listEvents.path,
  session: SessionServiceService.createSession.path,
  otp: OtpServiceService.verifyOtp.path,
  recovery: RecoveryServiceService.revokeRecoveryLinks.path,
};

interface LogLine {
  msg?: string;
  variable?: string;
  reason?: string;
  attempt?: number;
  error?: string;
  store?: string;
  notServing?: string[];
  level?: number;
  senders?: string[];
}

/** One process started on its own, beside the suite, against a store of this file's own. */
interface Started {
  child: Child;
  ports: BoundPorts;
  lines: LogLine[];
  /** What it wrote that is no log line (a configuration it refuses, for one). */
  otherLines: string[];
}

/**
 * Issue 19, "Starting without a store" in docs/operations.md: a process whose store cannot be
 * reached at start-up stays up, says it is not ready, refuses calls with UNAVAILABLE (503), tries
 * again with a line per attempt, and serves once the store answers, without a restart. Each process
 * runs beside a suite of this file's own (for the services it calls and the certificates), on a
 * PostgreSQL or a Redis of this file's own that a test closes or freezes.
 */
describe.skipIf(missing !== undefined)("a process started while its store is unreachable", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let redis: PrivateRedis;
  let postgres: PrivatePostgres;
  let company: TestCompany;
  let user: TestUser;

  beforeAll(async () => {
    [own, redis, postgres] = await Promise.all([
      startOwnSuite({}),
      startPrivateRedis(),
      startPrivatePostgres(),
    ]);
    suite = own.suite;
    company = await createCompany({}, operatorOf(suite));
    user = await createUser(company);
  }, testBudgets.hookMs);

  afterAll(async () => {
    await own?.stop();
    await Promise.all([redis?.close(), postgres?.close()]);
  });

  /**
   * Starts a process like the suite's own, but on free ports (unless given) and on the private
   * store; a variable overridden with undefined is left out.
   */
  function startBeside(name: ProcessName, overrides: Record<string, string | undefined>): Started {
    const model = suite.children[name].options;
    const env: NodeJS.ProcessEnv = { ...model.env, LOG_LEVEL: "info" };
    if (name === "gateway") env.PORT = "0";
    else Object.assign(env, { GRPC_PORT: "0", GRPC_HEALTH_PORT: "0" });
    delete env.METRICS_PORT;
    Object.assign(env, overrides);
    for (const [variable, value] of Object.entries(overrides)) if (value === undefined) delete env[variable];
    const lines: LogLine[] = [];
    const otherLines: string[] = [];
    const child = new Child({
      ...model,
      env,
      onLine: (_, line) => {
        if (line.startsWith("{")) lines.push(JSON.parse(line) as LogLine);
        else otherLines.push(line);
      },
    });
    child.start();
    return { child, ports: {}, lines, otherLines };
  }

  const attempts = (started: Started) =>
    started.lines.filter((line) => line.msg === "store not reached, retrying");
  const healthOf = (started: Started) => checkHealth(`127.0.0.1:${started.ports.healthPort}`, "", 2_000);
  const readyz = (started: Started) =>
    fetch(`http://127.0.0.1:${started.ports.port}/readyz`, { signal: AbortSignal.timeout(10_000) });
  const servingOrReady = async (name: ProcessName, started: Started) =>
    name === "gateway" ? (await readyz(started)).status === 200 : (await healthOf(started)) === "SERVING";

  // Its first attempt comes once the process has started, which on a loaded machine takes as long
  // as a suite's start may: the test has that budget on top of its own.
  it(
    "stops cleanly on SIGTERM while it is still trying",
    async () => {
      const session = startBeside("session", { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
      await expect
        .poll(() => attempts(session).length, { timeout: testBudgets.suiteStartMs, interval: 100 })
        .toBeGreaterThanOrEqual(1);
      await session.child.stop();
      expect(await session.child.exited()).toBe(0);
      // Its output may still be on its way when the exit is seen.
      await expect.poll(() => session.lines.at(-1)?.msg, { timeout: testBudgets.testMs }).toBe("stopped");
    },
    testBudgets.suiteStartMs + testBudgets.testMs,
  );

  it.each(processes)(
    "%s, when its port is taken, says so in one line naming the variable that moves it, and exits 1",
    async (name) => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
      const variable = name === "gateway" ? "PORT" : "GRPC_PORT";
      try {
        const started = startBeside(name, { [variable]: String(boundPort(holder)) });
        expect(await started.child.exited()).toBe(1);
        // Its output may still be on its way when the exit is seen.
        await expect
          .poll(() => started.lines.filter((line) => line.msg?.startsWith("cannot listen")), {
            timeout: testBudgets.testMs,
          })
          .toHaveLength(1);
        expect(started.lines.find((line) => line.msg?.startsWith("cannot listen"))).toMatchObject({
          variable,
          reason: "the address is in use",
        });
      } finally {
        holder.close();
      }
    },
  );

  /**
   * Issue 31, docs/operations.md "Message senders": a process that sends e-mail or SMS has no
   * default sender. The dev senders write codes and recovery links to a file and to stdout, so a
   * deployment that forgot to choose must not start on them; the suite chooses them, as npm start
   * does, and this test takes the choice away.
   */
  it.each([
    ["identity", "MAIL_SENDER"],
    ["identity", "SMS_SENDER"],
    ["otp", "SMS_SENDER"],
    ["recovery", "MAIL_SENDER"],
  ] as const)(
    "%s, without %s, refuses to start with one line naming the variable, and exits 78",
    async (name, variable) => {
      const started = startBeside(name, { [variable]: undefined });
      const outcome = await Promise.race([
        started.child.exited(),
        started.child.listening().then(() => "listening on the default sender"),
      ]);
      await started.child.stop();
      expect(outcome).toBe(78);
      // Its output may still be on its way when the exit is seen.
      await expect.poll(() => started.otherLines.length, { timeout: testBudgets.testMs }).toBeGreaterThan(0);
      expect(started.otherLines).toEqual([
        expect.stringMatching(new RegExp(`^${name}: invalid configuration: ${variable}: is required[^;]*$`)),
      ]);
      expect(started.otherLines[0]).toContain("dev");
      expect(started.lines).toEqual([]);
    },
  );

  it.each([
    ["identity", ["MAIL_SENDER", "SMS_SENDER"]],
    ["otp", ["SMS_SENDER"]],
    ["recovery", ["MAIL_SENDER"]],
  ] as const)(
    "%s, with the dev senders chosen, starts and warns once that codes and links go to the outbox and stdout",
    async (name, senders) => {
      // identity on PGlite (no test PostgreSQL) opens a folder of its own, not the suite's.
      const dataDir = mkdtempSync(join(tmpdir(), "startup-senders-"));
      const started = startBeside(name, {
        ...Object.fromEntries(senders.map((variable) => [variable, "dev"])),
        ...(name === "identity" ? { DATA_DIR: dataDir } : {}),
      });
      try {
        await Promise.race([
          started.child.listening(),
          started.child.exited().then((code) => {
            throw new Error(`${name} exited (${code}): ${started.otherLines.join("\n")}`);
          }),
        ]);
        const warnings = () => started.lines.filter((line) => line.msg?.includes("never in production"));
        await expect.poll(() => warnings().length, { timeout: testBudgets.testMs }).toBeGreaterThan(0);
        expect(warnings()).toEqual([
          expect.objectContaining({
            level: 40,
            senders: senders.map((variable) => `${variable}=dev`),
            msg: expect.stringMatching(/codes and recovery links .*outbox file and stdout/),
          }),
        ]);
      } finally {
        await started.child.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    // identity on PGlite opens and migrates its database before it listens: as long as a suite's start may take.
    testBudgets.suiteStartMs + testBudgets.testMs,
  );

  // Issue 31, docs/operations.md "The admin token": the services that only compare the token hold
  // its SHA-256, and a deployment still giving them the token is stopped, not left with it.
  it.each(["identity", "session", "disclaimer", "audit"] as const)(
    "%s, given the plain ADMIN_TOKEN, refuses to start with one line naming ADMIN_TOKEN_SHA256, never showing the token, and exits 78",
    async (name) => {
      const model = suite.children[name].options;
      const env: NodeJS.ProcessEnv = {
        ...model.env,
        GRPC_PORT: "0",
        GRPC_HEALTH_PORT: "0",
        ADMIN_TOKEN: suite.adminToken,
      };
      delete env.METRICS_PORT;
      const output: string[] = [];
      const child = new Child({ ...model, env, onLine: (_, line) => output.push(line) });
      child.start();
      expect(await child.exited()).toBe(78);
      // Its output may still be on its way when the exit is seen.
      const refusals = () => output.filter((line) => line.includes("invalid configuration"));
      await expect.poll(refusals, { timeout: testBudgets.testMs }).toHaveLength(1);
      expect(refusals()[0]).toMatch(
        new RegExp(`^${name}: invalid configuration: ADMIN_TOKEN: is refused: .* set ADMIN_TOKEN_SHA256 `),
      );
      expect(output.join("\n")).not.toContain(suite.adminToken);
    },
  );

  const scenarios = [
    {
      name: "a closed port",
      makeUnreachable: async () => {
        await Promise.all([redis.crash(), postgres.stopImmediately()]);
      },
      bringBack: async () => {
        await Promise.all([redis.start(), postgres.start()]);
      },
    },
    {
      name: "a frozen store",
      makeUnreachable: async () => {
        redis.freeze();
        postgres.freeze();
      },
      bringBack: async () => {
        redis.thaw();
        postgres.thaw();
      },
    },
  ];

  describe.each(scenarios)("against $name", (scenario) => {
    const started = {} as Record<ProcessName, Started>;
    const prefix = `startup:${randomUUID()}:`;
    let databases: Array<{ url: string; drop(): Promise<void> }> = [];
    let storeBack = false;

    beforeAll(async () => {
      databases = await Promise.all(
        ["identity", "disclaimer", "audit"].map((name) =>
          createTestDatabase(postgres.adminUrl, `startup_${name}`),
        ),
      );
      const [identityDb, disclaimerDb, auditDb] = databases.map((database) => database.url);
      const redisStore = (name: string) => ({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: `${prefix}${name}:` });
      await scenario.makeUnreachable();
      const stores: Record<ProcessName, Record<string, string>> = {
        identity: { DATABASE_URL: identityDb ?? "", SECRETS_KEY: randomBytes(32).toString("base64") },
        disclaimer: { DATABASE_URL: disclaimerDb ?? "" },
        audit: { DATABASE_URL: auditDb ?? "", SECRETS_KEY: randomBytes(32).toString("base64") },
        session: redisStore("session"),
        otp: { ...redisStore("otp"), OTP_HASH_SECRET: randomBytes(32).toString("base64url") },
        recovery: redisStore("recovery"),
        gateway: redisStore("gateway"),
      };
      for (const name of processes) started[name] = startBeside(name, stores[name]);
      await Promise.all(
        processes.map(async (name) => {
          const { child } = started[name];
          started[name].ports = await Promise.race([
            child.listening(),
            child.exited().then((code) => {
              throw new Error(`${name} exited (${code}) while its store was unreachable`);
            }),
          ]);
        }),
      );
    }, testBudgets.hookMs);

    afterAll(async () => {
      if (!storeBack) await scenario.bringBack();
      await Promise.all(processes.map((name) => started[name]?.child.stop()));
      await Promise.all(databases.map((database) => database.drop()));
    }, testBudgets.hookMs);

    it.each(processes)(
      "%s stays up, is not ready, refuses calls with UNAVAILABLE (503), and logs a line per attempt",
      async (name) => {
        const running = started[name];
        await expect
          .poll(() => attempts(running).length, { timeout: testBudgets.testMs, interval: 100 })
          .toBeGreaterThanOrEqual(2);
        expect(running.child.running).toBe(true);
        const [first, second] = attempts(running);
        expect(first).toMatchObject({ attempt: 1, store: expect.stringContaining(storeOf[name]) });
        expect(second?.attempt).toBe(2);
        expect(first?.error).toMatch(/ECONNREFUSED|timed out|timeout/);
        expect(JSON.stringify(attempts(running))).not.toMatch(/password|secret/i);

        if (name === "gateway") {
          const response = await readyz(running);
          expect(response.status).toBe(503);
          expect(((await response.json()) as { error_code: string }).error_code).toBe("service.unavailable");
          // The response says no more than 503; the log says why (read from the process's output,
          // which may come after the response).
          await expect
            .poll(() => running.lines.filter((line) => line.msg === "not ready").at(-1)?.notServing, {
              timeout: testBudgets.testMs,
              interval: 100,
            })
            .toContain("the rate limits' redis (not reached yet)");
        } else {
          expect(await healthOf(running)).toBe("NOT_SERVING");
          // A liveness probe still sees a process that runs.
          expect(await checkHealth(`127.0.0.1:${running.ports.healthPort}`, "liveness", 2_000)).toBe(
            "SERVING",
          );
          const client = rawGrpcClient(
            `127.0.0.1:${running.ports.port}`,
            suite.transportOf("gateway"),
            name as GrpcServiceName,
          );
          try {
            expect(await client.call(somePath[name])).toEqual({
              code: "service.unavailable",
              grpcStatus: 14,
            });
          } finally {
            client.close();
          }
        }
      },
    );

    it("each serves as soon as its store answers, without a restart, and its calls work", async () => {
      const pids = Object.fromEntries(processes.map((name) => [name, started[name].child.pid]));
      await scenario.bringBack();
      storeBack = true;
      const back = Date.now();
      const took = Object.fromEntries(
        await Promise.all(
          processes.map(async (name) => {
            await expect
              .poll(() => servingOrReady(name, started[name]), { timeout: testBudgets.testMs, interval: 50 })
              .toBe(true);
            return [name, Date.now() - back] as const;
          }),
        ),
      );
      console.log(`startup against ${scenario.name}: store up to serving (ms) ${JSON.stringify(took)}`);
      for (const name of processes) {
        const tried = attempts(started[name]);
        console.log(`  ${name}: ${tried.length} failed attempts, the first: ${tried[0]?.error}`);
      }
      for (const name of processes) {
        expect(started[name].child.pid, `${name} was not restarted`).toBe(pids[name]);
        expect(started[name].child.running).toBe(true);
      }

      await realCalls();
    });

    /** One call per process that needs its store, answered from it. */
    async function realCalls() {
      const address = (name: ProcessName) => `127.0.0.1:${started[name].ports.port}`;
      const operator = {
        ...operatorOf(suite),
        identityAddress: address("identity"),
        disclaimerAddress: address("disclaimer"),
      };
      const created = await createCompany({}, operator);
      expect(created.id).toBeTruthy();
      await createDisclaimer(created, "terms");
      const audit = createServiceClient(AuditServiceService, address("audit"), {
        deadlineMs: 10_000,
        adminToken: suite.adminToken,
        transport: suite.transportOf("operator"),
        server: "audit",
      });
      try {
        // A company's retention is read from the audit store: 90 days until an operator sets another.
        expect(await audit.getRetention({ companyId: created.id })).toEqual({ days: 90 });
      } finally {
        audit.close();
      }

      const asGateway = (name: GrpcServiceName) => ({
        deadlineMs: 10_000,
        transport: suite.transportOf("gateway"),
        server: name,
      });
      const session = createServiceClient(SessionServiceService, address("session"), asGateway("session"));
      const otp = createServiceClient(OtpServiceService, address("otp"), asGateway("otp"));
      const recovery = createServiceClient(
        RecoveryServiceService,
        address("recovery"),
        asGateway("recovery"),
      );
      try {
        const { session: opened } = await session.createSession({
          passkeyDiscovery: false,
          deviceId: "",
          companyId: company.id,
          userId: user.id,
          state: SessionState.CHECKPASSWORD,
          loginId: user.loginName,
          passwordChangeRequired: false,
          // No lock-out checked: this call shows the session service answers from its store.
          lockoutKind: SecretKind.UNSPECIFIED,
          disclaimersRequired: [],
          userAgent: "",
          clientAddress: "",
          limits: companyLimits(company.policy),
        });
        expect(opened?.state).toBe(SessionState.CHECKPASSWORD);
        await otp.sendOtp({
          companyId: company.id,
          userId: user.id,
          sessionId: randomUUID(),
          purpose: OtpPurpose.LOGIN,
          language: "",
        });
        expect(await recovery.revokeRecoveryLinks({ companyId: company.id, userId: user.id })).toEqual({
          revoked: 0,
        });
      } finally {
        session.close();
        otp.close();
        recovery.close();
      }

      const login = await call(company.code, "login", {
        gatewayUrl: `http://127.0.0.1:${started.gateway.ports.port}`,
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
      });
      expect(login.body.session_state, JSON.stringify(login.body)).toBe("checkpassword");
      // The gateway counted that login's rate limits in its Redis.
      const client = new Redis(redis.url);
      try {
        expect(await client.keys(`${prefix}gateway:*`)).not.toEqual([]);
      } finally {
        client.disconnect();
      }
    }
  });
});
