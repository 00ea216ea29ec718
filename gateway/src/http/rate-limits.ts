import { AuthError } from "@auth/errors";
import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { TenantCompany } from "../endpoint/context.js";
import type { RateLimit } from "../endpoint/define.js";
import { clientAddressKey } from "./address-prefix.js";
import type { GatewayReplicas } from "./gateway-replicas.js";
import type { RedisAvailability } from "./redis-availability.js";

export interface RateLimitDefaults {
  perAddressPerMinute: number;
  perLoginIdPerMinute: number;
  /** How many leading bits of an IPv6 address make one client (64 when not given). */
  ipv6PrefixLength?: number;
}

/**
 * The counts: per client address of the endpoints with a rate-limit class ("address"), per client
 * address of every other endpoint ("address, others"), per login ID ("login").
 */
type Kind = "address" | "address, others" | "login";

const keyPrefixes: Record<Kind, string> = {
  address: "rl:address",
  "address, others": "rl:address-others",
  login: "rl:login",
};

interface Limiter {
  /** In Redis, shared by the replicas; absent without Redis. */
  shared?: RateLimiterRedis;
  /**
   * In the process, counting every request this replica sees: the count without Redis, and the one
   * that decides while Redis is gone (against this replica's share of the limit).
   */
  local: RateLimiterMemory;
}

export interface SharedCounts {
  redis: Redis | Cluster;
  /** Whether Redis can be counted on now. */
  availability: RedisAvailability;
  /** How many gateways share the limits. */
  replicas: GatewayReplicas;
}

/**
 * Requests per minute per client address and per login ID, counted in Redis so that they hold
 * across gateway replicas (in the process when there is no Redis). The limit a client meets is
 * never above the configured one: a count Redis could not confirm while it is still counted on
 * (one slow reply) answers service.unavailable rather than letting the request through uncounted;
 * once Redis is gone (a broken connection, or failures in a row: redis-availability.ts) each
 * replica counts in its own memory against its share of the limit (the limit divided by the number
 * of gateways), until Redis answers again (docs/operations.md, "Rate limits while Redis is away").
 */
export class RateLimits {
  readonly #limiters = new Map<string, Limiter>();

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly shared: SharedCounts | undefined,
  ) {}

  #limiter(kind: Kind, points: number): Limiter {
    const name = `${kind}:${points}`;
    let limiter = this.#limiters.get(name);
    if (!limiter) {
      const options = { keyPrefix: keyPrefixes[kind], points, duration: 60 };
      limiter = {
        shared: this.shared && new RateLimiterRedis({ ...options, storeClient: this.shared.redis }),
        local: new RateLimiterMemory(options),
      };
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  async #consume(kind: Kind, points: number, key: string): Promise<void> {
    const { shared, local } = this.#limiter(kind, points);
    const counted = await local.consume(key).catch(counts);
    if (shared && this.shared && !this.shared.availability.gone) {
      try {
        await shared.consume(key);
        this.shared.availability.succeeded();
        return;
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          this.shared.availability.succeeded();
          throw exceeded(kind, error);
        }
        this.shared.availability.failed();
        if (!this.shared.availability.gone) {
          throw new AuthError("service.unavailable", {
            retryAfterSeconds: 1,
            detail: "the rate-limit count was not confirmed by Redis",
            cause: error,
          });
        }
      }
    }
    const allowed = this.shared ? Math.max(1, Math.floor(points / this.shared.replicas.count)) : points;
    if (counted.consumedPoints > allowed) throw exceeded(kind, counted);
  }

  /**
   * Counts a request of the client address (an IPv6 client by its network: address-prefix.ts),
   * whatever the endpoint; request.ratelimit.exceeded beyond the company's limit. The endpoints with
   * a rate-limit class share one count; the others (no secret, no message, no call out) share
   * another, at the same limit, so that a client's own session upkeep (logout, sessions, setpassword)
   * does not spend what its logins may use, and none is called without limit.
   */
  byAddress(company: TenantCompany, limit: RateLimit | undefined, address: string): Promise<void> {
    const points = company.policy.rateLimitPerAddressPerMinute || this.defaults.perAddressPerMinute;
    const client = clientAddressKey(address, this.defaults.ipv6PrefixLength ?? 64);
    return this.#consume(limit ? "address" : "address, others", points, `${company.id}:${client}`);
  }

  /** Counts a request about a login ID (trimmed and lower-cased). */
  byLoginId(
    company: TenantCompany,
    limit: RateLimit | undefined,
    loginId: string | undefined,
  ): Promise<void> {
    const key = loginIdKey(company, limit, loginId);
    if (key === undefined) return Promise.resolve();
    const points = company.policy.rateLimitPerLoginIdPerMinute || this.defaults.perLoginIdPerMinute;
    return this.#consume("login", points, key);
  }
}

/**
 * What a request about a login ID is counted by, trimmed and lower-cased: undefined for an endpoint
 * whose requests are not counted by login ID.
 */
export function loginIdKey(
  company: TenantCompany,
  limit: RateLimit | undefined,
  loginId: string | undefined,
): string | undefined {
  return limit === "address and login ID" && loginId
    ? `${company.id}:${loginId.trim().toLowerCase()}`
    : undefined;
}

/** The count of a refused consume, as rate-limiter-flexible rejects with it. */
function counts(rejection: unknown): RateLimiterRes {
  if (rejection instanceof RateLimiterRes) return rejection;
  throw rejection;
}

function exceeded(kind: Kind, count: RateLimiterRes): AuthError {
  return new AuthError("request.ratelimit.exceeded", {
    retryAfterSeconds: Math.max(1, Math.ceil(count.msBeforeNext / 1000)),
    detail: `too many requests per ${kind === "login" ? "login ID" : "client address"}`,
  });
}
