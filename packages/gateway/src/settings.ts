import { createHash } from "node:crypto";
import type { ConfigReader } from "./internal/config-reader.js";
import type {
  ApiKeyConfig,
  GatewaySettings,
  NameRule,
  Profile,
  ProfileRules,
  UpstreamSettings,
} from "./types.js";

const GATEWAY_KEYS = [
  "separator",
  "upstreams",
  "apiKeys",
  "profiles",
  "anonymousProfile",
  "pinning",
  "audit",
  "limits",
  "searchTools",
  "inputTimeoutMs",
  "maxResourceSubscriptions",
] as const;
const UPSTREAM_KEYS = ["prefix", "timeoutMs", "era", "exclusive", "include", "exclude"] as const;
const PROFILE_KEYS = [
  "name",
  "match",
  "tools",
  "prompts",
  "resources",
  "callsPerMinute",
  "concurrency",
] as const;
const PREFIX = /^[A-Za-z0-9_.-]{1,32}$/;

/**
 * Reads the `gateway` key (absent: every default). Unknown keys are errors, so a typo never silently
 * turns a protection off.
 * @throws ConfigError naming the file, the key and the problem.
 */
export function readGatewaySettings(
  read: ConfigReader,
  raw: unknown,
  upstreamNames: readonly string[],
  env: Record<string, string | undefined>,
): GatewaySettings {
  const g = raw === undefined ? {} : read.object(raw, "gateway");
  read.known(g, "gateway", GATEWAY_KEYS);
  const separator = g.separator === undefined ? "__" : read.string(g.separator, "gateway.separator");
  const given = g.upstreams === undefined ? {} : read.object(g.upstreams, "gateway.upstreams");
  for (const name of Object.keys(given)) {
    if (!upstreamNames.includes(name)) {
      read.fail(
        `gateway.upstreams.${name}`,
        `names no server of mcpServers (it has: ${upstreamNames.join(", ")})`,
      );
    }
  }
  const upstreams: Record<string, UpstreamSettings> = {};
  for (const name of upstreamNames) {
    upstreams[name] = readUpstream(read, given[name], name, upstreamNames.length);
  }
  const apiKeys = readApiKeys(read, g.apiKeys, env);
  const profiles =
    g.profiles === undefined
      ? []
      : (Array.isArray(g.profiles) ? g.profiles : read.fail("gateway.profiles", "must be an array")).map(
          (p, i) => readProfile(read, p, `gateway.profiles[${i}]`),
        );
  const names = profiles.map((p) => p.name);
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i) read.fail(`gateway.profiles[${i}].name`, `"${name}" is used twice`);
  });
  let anonymousProfile: string | undefined;
  if (g.anonymousProfile !== undefined) {
    anonymousProfile = read.string(g.anonymousProfile, "gateway.anonymousProfile");
    if (!names.includes(anonymousProfile)) {
      read.fail("gateway.anonymousProfile", `names no profile (profiles: ${names.join(", ") || "none"})`);
    }
  }
  let pinningFile: string | undefined;
  if (g.pinning !== undefined) {
    const pinning = read.object(g.pinning, "gateway.pinning");
    read.known(pinning, "gateway.pinning", ["file"]);
    pinningFile = read.string(pinning.file, "gateway.pinning.file");
  }
  const auditRaw = g.audit === undefined ? {} : read.object(g.audit, "gateway.audit");
  read.known(auditRaw, "gateway.audit", ["target", "arguments"]);
  let target: GatewaySettings["audit"]["target"] = "stderr";
  if (auditRaw.target !== undefined) {
    const t = read.string(auditRaw.target, "gateway.audit.target");
    target = t === "stderr" || t === "off" ? t : { file: t };
  }
  const limitsRaw = g.limits === undefined ? {} : read.object(g.limits, "gateway.limits");
  read.known(limitsRaw, "gateway.limits", ["callsPerMinute", "concurrency"]);
  const searchRaw = g.searchTools === undefined ? false : g.searchTools;
  let searchTools: GatewaySettings["searchTools"] = { enabled: false, alwaysOffer: [] };
  if (typeof searchRaw === "boolean") searchTools = { enabled: searchRaw, alwaysOffer: [] };
  else {
    const s = read.object(searchRaw, "gateway.searchTools");
    read.known(s, "gateway.searchTools", ["alwaysOffer"]);
    searchTools = {
      enabled: true,
      alwaysOffer:
        s.alwaysOffer === undefined ? [] : read.strings(s.alwaysOffer, "gateway.searchTools.alwaysOffer"),
    };
  }
  return {
    separator,
    upstreams,
    apiKeys,
    profiles,
    anonymousProfile,
    pinningFile,
    audit: {
      target,
      arguments:
        auditRaw.arguments === undefined
          ? false
          : read.boolean(auditRaw.arguments, "gateway.audit.arguments"),
    },
    limits: {
      callsPerMinute: optionalPositive(read, limitsRaw.callsPerMinute, "gateway.limits.callsPerMinute"),
      concurrency: optionalPositive(read, limitsRaw.concurrency, "gateway.limits.concurrency"),
    },
    searchTools,
    inputTimeoutMs:
      g.inputTimeoutMs === undefined ? 300_000 : read.positive(g.inputTimeoutMs, "gateway.inputTimeoutMs"),
    maxResourceSubscriptions:
      g.maxResourceSubscriptions === undefined
        ? 100
        : read.positive(g.maxResourceSubscriptions, "gateway.maxResourceSubscriptions"),
  };
}

