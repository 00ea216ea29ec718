export {
  type IssuedToken,
  issueToken,
  newRecordId,
  type PresentedToken,
  readToken,
  sameHash,
} from "./keyed-token.js";
export { MemoryKeyValueStore } from "./memory.js";
export { openKeyValueStore } from "./open.js";
export { connectRedis, type RedisConnectionOptions, RedisKeyValueStore } from "./redis.js";
export { type Clock, type Counter, type KeyValueStore, systemClock } from "./store.js";
export {
  checkRedisSettings,
  describeTarget,
  type RedisTarget,
  redisEnvironment,
  redisTargetOf,
} from "./target.js";
