import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { env, loadConfig, whyNotListenable } from "@auth/runtime";
import { DataDirInUse, type DataLock, lockDataDir, type ProcessName, startSuite } from "@auth/suite";
import { z } from "zod";
import { smallFootprint } from "./small-footprint.js";

const config = loadConfig(
  "npm start",
  z.object({
    PORT: env.port(8080),
    /** Where the reference login page of the demo company listens. */
    LOGIN_PAGE_PORT: env.port(8081),
    /** The services' gRPC ports (authctl finds identity at AUTH_IDENTITY_ADDR, 127.0.0.1:50051 by default). */
    IDENTITY_PORT: env.port(50051),
    SESSION_PORT: env.port(50052),
    OTP_PORT: env.port(50053),
    RECOVERY_PORT: env.port(50054),
    DISCLAIMER_PORT: env.port(50055),
    AUDIT_PORT: env.port(50056),
    DATA_DIR: z.string().min(1).default(".data"),
    /** A fixed demo API key (at least 24 characters), for scripts. */
    DEMO_API_KEY: z.string().min(24, "must have at least 24 characters").optional(),
    /** The credential of administrative calls (authctl); kept in DATA_DIR/admin-token when not set. */
    ADMIN_TOKEN: env.adminToken().optional(),
    LOG_LEVEL: env.logLevel().default("warn"),
  }),
);

const dataDir = resolve(config.DATA_DIR);
mkdirSync(dataDir, { recursive: true });

/**
 * The data folder, taken for this start (docs/operations.md, "Running"): two suites on one folder
 * would each write over the other's databases. Or the line that says who holds it.
 */
function takeDataDir(): { lock: DataLock } | { problem: string } {
  try {
    const lock = lockDataDir(dataDir);
    process.on("exit", () => lock.release());
    return { lock };
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    return {
      problem: `DATA_DIR ${dataDir} is in use by another suite (pid ${error.pids[0]}): stop it, or give this one other data with DATA_DIR=<folder> npm start`,
    };
  }
}
const data = takeDataDir();

