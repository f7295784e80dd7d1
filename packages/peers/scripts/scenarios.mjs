// Regenerates packages/peers/scenarios.json from `conformance list --requirements REV --ROLE`.
// Usage: node packages/peers/scripts/scenarios.mjs
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { conformanceNodeArgs, parseConformanceList, peerManifest } from "../src/index.js";

const revisions = ["2025-11-25", "2026-07-28"];
const roles = ["server", "client"];
const version = peerManifest("@modelcontextprotocol/conformance").version;
const out = {
  $comment:
    `Scenarios of @modelcontextprotocol/conformance@${version} from \`conformance list --requirements REV --ROLE\`: ` +
    "role -> revision -> scored names (these decide pass/fail); notScored: role -> revision -> names run and " +
    "reported but never scored (extensions, pending, added after release). Regenerate: node packages/peers/scripts/scenarios.mjs",
  server: {},
  client: {},
  notScored: { server: {}, client: {} },
};
for (const role of roles) {
  for (const rev of revisions) {
    const text = execFileSync(
      process.execPath,
      [...conformanceNodeArgs(), "list", "--requirements", rev, `--${role}`],
      {
        encoding: "utf8",
      },
    );
    const { scored, notScored } = parseConformanceList(text, role);
    out[role][rev] = scored;
    out.notScored[role][rev] = notScored;
    console.log(`${role} ${rev}: ${scored.length} scored, ${notScored.length} not scored`);
  }
}
writeFileSync(new URL("../scenarios.json", import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
