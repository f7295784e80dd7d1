import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

/**
 * The path of a fixture ready for bare `node`: TypeScript fixtures (which import the real @mcpkit
 * sources) are bundled once by test-kit's `bundleFixture`; `.mjs` fixtures are plain Node as they are.
 */
export function fixture(name: string): Promise<string> {
  return bundleFixture(join(fixturesDir, name));
}
