import type { Cluster, Redis } from "ioredis";
import type { WindowCount } from "./window-counts.js";

/**
 * One window of one key in Redis is a hash: a field per gateway holding that gateway's own count
 * of the window, and `end`, when the window ends (ms since the epoch), which is also when the key
 * expires. A gateway only ever raises its own field to the count it holds (a grow-only counter):
 * so a count given twice (a command that timed out and ran later, one ioredis sent again after a
 * reconnect, the counts given back when Redis returns) is never added twice, gateways giving their
 * counts at the same time never lose one, and a count Redis lost (restarted empty) comes back
 * whole. The window's count is the sum of the gateways' fields.
 *
 * KEYS[1]: the key; ARGV: the gateway, its count, the end of its window (the key's end when the
 * key is new: a window this gateway started while Redis was away keeps its end). Answers the
 * window's count, the gateway's field and the window's end. The expiry is set last: an end already
 * past removes the key, a count of a window that is over adding to nothing.
 */
const lua = `
local fresh = redis.call('EXISTS', KEYS[1]) == 0
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > mine then
  mine = tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], ARGV[1], mine)
end
local total, ends = 0, tonumber(ARGV[3])
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if fields[i] == 'end' then ends = tonumber(fields[i + 1]) else total = total + tonumber(fields[i + 1]) end
end
if fresh then
  redis.call('HSET', KEYS[1], 'end', ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
end
return {total, mine, ends}`;

type WindowScript = {
  rateLimitWindow(key: string, gateway: string, own: number, end: number): Promise<[number, number, number]>;
};

/** The gateways' counts of each window, in Redis. */
export class SharedWindows {
  constructor(
    private readonly redis: Redis | Cluster,
    /** This gateway's field in each window. */
    private readonly gateway: string,
  ) {
    redis.defineCommand("rateLimitWindow", { numberOfKeys: 1, lua });
  }

  /**
   * Gives Redis this gateway's count of the key's window, and answers the window's count over
   * every gateway; `count` takes Redis's end of the window and what the others counted in it.
   */
  async give(key: string, count: WindowCount): Promise<number> {
    const script = this.redis as unknown as WindowScript;
    const [total, mine, end] = await script.rateLimitWindow(key, this.gateway, count.own, count.end);
    count.end = end;
    count.othersHeard = total - mine;
    return total;
  }
}
