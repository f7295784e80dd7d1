/**
 * A gateway config that cannot be used: names the file, the key (dotted path) and the problem, in one
 * line (`gateway.json: gateway.upstreams.fs.timeoutMs: must be a positive number`).
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  /** The config file (or the label given instead). */
  readonly file: string;
  /** The dotted path of the offending key; empty for the whole file. */
  readonly key: string;

  constructor(file: string, key: string, problem: string) {
    super(key ? `${file}: ${key}: ${problem}` : `${file}: ${problem}`);
    this.file = file;
    this.key = key;
  }
}

/**
 * Two upstreams offer the same name after prefixing (a tool, a prompt, a resource URI or template):
 * the gateway refuses to start rather than let one shadow the other. The message names both.
 */
export class NameCollisionError extends Error {
  override readonly name = "NameCollisionError";
  constructor(
    /** `tool`, `prompt`, `resource` or `resource template`. */
    readonly kind: string,
    /** The name both would have. */
    readonly exposedName: string,
    /** The two upstreams, each as `upstream:name`. */
    readonly sources: readonly [string, string],
  ) {
    super(
      `${kind} name "${exposedName}" is offered by both ${sources[0]} and ${sources[1]}: give one of the upstreams a prefix (gateway.upstreams.<name>.prefix) or filter one out`,
    );
  }
}
