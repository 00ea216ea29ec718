import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type GrpcTransport, hashAdminToken } from "@auth/grpc-kit/client";
import {
  ensureDevPki,
  mtlsTransport,
  type PkiHolder,
  type TlsFiles,
  tlsEnvironment,
} from "@auth/grpc-kit/dev-pki";
import { checkHealth } from "@auth/grpc-kit/health";
import { pgliteNodeArgs } from "@auth/pg/pglite";
import { type BoundPorts, Child } from "./child.js";
import type { DataLock } from "./data-lock.js";

export const serviceNames = ["identity", "session", "otp", "recovery", "disclaimer", "audit"] as const;
export type ServiceName = (typeof serviceNames)[number];
export type ProcessName = ServiceName | "gateway";

export interface SuiteOptions {
  /** Where PGlite files and the dev SMS outbox go. */
  dataDir: string;
  /** Real PostgreSQL databases of the identity, disclaimer and audit services; PGlite when absent. */
  databaseUrls?: { identity: string; disclaimer: string; audit: string };
  /** Real Redis for session, otp and recovery; in-process stores when absent. */
  redisUrl?: string;
  /**
   * The credential of administrative gRPC calls; a random one when absent. The services that compare
   * it get its SHA-256 (ADMIN_TOKEN_SHA256), never the token.
   */
  adminToken?: string;
  /** Put before each service's own key prefix, so that several suites can share one Redis. */
  redisKeyPrefix?: string;
  /** Fixed ports (of the first replica); free ones are taken for what is not given. */
  ports?: Partial<Record<ProcessName, number>>;
  /**
   * Processes of each kind, working together on shared stores (real PostgreSQL and Redis only):
   * the gateway calls every replica of a service through one round-robin gRPC target.
   */
  replicas?: number;
  logLevel?: string;
  /** Serve Prometheus metrics from every process, each on a port of its own. */
  metrics?: boolean;
  /** Node flags for every process (for example --cpu-prof while benchmarking). */
  nodeArgs?: string[];
  /** Environment for every process (for example OTEL_* to export traces). */
  commonEnv?: NodeJS.ProcessEnv;
  /** Extra environment per process. */
  env?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  onLine?: (name: ProcessName, line: string) => void;
  /** Milliseconds to wait for every process to be ready. */
  startTimeoutMs?: number;
  /** Further holders of a certificate of the suite's CA (token consumers: `consumer/<product>`). */
  certificateHolders?: PkiHolder[];
  /** The lock of dataDir (lockDataDir), which then holds every process started, too. */
  dataLock?: DataLock;
  /**
   * gRPC in plain text between every process (GRPC_PLAINTEXT_DEV): only for the benchmark's measure
   * of what mutual TLS costs (docs/performance.md, "Against a skeleton and better-auth").
   */
  plaintext?: boolean;
}

export interface Replica {
  child: Child;
  /** The gateway's URL, for gateway replicas. */
  url?: string;
  metricsUrl?: string;
}

export interface RunningSuite {
  gatewayUrl: string;
  addresses: Record<ServiceName, string>;
  smsOutboxFile: string;
  mailOutboxFile: string;
  /** Where the services' relays append the security events when no NATS_URL is given. */
  eventsFile: string;
  /** The admin token in plain, which only the operator (authctl, the tests' fixtures) presents. */
  adminToken: string;
  /**
   * The certificate files of each holder, from the suite's private CA in `<dataDir>/pki`: the
   * processes, `operator` (what authctl and the tests' fixtures present) and any consumers asked for.
   */
  certificates: Record<string, TlsFiles>;
  /** How a holder of one of those certificates calls the services. */
  transportOf(holder: PkiHolder): GrpcTransport;
  /** GET URLs of each process's Prometheus metrics (the first replica's), when asked for. */
  metricsUrls: Partial<Record<ProcessName, string>>;
  /** The first replica of each process. */
  children: Record<ProcessName, Child>;
  /** Every replica of each process, with its gateway URL or metrics URL where it has one. */
  replicas: Record<ProcessName, Replica[]>;
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
  audit: "@auth/audit",
  gateway: "@auth/gateway",
};

const require = createRequire(import.meta.url);

