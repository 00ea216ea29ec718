import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServiceClient } from "@auth/grpc-kit";
import { deleteKeys } from "@auth/kv/testing";
import { createTestDatabase } from "@auth/pg/testing";
import { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import { type SuiteOptions, startSuite } from "@auth/suite";
import { measureAgainst } from "./against.js";
import { measureEmbeddedMemory } from "./embedded-memory.js";
import { measureEventsCost, natsServerName } from "./events-cost.js";
import { type BenchUser, createBenchCompany, createBenchUsers } from "./fixtures.js";
import { flowLoads } from "./flows.js";
import { callLoad } from "./grpc-load.js";
import { measureHalfLoad } from "./half-load.js";
import { httpLoad, type LoadResult } from "./http-load.js";
import { importBatchSize, importLoad } from "./import-load.js";
import { expressLimit, hashLimit, transportCost } from "./limits.js";
import { startNatsGate } from "./nats-gate.js";
import { countOperations, perRequest } from "./operations.js";
import { openOutboxes } from "./outboxes.js";
import { listeningProcess, ProcessSampler } from "./processes.js";
import { describeCpu, describeOperations, printReport, type Report, type Scenario } from "./report.js";

const durationSeconds = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
/** BENCH_ONLY=identify,logout runs only the scenarios whose names start so (while profiling one). */
const only = process.env.BENCH_ONLY?.split(",");
// npm start's memory, before the suite on real stores starts; BENCH_ONLY=embedded measures nothing else.
if (await measureEmbeddedMemory(only)) process.exit(0);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/postgres";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The NATS the relays publish the security events to (its stream AUTH_EVENTS, which the benchmark never purges). */
const natsUrl = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const nats = new URL(natsUrl);
// Its server's CPU is read when it runs on this machine.
const natsServerPid = ["127.0.0.1", "localhost", "[::1]"].includes(nats.hostname)
  ? listeningProcess(Number(nats.port || 4222))
  : undefined;

process.stdout.write(
  `Benchmark: ${durationSeconds} s per scenario, ${connections} connections, on ${databaseUrl}, ${redisUrl} and ${nats.host} (${natsServerPid === undefined ? "its CPU not measured: no process of this machine listens on its port" : `nats-server pid ${natsServerPid}`})\n`,
);

const limits = {
  ...(await hashLimit()),
  bareExpressRps: await expressLimit({ connections, durationSeconds }),
  grpcCpuUs: await transportCost(),
};
process.stdout.write(
  `limits: argon2id ${limits.hashMs.toFixed(1)} ms per hash on ${limits.cores} cores; bare express ${limits.bareExpressRps.toFixed(0)} req/s; ` +
    `CPU of a gRPC call ${limits.grpcCpuUs.callUs.plaintext.toFixed(0)} µs in plain text, ${limits.grpcCpuUs.callUs.mtls.toFixed(0)} µs over mutual TLS; ` +
    `of a new channel and its first call ${limits.grpcCpuUs.connectUs.plaintext.toFixed(0)} µs, ${limits.grpcCpuUs.connectUs.mtls.toFixed(0)} µs\n`,
);

const identity = await createTestDatabase(databaseUrl, "bench_identity");
const disclaimer = await createTestDatabase(databaseUrl, "bench_disclaimer");
const audit = await createTestDatabase(databaseUrl, "bench_audit");
const redisPrefix = `bench-${Date.now().toString(36)}:`;
const dataDir = mkdtempSync(join(tmpdir(), "auth-bench-"));
// The relays reach NATS through a gate the benchmark can cut (security events, NATS cut).
const natsGate = await startNatsGate(natsUrl);
const suiteOptions: SuiteOptions = {
  dataDir,
  databaseUrls: { identity: identity.url, disclaimer: disclaimer.url, audit: audit.url },
  redisUrl,
  redisKeyPrefix: redisPrefix,
  logLevel: "error",
  commonEnv: { NATS_URL: natsGate.url },
  // Introspection is measured as the company's other products call it, with a consumer's certificate.
  certificateHolders: ["consumer/bench"],
  // Each process's counters of gRPC calls, Redis commands and PostgreSQL statements.
  metrics: true,
  // OTP sends are limited per user and session; the benchmark sends many, to many users.
  // audit reads the stream through a durable consumer of the benchmark's own, not the one named
  // `audit` that another suite on this NATS may use.
  env: {
    otp: { OTP_RESEND_COOLDOWN_SECONDS: "1", OTP_SENDS_PER_USER_PER_HOUR: "1000" },
    audit: { AUDIT_CONSUMER: "bench-audit" },
  },
  // BENCH_PROFILE_DIR=dir writes a V8 CPU profile of every process there when the suite stops.
  nodeArgs: [
    ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    ...(process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : []),
  ],
};
const suite = await startSuite(suiteOptions);
const processes = Object.entries(suite.children).map(([name, child]) => ({ name, pid: child.pid }));
const sampler = new ProcessSampler(processes, [{ name: natsServerName, pid: natsServerPid }]);
const metricsUrls = Object.values(suite.metricsUrls).filter((url): url is string => url !== undefined);
const outboxes = await openOutboxes(suite).catch(async (error: unknown) => {
  await suite.stop();
  throw error;
});

try {
  const company = await createBenchCompany(suite);
  const passwordUsers = await createBenchUsers(suite, company.id, 200, "password");
  const phoneUsers = await createBenchUsers(suite, company.id, 1_500, "phone");
  const base = `${suite.gatewayUrl}/${company.code}/v2/auth`;
  const headers = { "content-type": "application/json", "x-api-key": company.apiKey };
  const post = async (operation: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}/${operation}`, {
      method: "POST",
      headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, string>;
  };
  let next = 0;
  const nextUser = (users: BenchUser[]) => users[next++ % users.length] as BenchUser;

  const wanted = (...names: string[]) =>
    !only || names.some((name) => only.some((prefix) => name.startsWith(prefix)));
  async function measure(name: string, run: () => Promise<LoadResult>): Promise<Scenario | undefined> {
    if (!wanted(name)) return undefined;
    // The events of what came before (the users created, the scenario before) are published first.
    await outboxes.untilEmpty();
    const before = await countOperations(metricsUrls);
    sampler.start();
    const result = await run();
    const usage = sampler.stop();
    const operations = perRequest(before, await countOperations(metricsUrls), result.sent);
    const scenario = { name, ...result, ...usage, operations };
    process.stdout.write(
      `${name}: ${result.rps.toFixed(0)}/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, errors ${result.errors + result.failures}; ${describeOperations(scenario)}; CPU ms per request: ${describeCpu(scenario)}\n`,
    );
    return scenario;
  }
  /** Sends each prepared request once, as fast as the connections allow. */
  const once = (operation: string, tokens: string[], body: (index: number) => unknown) =>
    httpLoad({
      url: `${base}/${operation}`,
      connections,
      amount: tokens.length,
      requests: [
        {
          method: "POST",
          setupRequest: (request) => {
            const index = next++ % tokens.length;
            return {
              ...request,
              headers: { ...headers, authorization: `Bearer ${tokens[index]}` },
              body: JSON.stringify(body(index)),
            };
          },
        },
      ],
    });

  const flows = flowLoads({
    url: suite.gatewayUrl,
    companyCode: company.code,
    apiKey: company.apiKey,
    users: passwordUsers,
  });
  const closedLoop = { connections, durationSeconds };
  const measured: Array<Scenario | undefined> = [];
  measured.push(await measure("identify", () => flows.identify(closedLoop)));

  /** Whole password logins (login, then checkpassword) on every connection for the scenario's time. */
  const passwordLogins = () => flows["password login"](closedLoop);
  const passwordLogin = await measure("password login (login + checkpassword)", passwordLogins);
  // Two requests make one login.
  measured.push(passwordLogin && { ...passwordLogin, rps: passwordLogin.rps / 2 });
  if (passwordLogin && wanted("beside bursts")) measured.push(await measureBesideBursts(passwordLogin));
  const events = wanted("security events")
    ? await measureEventsCost({
        measure,
        passwordLogins,
        suiteProcesses: processes.map(({ name }) => name),
        gate: natsGate,
        outboxes,
        natsUrl,
        companyId: company.id,
        redisUrl,
        redisPrefix,
        databaseUrl,
      })
    : undefined;

  measured.push(await measure("checkcredentials", () => flows.checkcredentials(closedLoop)));
  if (wanted("half-load"))
    measured.push(...(await measureHalfLoad(measure, flows["password login"], closedLoop)));

  /**
   * The password logins again, while bursts of 200 wrong passwords at once go to one user after
   * another of a company with the default budget (docs/operations.md, "A burst at one user"): the
   * logins' p99 against theirs alone, in the same run. The operations per request count the bursts'.
   */
  async function measureBesideBursts(alone: Scenario): Promise<Scenario | undefined> {
    const burstCompany = await createBenchCompany(suite, "the default");
    const targets = await createBenchUsers(suite, burstCompany.id, 20, "password");
    const guess = (loginId: string) =>
      fetch(`${suite.gatewayUrl}/${burstCompany.code}/v2/auth/checkcredentials`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": burstCompany.apiKey },
        body: JSON.stringify({ login_id: loginId, password: "wrong", captcha_response: "dev-captcha-pass" }),
      }).then(
        async (response) =>
          `${response.status} ${((await response.json()) as { error_code?: string }).error_code}`,
      );
    let loadDone = false;
    const answers = new Map<string, number>();
    let bursts = 0;
    const burstsUntilDone = (async () => {
      while (!loadDone) {
        const target = targets[bursts++ % targets.length] as BenchUser;
        for (const answer of await Promise.all(Array.from({ length: 200 }, () => guess(target.loginName))))
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
    })();
    const beside = await measure("beside bursts at one user: password login", async () => {
      const result = await passwordLogins();
      loadDone = true;
      await burstsUntilDone;
      return result;
    });
    if (!beside) return undefined;
    process.stdout.write(
      `  ${bursts} bursts of 200: ${JSON.stringify(Object.fromEntries(answers))}; p99 of the logins ${beside.p99.toFixed(0)} ms beside them, ${alone.p99.toFixed(0)} ms alone (${(beside.p99 / alone.p99).toFixed(2)}×)\n`,
    );
    return { ...beside, rps: beside.rps / 2 };
  }

  if (wanted("renewotp", "checkotp")) await measureOtpStep();
  if (wanted("introspection", "logout")) await measureAuthorized();

  /** Sessions in checkotp (one SMS each), then one renewotp and one checkotp per session. */
  async function measureOtpStep() {
    const otpSessions: Array<{ token: string; phone: string }> = [];
    for (let start = 0; start < phoneUsers.length; start += 50) {
      const batch = phoneUsers.slice(start, start + 50);
      const started = await Promise.all(batch.map((user) => post("login", { login_id: user.loginName })));
      otpSessions.push(
        ...started.map((answer, i) => ({ token: answer.session_token ?? "", phone: batch[i]?.phone ?? "" })),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const tokens = otpSessions.map((s) => s.token);
    measured.push(await measure("renewotp", () => once("renewotp", tokens, () => ({}))));
    const otps = new Map<string, string>();
    for (const line of readFileSync(suite.smsOutboxFile, "utf8").split("\n").filter(Boolean)) {
      const message = JSON.parse(line) as { to: string; text: string };
      otps.set(message.to, /\d{6}/.exec(message.text)?.[0] ?? "");
    }
    measured.push(
      await measure("checkotp", () =>
        once("checkotp", tokens, (i) => ({ otp: otps.get(otpSessions[i]?.phone ?? "") })),
      ),
    );
  }

  /** Introspection as internal services call it, and logout, on authorized tokens. */
  async function measureAuthorized() {
    const authorized: string[] = [];
    for (let start = 0; start < 1_000; start += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => {
          const user = nextUser(passwordUsers);
          return post("checkcredentials", { login_id: user.loginName, password: user.password });
        }),
      );
      authorized.push(...answers.map((answer) => answer.session_token ?? ""));
    }
    const introspection = createServiceClient(TokenIntrospectionServiceService, suite.addresses.session, {
      deadlineMs: 5_000,
      transport: suite.transportOf("consumer/bench"),
      server: "session",
    });
    measured.push(
      await measure("introspection (gRPC)", () =>
        callLoad(
          async (index) => {
            const answer = await introspection.introspectToken({
              sessionToken: authorized[index % authorized.length] ?? "",
            });
            if (answer.status !== "TOKEN_STATUS_ACTIVE") throw new Error(answer.status);
          },
          { concurrency: 64, durationSeconds },
        ),
      ),
    );
    introspection.close();
    measured.push(await measure("logout", () => once("logout", authorized, () => ({}))));
  }

  // Its req/s are users imported per second; its latencies those of a batch of 500.
  const imported = await measure("import users (gRPC, a batch of 500 a request)", () =>
    importLoad(suite, company.id, durationSeconds),
  );
  measured.push(imported && { ...imported, rps: imported.rps * importBatchSize });

  const against = await measureAgainst({
    wanted,
    suite,
    suiteOptions,
    company,
    users: passwordUsers,
    databaseUrl,
    redisUrl,
    connections,
    // Each side of each flow runs once a round: half the scenarios' time keeps the default run short.
    durationSeconds: Number(process.env.BENCH_COMPARE_SECONDS ?? Math.max(3, durationSeconds / 2)),
    rounds: Number(process.env.BENCH_COMPARE_ROUNDS ?? 3),
    peerDir: process.env.PEER_DIR,
  });

  const scenarios = measured.filter((scenario): scenario is Scenario => scenario !== undefined);
  const report: Report = {
    date: new Date().toISOString(),
    durationSeconds,
    connections,
    limits,
    scenarios,
    ...(events ? { events } : {}),
    ...(against ? { against } : {}),
  };
  printReport(report);
  const resultsDir = join(process.cwd(), "bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, `${report.date.replace(/[:.]/g, "-")}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await outboxes.close();
  await suite.stop();
  await natsGate.close();
  await identity.drop();
  await disclaimer.drop();
  await audit.drop();
  await deleteKeys(redisUrl, redisPrefix);
  rmSync(dataDir, { recursive: true, force: true });
}
