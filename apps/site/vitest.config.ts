import { mcpkitProject } from "../../vitest.shared.js";

// test/*.test.ts run in `pnpm test` (no build needed); the Chromium test of the built site is
// test/browser.e2e.ts, run by `pnpm --filter @mcpkit/site test:browser` after `pnpm docs:build`.
export default mcpkitProject("site");