/**
 * The node flags the processes run with in production too (Dockerfile, package start scripts): an
 * old generation V8 collects before it grows far past the live data (about 25 MiB per process), and
 * a young generation of 8 MiB semi-spaces, which spares most scavenges for a little memory; identity
 * keeps 2 MiB ones, as its hashes already take 19 MiB each (docs/performance.md).
 */
export function productionNodeArgs(name: ProcessName): string[] {
  return [`--max-semi-space-size=${name === "identity" ? 2 : 8}`, "--max-old-space-size=128"];
}

/**
 * V8's compiled code of the processes' modules, kept by Node between starts (its module compile
 * cache; an entry whose file changed is compiled again): in the checkout's node_modules/.cache, so
 * it goes with the checkout; the tests give it to the other node processes they run (authctl). A
 * suite's start took 3.5 s of CPU without it and 3.2-3.3 s with it (docs/performance.md, "V8's
 * compile cache for the suite's processes"). NODE_COMPILE_CACHE in the environment names another
 * folder, and Node's NODE_DISABLE_COMPILE_CACHE turns it off.
 */
export const compileCacheEnvironment = {
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ??
    fileURLToPath(new URL("../../../node_modules/.cache/auth-suite/node-compile-cache", import.meta.url)),
  NODE_DISABLE_COMPILE_CACHE: process.env.NODE_DISABLE_COMPILE_CACHE,
};
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
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok;
  } catch {
    return false;
  }
}

/** One gRPC target for all replicas of a service: a caller's channel balances calls round-robin over them. */
function targetOf(ports: readonly (number | undefined)[]): string {
  const addresses = ports.map((port) => `127.0.0.1:${port}`);
  return addresses.length === 1 ? (addresses[0] as string) : `ipv4:${addresses.join(",")}`;
}

