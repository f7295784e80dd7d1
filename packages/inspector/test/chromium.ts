// Debian's Chromium through playwright-core, as the team's tests launch it.
import { existsSync } from "node:fs";
import { CHROMIUM_PATH, chromiumLaunchOptions } from "@mcpkit/test-kit";
import type { Browser } from "playwright-core";

export const CHROMIUM = CHROMIUM_PATH;

/** Launches headless Chromium; `undefined` when it is not installed (the caller skips, or fails under CI). */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import("playwright-core");
  return chromium.launch(chromiumLaunchOptions());
}
