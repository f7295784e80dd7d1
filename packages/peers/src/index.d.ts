import type { ChildProcess } from "node:child_process";

/** Absolute path of the installed package folder of a peer (a dependency of @mcpkit/peers). */
export declare function peerDir(name: string): string;
/** The parsed package.json of an installed peer. */
export declare function peerManifest(name: string): Record<string, unknown>;
/** Absolute path of a peer's bin script (the only one, or the one named `bin`); run it with `node <path>`. */
export declare function peerBin(name: string, bin?: string): string;

/** server-everything: `node <entry> stdio|streamableHttp|sse` (PORT env for HTTP; default stdio). */
export declare function serverEverythingEntry(): string;
/** server-filesystem: `node <entry> DIR...`. */
export declare function serverFilesystemEntry(): string;
/** server-memory: `MEMORY_FILE_PATH=/abs/file.jsonl node <entry>`. */
export declare function serverMemoryEntry(): string;
/** The conformance CLI script (dist/index.js). On Node 20 use {@link conformanceNodeArgs}. */
export declare function conformanceEntry(): string;
/** The preload module that adds `fs.globSync` for the conformance CLI on Node 20. */
export declare function node20Preload(): string;
/** `["--import", node20Preload(), conformanceEntry()]`: prefix for `spawn(process.execPath, [...args, "list"])`. */
export declare function conformanceNodeArgs(): string[];
/**
 * The inspector CLI: `node <entry> --cli <command…|URL> --method tools/list` (scripts/inspector-cli.mjs over the
 * pinned `@modelcontextprotocol/inspector-cli`, which runs on Node 20). Throws if it is not installed.
 * Point HOME at a scratch folder when running it.
 */
export declare function inspectorCliEntry(): string;
export declare function inspectorInstalled(): boolean;
/**
 * For a test that needs the inspector CLI: true when installed; otherwise prints why the test skips and
 * answers false, or throws under `CI=true`.
 */
export declare function inspectorOrSkip(): boolean;

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export declare function freePort(): Promise<number>;

export interface SpawnHttpPeerOptions {
  /** Defaults to process.execPath. */
  command?: string;
  args: string[];
  /** Passed to the child as PORT; waited for on 127.0.0.1. */
  port: number;
  env?: Record<string, string>;
  cwd?: string;
  /** How long to wait for the port to accept connections (default 15 000 ms). */
  timeoutMs?: number;
}

export interface SpawnedHttpPeer {
  child: ChildProcess;
  /** Combined stdout and stderr so far (last ~32-64 KB). */
  output(): string;
  /** Kills the process group (SIGTERM, SIGKILL after 3 s) and resolves once it exited. Idempotent. */
  close(): Promise<void>;
}

/** Spawns a server in its own process group and waits until `port` accepts connections. */
export declare function spawnHttpPeer(options: SpawnHttpPeerOptions): Promise<SpawnedHttpPeer>;

export interface StartServerEverythingHttpOptions {
  /** `streamableHttp` (default; served at /mcp) or legacy `sse` (GET /sse, POST /message?sessionId=…). */
  mode?: "streamableHttp" | "sse";
  timeoutMs?: number;
  env?: Record<string, string>;
}

export interface RunningHttpServer {
  /** `http://127.0.0.1:PORT/mcp` or `http://127.0.0.1:PORT/sse`. */
  url: string;
  port: number;
  pid: number | undefined;
  output(): string;
  close(): Promise<void>;
}

/** Starts server-everything over HTTP on a free port; close() kills it and waits for the exit. */
export declare function startServerEverythingHttp(
  options?: StartServerEverythingHttpOptions,
): Promise<RunningHttpServer>;

/**
 * Parses the text of `conformance list --requirements REV --<role>` into the scored scenario names and the
 * names run and reported but never scored (extensions, pending, added after release) for that role.
 */
export declare function parseConformanceList(
  text: string,
  role: "server" | "client",
): { scored: string[]; notScored: string[] };

type Revision = "2025-11-25" | "2026-07-28";
/** Shape of `@mcpkit/peers/scenarios.json`. */
export interface ConformanceScenarios {
  server: Record<Revision, string[]>;
  client: Record<Revision, string[]>;
  notScored: { server: Record<Revision, string[]>; client: Record<Revision, string[]> };
}
