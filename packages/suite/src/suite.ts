import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkHealth } from "@auth/grpc-kit";
import { Child } from "./child.js";
import { freePort } from "./ports.js";

export const serviceNames = ["identity", "session", "otp", "recovery", "disclaimer"] as const;
export type ServiceName = (typeof serviceNames)[number];
export type ProcessName = ServiceName | "gateway";

export interface SuiteOptions {
  /** Where PGlite files and the dev SMS outbox go. */
  dataDir: string;
  /** Real PostgreSQL databases of the identity and disclaimer services; PGlite when absent. */
  databaseUrls?: { identity: string; disclaimer: string };
  /** Real Redis for session, otp and recovery; in-process stores when absent. */
  redisUrl?: string;
  /** The credential of administrative gRPC calls; a random one when absent. */
  adminToken?: string;
  /** Put before each service's own key prefix, so that several suites can share one Redis. */
  redisKeyPrefix?: string;
  /** Fixed ports; free ones are taken for what is not given. */
  ports?: Partial<Record<ProcessName, number>>;
  logLevel?: string;
  /** Serve Prometheus metrics from every process, each on a port of its own. */
  metrics?: boolean;
  /** Environment for every process (for example OTEL_* to export traces). */
  commonEnv?: NodeJS.ProcessEnv;
  /** Extra environment per process. */
  env?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  onLine?: (name: ProcessName, line: string) => void;
  /** Milliseconds to wait for every process to be ready. */
  startTimeoutMs?: number;
}

export interface RunningSuite {
  gatewayUrl: string;
  addresses: Record<ServiceName, string>;
  smsOutboxFile: string;
  mailOutboxFile: string;
  adminToken: string;
  /** GET URLs of each process's Prometheus metrics, when asked for. */
  metricsUrls: Partial<Record<ProcessName, string>>;
  children: Record<ProcessName, Child>;
  /** Starts a process again (after kill or stop) and waits until it is ready. */
  restart(name: ProcessName): Promise<void>;
  stop(): Promise<void>;
}

const packageOf: Record<ProcessName, string> = {
  identity: "@auth/identity",
  session: "@auth/session",
  otp: "@auth/otp",
  recovery: "@auth/recovery",
  disclaimer: "@auth/disclaimer",
  gateway: "@auth/gateway",
};

