import { mcpkitProject } from "../../vitest.shared.js";

// The Chromium test of the built site (apps/site/dist): run after `pnpm docs:build`.
export default mcpkitProject("site-browser", { include: ["test/browser.e2e.ts"] });
