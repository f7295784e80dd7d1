// A throw-away copy of the workspace to release from: the committed tree (HEAD, as CI's clone has it), each
// node_modules folder linked to the original (nothing is installed), and a git repository of its own so that
// `changeset version` and `changeset publish` touch nothing of the real one.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";

/**
 * Recreates the node_modules folder `rel` of a workspace package in `dest`, entry by entry: a workspace
 * package links to its copy (so `pnpm publish` reads the copy's bumped version), anything else to the
 * original install.
 */
function linkModules(root, dest, rel) {
  mkdirSync(path.join(dest, rel), { recursive: true });
  for (const entry of readdirSync(path.join(root, rel))) {
    const from = path.join(root, rel, entry);
    if (entry.startsWith("@") && lstatSync(from).isDirectory() && !lstatSync(from).isSymbolicLink()) {
      linkModules(root, dest, path.join(rel, entry));
      continue;
    }
    let target;
    try {
      target = realpathSync(from);
    } catch {
      continue; // a dangling link in the original
    }
    const inWorkspace = path.relative(root, target);
    const local = !inWorkspace.startsWith("..") && !inWorkspace.split(path.sep).includes("node_modules");
    symlinkSync(local ? path.join(dest, inWorkspace) : target, path.join(dest, rel, entry));
  }
}

/** Extracts `root`'s HEAD into `dest`, links its node_modules folders, commits; returns `dest`. */
export function copyWorkspace(root, dest) {
  mkdirSync(dest, { recursive: true });
  const archive = execFileSync("git", ["archive", "--format=tar", "HEAD"], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dest], { input: archive });
  symlinkSync(path.join(root, "node_modules"), path.join(dest, "node_modules"));
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(path.join(root, group))) {
      const dir = path.join(group, name);
      if (existsSync(path.join(root, dir, "node_modules")) && existsSync(path.join(dest, dir))) {
        linkModules(root, dest, path.join(dir, "node_modules"));
      }
    }
  }
  const git = (...args) => execFileSync("git", args, { cwd: dest, stdio: ["ignore", "ignore", "inherit"] });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git(
    "-c",
    "user.name=release-check",
    "-c",
    "user.email=release-check@localhost",
    "commit",
    "-q",
    "-m",
    "snapshot",
  );
  return dest;
}
