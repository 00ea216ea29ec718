import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { channelCredentialsOf, checkHealth, createServiceClient, type ServiceClient } from "@auth/grpc-kit";
import { createTestDatabase } from "@auth/pg/testing";
import { TokenIntrospectionServiceService, TokenStatus } from "@auth/proto/introspection";
import { type ProcessName, type RunningSuite, type ServiceName, startSuite } from "@auth/suite";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  operatorOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { recoverToSetpassword } from "./support/flows.js";
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
 * Faults (issue 11, hardening): with load running (three clients logging in, checking the password
 * and logging out), each service is killed and restarted in turn, Redis crashes and starts again,
 * PostgreSQL stops (immediate) and starts again, and each store hangs (SIGSTOP) and goes on. While
 * something is away the gateway answers 503 service.unavailable within its deadline; once it is
 * back the flows work again with no other process restarted; no acknowledged password change,
 * disclaimer acceptance or revocation is lost; and an outage at any moment of a recovery's
 * setpassword never leaves a new password with a recovery session that could set another (the same
 * request, by its Idempotency-Key, finishes it).
 *
 * The suite runs on a PostgreSQL cluster and a Redis of this file's own (the shared ones are never
 * stopped). Decision: Redis runs as the product's compose file runs it, without persistence
 * (`--save "" --appendonly no`), so a restarted Redis is empty. For revocations that is the safe
 * side: a revoked token cannot come back to life when nothing comes back. The price is that every
 * session, OTP, e-mail link and failure counter (captcha, lock-out) is gone too: users log in
 * again. The unsafe configuration would be partial persistence (RDB snapshots, or AOF with
 * appendfsync everysec), where a snapshot taken before a logout restores the revoked session on a
 * restart; a deployment that wants sessions to survive a Redis restart needs appendfsync always.
 * The Redis test checks both halves: revoked tokens stay invalid, and sessions alive before the
 * crash are gone after it (while a Redis that only hung keeps them).
 */

/**
 * The gateway's GRPC_DEADLINE_MS in this suite. No assertion times an answer: a probe is asked
 * while its service or store is still away (killed, stopped or frozen), so its 503 can only come
 * from the gateway's deadline or a refused connection; how long each took is printed at the end.
 */
