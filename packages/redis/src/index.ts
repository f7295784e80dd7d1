export { createRedisBus, type RedisBus, type RedisBusOptions } from "./bus.js";
export {
  DEFAULT_REDIS_URL,
  openRedis,
  type RedisConnection,
  type RedisConnectionOptions,
} from "./connection.js";
export { createRedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
export { type RedisStore, type RedisStoreOptions, redisStore } from "./redis-store.js";
export {
  createRedisSessionStore,
  type RedisSessionStore,
  type RedisSessionStoreOptions,
} from "./session-store.js";
export {
  createRedisTaskStore,
  LEASE_LAPSED_MESSAGE,
  type RedisTaskStore,
  type RedisTaskStoreOptions,
} from "./task-store.js";