/** Starts the six services and then the gateway, each its own node process, and waits until all are ready. */
export async function startSuite(options: SuiteOptions): Promise<RunningSuite> {
  const replicaCount = options.replicas ?? 1;
  if (replicaCount > 1 && !(options.databaseUrls && options.redisUrl)) {
    throw new Error("replicas share their stores: they need real PostgreSQL and Redis");
  }
  const processNames = [...serviceNames, "gateway"] as const;
  const certificates = await ensureDevPki(join(options.dataDir, "pki"), [
    ...processNames,
    "operator",
    ...(options.certificateHolders ?? []),
  ]);
  const smsOutboxFile = join(options.dataDir, "sms-outbox.jsonl");
  const mailOutboxFile = join(options.dataDir, "mail-outbox.jsonl");
  const eventsFile = join(options.dataDir, "events.jsonl");
  const redisPrefix = options.redisKeyPrefix ?? "";
  const adminToken = options.adminToken ?? randomBytes(32).toString("base64url");
  // What identity, session, disclaimer and audit hold: they only compare the token (docs/operations.md, "The admin token").
  const adminTokenSha256 = hashAdminToken(adminToken);
  const common = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: options.logLevel ?? "info",
    EVENTS_FILE: eventsFile,
    ...compileCacheEnvironment,
    ...(options.plaintext ? { GRPC_PLAINTEXT_DEV: "true" } : {}),
    ...options.commonEnv,
  };
  const redis = (service: string) =>
    options.redisUrl
      ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `${redisPrefix}auth:${service}:` }
      : {};
  // Set once the services are up: each process reports the ports it bound (port 0 unless fixed).
  const addresses = {} as Record<ServiceName, string>;
  const secretsKey = randomBytes(32).toString("base64");
  const auditSecretsKey = randomBytes(32).toString("base64");
  // The suite is for npm start, the tests and the benchmark, which read the codes and links from
  // the dev outboxes.
  const devMail = { MAIL_SENDER: "dev", MAIL_OUTBOX_FILE: mailOutboxFile };
  const devSms = { SMS_SENDER: "dev", SMS_OUTBOX_FILE: smsOutboxFile };
  const devSenders = { identity: { ...devMail, ...devSms }, otp: devSms, recovery: devMail };
  const otpHashSecret = randomBytes(32).toString("base64url");

  // What the replicas of a process share: the same stores and the same secrets. The addresses of
  // the services a process calls are known when it starts: the stages below start them first.
  const environments: Record<ProcessName, () => NodeJS.ProcessEnv> = {
    identity: () => ({
      ADMIN_TOKEN_SHA256: adminTokenSha256,
      SESSION_ADDR: addresses.session,
      // The suite runs on this machine for the demo and the tests, whose companies use the dev captcha.
      ALLOW_DEV_CAPTCHA: "true",
      DATA_DIR: join(options.dataDir, "identity"),
      // Notices to users go where the other messages of the suite go: the dev senders, chosen
      // here as no process has a default (docs/operations.md, "Message senders").
      ...devSenders.identity,
      ...(options.databaseUrls
        ? { DATABASE_URL: options.databaseUrls.identity, SECRETS_KEY: secretsKey }
        : {}),
    }),
    disclaimer: () => ({
      ADMIN_TOKEN_SHA256: adminTokenSha256,
      DATA_DIR: join(options.dataDir, "disclaimer"),
      ...(options.databaseUrls ? { DATABASE_URL: options.databaseUrls.disclaimer } : {}),
    }),
    // It reads the events the relays append to EVENTS_FILE (or the stream of a NATS_URL in
    // commonEnv); it calls the session service only when a user lists their own events.
    audit: () => ({
      ADMIN_TOKEN_SHA256: adminTokenSha256,
      SESSION_ADDR: addresses.session,
      DATA_DIR: join(options.dataDir, "audit"),
      ...(options.databaseUrls
        ? { DATABASE_URL: options.databaseUrls.audit, SECRETS_KEY: auditSecretsKey }
        : {}),
    }),
    session: () => ({
      ADMIN_TOKEN_SHA256: adminTokenSha256,
      ...redis("session"),
    }),
    otp: () => ({
      IDENTITY_ADDR: addresses.identity,
      ...devSenders.otp,
      ...redis("otp"),
      ...(options.redisUrl ? { OTP_HASH_SECRET: otpHashSecret } : {}),
    }),
    recovery: () => ({
      IDENTITY_ADDR: addresses.identity,
      ...devSenders.recovery,
      ...redis("recovery"),
    }),
    gateway: () => ({
      IDENTITY_ADDR: addresses.identity,
      SESSION_ADDR: addresses.session,
      OTP_ADDR: addresses.otp,
      RECOVERY_ADDR: addresses.recovery,
      DISCLAIMER_ADDR: addresses.disclaimer,
      AUDIT_ADDR: addresses.audit,
      ...redis("gateway"),
    }),
  };
  const tails = new Map<ProcessName, string[]>();
  const tailOf = (name: ProcessName) => (tails.get(name) ?? []).join("\n");
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  const replicas = {} as Record<ProcessName, Replica[]>;
  /** The ports each replica reported, for readiness and for restarts on the same ports. */
  const bound = {} as Record<ProcessName, BoundPorts[]>;

  const onPglite = (name: ProcessName) =>
    !options.databaseUrls && (name === "identity" || name === "disclaimer" || name === "audit");
  const makeReplicas = (name: ProcessName) => {
    const portVariable = name === "gateway" ? "PORT" : "GRPC_PORT";
    bound[name] = [];
    replicas[name] = Array.from({ length: replicaCount }, (_, index) => ({
      child: new Child({
        name,
        entry: require.resolve(packageOf[name]),
        // As in production: tracing is set up before the process's modules load (a no-op without OTEL_*).
        preload: [pathToFileURL(require.resolve("@auth/telemetry/register")).href],
        nodeArgs: [
          ...productionNodeArgs(name),
          ...(onPglite(name) ? pgliteNodeArgs : []),
          ...(options.nodeArgs ?? []),
        ],
        env: {
          ...common,
          ...environments[name](),
          ...tlsEnvironment(certificates[name] as TlsFiles),
          // Free ports chosen by the kernel as each process binds, unless a fixed one is asked for.
          [portVariable]: String((index === 0 ? options.ports?.[name] : undefined) ?? 0),
          // The services' health in plain text, which readiness asks as kubelet would.
          ...(name === "gateway" ? {} : { GRPC_HEALTH_PORT: "0" }),
          ...(options.metrics ? { METRICS_PORT: "0" } : {}),
          OTEL_SERVICE_NAME: name,
          ...options.env?.[name],
        },
        onLine: (_, line) => {
          const tail = tails.get(name) ?? [];
          tail.push(line);
          if (tail.length > 30) tail.shift();
          tails.set(name, tail);
          options.onLine?.(name, line);
        },
      }),
    }));
  };

  /** Starts every replica of a process and waits until each has bound its ports and is ready. */
  const startReplicas = (name: ProcessName) =>
    Promise.all(
      replicas[name].map(async (replica, index) => {
        const { child } = replica;
        child.start();
        if (child.pid !== undefined) options.dataLock?.hold(child.pid);
        const deadline = Date.now() + timeoutMs;
        // Cleared once the ports are known: left pending, it held a run of one e2e file open for
        // minutes after its tests.
        let notBound: NodeJS.Timeout | undefined;
        const ports = await Promise.race([
          child.listening(),
          child.exited().then(() => {
            throw new Error(`${name} exited while starting:\n${tailOf(name)}`);
          }),
          new Promise<never>((_, reject) => {
            notBound = setTimeout(
              () => reject(new Error(`${name} bound no port within ${timeoutMs} ms:\n${tailOf(name)}`)),
              timeoutMs,
            );
          }),
        ]).finally(() => clearTimeout(notBound));
        bound[name][index] = ports;
        // A restart binds the same ports again, so that the addresses others hold stay right.
        const env = child.options.env;
        if (name === "gateway") env.PORT = String(ports.port);
        else {
          env.GRPC_PORT = String(ports.port);
          env.GRPC_HEALTH_PORT = String(ports.healthPort);
        }
        if (ports.metricsPort !== undefined) {
          env.METRICS_PORT = String(ports.metricsPort);
          replica.metricsUrl = `http://127.0.0.1:${ports.metricsPort}/metrics`;
        }
        if (name === "gateway") replica.url = `http://127.0.0.1:${ports.port}`;
        await waitUntil(
          name,
          child,
          name === "gateway"
            ? () => gatewayAnswers(replica.url ?? "")
            : async () => (await checkHealth(`127.0.0.1:${ports.healthPort}`, "", 5_000)) === "SERVING",
          Math.max(0, deadline - Date.now()),
          () => tailOf(name),
        );
      }),
    );
  const each = (name: ProcessName, act: (child: Child) => unknown) =>
    Promise.all((replicas[name] ?? []).map(({ child }) => act(child)));
  const stop = async () => {
    await each("gateway", (child) => child.stop());
    await Promise.all(serviceNames.map((name) => each(name, (child) => child.stop())));
  };
  const addressOf = (name: ServiceName) => targetOf(bound[name].map((reported) => reported.port));

  // Every process starts after those it calls: the session service, which calls none, with
  // disclaimer; identity and audit, which call the session service; otp and recovery, which call
  // identity; then the gateway, which calls them all.
  try {
    for (const stage of [
      ["session", "disclaimer"],
      ["identity", "audit"],
      ["otp", "recovery"],
      ["gateway"],
    ] as const) {
      for (const name of stage) makeReplicas(name);
      await Promise.all(stage.map(startReplicas));
      for (const name of stage) if (name !== "gateway") addresses[name] = addressOf(name);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const first = <T>(pick: (replica: Replica) => T) =>
    Object.fromEntries(processNames.map((name) => [name, pick(replicas[name][0] as Replica)]));
  return {
    gatewayUrl: replicas.gateway[0]?.url ?? "",
    addresses,
    smsOutboxFile,
    eventsFile,
    mailOutboxFile,
    adminToken,
    certificates,
    transportOf: (holder) => {
      if (options.plaintext) return { kind: "plaintext" };
      const files = certificates[holder];
      if (!files) throw new Error(`the suite made no certificate for ${holder}`);
      return mtlsTransport(files);
    },
    metricsUrls: options.metrics
      ? (first((replica) => replica.metricsUrl) as Partial<Record<ProcessName, string>>)
      : {},
    children: first((replica) => replica.child) as Record<ProcessName, Child>,
    replicas,
    restart: async (name) => {
      await each(name, (child) => child.stop());
      await startReplicas(name);
    },
    stop,
  };
}
