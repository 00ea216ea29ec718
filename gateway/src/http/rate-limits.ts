import { AuthError } from "@auth/errors";
import { clientAddressKey } from "@auth/runtime";
import type { Cluster, Redis } from "ioredis";
import type { TenantCompany } from "../endpoint/context.js";
import type { RateLimit } from "../endpoint/define.js";
import type { GatewayReplicas } from "./gateway-replicas.js";
import type { RedisAvailability } from "./redis-availability.js";
import { SharedWindows } from "./shared-windows.js";
import { type WindowCount, WindowCounts, windowMs } from "./window-counts.js";

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

/** The keys' prefixes in Redis (not those of the string counters before: those expire on their own). */
const keyPrefixes: Record<Kind, string> = {
  address: "rate:address",
  "address, others": "rate:address-others",
  login: "rate:login",
};

/** How many windows are given back to Redis at once when it returns (pipelined). */
const givenBackAtOnce = 500;

export interface SharedCounts {
  redis: Redis | Cluster;
  /** Whether Redis can be counted on now. */
  availability: RedisAvailability;
  /** How many gateways share the limits, and this gateway's name among them. */
  replicas: GatewayReplicas;
}

/**
 * Requests per minute per client address and per login ID, counted in Redis so that they hold
 * across gateway replicas (in the process when there is no Redis). The limit a client meets is
 * never above the configured one: a count Redis could not confirm while it is still counted on
 * (one slow reply) answers service.unavailable rather than letting the request through uncounted;
 * once Redis is gone (a broken connection, or failures in a row: redis-availability.ts) each
 * replica decides by its own count against its share of the limit (the limit divided by the number
 * of gateways, and no more than what the others last had left), until Redis answers again. Every
 * request is counted in the process too, and Redis's window gets this gateway's whole count of it
 * (shared-windows.ts): with each request, and for every live window when Redis comes back, so that
 * what was let through from memory, or lost by a Redis restarted empty, is in Redis's count again.
 * For a window after Redis came back the share still holds as well, since another gateway may not
 * have given its counts back yet (docs/operations.md, "Rate limits while Redis is away").
 */
export class RateLimits {
  readonly #counts = new WindowCounts();
  readonly #windows: SharedWindows | undefined;

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly shared: SharedCounts | undefined,
  ) {
    if (!shared) return;
    this.#windows = new SharedWindows(shared.redis, shared.replicas.id);
    shared.availability.onBack(() => void this.#giveBack());
  }

  async #consume(kind: Kind, points: number, key: string): Promise<void> {
    const name = `${keyPrefixes[kind]}:${key}`;
    const count = this.#counts.add(name, Date.now());
    const own = count.own;
    const total = await this.#countInRedis(name, count);
    if (total === undefined) return this.#refuseBeyondShare(kind, points, own, count);
    if (total > points) throw exceeded(kind, count);
    if (this.shared?.availability.backWithin(windowMs)) this.#refuseBeyondShare(kind, points, own, count);
  }

  /**
   * The window's count over every gateway, once Redis has this gateway's; undefined when Redis is
   * gone (or this failure makes it gone), service.unavailable on a failure while it is counted on.
   */
  async #countInRedis(name: string, count: WindowCount): Promise<number | undefined> {
    const { shared } = this;
    const windows = this.#windows;
    if (!shared || !windows || shared.availability.gone) return undefined;
    try {
      const total = await windows.give(name, count);
      shared.availability.succeeded();
      return total;
    } catch (error) {
      shared.availability.failed();
      if (shared.availability.gone) return undefined;
      throw new AuthError("service.unavailable", {
        retryAfterSeconds: 1,
        detail: "the rate-limit count was not confirmed by Redis",
        cause: error,
      });
    }
  }

  /** Refuses beyond this gateway's share of the limit (the whole limit without Redis): `own` is its count of the window. */
  #refuseBeyondShare(kind: Kind, points: number, own: number, count: WindowCount): void {
    const share = this.shared ? Math.max(1, Math.floor(points / this.shared.replicas.count)) : points;
    if (own > share || own + count.othersHeard > points) throw exceeded(kind, count);
  }

  /** Gives Redis this gateway's count of every live window; a failure leaves Redis gone until a PING answers. */
  async #giveBack(): Promise<void> {
    const windows = this.#windows;
    if (!windows) return;
    const live = this.#counts.live(Date.now());
    try {
      for (let at = 0; at < live.length; at += givenBackAtOnce) {
        await Promise.all(
          live.slice(at, at + givenBackAtOnce).map(([name, count]) => windows.give(name, count)),
        );
      }
    } catch {
      this.shared?.availability.lost();
    }
  }

  /**
   * Counts a request of the client address (an IPv6 client by its network: @auth/runtime, address-prefix.ts),
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

function exceeded(kind: Kind, count: WindowCount): AuthError {
  return new AuthError("request.ratelimit.exceeded", {
    retryAfterSeconds: Math.max(1, Math.ceil((count.end - Date.now()) / 1000)),
    detail: `too many requests per ${kind === "login" ? "login ID" : "client address"}`,
  });
}
