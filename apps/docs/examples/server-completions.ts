// Completions: suggestions for a prompt argument or a template variable while the user types
// (`completion/complete`). Give each completable name a function of the typed prefix.
// Run: pnpm --filter @mcpkit/docs example examples/server-completions.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const cities = ["Lisbon", "London", "Lyon", "Madrid", "Milan"];
const startsWith = (prefix: string) => cities.filter((c) => c.toLowerCase().startsWith(prefix.toLowerCase()));

const server = createServer({ name: "travel", version: "1.0.0" });
server.registerPrompt(
  "plan_trip",
  {
    arguments: [
      { name: "from", required: true },
      { name: "to", required: true },
    ],
    // The context carries the arguments already filled in, so `to` can leave out `from`.
    complete: {
      from: (value) => startsWith(value),
      to: (value, { arguments: filled }) => startsWith(value).filter((c) => c !== filled.from),
    },
  },
  ({ from, to }) => `Plan a trip from ${from} to ${to}.`,
);
server.registerResourceTemplate(
  "weather://{city}",
  { name: "weather", complete: { city: (value) => startsWith(value) } },
  (_uri, { city }) => `Sunny in ${city}`,
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  const from = await client.complete({ type: "ref/prompt", name: "plan_trip" }, { name: "from", value: "L" });
  console.log("from L:", from.values.join(", "));
  const to = await client.complete(
    { type: "ref/prompt", name: "plan_trip" },
    { name: "to", value: "l" },
    { arguments: { from: "Lisbon" } },
  );
  console.log("to l (from Lisbon):", to.values.join(", "));
  const city = await client.complete(
    { type: "ref/resource", uri: "weather://{city}" },
    { name: "city", value: "M" },
  );
  console.log("city M:", city.values.join(", "));
} finally {
  await client.close();
  await server.close();
}
