import { AuthError } from "@auth/errors";
import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { TenantCompany } from "../flows/endpoint.js";
import type { Operation } from "../flows/transitions.js";
import { clientAddressKey } from "./address-prefix.js";

/**
 * The endpoints that take a secret, send a message or make a service call out (oauth: identity asks
 * the provider), and what they are limited by: the client's address always, and the login ID where
 * the request names one (in its body or its session).
 */
export const rateLimited: Partial<Record<Operation, "address" | "address and login ID">> = {
  login: "address and login ID",
  checkpassword: "address and login ID",
  checkcredentials: "address and login ID",
  checkotp: "address and login ID",
  renewotp: "address and login ID",
  "recovery/recover": "address and login ID",
  "recovery/checkotp": "address and login ID",
  "recovery/renewotp": "address and login ID",
  "recovery/checkquestion": "address and login ID",
  "recovery/checklink": "address",
  oauth: "address",
};

export interface RateLimitDefaults {
  perAddressPerMinute: number;
  perLoginIdPerMinute: number;
  /** How many leading bits of an IPv6 address make one client (64 when not given). */
  ipv6PrefixLength?: number;
}

/** How long the counts stay in the process after Redis failed, before Redis is asked again. */
const redisPauseMs = 5_000;

interface Limiter {
  /** In Redis, shared by the replicas; absent without Redis. */
  shared?: RateLimiterRedis;
  /** In the process: without Redis, or while it fails. */
  local: RateLimiterMemory;
}

/**
 * Requests per minute per client address and per login ID, counted in Redis so that they hold
 * across gateway replicas (in the process when there is no Redis). Should Redis fail, each replica
 * counts on its own rather than letting everything through or refusing everything, and asks Redis
 * again only after a pause, so that a Redis that hangs costs one command timeout, not one per request.
 */
export class RateLimits {
  readonly #limiters = new Map<string, Limiter>();
  #redisFailedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly redis: Redis | Cluster | undefined,
  ) {}

  #limiter(kind: "address" | "login", points: number): Limiter {
    const name = `${kind}:${points}`;
    let limiter = this.#limiters.get(name);
    if (!limiter) {
      const options = { keyPrefix: `rl:${kind}`, points, duration: 60 };
      limiter = {
        shared: this.redis && new RateLimiterRedis({ ...options, storeClient: this.redis }),
        local: new RateLimiterMemory(options),
      };
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  async #consume(kind: "address" | "login", points: number, key: string): Promise<void> {
    const { shared, local } = this.#limiter(kind, points);
    try {
      if (shared && Date.now() - this.#redisFailedAt >= redisPauseMs) {
        try {
          await shared.consume(key);
          return;
        } catch (error) {
          if (error instanceof RateLimiterRes) throw error;
          this.#redisFailedAt = Date.now();
        }
      }
      await local.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new AuthError("request.ratelimit.exceeded", {
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        detail: `too many requests per ${kind === "address" ? "client address" : "login ID"}`,
      });
    }
  }

  /**
   * Counts a request of the client address (an IPv6 client by its network: address-prefix.ts);
   * request.ratelimit.exceeded beyond the company's limit.
   */
  byAddress(company: TenantCompany, operation: Operation, address: string): Promise<void> {
    if (!rateLimited[operation]) return Promise.resolve();
    const points = company.policy.rateLimitPerAddressPerMinute || this.defaults.perAddressPerMinute;
    const client = clientAddressKey(address, this.defaults.ipv6PrefixLength ?? 64);
    return this.#consume("address", points, `${company.id}:${client}`);
  }

  /** Counts a request about a login ID (trimmed and lower-cased). */
  byLoginId(company: TenantCompany, operation: Operation, loginId: string | undefined): Promise<void> {
    if (rateLimited[operation] !== "address and login ID" || !loginId) return Promise.resolve();
    const points = company.policy.rateLimitPerLoginIdPerMinute || this.defaults.perLoginIdPerMinute;
    return this.#consume("login", points, `${company.id}:${loginId.trim().toLowerCase()}`);
  }
}
