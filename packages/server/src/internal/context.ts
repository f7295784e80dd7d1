import type { JsonRpcId, MessageInfo, RequestContext } from "@mcpkit/jsonrpc";
import { isObject } from "@mcpkit/jsonrpc";
import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  hasCapability,
  type Implementation,
  type InputRequest,
  isLevelEnabled,
  type JsonValue,
  type ListRootsResult,
  type LoggingLevel,
  McpError,
  type ProtocolEra,
  type RequestMeta,
} from "@mcpkit/protocol";
import type { MrtrAttempt } from "../mrtr-attempt.js";
import type { TaskManager } from "../tasks.js";
import type { ClientView, HandlerContext, InputOptions, RequestStateValues } from "../types.js";

/**
 * Thrown by `elicit`/`sample`/`listRoots` in a modern request whose answer is not in `inputResponses`:
 * it ends the attempt, which is answered with an `input_required` result. A handler that catches errors
 * around those calls should rethrow it (see {@link isInputRequired}).
 */
export class InputRequiredSignal extends Error {
  override name = "InputRequiredSignal";
  constructor() {
    super("Input required: the client is asked and will retry the request");
  }
}

/** Whether `error` is the signal that ends a modern attempt to ask the client for input; rethrow it. */
export function isInputRequired(error: unknown): boolean {
  return error instanceof InputRequiredSignal;
}

/** Everything a context needs to know about the request it serves. */
export interface CallInfo {
  era: ProtocolEra;
  protocolVersion: string;
  method: string;
  requestId: JsonRpcId;
  rctx: RequestContext;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  meta: RequestMeta;
  /** `all`: no threshold set (legacy before setLevel); `undefined`: send nothing (modern without logLevel). */
  logThreshold: LoggingLevel | "all" | undefined;
  requestTimeout: number | undefined;
}

type Validator<T> = (value: unknown) => value is T;

const isElicitResult: Validator<ElicitResult> = (v): v is ElicitResult =>
  isObject(v) &&
  (v.action === "accept" || v.action === "decline" || v.action === "cancel") &&
  (v.content === undefined || isObject(v.content));
const isCreateMessageResult: Validator<CreateMessageResult> = (v): v is CreateMessageResult =>
  isObject(v) && (isObject(v.content) || Array.isArray(v.content)) && typeof v.role === "string";
const isListRootsResult: Validator<ListRootsResult> = (v): v is ListRootsResult =>
  isObject(v) && Array.isArray(v.roots) && v.roots.every((r) => isObject(r) && typeof r.uri === "string");

/** The handler context of one request. Its mode changes once if a manual-mode tool becomes a task. */
export class Context implements HandlerContext {
  // `client`, `state` and the values map are made on first use: most handlers never touch them, and a
  // context is built for every call.
  private clientView: ClientView | undefined;
  private stateView: RequestStateValues | undefined;
  private values: Map<string, JsonValue> | undefined;
  private taskRun: { id: string; signal: AbortSignal; manager: TaskManager } | undefined;
  /** Set by the dispatcher for a tool that may become a task by `startTask()`. */
  onStartTask: (() => Promise<boolean>) | undefined;

  constructor(
    /** The request this context serves. */
    readonly call: CallInfo,
    /** The MRTR attempt of a modern `tools/call`, `prompts/get` or `resources/read`; else `undefined`. */
    readonly attempt: MrtrAttempt | undefined,
  ) {}

  get client(): ClientView {
    this.clientView ??= { info: this.call.clientInfo, capabilities: this.call.clientCapabilities };
    return this.clientView;
  }

  get state(): RequestStateValues {
    if (this.stateView === undefined) {
      const values = this.valueMap();
      this.stateView = {
        get: (key) => values.get(key),
        set: (key, value) => {
          values.set(key, value);
        },
      };
    }
    return this.stateView;
  }

  private valueMap(): Map<string, JsonValue> {
    this.values ??= new Map(Object.entries(this.attempt?.values ?? {}) as Array<[string, JsonValue]>);
    return this.values;
  }

