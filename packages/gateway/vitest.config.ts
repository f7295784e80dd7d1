import { mcpkitProject } from "../../vitest.shared.js";

// Without the shared "module" condition: the OpenTelemetry API's "module" build has extensionless imports
// that Node cannot load, so the tests with the real SDK take the builds Node itself resolves.
const conditions = ["@mcpkit/source", "node", "import", "default"];
const config = mcpkitProject("gateway");
config.resolve = Object.assign({}, config.resolve, { conditions });
config.ssr = Object.assign({}, config.ssr, { resolve: { conditions } });

export default config;
