import type { RedisConnection } from "./connection.js";

// The server's fields live in the session's record hash as `f:<name>`, beside the routing fields (`v`
// version, `o` owner, `h` GET stream holder) and `r`, the revision every write raises.
const FIELD = "f:";

// Sets and removes fields of a live record, raises its revision, tells the GET stream's holder.
// KEYS: record. ARGV: changes (JSON object, null removes), this instance, channel prefix, session id.
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
for name, value in pairs(cjson.decode(ARGV[1])) do
  if value == cjson.null then redis.call('HDEL', KEYS[1], 'f:' .. name)
  else redis.call('HSET', KEYS[1], 'f:' .. name, value) end
end
local revision = redis.call('HINCRBY', KEYS[1], 'r', 1)
local holder = redis.call('HGET', KEYS[1], 'h')
if holder and holder ~= ARGV[2] then
  local signal = '{"k":"changed","s":' .. cjson.encode(ARGV[4]) .. ',"r":' .. revision .. ',"c":' .. ARGV[1] .. '}'
  redis.call('PUBLISH', ARGV[3] .. holder, signal)
end
return revision`;

/**
 * The state half of a Redis session record: the server's legacy session state (a flat map of string
 * fields whose names and encoding belong to the server) kept in the same hash as the routing half
 * ({@link createRedisSessionStore}), so that the read every request of the session makes (the record
 * with its TTL restarted) brings both halves in one round trip. It does not route anything: a write
 * tells the instance holding the session's GET stream through that instance's channel, in the routing
 * half's signal form (`changed`).
 */
export class RedisSessionState {
  /**
   * @param client the connection the writes go through (the routing half's).
   * @param instanceId this instance's id (a write made here is not signalled back here).
   * @param channelPrefix prefix of the per-instance signal channels (`<prefix>sessions:to:`).
   */
  constructor(
    private readonly client: RedisConnection,
    private readonly instanceId: string,
    private readonly channelPrefix: string,
  ) {}

  /** The server's fields of a record hash read whole (`HGETALL`), routing fields left out. */
  fieldsOf(hash: Readonly<Record<string, string>>): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const name in hash) if (name.startsWith(FIELD)) fields[name.slice(FIELD.length)] = hash[name]!;
    return fields;
  }

  /**
   * Sets (a string) and removes (`null`) fields of the live record `key` (session `sessionId`) in one
   * script and raises its revision; resolves the new revision, or `undefined` when the record is gone
   * (nothing written).
   */
  async write(
    key: string,
    sessionId: string,
    changes: Readonly<Record<string, string | null>>,
  ): Promise<number | undefined> {
    const revision = await this.client.eval(UPDATE, {
      keys: [key],
      arguments: [JSON.stringify(changes), this.instanceId, this.channelPrefix, sessionId],
    });
    return typeof revision === "number" ? revision : undefined;
  }
}