const deadlineMs = 3_000;
/** A request of the load that gets no answer within this long (many deadlines) is aborted and counts as a hang. */
const hangMs = 30_000;
/** How long the suite may take to work again after a fault is undone, on a loaded machine. */
const backWithinMs = 60_000;
/** One fault test: several whole flows before, during and after the fault. */
const faultTestMs = 3 * testBudgets.testMs;
const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";
const question = { controlQuestion: "Name of your first pet?", controlAnswer: "Rex" };
const processNames: ProcessName[] = [
  "identity",
  "session",
  "otp",
  "recovery",
  "disclaimer",
  "audit",
  "gateway",
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const missing = privateStoresMissing();

/** What one request of the background load got. */
interface Sample {
  phase: string;
  operation: string;
  status: number;
  code: string;
  ms: number;
  /** The body had the envelope (`status` success or error). */
  envelope: boolean;
  at: number;
}

/** The answers the load may get while services and stores come and go. */
const expectedAnswers = new Set([
  "200 success",
  "503 service.unavailable",
  // A session whose token the client holds while Redis restarts empty (or whose answer was lost to
  // a deadline after the session moved on) is gone: the client logs in again.
  "401 auth.token.invalid",
]);

if (missing !== undefined) {
  describe("faults: services and stores go away under load", () => {
    it.skip(`needs a private PostgreSQL 15 and redis-server: ${missing}`, () => {});
  });
}

describe.runIf(missing === undefined)("faults: services and stores go away under load", () => {
  let pg: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let suite: RunningSuite;
  let dataDir: string | undefined;
  let company: TestCompany;
  let introspection: ServiceClient<typeof TokenIntrospectionServiceService>;
  /** A user whose login tells whether the suite answers again. */
  let pingUser: TestUser;
  /** Lines the processes wrote that are errors, or no log line at all (a crash's stack trace). */
  const troubles: Array<{ name: ProcessName; line: string }> = [];
  const samples: Sample[] = [];
  /** Milliseconds each 503 of a probe took, by fault. */
  const outageAnswers: Array<{ fault: string; probe: string; ms: number }> = [];
  /** Milliseconds a fault took to undo (a restart), then until a whole pass of every flow had succeeded. */
  const recoveries: Array<{ fault: string; restartMs: number; flowsMs: number }> = [];
  const raceOutcomes: string[] = [];
  let phase = "start";
  let loadRunning = false;
  let load: Promise<void> | undefined;
  /** When each load client last finished a whole login, checkpassword, logout. */
  const lastCycle: number[] = [];

  const post = (
    operation: string,
    body: Record<string, unknown> = {},
    token?: string,
    idempotencyKey?: string,
  ) =>
    call(company.code, operation, {
      gatewayUrl: suite.gatewayUrl,
      apiKey: company.apiKey,
      token,
      body,
      headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
    });

  /**
   * The status of a token, as the company's other products see it (with a consumer's certificate).
   * Right after a restart of the session service this file's channel may still be reconnecting.
   */
  const tokenStatus = async (token: string) => {
    const deadline = Date.now() + backWithinMs;
    for (;;) {
      try {
        return (await introspection.introspectToken({ sessionToken: token })).status;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(100);
      }
    }
  };

  /**
   * After a restart: until the gateway reaches identity, session and disclaimer again (a login
   * passes) and identity reaches session (a password is checked: a login ID of its own each time,
   * so that the probes spend no budget a test counts on).
   */
  async function untilBack(withinMs = backWithinMs) {
    const deadline = Date.now() + withinMs;
    const back = async () =>
      (await post("login", { login_id: pingUser.loginName })).body.status === "success" &&
      (await post("checkcredentials", { login_id: `probe-${randomUUID()}`, password: "probe" })).body
        .error_code === "auth.credentials.invalid";
    while (!(await back())) {
      if (Date.now() > deadline) throw new Error(`the suite was not back after ${withinMs} ms`);
      await sleep(100);
    }
  }

  /** Until identity answers its health check (after SIGCONT, say). */
  async function untilIdentityServes() {
    const deadline = Date.now() + backWithinMs;
    const channel = channelCredentialsOf(suite.transportOf("operator"), "identity");
    while ((await checkHealth(suite.addresses.identity, "", 5_000, channel)) !== "SERVING") {
      if (Date.now() > deadline) throw new Error("identity did not answer its health check again");
      await sleep(100);
    }
  }

  const login = async (user: TestUser) => {
    const response = await post("login", { login_id: user.loginName });
    expect(response.body.session_state, JSON.stringify(response.body)).toBe("checkpassword");
    return response;
  };
  /** login and checkpassword with this password (accepting the terms), up to the answer of checkpassword. */
  const checkPassword = async (user: TestUser, password: string, extra: Record<string, unknown> = {}) => {
    const token = String((await login(user)).body.session_token);
    return post("checkpassword", { password, accept_disclaimers: ["terms"], ...extra }, token);
  };
  /** An authorized token of the user. */
  const authorize = async (user: TestUser, password = user.password ?? "") => {
    const response = await checkPassword(user, password);
    expect(response.body.session_state, JSON.stringify(response.body)).toBe("authorized");
    return String(response.body.session_token);
  };
  const recoverySession = (user: TestUser) =>
    recoverToSetpassword(company, user.loginName, question.controlAnswer, suite.gatewayUrl);
  const newUser = (options: Parameters<typeof createUser>[1] = {}) =>
    createUser(company, { password: "first-password-1", ...question, ...options });

  /** The newest recovery link the dev outbox e-mailed to this address. */
  const linkTo = (email: string) =>
    linkToken(mailTo(company.id, email, suite.mailOutboxFile).at(-1)?.text ?? "");

  /** Every flow, once: password login and logout, OTP login, recovery by e-mail link to a new password. */
  async function flowsWork(): Promise<void> {
    const user = await newUser();
    const token = await authorize(user);
    expectSuccess(await post("logout", {}, token), []);

    const otpUser = await newUser({ password: null });
    const started = await post("login", { login_id: otpUser.loginName });
    expect(started.body.session_state, JSON.stringify(started.body)).toBe("checkotp");
    const otp = lastOtp(company.id, otpUser.phone, suite.smsOutboxFile);
    const checked = await post(
      "checkotp",
      { otp, accept_disclaimers: ["terms"] },
      String(started.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");

    const mailed = await post("recovery/recover", {
      login_id: user.loginName,
      captcha_response: captcha,
      method: "MAIL",
    });
    expect(mailed.body.verification, JSON.stringify(mailed.body)).toBe("MAIL");
    const linked = await post("recovery/checklink", { token: linkTo(user.email) });
    expect(linked.body.session_state, JSON.stringify(linked.body)).toBe("recovery-setpassword");
    expectSuccess(
      await post("setpassword", { new_password: "linked-password-2" }, String(linked.body.session_token)),
      [],
    );
    await authorize(user, "linked-password-2");
  }

  /** Repeats flowsWork until it passes, within a few seconds. */
  async function flowsWorkAgain(fault: string, restartMs: number, withinMs = backWithinMs): Promise<void> {
    const started = Date.now();
    for (;;) {
      try {
        await flowsWork();
        break;
      } catch (error) {
        if (Date.now() - started > withinMs) throw error;
        await sleep(200);
      }
    }
    recoveries.push({ fault, restartMs, flowsMs: Date.now() - started });
  }

  /** Changes the suite acknowledged; verify() checks, after a fault, that every one holds. */
  async function acknowledgedChanges() {
    // A password set through recovery: every session of the user ended, the recovery one included.
    const recovered = await newUser();
    const recoveredBefore = await authorize(recovered);
    const recoveryToken = await recoverySession(recovered);
    expectSuccess(await post("setpassword", { new_password: "recovered-password-2" }, recoveryToken), []);
    // A password changed in state setpassword.
    const changed = await newUser({ passwordChangeRequired: true });
    const mustChange = await checkPassword(changed, "first-password-1");
    expect(mustChange.body.session_state, JSON.stringify(mustChange.body)).toBe("setpassword");
    const set = await post(
      "setpassword",
      { new_password: "changed-password-2" },
      String(mustChange.body.session_token),
    );
    expect(set.body.session_state, JSON.stringify(set.body)).toBe("authorized");
    // A disclaimer accepted.
    const accepted = await newUser();
    expect((await login(accepted)).body.disclaimers_required).toHaveLength(1);
    await authorize(accepted);
    // A session revoked by logout, and one that stays.
    const loggedOut = await newUser();
    const revoked = await authorize(loggedOut);
    expectSuccess(await post("logout", {}, revoked), []);
    const live = await authorize(loggedOut);

    return {
      async verify({ redisWiped }: { redisWiped: boolean }) {
        expectError(await checkPassword(recovered, "first-password-1"), 401, "auth.password.invalid", [
          "captcha_required",
        ]);
        await authorize(recovered, "recovered-password-2");
        expect(await tokenStatus(recoveredBefore)).toBe(TokenStatus.INVALID);
        expect(await tokenStatus(recoveryToken)).toBe(TokenStatus.INVALID);
        expectError(
          await post("setpassword", { new_password: "another-password-3" }, recoveryToken),
          401,
          "auth.token.invalid",
        );

        expectError(await checkPassword(changed, "first-password-1"), 401, "auth.password.invalid", [
          "captcha_required",
        ]);
        // Set, and no longer required: straight to authorized.
        await authorize(changed, "changed-password-2");

        expect((await login(accepted)).body.disclaimers_required).toEqual([]);
        const again = await checkPassword(accepted, accepted.password ?? "", { accept_disclaimers: [] });
        expect(again.body.session_state, JSON.stringify(again.body)).toBe("authorized");

        expect(await tokenStatus(revoked)).toBe(TokenStatus.INVALID);
        expectError(await post("logout", {}, revoked), 401, "auth.token.invalid");
        // Sessions live in Redis: a restarted (empty) Redis has forgotten them all, the rest keeps them.
        expect(await tokenStatus(live)).toBe(redisWiped ? TokenStatus.INVALID : TokenStatus.ACTIVE);
      },
    };
  }

  /** One request of the load, timed; a request with no answer within hangMs is recorded as status 0. */
  async function loadRequest(operation: string, body: Record<string, unknown>, token?: string) {
    const started = Date.now();
    const sample: Sample = { phase, operation, status: 0, code: "hang", ms: 0, envelope: false, at: started };
    let parsed: Record<string, unknown> = {};
    try {
      const response = await postAuth({ gateway: suite.gatewayUrl, company, operation, body, token, hangMs });
      sample.status = response.status;
      const text = await response.text();
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = {};
      }
      sample.envelope = parsed.status === "success" || (parsed.status === "error" && !!parsed.error_code);
      sample.code = parsed.status === "success" ? "success" : String(parsed.error_code ?? text.slice(0, 80));
    } catch (error) {
      sample.code = (error as Error).name === "TimeoutError" ? "hang" : `fetch failed: ${error}`;
    }
    sample.ms = Date.now() - started;
    samples.push(sample);
    return parsed;
  }

  /** A client of the load: login, checkpassword, logout, over and over, until the load stops. */
  async function loadClient(index: number, user: TestUser): Promise<void> {
    while (loadRunning) {
      const started = await loadRequest("login", { login_id: user.loginName });
      if (started.status === "success") {
        const checked = await loadRequest(
          "checkpassword",
          { password: user.password },
          String(started.session_token),
        );
        if (checked.status === "success") {
          const out = await loadRequest("logout", {}, String(checked.session_token));
          if (out.status === "success") lastCycle[index] = Date.now();
        }
      }
      // A steady load, not a saturating one: the machine has two cores, and the faults need them too.
      await sleep(150);
    }
  }

  /** Waits until every load client has finished a whole cycle after `since`. */
  async function loadGetsThrough(since: number, withinMs = backWithinMs) {
    const deadline = Date.now() + withinMs;
    while (lastCycle.some((at) => at < since) && Date.now() < deadline) await sleep(100);
    expect(
      lastCycle.every((at) => at >= since),
      "a load client never got through again",
    ).toBe(true);
  }

  const pids = () =>
    Object.fromEntries(processNames.map((name) => [name, suite.children[name].pid])) as Record<
      ProcessName,
      number | undefined
    >;

  /**
   * Asks each probe while something is down: 503 service.unavailable, with the envelope. What is
   * down stays down until every probe has answered, so an answer at all proves the deadline.
   */
  async function expectUnavailable(fault: string, probes: Record<string, () => Promise<ApiResponse>>) {
    for (const [probe, ask] of Object.entries(probes)) {
      const started = Date.now();
      const response = await ask();
      outageAnswers.push({ fault, probe, ms: Date.now() - started });
      expectError(response, 503, "service.unavailable");
    }
  }

  /** Tokens made before a fault, for the probes that need one. */
  async function probeTokens() {
    const user = await newUser();
    const authorized = await authorize(user);
    const atPassword = String((await login(user)).body.session_token);
    return { user, authorized, atPassword };
  }

  /**
   * One fault: acknowledged changes first, then the outage (probes answer 503 in time), then the
   * way back, after which the flows work, the load gets through, every change holds, and no
   * process but `restarted` has been restarted (the same pids, all running).
   */
  async function fault(options: {
    name: string;
    stop(): Promise<void>;
    start(): Promise<void>;
    probes(tokens: Awaited<ReturnType<typeof probeTokens>>): Record<string, () => Promise<ApiResponse>>;
    restarted?: ProcessName;
    redisWiped?: boolean;
  }) {
    const changes = await acknowledgedChanges();
    const tokens = await probeTokens();
    const before = pids();
    let restartMs = 0;
    phase = `${options.name} down`;
    await options.stop();
    try {
      await expectUnavailable(options.name, options.probes(tokens));
    } finally {
      // Also when a probe failed: the next tests need the suite whole.
      phase = `${options.name} restarting`;
      const restarting = Date.now();
      await options.start();
      restartMs = Date.now() - restarting;
    }
    const back = Date.now();
    phase = `after ${options.name}`;
    await flowsWorkAgain(options.name, restartMs);
    await loadGetsThrough(back);
    await changes.verify({ redisWiped: options.redisWiped ?? false });
    const after = pids();
    for (const name of processNames) {
      expect(suite.children[name].running, `${name} is running`).toBe(true);
      if (name !== options.restarted) expect(after[name], `${name} was not restarted`).toBe(before[name]);
    }
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-faults-"));
    await Promise.all([
      startPrivatePostgres().then((started) => {
        pg = started;
      }),
      startPrivateRedis().then((started) => {
        redis = started;
      }),
    ]);
    if (!pg || !redis) throw new Error("private stores did not start");
    const [identityDb, disclaimerDb, auditDb] = await Promise.all([
      createTestDatabase(pg.adminUrl, "faults_identity"),
      createTestDatabase(pg.adminUrl, "faults_disclaimer"),
      createTestDatabase(pg.adminUrl, "faults_audit"),
    ]);
    suite = await startSuite({
      dataDir,
      databaseUrls: { identity: identityDb.url, disclaimer: disclaimerDb.url, audit: auditDb.url },
      redisUrl: redis.url,
      redisKeyPrefix: "faults:",
      logLevel: "error",
      onLine: (name, line) => {
        const devOutbox = line.startsWith("[dev ");
        if ((!line.startsWith("{") && !devOutbox) || /"level":(5|6)\d/.test(line)) {
          troubles.push({ name, line });
        }
      },
      // Each call's deadline is the one under test; a whole flow on a loaded machine may take longer.
      env: { gateway: { GRPC_DEADLINE_MS: String(deadlineMs), REQUEST_DEADLINE_MS: "20000" } },
      startTimeoutMs: testBudgets.suiteStartMs,
      certificateHolders: ["consumer/faults"],
    });
    introspection = createServiceClient(TokenIntrospectionServiceService, suite.addresses.session, {
      deadlineMs: 5_000,
      transport: suite.transportOf("consumer/faults"),
      server: "session",
    });
    company = await createCompany(
      { recovery: { order: [], disabled: [], disabledByRole: {}, linkBase } },
      operatorOf(suite),
    );
    await createDisclaimer(company, "terms");
    pingUser = await newUser();

    const loadUsers = await Promise.all([newUser(), newUser(), newUser()]);
    for (const user of loadUsers) await authorize(user);
    phase = "steady";
    loadRunning = true;
    const started = Date.now();
    loadUsers.forEach((_, index) => {
      lastCycle[index] = 0;
    });
    load = Promise.all(loadUsers.map((user, index) => loadClient(index, user))).then(() => {});
    await loadGetsThrough(started);
  });

  afterAll(async () => {
    loadRunning = false;
    await load;
    introspection?.close();
    await suite?.stop();
    await redis?.close();
    await pg?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    // What was measured, for the record (FAULTS_DEBUG=1 adds the load's answers by phase).
    const answers: Record<string, number> = {};
    const byPhase: Record<string, Record<string, number>> = {};
    for (const sample of samples) {
      const key = `${sample.status} ${sample.code}`;
      answers[key] = (answers[key] ?? 0) + 1;
      const phaseAnswers = byPhase[sample.phase] ?? {};
      phaseAnswers[key] = (phaseAnswers[key] ?? 0) + 1;
      byPhase[sample.phase] = phaseAnswers;
    }
    const report = [
      "faults: 503 answers while away (ms)",
      ...outageAnswers.map(({ fault, probe, ms }) => `  ${fault} / ${probe}: ${ms}`),
      "faults: back (ms to restart the process or store, then until a whole pass of every flow had succeeded)",
      ...recoveries.map(({ fault, restartMs, flowsMs }) => `  ${fault}: ${restartMs} + ${flowsMs}`),
      "faults: recovery setpassword interrupted",
      ...raceOutcomes.map((outcome) => `  ${outcome}`),
      `faults: load ${JSON.stringify(answers)}, slowest ${Math.max(0, ...samples.map((sample) => sample.ms))} ms`,
      ...(process.env.FAULTS_DEBUG ? [JSON.stringify(byPhase, null, 1)] : []),
    ];
    console.log(report.join("\n"));
  });

  const down = (name: ServiceName) => () => suite.children[name].kill();
  const restart = (name: ServiceName) => () => suite.restart(name);

  describe("a service killed and restarted", () => {
    it(
      "identity: login and checkpassword answer 503 within the deadline; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "identity",
          stop: down("identity"),
          start: restart("identity"),
          restarted: "identity",
          probes: ({ user, atPassword }) => ({
            login: () => post("login", { login_id: user.loginName }),
            checkpassword: () => post("checkpassword", { password: user.password }, atPassword),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "session: login, checkpassword and logout answer 503 within the deadline; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "session",
          stop: down("session"),
          start: restart("session"),
          restarted: "session",
          probes: ({ user, atPassword, authorized }) => ({
            login: () => post("login", { login_id: user.loginName }),
            checkpassword: () => post("checkpassword", { password: user.password }, atPassword),
            logout: () => post("logout", {}, authorized),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "otp: a login that sends an OTP and a recovery by phone answer 503 within the deadline; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        const otpUser = await newUser({ password: null });
        await fault({
          name: "otp",
          stop: down("otp"),
          start: restart("otp"),
          restarted: "otp",
          probes: ({ user }) => ({
            "login by OTP": () => post("login", { login_id: otpUser.loginName }),
            "recovery by phone": () =>
              post("recovery/recover", {
                login_id: user.loginName,
                captcha_response: captcha,
                method: "PHONE",
              }),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "recovery: a recovery by e-mail link and checklink answer 503 within the deadline; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "recovery",
          stop: down("recovery"),
          start: restart("recovery"),
          restarted: "recovery",
          probes: ({ user }) => ({
            "recovery by e-mail": () =>
              post("recovery/recover", {
                login_id: user.loginName,
                captcha_response: captcha,
                method: "MAIL",
              }),
            checklink: () => post("recovery/checklink", { token: "a".repeat(43) }),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "disclaimer: login and checkcredentials answer 503 within the deadline; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "disclaimer",
          stop: down("disclaimer"),
          start: restart("disclaimer"),
          restarted: "disclaimer",
          // checkpassword is not among them: its session carries the disclaimers login found.
          probes: ({ user }) => ({
            login: () => post("login", { login_id: user.loginName }),
            checkcredentials: () =>
              post("checkcredentials", { login_id: user.loginName, password: user.password }),
          }),
        });
      },
      faultTestMs,
    );
  });

  describe("a store stopped and started, no process restarted", () => {
    it(
      "Redis crashed (SIGKILL) and started empty: 503 within the deadline meanwhile; afterwards every flow works, no revoked token comes back, nothing in PostgreSQL is lost",
      async () => {
        const otpUser = await newUser({ password: null });
        await fault({
          name: "Redis",
          stop: () => (redis as PrivateRedis).crash(),
          start: () => (redis as PrivateRedis).start(),
          redisWiped: true,
          probes: ({ user, authorized }) => ({
            login: () => post("login", { login_id: user.loginName }),
            logout: () => post("logout", {}, authorized),
            "login by OTP": () => post("login", { login_id: otpUser.loginName }),
            "recovery by e-mail": () =>
              post("recovery/recover", {
                login_id: user.loginName,
                captcha_response: captcha,
                method: "MAIL",
              }),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "PostgreSQL stopped (immediate) and started: 503 within the deadline meanwhile; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "PostgreSQL",
          stop: () => (pg as PrivatePostgres).stopImmediately(),
          start: () => (pg as PrivatePostgres).start(),
          probes: ({ user, atPassword }) => ({
            login: () => post("login", { login_id: user.loginName }),
            checkpassword: () => post("checkpassword", { password: user.password }, atPassword),
            "recovery by e-mail": () =>
              post("recovery/recover", {
                login_id: user.loginName,
                captcha_response: captcha,
                method: "MAIL",
              }),
          }),
        });
      },
      faultTestMs,
    );
  });

  describe("a store that hangs (SIGSTOP) and goes on, no process restarted", () => {
    it(
      "Redis frozen: 503 within the deadline meanwhile; afterwards every flow works and nothing is lost, sessions included",
      async () => {
        await fault({
          name: "Redis frozen",
          stop: async () => (redis as PrivateRedis).freeze(),
          start: async () => (redis as PrivateRedis).thaw(),
          probes: ({ user, authorized }) => ({
            login: () => post("login", { login_id: user.loginName }),
            logout: () => post("logout", {}, authorized),
            "recovery by e-mail": () =>
              post("recovery/recover", {
                login_id: user.loginName,
                captcha_response: captcha,
                method: "MAIL",
              }),
          }),
        });
      },
      faultTestMs,
    );

    it(
      "PostgreSQL frozen: 503 within the deadline meanwhile; afterwards every flow works and nothing acknowledged is lost",
      async () => {
        await fault({
          name: "PostgreSQL frozen",
          stop: async () => (pg as PrivatePostgres).freeze(),
          start: async () => (pg as PrivatePostgres).thaw(),
          // checkpassword is not among them: its session carries the disclaimers login found.
          probes: ({ user }) => ({
            login: () => post("login", { login_id: user.loginName }),
            checkcredentials: () =>
              post("checkcredentials", { login_id: user.loginName, password: user.password }),
          }),
        });
      },
      faultTestMs,
    );
  });

  describe("recovery setpassword interrupted: never a new password with a recovery session that could set another", () => {
    /** What a recovery's setpassword left: whether the password changed, and which sessions live. */
    async function stateAfter(user: TestUser, recoveryToken: string, before: string, newPassword: string) {
      let changed: boolean | undefined;
      // A write identity took before it froze may land between the two checks: then neither password
      // worked, and the new one is asked again (it must work by then).
      for (let attempt = 0; changed === undefined; attempt += 1) {
        const withNew = await checkPassword(user, newPassword);
        if (withNew.body.status === "success") {
          changed = true;
        } else {
          expect(attempt, "neither password works").toBe(0);
          expectError(withNew, 401, "auth.password.invalid", ["captcha_required"]);
          const withOld = await checkPassword(user, "first-password-1");
          if (withOld.body.session_state === "authorized") changed = false;
          else expectError(withOld, 401, "auth.password.invalid", ["captcha_required"]);
        }
      }
      return {
        changed,
        // The recovery session lives, not authorized; the session from before lives authorized.
        recoveryAlive: (await tokenStatus(recoveryToken)) === TokenStatus.NOT_AUTHORIZED,
        beforeAlive: (await tokenStatus(before)) === TokenStatus.ACTIVE,
      };
    }

    /**
     * The rule for any answer: a success means the new password holds and every session of the user
     * ended; whatever the answer, a changed password never leaves a session from before alive, nor
     * a recovery session that could set another password (it is claimed by the request: only the
     * same request, by its Idempotency-Key, may finish the change); and an unfinished recovery is
     * finished by the same request again, or started again.
     */
    async function expectNoHalfState(
      user: TestUser,
      answer: ApiResponse,
      recoveryToken: string,
      before: string,
      newPassword: string,
      idempotencyKey: string,
    ) {
      const state = await stateAfter(user, recoveryToken, before, newPassword);
      if (answer.body.status === "success") {
        expect(state).toEqual({ changed: true, recoveryAlive: false, beforeAlive: false });
      } else {
        expectError(answer, 503, "service.unavailable");
        if (state.changed) expect(state.beforeAlive).toBe(false);
      }
      if (state.changed && state.recoveryAlive) {
        expectError(
          await post("setpassword", { new_password: "another-password-3" }, recoveryToken),
          401,
          "auth.token.invalid",
        );
      }
      if (!state.changed || state.recoveryAlive) {
        if (state.recoveryAlive) {
          // The same request again finishes what the first one started.
          expectSuccess(
            await post("setpassword", { new_password: newPassword }, recoveryToken, idempotencyKey),
            [],
          );
        } else {
          // Left unfinished, the recovery starts again. A write that identity took before it froze may
          // land only now, after the sessions ended: then the password is already the new one, which
          // setpassword refuses as the current one (422), and the state below shows it changed.
          const again = await post("setpassword", { new_password: newPassword }, await recoverySession(user));
          if (again.status === 422)
            expectError(again, 422, "request.validation.failed", ["password_regex_description"]);
          else expectSuccess(again, []);
        }
        expect(await stateAfter(user, recoveryToken, before, newPassword)).toEqual({
          changed: true,
          recoveryAlive: false,
          beforeAlive: false,
        });
      }
      return state;
    }

    async function prepared() {
      const user = await newUser();
      const before = await authorize(user);
      // Each setpassword names itself, so that the same request may finish what an outage interrupted.
      return { user, before, recoveryToken: await recoverySession(user), key: randomUUID() };
    }

    it.each(["session", "identity"] as const)(
      "with %s down when it is called: 503 within the deadline, nothing changed, and the recovery finishes once it is back",
      async (name) => {
        phase = `setpassword with ${name} down`;
        const { user, before, recoveryToken, key } = await prepared();
        await suite.children[name].kill();
        const started = Date.now();
        const answer = await post(
          "setpassword",
          { new_password: "recovered-password-2" },
          recoveryToken,
          key,
        );
        outageAnswers.push({
          fault: `${name} (setpassword)`,
          probe: "recovery setpassword",
          ms: Date.now() - started,
        });
        expectError(answer, 503, "service.unavailable");
        await suite.restart(name);
        await untilBack();
        phase = `after setpassword with ${name} down`;
        const state = await expectNoHalfState(
          user,
          answer,
          recoveryToken,
          before,
          "recovered-password-2",
          key,
        );
        // Nothing had changed: the user kept the password, the sessions and the recovery.
        expect(state).toEqual({ changed: false, recoveryAlive: true, beforeAlive: true });
      },
      faultTestMs,
    );

    /** How long an undisturbed recovery setpassword takes here: the faults below land at fractions of it. */
    let setpasswordMs = 0;

    it("undisturbed, takes a measured time (the moments of the faults below are fractions of it)", async () => {
      phase = "setpassword undisturbed";
      const { user, before, recoveryToken, key } = await prepared();
      const started = Date.now();
      const answer = await post("setpassword", { new_password: "recovered-password-2" }, recoveryToken, key);
      setpasswordMs = Date.now() - started;
      expectSuccess(answer, []);
      await expectNoHalfState(user, answer, recoveryToken, before, "recovered-password-2", key);
      raceOutcomes.push(`undisturbed: ${setpasswordMs} ms`);
    });

    it(
      "killed at any moment of the call (identity or session): either success with everything done, or 503 and no new password with a recovery session that could set another",
      async () => {
        // identity while it checks the password (before any session ends) and while it sets it (after
        // they ended); session around the revocation and at the very end.
        for (const [victim, fraction] of [
          ["identity", 0.25],
          ["session", 0.45],
          ["identity", 0.7],
          ["session", 0.95],
        ] as const) {
          const delayMs = Math.round(fraction * setpasswordMs);
          phase = `setpassword, ${victim} killed after ${delayMs} ms`;
          const { user, before, recoveryToken, key } = await prepared();
          const killing = sleep(delayMs).then(() => suite.children[victim].kill());
          const answer = await post(
            "setpassword",
            { new_password: "recovered-password-2" },
            recoveryToken,
            key,
          );
          await killing;
          await suite.restart(victim);
          await untilBack();
          phase = `after setpassword, ${victim} killed`;
          const state = await expectNoHalfState(
            user,
            answer,
            recoveryToken,
            before,
            "recovered-password-2",
            key,
          );
          raceOutcomes.push(
            `${victim} killed after ${delayMs} ms: ${answer.status} ${answer.body.error_code ?? "success"}, password ${state.changed ? "changed" : "unchanged"}, recovery session ${state.recoveryAlive ? "alive" : "ended"}`,
          );
        }
      },
      faultTestMs,
    );

    it(
      "identity frozen past the gateway's deadline (SIGSTOP) and thawed: the 503 comes within the deadline, and a password identity sets after it never leaves a recovery session that could set another",
      async () => {
        for (const fraction of [0.2, 0.7]) {
          const delayMs = Math.round(fraction * setpasswordMs);
          phase = `setpassword, identity frozen after ${delayMs} ms`;
          const { user, before, recoveryToken, key } = await prepared();
          const pid = suite.children.identity.pid as number;
          const started = Date.now();
          const freezing = sleep(delayMs).then(() => process.kill(pid, "SIGSTOP"));
          let answer: ApiResponse;
          try {
            answer = await post("setpassword", { new_password: "recovered-password-2" }, recoveryToken, key);
          } finally {
            await freezing;
            process.kill(pid, "SIGCONT");
          }
          const ms = Date.now() - started;
          // What identity was doing when frozen it finishes now, after the gateway's answer: once it
          // answers its health check again, whichever way that went, the rule below must hold.
          await untilIdentityServes();
          phase = "after setpassword, identity frozen";
          const state = await expectNoHalfState(
            user,
            answer,
            recoveryToken,
            before,
            "recovered-password-2",
            key,
          );
          raceOutcomes.push(
            `identity frozen after ${delayMs} ms: ${answer.status} ${answer.body.error_code ?? "success"} in ${ms} ms, password ${state.changed ? "changed" : "unchanged"}, recovery session ${state.recoveryAlive ? "alive" : "ended"}`,
          );
        }
      },
      faultTestMs,
    );
  });

  describe("the load, all along", () => {
    it("never saw a 500, a hang or an answer without the envelope: only successes, 503 service.unavailable, and tokens gone with an empty Redis", async () => {
      loadRunning = false;
      await load;
      phase = "end";
      expect(samples.length).toBeGreaterThan(100);
      const unexpected = samples.filter(
        (sample) => !sample.envelope || !expectedAnswers.has(`${sample.status} ${sample.code}`),
      );
      expect(unexpected).toEqual([]);
      expect(samples.some((sample) => sample.status === 503)).toBe(true);
      for (const name of processNames) expect(suite.children[name].running, `${name} is running`).toBe(true);
      // No process wrote an error (an internal.error, a failure it did not expect) or anything that
      // is no log line (a crash's stack trace).
      expect(troubles).toEqual([]);
    });
  });
});
