import { DEFAULT_REQUEST_TIMEOUT } from "@mcpkit/jsonrpc";

/**
 * Timeout settings of a request. Per-call options win over an ambient {@link withRequestConfig} scope,
 * which wins over the session's `createClient` options, which win over the defaults (60 s, reset on
 * progress, at most 10 × the timeout in total).
 */
export interface RequestConfig {
  /** Milliseconds to wait for each answer; `Infinity` waits for ever. NaN, 0 and negatives are rejected. */
  timeout?: number;
  /** Restart the timeout whenever the server reports progress. Default true. */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound of one request's whole wait however much progress arrives. Default 10 × `timeout`. */
  maxTotalTimeout?: number;
}

interface Store {
  run<R>(store: RequestConfig, fn: () => R): R;
  getStore(): RequestConfig | undefined;
}

// A synchronous stack: the fallback where AsyncLocalStorage is missing (browsers). A scope covers the
// calls started before `fn`'s first `await` only.
const stack: RequestConfig[] = [];
const syncStore: Store = {
  run(store, fn) {
    stack.push(store);
    try {
      return fn();
    } finally {
      stack.pop();
    }
  },
  getStore: () => stack[stack.length - 1],
};

let store: Store | undefined;

function loadStore(): Store {
  if (store) return store;
  // Looked up at run time, never imported: the package stays runtime-neutral. Node ≥ 20.16, Deno and
  // Bun have `process.getBuiltinModule`; some edge runtimes expose `AsyncLocalStorage` globally.
  const g = globalThis as {
    AsyncLocalStorage?: new () => Store;
    process?: { getBuiltinModule?: (id: string) => { AsyncLocalStorage?: new () => Store } | undefined };
  };
  let Als = g.AsyncLocalStorage;
  if (!Als) {
    try {
      Als = g.process?.getBuiltinModule?.("node:async_hooks")?.AsyncLocalStorage;
    } catch {
      Als = undefined;
    }
  }
  store = Als ? new Als() : syncStore;
  return store;
}

/**
 * Runs `fn` with `config` as the ambient request configuration: every client call started inside it
 * (and, where `AsyncLocalStorage` exists, inside anything it awaits) uses these settings unless the
 * call passes its own. Scopes nest; an inner scope overrides only the fields it sets.
 *
 * On Node, Deno and Bun the scope follows async work (`AsyncLocalStorage`, looked up at run time, never
 * imported). Elsewhere it covers only the calls made before `fn`'s first `await`.
 * @throws RangeError when `config.timeout` or `config.maxTotalTimeout` is NaN, 0 or negative.
 */
export function withRequestConfig<R>(config: RequestConfig, fn: () => R): R {
  if (config.timeout !== undefined) checkTimeout("timeout", config.timeout);
  if (config.maxTotalTimeout !== undefined) checkTimeout("maxTotalTimeout", config.maxTotalTimeout);
  const s = loadStore();
  const outer = s.getStore();
  return s.run(outer ? { ...outer, ...definedOnly(config) } : { ...config }, fn);
}

/** The ambient configuration of the current scope, if any. */
export function currentRequestConfig(): RequestConfig | undefined {
  return store?.getStore();
}

function definedOnly(config: RequestConfig): RequestConfig {
  const out: RequestConfig = {};
  if (config.timeout !== undefined) out.timeout = config.timeout;
  if (config.resetTimeoutOnProgress !== undefined) out.resetTimeoutOnProgress = config.resetTimeoutOnProgress;
  if (config.maxTotalTimeout !== undefined) out.maxTotalTimeout = config.maxTotalTimeout;
  return out;
}

/** @internal Throws a RangeError naming the option unless `value` is a positive number or Infinity. */
export function checkTimeout(name: string, value: unknown): void {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds or Infinity, got ${String(value)}`,
    );
  }
}

/** @internal The effective settings: call > ambient > session > defaults. */
export function resolveRequestConfig(
  call: RequestConfig | undefined,
  session: RequestConfig,
): Required<Pick<RequestConfig, "timeout" | "resetTimeoutOnProgress">> &
  Pick<RequestConfig, "maxTotalTimeout"> {
  const ambient = currentRequestConfig();
  const timeout = call?.timeout ?? ambient?.timeout ?? session.timeout ?? DEFAULT_REQUEST_TIMEOUT;
  checkTimeout("timeout", timeout);
  const maxTotalTimeout = call?.maxTotalTimeout ?? ambient?.maxTotalTimeout ?? session.maxTotalTimeout;
  if (maxTotalTimeout !== undefined) checkTimeout("maxTotalTimeout", maxTotalTimeout);
  const resetTimeoutOnProgress =
    call?.resetTimeoutOnProgress ?? ambient?.resetTimeoutOnProgress ?? session.resetTimeoutOnProgress ?? true;
  return maxTotalTimeout === undefined
    ? { timeout, resetTimeoutOnProgress }
    : { timeout, resetTimeoutOnProgress, maxTotalTimeout };
}
