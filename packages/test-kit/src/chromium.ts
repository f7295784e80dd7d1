/** Where Debian's `chromium` package puts the browser the tests drive (`apt-get install chromium`). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Launch options for Debian's Chromium through playwright-core, headless, as root and on a machine with no
 * network but loopback: no sandbox (root), and every background connection off (they would be refused many
 * at a time and slow each start). Pass them to `chromium.launch()` or `launchPersistentContext()`.
 * Does NOT check that the browser is installed: the caller skips, or fails under `CI=true`.
 */
export function chromiumLaunchOptions(): { executablePath: string; headless: true; args: string[] } {
  return {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
}
