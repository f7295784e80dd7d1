// `node:fs` plus a `globSync`, for code written against Node 22 (see preload.mjs).
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

function escapeRegex(ch) {
  return /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch;
}

/** Translates one glob (`**`, `*`, `?`, `{a,b}`) to an anchored RegExp over "/"-separated relative paths. */
export function globToRegExp(glob) {
  let re = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "*" && glob[i + 1] === "*") {
      // "**/" is zero or more whole directories; any other "**" is anything.
      if (glob[i + 2] === "/") {
        re += "(?:[^/]*/)*";
        i += 2;
      } else {
        re += ".*";
        i += 1;
      }
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "{") {
      braces++;
      re += "(?:";
    } else if (ch === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (ch === "," && braces > 0) re += "|";
    else re += escapeRegex(ch);
  }
  return new RegExp(`^${re}$`);
}

/** The subset of Node 22's `fs.globSync(pattern | pattern[], { cwd, exclude })` the conformance CLI uses. */
export function globSync(pattern, options = {}) {
  if (typeof fs.globSync === "function") return fs.globSync(pattern, options);
  const cwd = options.cwd instanceof URL ? options.cwd.pathname : String(options.cwd ?? ".");
  const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map((p) =>
    globToRegExp(p.replace(/^\.\//, "")),
  );
  const { exclude } = options;
  let entries;
  try {
    entries = fs.readdirSync(cwd, { recursive: true });
  } catch {
    return [];
  }
  const out = [];
  for (const entry of entries) {
    const rel = String(entry).split(path.sep).join("/");
    if (!patterns.some((re) => re.test(rel))) continue;
    if (typeof exclude === "function" && exclude(rel)) continue;
    if (Array.isArray(exclude) && exclude.some((x) => globToRegExp(x).test(rel))) continue;
    out.push(rel.split("/").join(path.sep));
  }
  return out.sort();
}
