import { AuthError } from "@auth/errors";
import type { Cluster, Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { TenantCompany } from "../flows/endpoint.js";
import type { Operation } from "../flows/transitions.js";

/**
 * The endpoints that take a secret or send a message, and what they are limited by: the client's
 * address always, and the login ID where the request names one (in its body or its session).
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
};

export interface RateLimitDefaults {
  perAddressPerMinute: number;
  perLoginIdPerMinute: number;
}

/**
 * Requests per minute per client address and per login ID, counted in Redis so that they hold
 * across gateway replicas (in the process when there is no Redis). Should Redis fail, each replica
 * keeps counting on its own rather than letting everything through or refusing everything.
 */
export class RateLimits {
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly redis: Redis | Cluster | undefined,
  ) {}

  #limiter(kind: "address" | "login", points: number): RateLimiterAbstract {
    const name = `${kind}:${points}`;
    let limiter = this.#limiters.get(name);
    if (!limiter) {
      const options = { keyPrefix: `rl:${kind}`, points, duration: 60 };
      limiter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  async #consume(kind: "address" | "login", points: number, key: string): Promise<void> {
    try {
      await this.#limiter(kind, points).consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new AuthError("request.ratelimit.exceeded", {
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        detail: `too many requests per ${kind === "address" ? "client address" : "login ID"}`,
      });
    }
  }

  /** Counts a request of the client address; request.ratelimit.exceeded beyond the company's limit. */
  byAddress(company: TenantCompany, operation: Operation, address: string): Promise<void> {
    if (!rateLimited[operation]) return Promise.resolve();
    const points = company.policy.rateLimitPerAddressPerMinute || this.defaults.perAddressPerMinute;
    return this.#consume("address", points, `${company.id}:${address}`);
  }

  /** Counts a request about a login ID (trimmed and lower-cased). */
  byLoginId(company: TenantCompany, operation: Operation, loginId: string | undefined): Promise<void> {
    if (rateLimited[operation] !== "address and login ID" || !loginId) return Promise.resolve();
    const points = company.policy.rateLimitPerLoginIdPerMinute || this.defaults.perLoginIdPerMinute;
    return this.#consume("login", points, `${company.id}:${loginId.trim().toLowerCase()}`);
  }
}
