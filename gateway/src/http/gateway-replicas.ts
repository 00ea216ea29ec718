import { randomUUID } from "node:crypto";
import type { Cluster, Redis } from "ioredis";

const key = "gateways";
const heartbeatMs = 10_000;
/** A gateway not heard of for this long no longer counts. */
const forgetAfterMs = 3 * heartbeatMs;

/**
 * How many gateways share the rate limits: each says in Redis every 10 s that it is alive, and
 * counts those heard of within 30 s. The count never goes below the configured one, and while
 * Redis is away the last count found stands.
 */
export class GatewayReplicas {
  /** This gateway's name among them. */
  readonly id = randomUUID();
  #found = 1;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly configured: number,
    private readonly redis?: Redis | Cluster,
  ) {}

  get count(): number {
    return Math.max(this.configured, this.#found);
  }

  /** Says this gateway is alive now and every 10 s after. */
  async start(): Promise<void> {
    if (!this.redis) return;
    await this.#heartbeat();
    this.#timer = setInterval(() => void this.#heartbeat(), heartbeatMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.redis?.zrem(key, this.id).catch(() => undefined);
  }

  async #heartbeat(): Promise<void> {
    if (!this.redis) return;
    const now = Date.now();
    try {
      const results = await this.redis
        .pipeline()
        .zadd(key, now, this.id)
        .zremrangebyscore(key, "-inf", now - forgetAfterMs)
        .zcard(key)
        .pexpire(key, 2 * forgetAfterMs)
        .exec();
      const counted = results?.[2]?.[1];
      if (typeof counted === "number" && counted > 0) this.#found = counted;
    } catch {
      // Redis away: the last count stands.
    }
  }
}