function optionalPositive(read: ConfigReader, value: unknown, key: string): number | undefined {
  return value === undefined ? undefined : read.positive(value, key);
}

function readUpstream(read: ConfigReader, raw: unknown, name: string, count: number): UpstreamSettings {
  const key = `gateway.upstreams.${name}`;
  const u = raw === undefined ? {} : read.object(raw, key);
  read.known(u, key, UPSTREAM_KEYS);
  let prefix: string | undefined = count === 1 ? undefined : name;
  if (u.prefix === false || u.prefix === "") prefix = undefined;
  else if (u.prefix !== undefined) {
    prefix = read.string(u.prefix, `${key}.prefix`);
    if (!PREFIX.test(prefix)) read.fail(`${key}.prefix`, "may hold only letters, digits, _ . - (1 to 32)");
  }
  const era = u.era === undefined ? "auto" : read.string(u.era, `${key}.era`);
  if (era !== "auto" && era !== "modern" && era !== "legacy") {
    read.fail(`${key}.era`, `must be "auto", "modern" or "legacy", got "${era}"`);
  }
  return {
    prefix,
    timeoutMs: u.timeoutMs === undefined ? 60_000 : read.positive(u.timeoutMs, `${key}.timeoutMs`),
    era: era as UpstreamSettings["era"],
    exclusive: u.exclusive === undefined ? false : read.boolean(u.exclusive, `${key}.exclusive`),
    include: u.include === undefined ? undefined : read.strings(u.include, `${key}.include`),
    exclude: u.exclude === undefined ? [] : read.strings(u.exclude, `${key}.exclude`),
  };
}

function readApiKeys(
  read: ConfigReader,
  raw: unknown,
  env: Record<string, string | undefined>,
): ApiKeyConfig[] {
  if (raw === undefined) return [];
  const keys = read.object(raw, "gateway.apiKeys");
  return Object.entries(keys).map(([identity, spec]) => {
    const key = `gateway.apiKeys.${identity}`;
    const entry = read.object(spec, key);
    read.known(entry, key, ["env", "sha256"]);
    if (entry.env !== undefined) {
      const variable = read.string(entry.env, `${key}.env`);
      const secret = env[variable];
      if (secret === undefined || secret === "")
        read.fail(`${key}.env`, `names ${variable}, which is not set`);
      return { identity, sha256: sha256Hex(secret as string) };
    }
    const hash = read.string(entry.sha256, `${key}.sha256`).toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hash)) read.fail(`${key}.sha256`, "must be 64 hex digits");
    return { identity, sha256: hash };
  });
}

/** Hex SHA-256 of a text (API keys are kept and compared only as their hashes). */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function readProfile(read: ConfigReader, raw: unknown, key: string): Profile {
  const p = read.object(raw, key);
  read.known(p, key, PROFILE_KEYS);
  const match = p.match === undefined ? {} : read.object(p.match, `${key}.match`);
  read.known(match, `${key}.match`, ["identities", "scopes", "claims"]);
  const claims =
    match.claims === undefined
      ? undefined
      : (read.object(match.claims, `${key}.match.claims`) as Profile["match"]["claims"]);
  for (const [claim, value] of Object.entries(claims ?? {})) {
    if (!["string", "number", "boolean"].includes(typeof value)) {
      read.fail(`${key}.match.claims.${claim}`, "must be a string, number or boolean");
    }
  }
  const rules: ProfileRules = {
    tools: readRule(read, p.tools, `${key}.tools`),
    prompts: readRule(read, p.prompts, `${key}.prompts`),
    resources: readRule(read, p.resources, `${key}.resources`),
  };
  const out: Profile = {
    name: read.string(p.name, `${key}.name`),
    match: {},
    rules,
    callsPerMinute: optionalPositive(read, p.callsPerMinute, `${key}.callsPerMinute`),
    concurrency: optionalPositive(read, p.concurrency, `${key}.concurrency`),
  };
  if (match.identities !== undefined)
    out.match.identities = read.strings(match.identities, `${key}.match.identities`);
  if (match.scopes !== undefined) out.match.scopes = read.strings(match.scopes, `${key}.match.scopes`);
  if (claims !== undefined) out.match.claims = claims;
  return out;
}

function readRule(read: ConfigReader, raw: unknown, key: string): NameRule {
  if (raw === undefined) return { allow: ["*"], deny: [] };
  const r = read.object(raw, key);
  read.known(r, key, ["allow", "deny"]);
  return {
    allow: r.allow === undefined ? ["*"] : read.strings(r.allow, `${key}.allow`),
    deny: r.deny === undefined ? [] : read.strings(r.deny, `${key}.deny`),
  };
}