const require = createRequire(import.meta.url);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(
  what: string,
  child: Child,
  ready: () => Promise<boolean>,
  timeoutMs: number,
  tail: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.running) throw new Error(`${what} exited while starting:\n${tail()}`);
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} was not ready after ${timeoutMs} ms:\n${tail()}`);
}

async function gatewayAnswers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/** Starts the five services and then the gateway, each its own node process, and waits until all are ready. */
export async function startSuite(options: SuiteOptions): Promise<RunningSuite> {
  const ports = {} as Record<ProcessName, number>;
  for (const name of [...serviceNames, "gateway"] as const)
    ports[name] = options.ports?.[name] ?? (await freePort());
  const addresses = Object.fromEntries(
    serviceNames.map((name) => [name, `127.0.0.1:${ports[name]}`]),
  ) as Record<ServiceName, string>;
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  const smsOutboxFile = join(options.dataDir, "sms-outbox.jsonl");
  const mailOutboxFile = join(options.dataDir, "mail-outbox.jsonl");
  const redisPrefix = options.redisKeyPrefix ?? "";
  const adminToken = options.adminToken ?? randomBytes(32).toString("base64url");
  const common = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: options.logLevel ?? "info",
    ...options.commonEnv,
  };
  const metricsPorts: Partial<Record<ProcessName, number>> = {};
  if (options.metrics) {
    for (const name of [...serviceNames, "gateway"] as const) metricsPorts[name] = await freePort();
  }
  const metricsUrls = Object.fromEntries(
    Object.entries(metricsPorts).map(([name, port]) => [name, `http://127.0.0.1:${port}/metrics`]),
  ) as Partial<Record<ProcessName, string>>;
  const redis = (service: string) =>
    options.redisUrl
      ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `${redisPrefix}auth:${service}:` }
      : {};

  const environments: Record<ProcessName, NodeJS.ProcessEnv> = {
    identity: {
      GRPC_PORT: String(ports.identity),
      ADMIN_TOKEN: adminToken,
      DATA_DIR: join(options.dataDir, "identity"),
      ...(options.databaseUrls
        ? { DATABASE_URL: options.databaseUrls.identity, SECRETS_KEY: randomBytes(32).toString("base64") }
        : {}),
    },
    disclaimer: {
      GRPC_PORT: String(ports.disclaimer),
      ADMIN_TOKEN: adminToken,
      DATA_DIR: join(options.dataDir, "disclaimer"),
      ...(options.databaseUrls ? { DATABASE_URL: options.databaseUrls.disclaimer } : {}),
    },
    session: { GRPC_PORT: String(ports.session), ADMIN_TOKEN: adminToken, ...redis("session") },
    otp: {
      GRPC_PORT: String(ports.otp),
      SMS_OUTBOX_FILE: smsOutboxFile,
      ...redis("otp"),
      ...(options.redisUrl ? { OTP_HASH_SECRET: randomBytes(32).toString("base64url") } : {}),
    },
    recovery: { GRPC_PORT: String(ports.recovery), MAIL_OUTBOX_FILE: mailOutboxFile, ...redis("recovery") },
    gateway: {
      PORT: String(ports.gateway),
      IDENTITY_ADDR: addresses.identity,
      SESSION_ADDR: addresses.session,
      OTP_ADDR: addresses.otp,
      RECOVERY_ADDR: addresses.recovery,
      DISCLAIMER_ADDR: addresses.disclaimer,
      // The suite runs on this machine for the demo and the tests, whose companies use the dev captcha.
      ALLOW_DEV_CAPTCHA: "true",
    },
  };

  const tails = new Map<ProcessName, string[]>();
  const children = {} as Record<ProcessName, Child>;
  for (const name of Object.keys(packageOf) as ProcessName[]) {
    children[name] = new Child({
      name,
      entry: require.resolve(packageOf[name]),
      // As in production: tracing is set up before the process's modules load (a no-op without OTEL_*).
      preload: [pathToFileURL(require.resolve("@auth/telemetry/register")).href],
      env: {
        ...common,
        ...environments[name],
        OTEL_SERVICE_NAME: name,
        ...(metricsPorts[name] === undefined ? {} : { METRICS_PORT: String(metricsPorts[name]) }),
        ...options.env?.[name],
      },
      onLine: (_, line) => {
        const tail = tails.get(name) ?? [];
        tail.push(line);
        if (tail.length > 30) tail.shift();
        tails.set(name, tail);
        options.onLine?.(name, line);
      },
    });
  }
  const tailOf = (name: ProcessName) => () => (tails.get(name) ?? []).join("\n");
  const timeoutMs = options.startTimeoutMs ?? 60_000;

  const whenReady = (name: ProcessName) =>
    name === "gateway"
      ? waitUntil(name, children.gateway, () => gatewayAnswers(gatewayUrl), timeoutMs, tailOf(name))
      : waitUntil(
          name,
          children[name],
          async () => (await checkHealth(addresses[name], "", 500)) === "SERVING",
          timeoutMs,
          tailOf(name),
        );

  const stop = async () => {
    await children.gateway.stop();
    await Promise.all(serviceNames.map((name) => children[name].stop()));
  };

  try {
    for (const name of serviceNames) children[name].start();
    await Promise.all(serviceNames.map(whenReady));
    children.gateway.start();
    await whenReady("gateway");
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    gatewayUrl,
    addresses,
    smsOutboxFile,
    mailOutboxFile,
    adminToken,
    metricsUrls,
    children,
    restart: async (name) => {
      await children[name].stop();
      children[name].start();
      await whenReady(name);
    },
    stop,
  };
}
