// What a spawned server gets from the parent unless `inheritEnv: true`: enough to find and run programs
// (`npx`, `uvx`, `node`), write temporary files and speak the user's language, and nothing that holds a
// secret. The official SDK's own default list (`getDefaultEnvironment`: HOME, LOGNAME, PATH, SHELL, TERM,
// USER; on Windows the twelve below less PATHEXT, TMP and COMSPEC) plus the temporary folder and the locale.
const POSIX_MINIMUM = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
];
const WINDOWS_MINIMUM = [
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PATHEXT",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES",
  "COMSPEC",
];

/**
 * The names of the variables a spawned server inherits by default on this platform (POSIX: `HOME`,
 * `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`, `TMPDIR`, `LANG`, `LC_ALL`, `LC_CTYPE`).
 */
export function defaultInheritedEnvNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === "win32" ? WINDOWS_MINIMUM : POSIX_MINIMUM;
}

/**
 * Builds a child's environment as a fresh object: the parent's (or its safe minimum), then `extra`,
 * where an `undefined` value removes a variable. Never mutates `process.env`.
 */
export function childEnvironment(
  inherit: boolean,
  extra: Readonly<Record<string, string | undefined>> | undefined,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (inherit) {
    for (const [key, value] of Object.entries(parent)) if (value !== undefined) env[key] = value;
  } else {
    for (const key of defaultInheritedEnvNames()) {
      const value = parent[key];
      // Shell-exported functions ("() { …") are not values a server needs; skip them.
      if (value !== undefined && !value.startsWith("()")) env[key] = value;
    }
  }
  if (extra) {
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
  }
  return env;
}
