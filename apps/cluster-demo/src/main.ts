// `pnpm demo:cluster`: three instances of the everything server sharing a Redis (REDIS_URL, default
// redis://127.0.0.1:6379), behind a round-robin proxy with no stickiness, and a client walking a scenario
// that crosses instances at every step, printing which instance served each request. Exits 0 when every
// step did what it says, 1 otherwise (it is CI's smoke test of the cluster); bounded to 90 s in all.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openRedis } from "@mcpkit/redis";
import { startRoundRobinProxy } from "@mcpkit/test-kit";
import { ClusterClient } from "./cluster-client.js";
import { type Instance, killInstance, startInstance } from "./instances.js";
import {
  legacyElicitationAcrossInstances,
  listenAcrossInstances,
  mrtrAcrossInstances,
  resumeAfterKill,
  type Stage,
  taskAcrossInstances,
} from "./scenario.js";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const ENTRY = fileURLToPath(new URL("../../everything-server/dist/main.js", import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);

const deadline = setTimeout(() => {
  print("cluster demo: gave up after 90 s");
  process.exit(1);
}, 90_000);
deadline.unref();

if (!existsSync(ENTRY)) {
  print(`cluster demo: ${ENTRY} is missing; build it (pnpm --filter @mcpkit/everything-server build)`);
  process.exit(1);
}
// The instances would fail one by one; say it once, plainly.
const redis = await openRedis(REDIS_URL).catch((error: Error) => {
  print(`cluster demo: ${error.message} (start redis-server, or set REDIS_URL)`);
  process.exit(1);
});

// One prefix per run, so it shares a Redis with anything else; one key ring for all three instances.
const prefix = `mcpkit-demo:${randomBytes(4).toString("hex")}:`;
const env = {
  REDIS_URL,
  MCPKIT_REDIS_PREFIX: prefix,
  MCPKIT_STATE_KEYS: `${randomBytes(32).toString("base64")},${randomBytes(32).toString("base64")}`,
};
const instances: Instance[] = [];
let failed = false;
print(`mcpkit cluster demo: 3 everything-server instances sharing ${REDIS_URL} (keys under ${prefix})`);
try {
  for (const i of [0, 1, 2]) instances.push(await startInstance(ENTRY, i, env));
  const proxy = await startRoundRobinProxy({ upstreams: instances.map((i) => i.origin) });
  try {
    for (const [i, instance] of instances.entries()) print(`  instance ${i}: ${instance.origin}`);
    print(`  round-robin proxy (no stickiness): ${proxy.url}/mcp\n`);
    const stage: Stage = {
      client: new ClusterClient(proxy.url, print),
      kill: (i) => killInstance(instances[i]!),
      print,
    };
    const steps: Array<[string, (stage: Stage) => Promise<void>]> = [
      ["1. A modern task: created, polled and cancelled on different instances", taskAcrossInstances],
      ["2. A listen stream on one instance hears an update made on another", listenAcrossInstances],
      ["3. An MRTR round continued on other instances (the key ring is shared)", mrtrAcrossInstances],
      ["4. A legacy session whose elicitation crosses instances", legacyElicitationAcrossInstances],
      ["5. An instance SIGKILLed mid-stream; the stream resumes elsewhere, nothing lost", resumeAfterKill],
    ];
    for (const [title, step] of steps) {
      print(title);
      await step(stage);
      print("    ✓\n");
    }
    const served = [0, 1, 2].map((i) => proxy.log.filter((entry) => entry.instance === i).length);
    print(`requests served per instance: ${served.map((n, i) => `#${i} ${n}`).join(", ")}`);
    print("cluster demo: every step passed");
  } finally {
    await proxy.close();
  }
} catch (error) {
  failed = true;
  print(`\ncluster demo FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await Promise.all(instances.map(killInstance));
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await redis.del(keys);
  }
  await redis.close();
}
process.exit(failed ? 1 : 0);
