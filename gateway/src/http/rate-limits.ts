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
  /**
   * The login IDs' windows whose last count waits for Redis to say whether the address let it in
   * (byAddressAndLoginId): until then no other request of this gateway takes a count of the window,
   * so that the one the address refuses can be taken back (see byAddressAndLoginId).
   */
  readonly #unsettled = new Map<string, Promise<void>>();

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly shared: SharedCounts | undefined,
  ) {
    if (!shared) return;
    this.#windows = new SharedWindows(shared.redis, shared.replicas.id);
    shared.availability.onBack(() => void this.#giveBack());
  }

  async #consume(window: Window): Promise<void> {
    // Checked again right before the count is taken, in the same turn of the event loop.
    for (
      let unsettled = this.#unsettled.get(window.name);
      unsettled;
      unsettled = this.#unsettled.get(window.name)
    ) {
      await unsettled;
    }
    const count = this.#counts.add(window.name, Date.now());
    const own = count.own;
    const windows = this.#windows;
    const total =
      windows && this.#countedOn() ? await this.#inRedis(() => windows.give(window.name, count)) : undefined;
    if (total === undefined) return this.#refuseBeyondShare(window, own, count);
    if (total > window.points) throw exceeded(window.kind, count);
    if (this.shared?.availability.backWithin(windowMs)) this.#refuseBeyondShare(window, own, count);
  }

  /** Whether there is a Redis to count in, not gone. */
  #countedOn(): boolean {
    return this.shared !== undefined && !this.shared.availability.gone;
  }

  /**
   * What Redis answers once it has this gateway's count; undefined when Redis is gone (or this
   * failure makes it gone), service.unavailable on a failure while it is counted on.
   */
  async #inRedis<T>(give: () => Promise<T>): Promise<T | undefined> {
    const availability = this.shared?.availability;
    try {
      const answer = await give();
      availability?.succeeded();
      return answer;
    } catch (error) {
      availability?.failed();
      if (availability?.gone) return undefined;
      throw new AuthError("service.unavailable", {
        retryAfterSeconds: 1,
        detail: "the rate-limit count was not confirmed by Redis",
        cause: error,
      });
    }
  }

  /** Refuses beyond this gateway's share of the limit (the whole limit without Redis): `own` is its count of the window. */
  #refuseBeyondShare(window: Window, own: number, count: WindowCount): void {
    const { points } = window;
    const share = this.shared ? Math.max(1, Math.floor(points / this.shared.replicas.count)) : points;
    if (own > share || own + count.othersHeard > points) throw exceeded(window.kind, count);
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
    return this.#consume(this.#addressWindow(company, limit, address));
  }

  /** Counts a request about a login ID (trimmed and lower-cased). */
  byLoginId(
    company: TenantCompany,
    limit: RateLimit | undefined,
    loginId: string | undefined,
  ): Promise<void> {
    const window = this.#loginIdWindow(company, limit, loginId);
    return window ? this.#consume(window) : Promise.resolve();
  }

  /**
   * byAddress, then byLoginId when the address is within its limit, in one step: one script, one
   * round trip, on one Redis (docs/performance.md, "Redis round trips per login"). The two one
   * after the other, as before, where one step cannot decide as they would: without Redis or while
   * it is gone, on a Cluster (the two keys live on different nodes), for a minute after Redis came
   * back (the address's share is then decided in the gateway, after Redis's answer), and while
   * another request's count of the same login ID waits for Redis's word on its address.
   *
   * The login ID's count is taken in the process before Redis answers (each request gives Redis a
   * count of its own: shared-windows.ts) and taken back when Redis says the address is over its
   * limit; meanwhile no other request of this gateway takes a count of that login ID, so the one
   * taken back is always the last. A step that fails leaves the login ID counted (Redis may have
   * counted it), and a Redis gone by that failure decides both in the process, as it does while
   * away.
   */
  async byAddressAndLoginId(
    company: TenantCompany,
    limit: RateLimit | undefined,
    address: string,
    loginId: string | undefined,
  ): Promise<void> {
    const first = this.#addressWindow(company, limit, address);
    const second = this.#loginIdWindow(company, limit, loginId);
    const windows = this.#windows;
    if (!second || !windows || !this.#inOneStep(second.name)) {
      await this.#consume(first);
      return second && this.#consume(second);
    }
    const now = Date.now();
    const [firstCount, secondCount] = [this.#counts.add(first.name, now), this.#counts.add(second.name, now)];
    const [firstOwn, secondOwn] = [firstCount.own, secondCount.own];
    let settle = () => {};
    this.#unsettled.set(second.name, new Promise<void>((resolve) => (settle = resolve)));
    try {
      const totals = await this.#inRedis(() =>
        windows.giveWithin(
          { key: first.name, count: firstCount, limit: first.points },
          { key: second.name, count: secondCount },
        ),
      );
      if (totals === undefined) {
        this.#refuseBeyondShare(first, firstOwn, firstCount);
        return this.#refuseBeyondShare(second, secondOwn, secondCount);
      }
      // Redis counted the login ID only if the address was within its limit.
      const [, secondTotal] = totals;
      if (secondTotal === undefined) {
        secondCount.own -= 1;
        throw exceeded(first.kind, firstCount);
      }
      if (secondTotal > second.points) throw exceeded(second.kind, secondCount);
    } finally {
      this.#unsettled.delete(second.name);
      settle();
    }
  }

  /** Whether the address and the login ID can be counted in one step now (byAddressAndLoginId). */
  #inOneStep(loginIdWindow: string): boolean {
    const { shared } = this;
    return (
      shared !== undefined &&
      this.#countedOn() &&
      !shared.redis.isCluster &&
      !shared.availability.backWithin(windowMs) &&
      !this.#unsettled.has(loginIdWindow)
    );
  }

  #addressWindow(company: TenantCompany, limit: RateLimit | undefined, address: string): Window {
    const points = company.policy.rateLimitPerAddressPerMinute || this.defaults.perAddressPerMinute;
    const client = clientAddressKey(address, this.defaults.ipv6PrefixLength ?? 64);
    return windowOf(limit ? "address" : "address, others", points, `${company.id}:${client}`);
  }

  #loginIdWindow(
    company: TenantCompany,
    limit: RateLimit | undefined,
    loginId: string | undefined,
  ): Window | undefined {
    const key = loginIdKey(company, limit, loginId);
    if (key === undefined) return undefined;
    const points = company.policy.rateLimitPerLoginIdPerMinute || this.defaults.perLoginIdPerMinute;
    return windowOf("login", points, key);
  }
}

/** One count of one key: its kind, its limit, and its name in Redis and in the process. */
interface Window {
  kind: Kind;
  points: number;
  name: string;
}

function windowOf(kind: Kind, points: number, key: string): Window {
  return { kind, points, name: `${keyPrefixes[kind]}:${key}` };
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
