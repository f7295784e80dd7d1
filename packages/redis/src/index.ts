export {
  DEFAULT_REDIS_URL,
  openRedis,
  type RedisConnection,
  type RedisConnectionOptions,
} from "./connection.js";
export { createRedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
