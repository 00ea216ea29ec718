export {
  type IssuedToken,
  issueToken,
  newRecordId,
  type PresentedToken,
  readToken,
  sameHash,
} from "./keyed-token.js";
export { MemoryKeyValueStore } from "./memory.js";
export { type OpenedKeyValueStore, openKeyValueStore } from "./open.js";
export {
  connectRedis,
  type OpenedRedis,
  openRedis,
  type RedisClient,
  type RedisConnectionOptions,
  RedisKeyValueStore,
  type RedisStartOptions,
} from "./redis.js";
export { keyFromToken, seal, unseal } from "./sealed.js";
export {
  type BoundedCounter,
  type Clock,
  type Counter,
  type KeyNamedByValue,
  type KeyValueOutbox,
  type KeyValueStore,
  type OutboxEntry,
  systemClock,
  type Write,
  type WriteEvents,
} from "./store.js";
export {
  checkRedisSettings,
  describeTarget,
  type RedisTarget,
  redisEnvironment,
  redisOptionsOf,
  redisTargetOf,
} from "./target.js";