  get era(): ProtocolEra {
    return this.call.era;
  }
  get protocolVersion(): string {
    return this.call.protocolVersion;
  }
  get method(): string {
    return this.call.method;
  }
  get requestId(): JsonRpcId {
    return this.call.requestId;
  }
  get signal(): AbortSignal {
    return this.taskRun?.signal ?? this.call.rctx.signal;
  }
  get meta(): RequestMeta {
    return this.call.meta;
  }
  get transportInfo(): MessageInfo | undefined {
    return this.call.rctx.info;
  }
  get authInfo(): unknown {
    return this.call.rctx.info?.authInfo;
  }
  get task(): { readonly id: string } | undefined {
    return this.taskRun ? { id: this.taskRun.id } : undefined;
  }

  /** The values set with `state.set`, to seal into `requestState`. */
  stateValues(): Record<string, unknown> {
    if (this.values === undefined) return { ...this.attempt?.values };
    return Object.fromEntries(this.values);
  }

  /** Switches to task mode: inputs go through the task, notifications stop. */
  becomeTask(id: string, signal: AbortSignal, manager: TaskManager): void {
    this.taskRun = { id, signal, manager };
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.call.meta.progressToken;
    if (token === undefined || this.taskRun) return;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    // A client that went away cannot be told; the handler is not failed for it.
    await this.call.rctx.notify("notifications/progress", params).catch(() => {});
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.call.logThreshold;
    if (threshold === undefined || this.taskRun) return;
    if (threshold !== "all" && !isLevelEnabled(level, threshold)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    await this.call.rctx.notify("notifications/message", params).catch(() => {});
  }

  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult> {
    const url = (params as { mode?: string }).mode === "url";
    const needed: ClientCapabilities = url ? { elicitation: { url: {} } } : { elicitation: {} };
    const path = url ? ["elicitation", "url"] : ["elicitation"];
    return this.input("elicit", "elicitation/create", params, options, path, needed, isElicitResult);
  }

  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.input(
      "sample",
      "sampling/createMessage",
      params,
      options,
      ["sampling"],
      { sampling: {} },
      isCreateMessageResult,
    );
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.input("roots", "roots/list", {}, options, ["roots"], { roots: {} }, isListRootsResult);
  }

  startTask(): Promise<boolean> {
    if (this.taskRun) return Promise.resolve(true);
    return this.onStartTask ? this.onStartTask() : Promise.resolve(false);
  }

  private async input<T>(
    kind: string,
    method: InputRequest["method"],
    params: object,
    options: InputOptions | undefined,
    capabilityPath: string[],
    needed: ClientCapabilities,
    valid: Validator<T>,
  ): Promise<T> {
    if (!hasCapability(this.call.clientCapabilities, capabilityPath)) {
      if (this.call.era === "modern") throw McpError.missingClientCapability(needed);
      throw new Error(`The client does not support ${capabilityPath.join(".")}`);
    }
    const request = { method, params } as InputRequest;
    if (this.taskRun) {
      const answer = await this.taskRun.manager.requestInput(this.taskRun.id, kind, request, options?.key);
      if (!valid(answer)) throw new Error(`The client's answer to ${method} is malformed`);
      return answer;
    }
    const attempt = this.attempt;
    if (attempt === undefined) {
      const requestOptions = options?.timeout ?? this.call.requestTimeout;
      const answer = await this.call.rctx.request(
        method,
        params as Record<string, unknown>,
        requestOptions === undefined ? {} : { timeout: requestOptions },
      );
      if (!valid(answer)) throw new Error(`The client's answer to ${method} is malformed`);
      return answer;
    }
    let key = options?.key;
    if (key === undefined) {
      attempt.counters ??= new Map();
      const n = attempt.counters.get(kind) ?? 0;
      attempt.counters.set(kind, n + 1);
      key = `${kind}-${n}`;
    }
    if (Object.hasOwn(attempt.pending, key) || Object.hasOwn(attempt.consumed, key)) {
      throw new Error(`Input key ${JSON.stringify(key)} was used twice in one request`);
    }
    if (Object.hasOwn(attempt.answers, key)) {
      const answer = attempt.answers[key];
      if (!valid(answer))
        throw McpError.invalidParams(`inputResponses["${key}"] is not a valid ${method} result`);
      attempt.consumed[key] = answer;
      return answer;
    }
    attempt.pending[key] = request;
    throw new InputRequiredSignal();
  }
}
