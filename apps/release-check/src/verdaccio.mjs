// A Verdaccio registry on loopback for one run: our package names are served only from what the run
// publishes (never proxied), every other name is proxied to the public registry.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** Resolves with `fn()` once it returns a truthy value, polling every 200 ms; rejects after `ms`. */
async function until(fn, ms, what) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not ready after ${ms} ms`);
}

/**
 * Starts Verdaccio on 127.0.0.1:`port` with its storage under `dir`, and registers a user.
 * Returns `{ url, token, log(), stop() }`.
 */
export async function startVerdaccio({ dir, port, uplink = "https://registry.npmjs.org/" }) {
  mkdirSync(path.join(dir, "storage"), { recursive: true });
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    `storage: ${path.join(dir, "storage")}
auth:
  htpasswd:
    file: ${path.join(dir, "htpasswd")}
    max_users: 10
uplinks:
  registry:
    url: ${uplink}
    timeout: 60s
packages:
  "mcpkit":
    access: $all
    publish: $authenticated
  "@mcpkit/*":
    access: $all
    publish: $authenticated
  "**":
    access: $all
    publish: $authenticated
    proxy: registry
server:
  keepAliveTimeout: 60
max_body_size: 100mb
log: { type: stdout, format: pretty, level: warn }
`,
  );
  const bin = path.join(path.dirname(require.resolve("verdaccio/package.json")), "bin", "verdaccio");
  const logFile = path.join(dir, "verdaccio.log");
  const out = [];
  const child = spawn(process.execPath, [bin, "--config", config, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => out.push(d));
  child.stderr.on("data", (d) => out.push(d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    writeFileSync(logFile, Buffer.concat(out));
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  };
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
        return (await fetch(`${url}-/ping`)).ok;
      },
      60_000,
      "verdaccio",
    );
    const user = { name: "release-check", password: "release-check-password" };
    const response = await fetch(`${url}-/user/org.couchdb.user:${user.name}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ _id: `org.couchdb.user:${user.name}`, type: "user", roles: [], ...user }),
    });
    if (!response.ok) throw new Error(`verdaccio: adding a user answered ${response.status}`);
    const { token } = await response.json();
    return { url, token, log: () => Buffer.concat(out).toString("utf8"), stop };
  } catch (error) {
    await stop();
    throw new Error(`${error.message}\n${readFileSync(logFile, "utf8").slice(-2000)}`);
  }
}
