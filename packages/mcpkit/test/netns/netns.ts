// Test support: a network namespace the test makes, joined to this one by a veth pair on a private /30
// (10.200.N.1 here, 10.200.N.2 inside), with iptables inside it. Everything made is removed by
// `remove()` (and by the exit hook, should the test die first). Needs root and iproute2; where they are
// missing the suites print why and skip, except under CI=true, where they fail.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

/** Why namespaces cannot be made here, or undefined when they can. */
export function netnsMissing(): string | undefined {
  if (process.getuid?.() !== 0) return "not root (ip netns needs CAP_SYS_ADMIN)";
  for (const bin of ["/usr/sbin/ip", "/usr/sbin/iptables"]) if (!existsSync(bin)) return `${bin} is missing`;
  return undefined;
}

const sh = (args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ["ignore", "pipe", "pipe"] });

/** A namespace joined to this one; its inside address is `inside`, ours `outside`. */
export interface NetnsLink {
  name: string;
  inside: string;
  outside: string;
  /** Runs `iptables ARGS` inside the namespace; resolves with its output. */
  iptables(args: string[]): string;
  /** Spawns `argv` inside the namespace. */
  spawn(argv: string[]): ChildProcess;
  /** Deletes the namespace and the veth pair (idempotent). */
  remove(): void;
}

let made = 0;

/** Makes a namespace with a veth pair on 10.200.N.0/30, N picked from the pid so parallel runs differ. */
export function createNetnsLink(): NetnsLink {
  const n = (process.pid + made++ * 7) % 250;
  const tag = `${process.pid % 100000}${made}`;
  const name = `mcpkit-${tag}`;
  const outer = `mko${tag}`.slice(0, 15);
  const inner = `mki${tag}`.slice(0, 15);
  const outside = `10.200.${n}.1`;
  const inside = `10.200.${n}.2`;
  let removed = false;
  const children: ChildProcess[] = [];
  const remove = () => {
    if (removed) return;
    removed = true;
    for (const c of children) c.kill("SIGKILL");
    try {
      sh(["ip", "netns", "del", name]);
    } catch {}
    try {
      sh(["ip", "link", "del", outer]);
    } catch {}
  };
  process.once("exit", remove);
  try {
    sh(["ip", "netns", "add", name]);
    sh(["ip", "link", "add", outer, "type", "veth", "peer", "name", inner]);
    sh(["ip", "link", "set", inner, "netns", name]);
    sh(["ip", "addr", "add", `${outside}/30`, "dev", outer]);
    sh(["ip", "link", "set", outer, "up"]);
    sh(["ip", "netns", "exec", name, "ip", "addr", "add", `${inside}/30`, "dev", inner]);
    sh(["ip", "netns", "exec", name, "ip", "link", "set", inner, "up"]);
    sh(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"]);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    name,
    inside,
    outside,
    iptables: (args) => sh(["ip", "netns", "exec", name, "iptables", ...args]).toString(),
    spawn: (argv) => {
      const child = spawn("ip", ["netns", "exec", name, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      return child;
    },
    remove,
  };
}

/** Resolves once `child` printed `ready` (bounded by `ms`), rejecting with its output otherwise. */
export function ready(child: ChildProcess, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`not ready after ${ms} ms: ${out}`)), ms);
    const seen = (d: Buffer) => {
      out += d;
      if (out.includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", (d) => (out += d));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}
