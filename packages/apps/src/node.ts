// @mcpkit/apps/node: the Node-only helpers (file system). The root entry stays runtime-neutral.
import { readFile } from "node:fs/promises";
import type { HtmlSource } from "./ui-resource.js";

/**
 * An {@link HtmlSource} that reads `path` (a file path or `file:` URL) on every `resources/read`, so an
 * edited or rebuilt view is served without a restart. A missing file fails the read, not the server.
 */
export function htmlFromFile(path: string | URL): HtmlSource {
  return () => readFile(path, "utf8");
}