/** A secret kept beside the data (made on the first start), so that a second start uses the same one. */
function keptSecret(name: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

const width = Math.max(
  ...["identity", "session", "otp", "recovery", "disclaimer", "audit", "gateway"].map((n) => n.length),
);
const print = (name: ProcessName, line: string) => process.stdout.write(`${name.padEnd(width)} | ${line}\n`);

// Every fixed port, by the variable that moves it; the others are free ones the processes pick.
const fixedPorts = {
  PORT: config.PORT,
  LOGIN_PAGE_PORT: config.LOGIN_PAGE_PORT,
  IDENTITY_PORT: config.IDENTITY_PORT,
  SESSION_PORT: config.SESSION_PORT,
  OTP_PORT: config.OTP_PORT,
  RECOVERY_PORT: config.RECOVERY_PORT,
  DISCLAIMER_PORT: config.DISCLAIMER_PORT,
  AUDIT_PORT: config.AUDIT_PORT,
};
const portProblems = await Promise.all(
  Object.entries(fixedPorts).map(async ([variable, port], index, all) => {
    const twin = all.slice(0, index).find(([, other]) => other === port)?.[0];
    if (twin) return `port ${port} is given to both ${twin} and ${variable}: set ${variable} to another port`;
    const reason = await whyNotListenable(port);
    if (reason === undefined) return undefined;
    const why =
      reason === "EADDRINUSE" ? "is in use (another npm start?)" : `cannot be listened on (${reason})`;
    return `port ${port} ${why}: stop what holds it, or move it with ${variable}=<port> npm start`;
  }),
);
const problems = ["problem" in data ? data.problem : undefined, ...portProblems].filter(
  (problem) => problem !== undefined,
);
if (problems.length > 0) {
  process.stderr.write(`${problems.join("\n")}\n`);
  process.exit(1);
}

// Loaded once the checks have passed: a start that stops on a taken port stops at once.
const [{ serveLoginPage }, { demoCompanyCode, demoControlQuestion, demoDisclaimer, demoUsers, seedDemo }] =
  await Promise.all([import("@auth/login-page"), import("./demo.js")]);

process.stdout.write(`Starting the suite on embedded stores (data in ${dataDir}) ...\n`);
const suite = await startSuite({
  dataDir,
  adminToken: keptSecret("admin-token", config.ADMIN_TOKEN),
  ports: {
    identity: config.IDENTITY_PORT,
    session: config.SESSION_PORT,
    otp: config.OTP_PORT,
    recovery: config.RECOVERY_PORT,
    disclaimer: config.DISCLAIMER_PORT,
    audit: config.AUDIT_PORT,
    gateway: config.PORT,
  },
  logLevel: config.LOG_LEVEL,
  onLine: print,
  dataLock: "lock" in data ? data.lock : undefined,
  ...smallFootprint,
}).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

const apiKey = keptSecret("demo-api-key", config.DEMO_API_KEY);
const loginPage = await serveLoginPage({
  gatewayUrl: suite.gatewayUrl,
  companyCode: demoCompanyCode,
  apiKey,
  port: config.LOGIN_PAGE_PORT,
}).catch(async (error: unknown) => {
  process.stderr.write(`login page: ${error instanceof Error ? error.message : String(error)}\n`);
  await suite.stop();
  process.exit(1);
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write("\nStopping the suite ...\n");
  await loginPage.close();
  await suite.stop();
  process.stdout.write("Stopped.\n");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

// The page as the user opens it: by a host name, which passkeys need (an RP ID is never an IP
// address); the recovery e-mails link to it too (auth/recovery/checklink).
const pageUrl = `http://localhost:${new URL(loginPage.url).port}`;
await seedDemo(suite, apiKey, pageUrl);

const base = `${suite.gatewayUrl}/${demoCompanyCode}/v2/auth`;
const [alice, bob, carol, dave] = demoUsers;
process.stdout.write(`
The suite is up. Gateway: ${suite.gatewayUrl}   Demo company: ${demoCompanyCode}   API key: ${apiKey}

API reference: ${suite.gatewayUrl}/docs (the OpenAPI document: ${suite.gatewayUrl}/openapi.json)

Sign in in a browser, on the reference login page: ${pageUrl}
(every step of the flows, "Forgot your password?" included; the demo users are below). Open it at
localhost, not 127.0.0.1: passkeys ("Sign in with a passkey", "Add a passkey" once signed in) work
only at a host name.

Or log in as ${alice.loginName} (password):
  curl -s ${base}/login -H 'X-API-Key: ${apiKey}' -H 'Content-Type: application/json' -d '{"login_id":"${alice.loginName}"}'
then, with the session_token it returns (the demo company asks users to accept its "${demoDisclaimer.code}" disclaimer):
  curl -s ${base}/checkpassword -H 'X-API-Key: ${apiKey}' -H 'Authorization: Bearer <session_token>' \\
    -H 'Content-Type: application/json' -d '{"password":"${alice.password}","accept_disclaimers":["${demoDisclaimer.code}"]}'

Other demo users: ${bob.loginName} (no password: an SMS code), ${carol.loginName} (password ${carol.password}, then an SMS code),
${dave.loginName} (password ${dave.password}, then a new one).
Recover access (PHONE, MAIL or QUESTION; the answer is "${demoControlQuestion.answer}"):
  curl -s ${base}/recovery/recover -H 'X-API-Key: ${apiKey}' -H 'Content-Type: application/json' \\
    -d '{"login_id":"${alice.loginName}","captcha_response":"dev-captcha-pass","method":"QUESTION"}'

SMS codes, recovery e-mails and notices to users (password changed, recovery, lock-out; marked
"notification") of the dev outbox print below and are kept in ${suite.smsOutboxFile}
and ${suite.mailOutboxFile}.
Security events (logins, factor changes, recoveries, operators' writes) go to ${suite.eventsFile}:
  npx authctl events tail --file ${suite.eventsFile}
The audit service keeps them per company; the audit trail, newest first, and the webhooks:
  npx authctl audit events --company ${demoCompanyCode}
  npx authctl webhooks --help
Press Ctrl-C to stop.

`);

await Promise.race(Object.values(suite.children).map((child) => child.exited()));
if (!stopping) {
  process.stderr.write("A process of the suite exited; stopping the others.\n");
  await suite.stop();
  process.exit(1);
}
