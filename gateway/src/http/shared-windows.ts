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
 * `give(key, gateway, own, end)` gives the gateway's count of the key's window (`end` is the key's
 * end when the key is new: a window this gateway started while Redis was away keeps its end) and
 * answers the window's count, the gateway's field and the window's end. The expiry is set last: an
 * end already past removes the key, a count of a window that is over adding to nothing.
 */
const give = `
local function give(key, gateway, own, window_end)
  local fresh = redis.call('EXISTS', key) == 0
  local mine = tonumber(redis.call('HGET', key, gateway) or '0')
  if tonumber(own) > mine then
    mine = tonumber(own)
    redis.call('HSET', key, gateway, mine)
  end
  local total, ends = 0, tonumber(window_end)
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    if fields[i] == 'end' then ends = tonumber(fields[i + 1]) else total = total + tonumber(fields[i + 1]) end
  end
  if fresh then
    redis.call('HSET', key, 'end', window_end)
    redis.call('PEXPIREAT', key, window_end)
  end
  return {total, mine, ends}
end
`;

/** KEYS[1]: the key; ARGV: the gateway, its count, the end of its window. */
const oneWindow = `${give}
return give(KEYS[1], ARGV[1], ARGV[2], ARGV[3])`;

/**
 * KEYS: the first key, the second; ARGV: the gateway, its count and window's end of the first, the
 * first's limit, its count and window's end of the second. The second is given only when the
 * first's count is within the limit: the answer is then both windows', else the first's alone.
 */
const secondWithinFirst = `${give}
local first = give(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
if first[1] > tonumber(ARGV[4]) then return first end
local second = give(KEYS[2], ARGV[1], ARGV[5], ARGV[6])
return {first[1], first[2], first[3], second[1], second[2], second[3]}`;

type WindowScripts = {
  rateLimitWindow(key: string, gateway: string, own: number, end: number): Promise<[number, number, number]>;
  rateLimitWindowWithin(
    first: string,
    second: string,
    gateway: string,
    ...counts: [number, number, number, number, number]
  ): Promise<[number, number, number] | [number, number, number, number, number, number]>;
};

/** The gateways' counts of each window, in Redis. */
export class SharedWindows {
  constructor(
    private readonly redis: Redis | Cluster,
    /** This gateway's field in each window. */
    private readonly gateway: string,
  ) {
    redis.defineCommand("rateLimitWindow", { numberOfKeys: 1, lua: oneWindow });
    redis.defineCommand("rateLimitWindowWithin", { numberOfKeys: 2, lua: secondWithinFirst });
  }

  /**
   * Gives Redis this gateway's count of the key's window, and answers the window's count over
   * every gateway; `count` takes Redis's end of the window and what the others counted in it.
   */
  async give(key: string, count: WindowCount): Promise<number> {
    const script = this.redis as unknown as WindowScripts;
    const [total, mine, end] = await script.rateLimitWindow(key, this.gateway, count.own, count.end);
    return heard(count, total, mine, end);
  }

  /**
   * Gives `first` its count and, in the same step (one script, one round trip), `second` its count
   * only if the first's window is then within `limit`: answers the first's count over every
   * gateway and the second's, undefined when the second was not given (its window untouched). Both
   * keys must be on one Redis: not for a Cluster, whose keys live on different nodes.
   */
  async giveWithin(
    first: { key: string; count: WindowCount; limit: number },
    second: { key: string; count: WindowCount },
  ): Promise<[number, number | undefined]> {
    const script = this.redis as unknown as WindowScripts;
    const answer = await script.rateLimitWindowWithin(
      first.key,
      second.key,
      this.gateway,
      first.count.own,
      first.count.end,
      first.limit,
      second.count.own,
      second.count.end,
    );
    const firstTotal = heard(first.count, answer[0], answer[1], answer[2]);
    if (answer.length === 3) return [firstTotal, undefined];
    return [firstTotal, heard(second.count, answer[3], answer[4], answer[5])];
  }
}

/** Takes Redis's end of the window and what the others counted in it into `count`; answers the window's count. */
function heard(count: WindowCount, total: number, mine: number, end: number): number {
  count.end = end;
  count.othersHeard = total - mine;
  return total;
}
