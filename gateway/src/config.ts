import { isIP } from "node:net";
import { checkTransportSettings, grpcCallEnvironment, grpcTransportEnvironment } from "@auth/grpc-kit";
import { checkRedisSettings, redisEnvironment } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";

/** Express's names of address ranges (proxy-addr): 127.0.0.0/8 and ::1; 169.254.0.0/16 and fe80::/10; 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const rangeNames = new Set(["loopback", "linklocal", "uniquelocal"]);

const proxiesExpected =
  "expected the proxies' addresses or CIDRs, comma-separated (e.g. 10.0.0.0/8,fd00::/8), or loopback, linklocal, uniquelocal, or none";

/** Why an entry of TRUST_PROXY names no proxy, or undefined when it names some. */
function notAProxy(entry: string): string | undefined {
  if (rangeNames.has(entry)) return undefined;
  const slash = entry.lastIndexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry}" is no address, CIDR or range name`;
  if (slash === -1) return undefined;
  const prefix = entry.slice(slash + 1);
  const longest = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > longest)
    return `"${entry}" has no prefix length from 1 to ${longest}`;
  if (Number(prefix) === 0) return `"${entry}" takes every peer for a proxy`;
  return undefined;
}

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For gives the client address (docs/operations.md,
 * "Client addresses"), as express's `trust proxy` list; `none` (or `false`) for no proxy. A hop count or `true`
 * would believe the header from any peer, so that a client chooses the address the rate limits count.
 */
const trustedProxies = z
  .string()
  .default("loopback")
  .transform((value, context) => {
    const problem = (message: string) => {
      context.addIssue({ code: "custom", message: `${message}; ${proxiesExpected}` });
      return z.NEVER;
    };
    const trimmed = value.trim();
    // No proxy: the peer is the client (express's own word for it too).
    if (trimmed === "none" || trimmed === "false") return [];
    if (/^\d+$/.test(trimmed)) return problem("a hop count believes X-Forwarded-For from any peer");
    if (trimmed === "true") return problem("true believes X-Forwarded-For from any peer");
    const entries = trimmed.split(",").map((entry) => entry.trim());
    if (entries.some((entry) => entry === "")) return problem("an empty entry");
    for (const entry of entries) {
      const why = notAProxy(entry);
      if (why) return problem(why);
    }
    return entries;
  });

export const configSchema = z
  .object({
    HOST: env.host("127.0.0.1"),
    PORT: env.port(8080),
    /** Where GET /metrics answers (Prometheus); off when unset. */
    METRICS_PORT: env.optionalPort(),
    IDENTITY_ADDR: env.address("127.0.0.1:50051"),
    SESSION_ADDR: env.address("127.0.0.1:50052"),
    OTP_ADDR: env.address("127.0.0.1:50053"),
    RECOVERY_ADDR: env.address("127.0.0.1:50054"),
    DISCLAIMER_ADDR: env.address("127.0.0.1:50055"),
    /** The audit service: the user's own security events (auth/events); no flow but that one needs it. */
    AUDIT_ADDR: env.address("127.0.0.1:50056"),
    /** The deadline of a call to a service (then the gateway answers service.unavailable), and its keepalive. */
    ...grpcCallEnvironment,
    /**
     * Milliseconds a whole request may take: every call it makes gets at most what is left, so a
     * request of several calls answers service.unavailable in time too.
     */
    REQUEST_DEADLINE_MS: env.positiveInt(5_000),
    /** Seconds the company of an API key is kept (revocations, suspensions and policy changes wait this long); 0 keeps nothing. */
    API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /**
     * Seconds between two reads of which companies have disclaimers: a company the last read did not
     * list asks the disclaimer service nothing, so its first disclaimer is asked for within this long
     * (docs/decisions.md, "A company without disclaimers"); while the service cannot be reached, one
     * created less than this long before is not asked for until it is back (docs/decisions.md,
     * "Disclaimers while their service is down").
     */
    DISCLAIMER_COMPANIES_REFRESH_SECONDS: z.coerce.number().int().min(1).max(300).default(1),
    /** The proxies whose X-Forwarded-For gives the client address: express's `trust proxy` as a list. */
    TRUST_PROXY: trustedProxies,
    /** How the gateway calls the services: mutual TLS with its certificate (spiffe://auth-suite/gateway). */
    ...grpcTransportEnvironment,
    /** Redis for the rate limits (standalone, Cluster or Sentinel), so that they hold across replicas; in the process without. */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:gateway:"),
    /**
     * Requests per minute per client address: to the endpoints that take secrets, send messages or
     * call a provider, and, counted apart, to the others; a company may set its own.
     */
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: env.positiveInt(120),
    RATE_LIMIT_PER_LOGIN_ID_PER_MINUTE: env.positiveInt(30),
    /**
     * Requests about one login ID this gateway works on at once (those its rate limit counts); the
     * others wait their turn, so that a burst at one user leaves the services to the other users.
     */
    REQUESTS_AT_ONCE_PER_LOGIN_ID: env.positiveInt(2),
    /**
     * The fewest gateway replicas that share the rate limits; more are found in Redis. While Redis is
     * away each replica allows its share of a limit (the limit divided by the replicas).
     */
    RATE_LIMIT_GATEWAY_REPLICAS: env.positiveInt(1),
    /** How many leading bits of an IPv6 address the per-address limit counts as one client (IPv4: the address). */
    RATE_LIMIT_IPV6_PREFIX: z.coerce
      .number({ error: "expected a prefix length from 1 to 128" })
      .int("expected a prefix length from 1 to 128")
      .min(1, "expected a prefix length from 1 to 128")
      .max(128, "expected a prefix length from 1 to 128")
      .default(64),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
  });

export type Config = z.infer<typeof configSchema>;
